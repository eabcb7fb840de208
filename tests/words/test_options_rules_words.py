"""Options in words with the rule file's text, the players' rule summaries (pages that fit
a Discord embed), the rule files as package data, Truf bid values, cards and hands."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from words_check import NAMES, assert_clean

from bot.words.actions import action_text, truf_bid_text, truf_bid_value
from bot.words.cards import card_text, cards_text, hand_lines, suit_text, symbols_in
from bot.words.options import options_text, value_text
from bot.words.refusals import refusal_text
from bot.words.rulebook import option_rule_text, rule_file
from bot.words.rules import EMBED_LIMIT, rules_pages
from bot.words.seating import Seating
from games.actions import Action
from games.registry import GAMES
from games.truf import TrufMatch

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_is_quoted_from_its_rule_file(game: str) -> None:
    rules = rule_file(game)
    for row in GAMES[game].options_type.describe():
        quote = option_rule_text(game, row["name"])
        assert quote, f"{game}: no rule text for {row['name']}"
        assert row["name"] in quote
        # a quote: its words come from a rule file (Turup's signals from Arba'a Turub's)
        source = rules + (rule_file("arbaa_turub") if game == "turup" else "")
        first_words = quote.split(" (default)")[0].split(":")[0][:25]
        flat = " ".join(source.replace("| ", "").replace("* ", "").split())
        assert first_words in flat, (game, row["name"], quote)


def test_options_text_marks_changes_and_writes_values_as_words() -> None:
    text = options_text("tarabish", {"target": 300, "auto_bella": True})
    assert text.title == "Tarabish: rule options"
    assert len(text.lines) == len(GAMES["tarabish"].options_type.describe())
    target = next(x for x in text.lines if x.startswith("Target (`target`): "))
    assert target.startswith("Target (`target`): 300 (changed; the default is 500).")
    assert "Rule file: “Target: 500 (default); otherwise `target: <int>`.”" in target
    bella = next(x for x in text.lines if "(`auto_bella`)" in x)
    assert bella.startswith("Auto bella (`auto_bella`): on (changed; the default is off).")
    concede = next(x for x in text.lines if "(`allow_concede`)" in x)
    assert concede.startswith("Allow concede (`allow_concede`): on (the default).")
    for line in options_text("truf", {}).lines:
        head = line.split(" Rule file:")[0]
        assert "True" not in head and "False" not in head and "None" not in head
        assert "[" not in head and "{" not in head
    assert value_text(None) == "none" and value_text([1, 2]) == "1, 2"
    assert value_text("C") == "♣ clubs"


@pytest.mark.parametrize("game", list(GAMES))
def test_rule_summaries_exist_for_every_game_and_fit_an_embed(game: str) -> None:
    pages = rules_pages(game)
    assert len(pages) >= 3
    for page in pages:
        assert page.title.startswith(GAMES[game].title)
        assert page.lines
        assert len(page.body) <= EMBED_LIMIT and len(page.render()) <= EMBED_LIMIT
    options = pages[-1]
    assert options.title.endswith("options")
    for row in GAMES[game].options_type.describe():
        assert any(f"(`{row['name']}`) (default " in line for line in options.lines)
    joined = "\n".join(p.body for p in pages)
    assert "docs/rules" not in joined
    assert_clean(p.body for p in pages[:-1])  # the options page names options by key


@pytest.mark.parametrize("game", list(GAMES))
def test_rule_files_are_package_data_and_the_same_as_docs(game: str) -> None:
    name = GAMES[game].rules_file
    packaged = resources.files("bot.words").joinpath("rules", name).read_text("utf-8")
    assert packaged == (ROOT / "docs" / "rules" / name).read_text("utf-8")
    assert rule_file(game) == packaged


def test_truf_bid_choices_show_each_cards_value() -> None:
    assert [truf_bid_value(c) for c in ("JS", "QH", "KD", "AC", "TS", "7H", "2C")] == [
        0, 0, 0, 1, 10, 7, 2]
    assert truf_bid_text("TD") == "Bid 10♦ (worth 10)"
    assert truf_bid_text(["9S", "5S"]) == "Bid 9♠ 5♠ (worth 14)"
    deal = TrufMatch(None, 4, 0, seed=3).start_deal()
    seat = deal.to_act[0]
    legal = deal.legal_actions(seat)
    labels = [action_text(a, "truf") for a in legal]
    assert len(labels) == len(set(labels)) == len(legal)
    for action, label in zip(legal, labels, strict=True):
        assert label == f"Bid {card_text(action.card or '')} (worth " \
                        f"{truf_bid_value(action.card or '')})"
    assert action_text(Action.bid("KS"), "albastini") == "Bid K♠"


def test_action_words_for_every_kind() -> None:
    assert action_text(Action.play("TS", signal="strong")) == \
        "Play 10♠, signalling: strong suit"
    assert action_text(Action.play("QH", bella=True)) == "Play Q♥ and announce bella"
    assert action_text(Action.call_trump("D")) == "Trump ♦ diamonds"
    assert action_text(Action.adjust("down", 2)) == "Move every bid down by 2"
    assert action_text(Action.kort(True)) == "Play on for kort"
    assert action_text(Action.answer(1)) == "Expect 1 more trick"
    assert action_text(Action("concede")) == "Concede the hand"


def test_cards_hands_and_engine_sentences() -> None:
    assert card_text("TS") == "10♠" and card_text("??") == "🂠"
    assert suit_text("H") == "♥ hearts" and suit_text(None) == "no trump"
    assert cards_text(["QH", "QH", "AS"]) == "Q♥×2 A♠"
    assert hand_lines(["AS", "AS", "KS", "QH", "??", "9C"]) == ["A♠×2 K♠", "Q♥", "9♣"]
    assert symbols_in("you must follow spades: you hold TS, 9S") == \
        "you must follow spades: you hold 10♠, 9♠"
    seating = Seating.of("turup", NAMES[:4])
    assert refusal_text("it is not your turn (waiting for seat 2)", seating) == \
        "it is not your turn (waiting for Cy)"
    assert seating.side_name(1) == "Bob and Di"
    six = Seating.of("albastini", NAMES, {"teams": "2x3"})
    assert six.side_name(0) == "Ann, Cy and Eve"
