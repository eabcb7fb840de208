"""``--lang`` and ``TRICKTABLE_LANG`` for ``tricktable rules``, ``replay --show`` and
``simulate``, run as a user runs them; JSON output keeps its English keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.i18n import SUPPORTED, translator
from bot.i18n.leftovers import english_leftovers
from bot.words.review import show_text
from bot.words.summary import page_sections

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "turup-deal.json"


def tricktable(*args: str, cwd: Path, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "DISCORD_TOKEN", "TRICKTABLE_LANG", "LANGUAGE",
                         "LC_ALL", "LC_MESSAGES", "LANG")}
    full.update(env or {})
    full["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=full, timeout=120)


def test_rules_game_in_somali_shows_the_packaged_summary(tmp_path: Path) -> None:
    res = tricktable("rules", "truf", "--lang", "so", cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == ""
    for heading, lines in page_sections("truf", "so"):
        assert f"Truf: {heading}" in res.stdout and lines[0] in res.stdout
    assert "docs/rules" not in res.stdout  # the packaged words, not a repository path
    assert "Doorashooyinka (--options JSON" in res.stdout and "  deals = 13  [" in res.stdout
    assert english_leftovers(res.stdout, "so") == []
    english = tricktable("rules", "truf", cwd=tmp_path)
    assert page_sections("truf", "en")[0][1][0] in english.stdout
    assert "Options (--options JSON, defaults shown):" in english.stdout


def test_the_variable_chooses_and_the_flag_wins(tmp_path: Path) -> None:
    listing = tricktable("rules", cwd=tmp_path, env={"TRICKTABLE_LANG": "id"})
    assert listing.returncode == 0 and "(2, 3, 4, 5, 6 pemain)" in listing.stdout
    flag = tricktable("rules", "--lang", "sw", cwd=tmp_path, env={"TRICKTABLE_LANG": "id"})
    assert "(wachezaji 2, 3, 4, 5, 6)" in flag.stdout and "pemain" not in flag.stdout
    posix = tricktable("rules", cwd=tmp_path, env={"LANG": "sw_TZ.UTF-8"})
    assert "wachezaji" in posix.stdout


@pytest.mark.parametrize("how", [("--lang", "tlh"), ()])
def test_an_unknown_language_is_refused_with_one_line(tmp_path: Path,
                                                      how: tuple[str, ...]) -> None:
    env = {} if how else {"TRICKTABLE_LANG": "tlh"}
    res = tricktable("rules", "truf", *how, cwd=tmp_path, env=env)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip() == ("tricktable rules: unknown language 'tlh': choose one of "
                                  "en, so, id, sw")


def test_replay_show_in_indonesian(tmp_path: Path) -> None:
    res = tricktable("replay", str(EXAMPLE), "--show", "--lang", "id", cwd=tmp_path)
    assert res.returncode == 0
    assert res.stdout.startswith("Babak 1: kartu di tangan saat dibagikan\n")
    assert "Putaran 1: Kursi " in res.stdout and "Putaran sejauh ini:" in res.stdout
    assert english_leftovers(res.stdout, "id") == []
    assert res.stdout.strip() == show_text(EXAMPLE.read_text(), t=translator("id"))[0]


def test_replay_json_ignores_the_language(tmp_path: Path) -> None:
    res = tricktable("replay", str(EXAMPLE), "--compact", cwd=tmp_path,
                     env={"TRICKTABLE_LANG": "so"})
    assert res.returncode == 0 and json.loads(res.stdout)["ok"] is True
    bad = tricktable("replay", "-", "--show", "--lang", "xx", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown language 'xx'" in bad.stderr


def test_an_unreadable_record_is_told_in_the_language() -> None:
    text, status = show_text("{", t=translator("sw"))
    assert status == 2 and text.startswith("Rekodi hii haiwezi kusomwa: ")


def test_simulate_prints_its_table_in_swahili_and_json_in_english(tmp_path: Path) -> None:
    common = ("simulate", "turup", "--deals", "1", "--players", "rules,random",
              "--budget-ms", "0", "--samples", "1")
    table = tricktable(*common, "--lang", "sw", cwd=tmp_path)
    assert table.returncode == 0
    assert table.stdout.startswith("turup: mgawo 1 wa duplicate, michezo 2 (wachezaji 4); "
                                   "bila kikomo cha muda, sampuli zisizozidi 1\n")
    assert "mchezaji" in table.stdout and english_leftovers(table.stdout, "sw") == []
    raw = tricktable(*common, "--json", cwd=tmp_path, env={"TRICKTABLE_LANG": "tlh"})
    assert raw.returncode == 0 and json.loads(raw.stdout)["players"] == ["rules", "random"]


def test_the_help_names_every_language() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in ("rules", "replay", "simulate"):
        help_text = sub.choices[command].format_help()  # type: ignore[attr-defined]
        assert "--lang" in help_text
        assert all(code in help_text for code in SUPPORTED)


def test_help_speaks_swahili_with_the_flag_or_the_variable(tmp_path: Path) -> None:
    res = tricktable("play", "--help", "--lang", "sw", cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == ""
    assert res.stdout.startswith("matumizi: tricktable play ")
    assert "hoja za nafasi:" in res.stdout and "chaguo:" in res.stdout
    assert "onyesha msaada huu kisha utoke" in res.stdout
    assert "kiti chako (chaguo-msingi 0)" in res.stdout
    assert english_leftovers(res.stdout, "sw") == []
    assert "usage:" not in res.stdout and "your seat" not in res.stdout
    top = tricktable("--help", cwd=tmp_path, env={"TRICKTABLE_LANG": "id"})
    assert top.returncode == 0 and top.stdout.startswith("penggunaan: tricktable ")
    assert "Permainan kartu tradisional berbasis putaran" in top.stdout
    assert english_leftovers(top.stdout, "id") == []
    # a missing argument is refused in the language too (argparse's own words)
    bad = tricktable("simulate", "turup", "--lang", "so", cwd=tmp_path)
    assert bad.returncode == 2
    assert "tricktable simulate: khalad: doodahan waa loo baahan yahay: --players" in bad.stderr
    # an unknown language: the help is English, the command refuses the language later
    odd = tricktable("rules", "--help", "--lang", "xx", cwd=tmp_path)
    assert odd.returncode == 0 and odd.stdout.startswith("usage: tricktable rules")


@pytest.mark.parametrize("language", ["so", "id", "sw"])
def test_every_parser_is_translated_in_process(language: str) -> None:
    from bot.cli_lang import argparse_speaking

    t = translator(language)
    with argparse_speaking(t):
        parser = build_parser(t)
        sub = next(a for a in parser._actions if a.dest == "command")
        texts = [parser.format_help()] + [
            p.format_help() for p in sub.choices.values()]  # type: ignore[attr-defined]
    for text in texts:
        assert english_leftovers(text, language) == [], text
    english = build_parser().format_help()
    assert english.startswith("usage: tricktable ") and "options:" in english
