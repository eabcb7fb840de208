"""The Discord click path's pure step (``bot/discord_bot/tables/clicks.py``): what a click
on a seat's panel does, decided from the seat's newest state alone — play, redraw or
refuse."""

from __future__ import annotations

from bot.discord_bot.answer import UserError
from bot.discord_bot.tables.clicks import (
    BidCards,
    Chose,
    Play,
    Redraw,
    Refusal,
    Signalled,
    resolve,
)
from bot.discord_bot.tables.hand_panel import SeatState
from bot.service import StaleAction
from games.actions import Action

PLAIN, STRONG = Action.play("AS"), Action.play("AS", signal="strong")
LEGAL = (PLAIN, STRONG, Action.play("KH"), Action("pass"))


def state(version: int = 7, legal: tuple[Action, ...] = LEGAL) -> SeatState:
    return SeatState(version=version, status="playing", deal=1, to_act=(0,), deadline=None,
                     game_view=None, legal=legal, seats=(), legal_json="[]")


def test_a_card_with_one_action_is_played_in_one_tap() -> None:
    assert resolve(state(), 7, Chose(Action.play("KH"), picked=True)) == Play(
        Action.play("KH"))


def test_a_picked_exact_variant_is_played() -> None:
    assert resolve(state(), 7, Chose(STRONG, picked=True)) == Play(STRONG)


def test_a_card_with_variants_redraws_the_panel_offering_them() -> None:
    card = Action.play("AS", signal="weak")  # not legal itself: the card has variants
    assert resolve(state(), 7, Chose(card, picked=True)) == Redraw(pick=card)


def test_a_stale_pick_of_a_card_with_variants_is_refused() -> None:
    step = resolve(state(), 6, Chose(Action.play("AS", signal="weak"), picked=True))
    assert isinstance(step, Refusal) and isinstance(step.error, StaleAction)


def test_a_button_plays_its_action_whatever_the_state() -> None:
    assert resolve(state(), 3, Chose(Action("pass"))) == Play(Action("pass"))


def test_a_choice_not_understood_and_an_empty_bid_are_refused() -> None:
    for choice in (Chose(None), BidCards(())):
        step = resolve(state(), 7, choice)
        assert isinstance(step, Refusal) and isinstance(step.error, UserError)


def test_a_multi_card_bid_is_played_and_a_signal_redraws() -> None:
    assert resolve(state(), 7, BidCards(("AS", "KH"))) == Play(
        Action.bid_cards(("AS", "KH")))
    assert resolve(state(), 7, Signalled("strong")) == Redraw(signal="strong")
