"""The engine's refusals in players' words and languages (:mod:`bot.words.refusals`): the
engine keeps its English ``reason`` exactly as before and adds its template and fields;
every front end words them with the seating — names for seats, ``K♣`` for cards, the
language's suit words, lists joined as the language joins them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cluster import ForwardOutcome
from bot.i18n import Translator, translator
from bot.i18n.leftovers import english_leftovers
from bot.service import RuleRefusal
from bot.words.refusals import refusal_text
from bot.words.seating import Seating
from bot.words.table_state import reason_text
from games.actions import Action
from games.errors import IllegalAction
from games.registry import GAMES
from games.trick import follow_reason

NAMES = ["Asha", "Bashir", "Cali", "Deeqa"]
NAMES_52 = [r + s for s in "SHDC" for r in "23456789TJQKA"]
CODE = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def seating(language: str, game: str = "turup") -> Seating:
    return Seating.of(game, NAMES, t=translator(language))


def has_code(text: str) -> bool:
    """Whether ``text`` holds a record card code (``KC``) instead of a symbol (the quoted
    examples of how to type a card, ``'TS'``, are typed input, not cards shown)."""
    shown = text.replace("10", "").replace("'TS'", "").replace("'AH'", "")
    return any(f"{r}{s}" in shown for r in CODE for s in "SHDC")


def test_the_engine_keeps_its_english_reason_and_gives_its_template() -> None:
    refusal = follow_reason(1, [24, 20])  # K♥ and 9♥ (cards as ints: hearts are 13-25)
    assert refusal.template == "you must follow {suit}: you hold {cards}"
    assert refusal.params == {"suit": 1, "cards": ["KH", "9H"]}
    assert refusal.reason == "you must follow hearts: you hold KH, 9H"
    waiting = IllegalAction("it is not your turn (waiting for {seats})", seats=[1, 2])
    assert waiting.reason == "it is not your turn (waiting for seat 1, seat 2)"
    plain = IllegalAction("the bidding is over")
    assert plain.reason == plain.template == "the bidding is over" and plain.params == {}
    assert str(plain) == "the bidding is over"


@pytest.mark.parametrize("language", ["so", "id", "sw"])
def test_refusals_speak_the_readers_language_with_names_and_symbols(language: str) -> None:
    s = seating(language)
    samples = [
        IllegalAction("you must follow {suit}: you hold {cards}", suit=3, cards=["QC", "TC"]),
        IllegalAction("it is not your turn (waiting for {seats})", seats=[1, 3]),
        IllegalAction("you must beat the {card} with a higher {suit_one}: you hold {cards}",
                      card="QH", suit_one=1, cards=["KH", "AH"]),
        IllegalAction("{action} is not possible now", action="call_trump"),
        IllegalAction("this deal is void ({parts}): the same dealer redeals",
                      parts=[("{seat} holds only number cards", {"seat": 2})]),
        IllegalAction("{seat} may not deal next (allowed: {seats_or})", seat=1, seats_or=[0, 2]),
        IllegalAction("a two-card bid must total at least {least}: {cards_plus} is worth "
                      "{value}", least=5, cards_plus=["2H", "2D"], value=4),
        IllegalAction("the bidding is over"),
    ]
    for refusal in samples:
        text = refusal_text(refusal, s)
        assert text != refusal.reason, text
        assert english_leftovers(text, language) == [], text
        assert "seat" not in text and not has_code(text), text
    follow = refusal_text(samples[0], s)
    assert "Q♣" in follow and "10♣" in follow
    waiting = refusal_text(samples[1], s)
    assert "Bashir" in waiting and "Deeqa" in waiting
    assert "Cali" in refusal_text(samples[4], s)
    assert "2♥ + 2♦" in refusal_text(samples[6], s)


def test_english_readers_get_names_and_symbols() -> None:
    s = seating("en")
    refusal = IllegalAction("you must follow {suit}: you hold {cards}", suit=0, cards=["TS"])
    assert reason_text(refusal, s) == "You must follow spades: you hold 10♠"
    assert refusal_text(IllegalAction("only {seat}, eldest, names trump", seat=1), s) == \
        "only Bashir, eldest, names trump"
    assert refusal_text(IllegalAction("{seat} may not deal next (allowed: {seats_or})", seat=1,
                                  seats_or=[0, 2, 3]), s) == \
        "Bashir may not deal next (allowed: Asha, Cali, or Deeqa)"
    refusal = IllegalAction("you must beat the {card} with a higher {suit_one}: you hold "
                            "{cards}", card="QH", suit_one=1, cards=["KH"])
    assert refusal_text(refusal, s) == "you must beat the Q♥ with a higher heart: you hold K♥"


def test_a_reason_without_a_template_is_shown_as_before() -> None:
    s = seating("sw")
    # an English reason the catalog does not know: names and symbols, as it always was
    assert refusal_text("seat 2 holds KC, a strange card", s) == "Cali holds K♣, a strange card"
    # a reason the catalog knows is translated even without fields
    assert refusal_text("the bidding is over", s) == "zabuni zimekwisha"


class Broken(Translator):
    """A language whose every translation names a field its message does not have."""

    def __init__(self) -> None:
        from babel.support import NullTranslations

        super().__init__("sw", NullTranslations())

    def gettext(self, message: str) -> str:
        return "{nothing} " + message


def test_a_broken_translation_falls_back_to_the_english_template() -> None:
    s = Seating.of("turup", NAMES, t=Broken())
    refusal = IllegalAction("only {seat}, eldest, names trump", seat=3)
    assert refusal_text(refusal, s) == "only Deeqa, eldest, names trump"


PROBES = [*(Action.play(c) for c in NAMES_52), Action.play("AS", signal="strong"),
          Action.play("KS", bella=True), Action.play("ZZ"), Action.pass_(), Action.bid("AS"),
          Action.bid("ZZ"), Action.bid_cards(("2S", "3S")), Action.bid_cards(("AS", "AS")),
          Action.bid_cards(("2S", "3S", "4S", "5S")), Action.call_trump("S"),
          Action.adjust("up", 9), Action.adjust("sideways", 1), Action.kort(True),
          Action.answer(7), Action("concede"), Action("declare_runs"),
          Action("declare_kort"), Action("ask_partner")]
"""Actions tried by every seat at every moment of a deal: most of them refused."""


def _refusals(game: str) -> dict[str, IllegalAction]:
    """One refusal per template, from whole deals of ``game`` played at random, each
    moment probed with :data:`PROBES` by every seat."""
    import random

    info = GAMES[game]
    found: dict[str, IllegalAction] = {}
    rng = random.Random(7)
    for players in info.player_counts:
        match = info.match_type({}, players, 0, seed=f"refusals:{players}")
        for _ in range(3):
            if match.over:
                break
            deal: Any = match.start_deal()
            while True:
                for seat in range(players):
                    for action in PROBES:
                        try:
                            deal.copy().apply(seat, action)
                        except IllegalAction as exc:
                            found.setdefault(exc.template, exc)
                if deal.is_over:
                    break
                seat = deal.to_act[0]
                deal.apply(seat, rng.choice(deal.legal_actions(seat)))
            match.finish_deal()
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_refusal_of_a_real_deal_is_worded_in_every_language(game: str) -> None:
    refusals = _refusals(game)
    assert len(refusals) > 8, sorted(refusals)
    info = GAMES[game]
    names = ["Asha", "Bashir", "Cali", "Deeqa", "Eelo", "Faadu"][:max(info.player_counts)]
    for language in ("so", "id", "sw"):
        s = Seating.of(game, names, t=translator(language))
        for refusal in refusals.values():
            text = refusal_text(refusal, s)
            assert english_leftovers(text, language) == [], (refusal.reason, text)
            assert translator(language).gettext(refusal.template) != refusal.template, \
                refusal.template
            assert "seat" not in text and not has_code(text), (refusal.reason, text)


def test_the_service_refusal_travels_between_processes_as_data() -> None:
    exc = IllegalAction("it is not your turn (waiting for {seats})", seats=[2])
    refusal = RuleRefusal.of(exc)
    assert str(refusal) == exc.reason and refusal.template == exc.template
    outcome = ForwardOutcome.refusal("refused", refusal)
    back = ForwardOutcome.from_json(json.loads(json.dumps(outcome.to_json())))
    assert back.rule == {"template": exc.template, "params": {"seats": [2]}}
    again = RuleRefusal.from_json(back.rule or {}, back.message or "")
    assert again is not None
    assert refusal_text(again, seating("id")) == "belum giliranmu (menunggu Cali)"


def test_option_errors_reach_the_host_in_their_language() -> None:
    from bot.i18n.said import engine_said
    from bot.service import LobbyError
    from games.errors import OptionError

    with pytest.raises(OptionError) as caught:
        GAMES["turup"].match_type({"target": 0}, 4, 0, seed="s")
    exc = caught.value
    assert str(exc) == "option 'target': 0 is not allowed; allowed: whole number 1..1000"
    lobby = LobbyError.engine(exc)
    assert str(lobby) == str(exc)  # English, as before
    for language in ("so", "id", "sw"):
        text = lobby.said.text(translator(language))
        assert text != str(exc) and "'target'" in text and "1..1000" in text, text
        assert english_leftovers(text, language) == [], text
    with pytest.raises(OptionError) as caught:
        GAMES["truf"].match_type({"nope": 1}, 4, 0, seed="s")
    text = engine_said(caught.value).text(translator("id"))
    assert text.startswith("opsi tidak dikenal 'nope'; opsi permainan ini: ")
    # an engine error without a template (a record's) is shown as it is
    assert engine_said(ValueError("dealer 9 is not a seat")).text(translator("sw")) == \
        "dealer 9 is not a seat"
