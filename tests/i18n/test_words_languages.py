"""The players' words in every language: a whole match of each game told through
:mod:`bot.words` in Somali, Indonesian and Swahili asks only for translated messages and
leaves no English behind; the rule summaries exist in every language; numbers and lists
follow the language."""

from __future__ import annotations

import random
from typing import Any

import pytest
from words_check import NAMES, SHORT, assert_clean

from bot.i18n import SUPPORTED, Translator, load_catalog, translator
from bot.i18n.leftovers import english_leftovers
from bot.words.actions import action_text
from bot.words.events import event_line
from bot.words.options import options_text
from bot.words.results import deal_result, match_result
from bot.words.review import review_pages, seating_for
from bot.words.rules import EMBED_LIMIT, rules_pages, rules_text
from bot.words.seating import Seating, join_names
from bot.words.summary import option_words, page_sections, summary_file, tagline
from games.base import Event
from games.registry import GAMES

OTHERS = [code for code in SUPPORTED if code != "en"]
PLAYERS = {"arbaa_turub": 4, "turup": 4, "tarabish": 4, "truf": 4, "albastini": 4}


class Recording(Translator):
    """A translator that remembers every message it was asked for (context, English)."""

    def __init__(self, base: Translator) -> None:
        super().__init__(base.language, base._translations)
        self.asked: set[tuple[str | None, str]] = set()

    def gettext(self, message: str) -> str:
        self.asked.add((None, message))
        return super().gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        self.asked.add((None, singular))
        return super().ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        self.asked.add((context, message))
        return super().pgettext(context, message)


def _untranslated(t: Recording) -> list[tuple[str | None, str]]:
    catalog = load_catalog(t.language)
    missing = []
    for context, message in sorted(t.asked, key=str):
        entry = catalog.get(message, context=context)
        strings = entry.string if entry is not None else None
        forms = list(strings) if isinstance(strings, (list, tuple)) else [strings]
        if entry is None or entry.fuzzy or not all(forms):
            missing.append((context, message))
    return missing


def _whole_match(game: str, seed: int) -> tuple[Any, list[dict[str, Any]], list[Event],
                                                list[Any]]:
    """A whole match with random legal actions: match, summaries, public events, and every
    legal action offered along the way."""
    rng = random.Random(seed)
    match = GAMES[game].match_type(SHORT[game], PLAYERS[game], 0, seed=seed)
    summaries: list[dict[str, Any]] = []
    events: list[Event] = []
    offered: dict[str, Any] = {}
    while not match.over and len(summaries) < 40:
        deal = match.start_deal()
        while not deal.is_over:
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            for action in legal:
                offered.setdefault(repr(action), action)
            events += [e for e in deal.apply(seat, rng.choice(legal)) if e.visible_to(None)]
        summaries.append(match.finish_deal())
    return match, summaries, events, list(offered.values())


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_match_speaks_the_language(game: str, language: str) -> None:
    t = Recording(translator(language))
    match, summaries, events, offered = _whole_match(game, seed=7)
    seating = Seating.of(game, NAMES[:PLAYERS[game]], SHORT[game], t=t)
    texts: list[str] = []
    texts += [line for e in events if (line := event_line(seating, e.type, e.data))]
    texts += [action_text(a, game, t=t) for a in offered]
    for number, summary in enumerate(summaries):
        texts.append(deal_result(seating, summary, number=number,
                                 match=match.summary()).render())
    texts.append(match_result(seating, match.summary()).render())
    record = match.record()
    pages = review_pages(record, seating_for(record, NAMES[:PLAYERS[game]], t=t))
    assert all(len(page.render()) <= 2000 for page in pages)  # a Discord message
    texts += [page.render() for page in pages]
    assert_clean(texts)  # the match's words: no card codes, engine keys, seat numbers
    texts.append(options_text(game, SHORT[game], t=t).render())
    texts += [page.render() for page in rules_pages(game, t=t)]

    assert len(t.asked) > 20  # the match really went through the translator
    assert _untranslated(t) == []
    for text in texts:
        assert english_leftovers(text, language) == [], text


@pytest.mark.parametrize("language", OTHERS)
def test_the_english_words_are_unchanged_by_default(language: str) -> None:
    """No translator: English, as every front end that passes none has always had."""
    _, summaries, _, _ = _whole_match("tarabish", seed=3)
    english = Seating.of("tarabish", NAMES[:4], SHORT["tarabish"])
    other = english.speaking(translator(language))
    first = deal_result(english, summaries[0], number=0).render()
    assert first.startswith("Deal 1\n")
    assert deal_result(other, summaries[0], number=0).render() != first
    assert english.translator.language == "en" and other.translator.language == language
    assert english == other  # the language is not part of who sits where


@pytest.mark.parametrize("language", OTHERS)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_summary_is_translated_whole(game: str, language: str) -> None:
    english = page_sections(game, "en")
    translated = page_sections(game, language)
    assert len(translated) == len(english)
    english_lines = {line for _, lines in english for line in lines}
    assert not english_lines & {line for _, lines in translated for line in lines}
    rows = GAMES[game].options_type.describe()
    words = option_words(game, language)
    assert set(words) == {row["name"] for row in rows}
    assert all(name and doc and doc not in {r["doc"] for r in rows}
               for name, doc in words.values())
    assert tagline(game, language) not in (None, GAMES[game].summary_line)
    assert summary_file(game, language) != summary_file(game, "en")
    for page in rules_pages(game, language):
        assert len(page.body) <= EMBED_LIMIT and len(page.title) <= 256


def test_a_language_without_a_summary_falls_back_to_english() -> None:
    assert summary_file("truf", "xx") == summary_file("truf", "en")
    assert option_words("truf", "xx") == {} and tagline("truf", "xx") is None


@pytest.mark.parametrize("language", OTHERS)
def test_the_cli_rules_text_has_no_english_prose(language: str) -> None:
    t = translator(language)
    for game in GAMES:
        text = rules_text(game, t)
        assert english_leftovers(text, language) == []
        for row in GAMES[game].options_type.describe():
            assert row["doc"] not in text
            assert f"  {row['name']} = " in text  # the JSON key, as typed in --options


def test_numbers_lists_and_plurals_follow_the_language() -> None:
    seat_id = Seating.of("tarabish", NAMES[:4], t=translator("id"))
    assert seat_id.per_side([1234, 56]) == "Ann dan Cy 1.234, Bob dan Di 56"
    seat_en = Seating.of("tarabish", NAMES[:4])
    assert seat_en.per_side([1234, 56]) == "Ann and Cy 1,234, Bob and Di 56"
    assert join_names(["Ann", "Cy", "Eve"]) == "Ann, Cy and Eve"
    assert join_names(["Ann", "Cy", "Eve"], translator("sw")) == "Ann, Cy na Eve"
    sw = Seating.of("turup", NAMES[:4], t=translator("sw"))
    one = event_line(sw, "answer", {"seat": 0, "tricks": 1})
    many = event_line(sw, "answer", {"seat": 0, "tricks": 3})
    assert one == "Ann anatarajia mzunguko 1 zaidi."
    assert many == "Ann anatarajia mizunguko 3 zaidi."
    assert Seating.anonymous("truf", 4, t=translator("so")).names[2] == "Kursiga 2"
