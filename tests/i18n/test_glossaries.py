"""Every translated language has a glossary of the game words, the duplicate-night and
web-table words and the permission's name, with its sources; and the glossary's own rules
(:mod:`bot.i18n.glossary`) hold for every translation and every rule summary. Each kind of
error the translation review found is re-introduced here to show the rules catch it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import SOURCE_LANGUAGE, SUPPORTED

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAME_WORDS = [
    "trump", "trick", "deal", "dealer", "lead", "follow suit", "partner", "team", "bid",
    "pass", "signal", "strong", "weak", "kort", "bella", "bait", "half bait", "run",
    "concede", "draw", "target", "score", "spades", "hearts", "diamonds", "clubs", "ace",
    "king", "queen", "jack", "hand", "card", "table", "match", "turn", "player", "AI player",
]
"""English words every glossary explains (in its first column)."""
DUPLICATE_WORDS = [
    "duplicate", "event", "board", "pair", "entrant", "direction", "matchpoints", "IMPs",
    "traveller", "hand record", "score card", "meet", "the field", "north",
]
"""The duplicate nights' words every glossary explains."""
WEB_WORDS = ["web page", "on the web", "browser", "link", "watch", "Activity", "Manage Server"]
"""The web table's words, and the Discord permission the messages name."""
GAME_OWN_WORDS = ["main atas", "main bawah", "kort"]
"""The games' own words, kept or translated somewhere in every glossary."""


def _rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|[-| ]+\|", line):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header row


@pytest.mark.parametrize("language", [c for c in SUPPORTED if c != SOURCE_LANGUAGE])
def test_glossary_explains_every_game_word(language: str) -> None:
    text = (DOCS / f"glossary-{language}.md").read_text(encoding="utf-8")
    rows = _rows(text)
    english = [row[0].lower() for row in rows]
    missing = [w for w in GAME_WORDS + DUPLICATE_WORDS + WEB_WORDS
               if not any(re.search(rf"\b{w.lower()}\b", e) for e in english)]
    assert missing == []
    assert all(len(row) == 3 and row[1] for row in rows), "every row: English | word | notes"
    assert all(word in text for word in GAME_OWN_WORDS)
    sources = text.split("## Sources", 1)
    assert len(sources) == 2 and re.search(r"^1\. ", sources[1], re.MULTILINE)


def test_translating_guide_names_the_maintainer_command() -> None:
    guide = (DOCS / "translating.md").read_text(encoding="utf-8")
    assert "python -m bot.i18n.catalogs" in guide
    assert "init xx" in guide


# -- the glossary's rules enforced ---------------------------------------------------------

from bot.i18n.catalogs import read_catalog, source_checkout  # noqa: E402
from bot.i18n.glossary import (  # noqa: E402
    GlossaryRules,
    catalog_translations,
    glossary_path,
    read_rules,
    rule_problems,
    summaries_of,
)

LANGUAGES = [c for c in SUPPORTED if c != SOURCE_LANGUAGE]
ROOT = source_checkout().root


def rules_of(language: str) -> GlossaryRules:
    return read_rules(glossary_path(ROOT, language).read_text(encoding="utf-8"), language)


def translations(language: str) -> list[tuple[str, str]]:
    return catalog_translations(read_catalog(source_checkout().catalog(language), language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_and_summaries_keep_every_rule_of_the_glossary(language: str) -> None:
    rules = rules_of(language)
    assert rules.use and rules.never, "the glossary lists the words it checks"
    assert rules.permission and rules.pair, "the glossary names the permission and a pair"
    assert rule_problems(rules, translations(language), summaries_of(ROOT, language)) == []


def test_the_glossaries_state_the_rules_the_review_asked_for() -> None:
    """Read from the glossaries themselves: the register, the words marked "not used", the
    permission as each language's players see it in Discord, the pair's word."""
    so, id_, sw = rules_of("so"), rules_of("id"), rules_of("sw")
    assert id_.register_excluded == ("Anda",) and "Anda" in id_.never
    assert {"waru", "bandar"} <= set(id_.not_used)
    assert {"raundi", "wazungu"} <= set(sw.not_used) and "kaar" in so.not_used
    assert (so.permission, id_.permission, sw.permission) == (
        "Manage Server", "Kelola Server", "Manage Server")
    assert (so.pair, id_.pair, sw.pair) == ("lammaan", "pasangan", "jozi")
    assert {"Maamulka Server", "luqad"} <= set(so.never)
    assert {"Simamia Seva", "au kushusha", "weka alama karata"} <= set(sw.never)


def _with(pairs: list[tuple[str, str]], english: str, text: str) -> list[tuple[str, str]]:
    """The catalog's translations with ``english``'s translation replaced by ``text``."""
    assert any(e == english for e, _t in pairs), english
    return [(e, text if e == english else t) for e, t in pairs]


REINTRODUCED = [
    # id-1: the register broken (Anda beside kamu)
    ("id", "(you: {score})", "(Anda: {score})", "'Anda'"),
    # id-9: the permission in English where Indonesian Discord says Kelola Server
    ("id", "Changing the settings needs the Manage Server permission.",
     "Mengubah pengaturan memerlukan izin Manage Server.", "the permission is 'Kelola Server'"),
    # id-3: pasangan for both the pair and the partner
    ("id", "Confirm the pair your partner entered",
     "Konfirmasi pasangan yang didaftarkan pasanganmu", "says both pair and partner"),
    # id-4: a score card as a playing card
    ("id", "{event}: your score card (place {rank})", "{event}: kartu skor (peringkat {rank})",
     "'kartu skor'"),
    # id-12: trumps broken said two ways
    ("id", "you may not lead a trump ({suit}) before trumps are broken while you hold other "
     "suits", "kamu tidak boleh membuka dengan truf ({suit}) sebelum truf dipecah", "'dipecah'"),
    # id-18: Discord's Indonesian channel is saluran
    ("id", "Card tables in this channel", "Meja kartu di kanal ini", "'kanal'"),
    # so-2: the permission translated
    ("so", "only members with the Manage Server permission may create a duplicate event",
     "kaliya xubnaha leh oggolaanshaha Maamulka Server-ka ayaa samayn kara tartan",
     "the permission is 'Manage Server'"),
    # so-8: lammaane for both
    ("so", "Confirm the pair your partner entered",
     "Xaqiiji lammaanaha uu lammaanahaagu diiwaangeliyey", "says both pair and partner"),
    # so-10: the second spelling of "language"
    ("so", "Language", "Luqadda", "'luqad'"),
    # so-1: the overtrump refusal without kaga
    ("so", "you must overtrump the {card}: you hold {cards}",
     "waa inaad {card} ka sarraysaa xukun ka sarreeya: waxaad haysaa {cards}", "'ka sarraysaa'"),
    # sw-10: the permission translated
    ("sw", "only members with the Manage Server permission may close a duplicate event",
     "wanachama wenye ruhusa ya Simamia Seva pekee wanaweza kufunga mashindano",
     "'Simamia Seva'"),
    # sw-11: raundi, a word the glossary marks "not used"
    ("sw", "{name} is a round of a league: its entrants are the league's, entered already",
     "{name} ni raundi ya ligi", "'raundi'"),
    # sw-2: a finite verb coordinated with an infinitive
    ("sw", "the bids total 13: you move every bid up or down",
     "jumla ya zabuni ni 13: wewe unapandisha au kushusha kila zabuni", "'au kushusha'"),
    # sw-5: weka alama without kwenye
    ("sw", "Space marks up to three cards", "Space weka alama karata tatu", "'weka alama karata'"),
    # after the first merge: a new message named the event and the score card otherwise
    ("id", "you have no score card in this event", "kamu tidak punya lembar skor di acara ini",
     "'acara'"),
    ("sw", "you have no score card in this event", "huna kadi ya alama katika shindano hili",
     "'kadi ya alama'"),
    # after the second merge: so-12 and sw-4 copied into new messages
    ("so", "You bid highest: trump {suit}.",
     "Adiga ayaa dalbaday ugu sarreeya: xukunku waa {suit}.", "'dalbaday ugu'"),
    ("sw", "{played}; you win", "{played}; wewe unakula", "'wewe unakula'"),
    # sw-12 (and after the fourth merge): bot beside boti, banned as a whole word
    ("sw", "your partner must be a member, not a bot", "mwenzako lazima awe mwanachama, si bot",
     "'bot' ((whole word)"),
    # sw-15: the second abbreviation of e.g.
    ("sw", "Type a card (e.g. qh or 10s) or a decision.", "Andika karata (k.m. qh) au uamuzi.",
     "'k.m.'"),
]


@pytest.mark.parametrize(("language", "english", "wrong", "reported"), REINTRODUCED,
                         ids=[f"{r[0]}-{r[3][:20]}" for r in REINTRODUCED])
def test_an_error_of_the_review_brought_back_is_caught(language: str, english: str,
                                                       wrong: str, reported: str) -> None:
    rules = rules_of(language)
    found = rule_problems(rules, _with(translations(language), english, wrong), {})
    assert any(reported in problem for problem in found), found


def test_a_banned_word_in_a_rule_summary_is_caught() -> None:
    """id-17: *saya* in the Arba'a Turub summary where the product says *aku* / *-ku*."""
    rules = rules_of("id")
    summaries = summaries_of(ROOT, "id")
    summaries["arbaa_turub.md"] = summaries["arbaa_turub.md"].replace("kuatku", "kuat saya")
    found = rule_problems(rules, translations("id"), summaries)
    assert found and all("summary arbaa_turub.md" in p for p in found), found


def test_a_glossary_that_marks_a_word_not_used_must_ban_it() -> None:
    """The tables and the Never list are one source: a "not used" word missing from Never
    is itself a problem, and a word the glossary uses must appear in the catalog."""
    text = glossary_path(ROOT, "sw").read_text(encoding="utf-8")
    text = re.sub(r"^\* `raundi` — .*\n", "", text, flags=re.MULTILINE)
    rules = read_rules(text, "sw")
    found = rule_problems(rules, translations("sw"), {})
    assert found == ["glossary: *raundi* is marked 'not used' but is not under Never"]
    missing = [(e, t.replace("jozi", "wawili")) for e, t in translations("sw")]
    assert any("'jozi' (a word the glossary uses)" in p
               for p in rule_problems(rules_of("sw"), missing, {}))


def test_the_catalog_tool_check_applies_the_glossary() -> None:
    """``python -m bot.i18n.catalogs check`` reports what the glossary forbids (here on the
    real catalogs: the check passes)."""
    from bot.i18n import catalogs

    report = catalogs.problems(source_checkout())
    assert all(found == [] for found in report.values()), report
