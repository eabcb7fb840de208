"""The pure parts of what the players see: names made safe, the variant a card option
plays, the signal menu, Truf bid values, the Options control's kinds of option."""

from __future__ import annotations

import json
import re

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.discord_bot.drawing.safe import ZERO_WIDTH_SPACE, pings, safe_name
from bot.discord_bot.tables.card_select import bid_worth, preferred, signal_words
from bot.discord_bot.tables.hand_panel import SeatState, TableFacts, draw_panel
from bot.discord_bot.tables.options_panel import kind_of
from bot.i18n import translator
from bot.service import Seat
from games.actions import Action
from games.registry import GAMES


@given(st.text())
def test_a_safe_name_pings_nobody_and_stays_one_line(text: str) -> None:
    out = safe_name(text)
    assert "\n" not in out and "\r" not in out
    assert re.search("@(?!" + ZERO_WIDTH_SPACE + ")", out) is None  # every @ is broken
    assert not re.search(r"<@!?&?\d+>", out)


def test_markdown_is_escaped_so_the_name_reads_literally() -> None:
    assert safe_name("**Bold** <@12345678901234567> @everyone _x_") == (
        "\\*\\*Bold\\*\\* \\<@\u200b12345678901234567\\> @\u200beveryone \\_x\\_")
    assert safe_name("# Big").startswith("\\#")
    assert safe_name("> quote").startswith("\\>")


def test_pings_name_exactly_the_users_meant() -> None:
    allowed = pings((5, 7, 5)).to_dict()
    assert allowed["parse"] == [] and allowed["users"] == [5, 7]
    assert pings(()).to_dict() == discord.AllowedMentions.none().to_dict()


def test_a_card_option_is_the_plain_play_unless_a_signal_is_chosen() -> None:
    variants = [Action.play("KH"), Action.play("KH", signal="strong"),
                Action.play("KH", signal="weak")]
    assert preferred(variants) == Action.play("KH")
    assert preferred(variants, "weak") == Action.play("KH", signal="weak")
    assert signal_words([*variants, Action.play("9C")]) == ["strong", "weak"]


def test_bella_is_announced_with_the_card_that_allows_it() -> None:
    assert preferred([Action.play("QS"), Action.play("QS", bella=True)]) == Action.play(
        "QS", bella=True)


def _state(legal: list[Action], hand: list[str]) -> SeatState:
    seats = (Seat.human(1, "Ann"), Seat.ai("rules"), Seat.ai("rules"), Seat.ai("rules"))
    return SeatState(version=3, status="playing", deal=0, to_act=(0,), deadline=None,
                     game_view={"hand": hand, "trick": {"cards": []}}, legal=tuple(legal),
                     seats=seats, legal_json=json.dumps([a.to_json() for a in legal]))


async def test_a_tarabish_lead_with_bella_is_one_option_per_card() -> None:
    legal = [Action.play("QS"), Action.play("QS", bella=True), Action.play("9H"),
             Action("concede")]
    drawing = await draw_panel(TableFacts(1, "tarabish", ((0, 2), (1, 3)), 9), 0,
                               _state(legal, ["QS", "9H"]), translator("en"), images=False)
    shown = [c for row in drawing.ui_view.to_components() for c in row["components"]]
    selects = [c for c in shown if c["type"] == 3]
    assert len(selects) == 1
    values = [json.loads(o["value"]) for o in selects[0]["options"]]
    assert values == [{"type": "play", "card": "QS", "bella": True},
                      {"type": "play", "card": "9H"}]
    assert [c["label"] for c in shown if c["type"] == 2] == ["Concede the hand"]


async def test_truf_bid_cards_show_their_value() -> None:
    assert [bid_worth(c, translator("en")) for c in ("JS", "QS", "KS", "AS", "TS", "7S")] == [
        "worth 0", "worth 0", "worth 0", "worth 1", "worth 10", "worth 7"]
    assert bid_worth("TS", translator("sw")) == translator("sw").gettext("worth {value}") \
        .format(value="10")


def test_the_options_control_knows_how_each_option_is_chosen() -> None:
    kinds = {(g, r["name"]): kind_of(r)[0] for g, info in GAMES.items()
             for r in info.options_type.describe()}
    assert kinds[("tarabish", "auto_bella")] == "select"
    assert kinds[("tarabish", "run_tie")] == "select"
    assert kinds[("turup", "target")] == "number"
    assert kinds[("albastini", "session_games")] == "number"
    assert kinds[("arbaa_turub", "extra_signals")] == "json"
    assert kinds[("truf", "adjust_amounts")] == "json"
    assert kind_of({"allowed": "'C' | 'S'"}) == ("select", ["C", "S"])
