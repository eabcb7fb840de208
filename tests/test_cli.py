"""The `tricktable` command line: subcommands a user types, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


# -- a mistyped DATABASE_URL never prints its password (security review P5) -------------

SECRET = "Pw0rdNeverLogged"
MALFORMED_URLS = [
    # (the URL, a word of the refusal that names the wrong part)
    (f"postgresql//tricktable:{SECRET}@db:5432/tricktable", "':' after 'postgresql'"),
    (f"tricktable:{SECRET}@db:5432/tricktable", "scheme"),
    (f"postgresql:/tricktable:{SECRET}@127.0.0.1:1/tricktable", "no host"),
    (f"sqlite://tricktable:{SECRET}@localhost/x.db", "SQLite URLs have no user"),
    (f"postgresql://tricktable:{SECRET}/db@127.0.0.1:1/tricktable", "port"),
    (f"postgresql://tricktable:pw@127.0.0.1:1/{SECRET}@x", "database name"),
]


@pytest.mark.parametrize(("url", "part"), MALFORMED_URLS)
@pytest.mark.parametrize("command", [("db", "upgrade"), ("run",)])
def test_a_malformed_database_url_is_named_never_echoed(
        tmp_path: Path, url: str, part: str, command: tuple[str, ...]) -> None:
    env = {"DATABASE_URL": url, "DISCORD_TOKEN": "not.a.token",
           # should it ever get that far, Discord is out of reach: no real login
           "TRICKTABLE_DISCORD_API": "http://127.0.0.1:1/api/v10"}
    res = tricktable(*command, cwd=tmp_path, env=env)
    out = res.stdout + res.stderr
    assert SECRET not in out and url not in out
    assert res.returncode != 0 and "Traceback" not in out
    assert part in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_run_logs_the_database_it_starts_with_redacted(tmp_path: Path) -> None:
    url = (f"postgresql://tricktable:{SECRET}@127.0.0.1:1/tricktable"
           f"?sslpassword={SECRET}&password={SECRET}&sslmode=prefer")
    env = {"DATABASE_URL": url, "DISCORD_TOKEN": "not.a.token",
           "TRICKTABLE_DISCORD_API": "http://127.0.0.1:1/api/v10"}
    res = tricktable("run", cwd=tmp_path, env=env)
    out = res.stdout + res.stderr
    assert SECRET not in out and res.returncode == 1 and "Traceback" not in out
    assert ("starting (database postgresql://tricktable:***@127.0.0.1:1/tricktable"
            "?sslpassword=***&password=***&sslmode=prefer)") in res.stderr
