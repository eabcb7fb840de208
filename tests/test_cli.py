"""The `tricktable` command line: subcommands a user types, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tricktable(*args: str, cwd: Path, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    import os

    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",
                                                                 "DISCORD_TOKEN")}
    full_env.update(env or {})
    full_env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=full_env, timeout=120)


def test_db_upgrade_creates_then_reports_up_to_date(tmp_path: Path) -> None:
    first = tricktable("db", "upgrade", cwd=tmp_path)
    assert first.returncode == 0 and "from schema version 0 to" in first.stdout
    assert (tmp_path / "tricktable.db").exists()  # the default: sqlite in the working dir
    again = tricktable("db", "upgrade", cwd=tmp_path)
    assert again.returncode == 0 and "up to date" in again.stdout


def test_db_upgrade_refuses_a_bad_url_with_one_line(tmp_path: Path) -> None:
    res = tricktable("db", "upgrade", cwd=tmp_path, env={"DATABASE_URL": "mysql://x/y"})
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "unsupported database URL" in res.stderr


def test_rules_lists_every_game_and_its_options(tmp_path: Path) -> None:
    res = tricktable("rules", cwd=tmp_path)
    from games.registry import GAMES
    assert res.returncode == 0 and all(name in res.stdout for name in GAMES)
    res = tricktable("rules", "tarabish", cwd=tmp_path)
    assert "dealer_may_pass = false" in res.stdout and "target = 500" in res.stdout
    res = tricktable("rules", "bridge", cwd=tmp_path)
    assert res.returncode == 2 and "unknown game 'bridge'" in res.stderr
