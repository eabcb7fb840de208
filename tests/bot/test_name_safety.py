"""Names as members choose them, shown safely (issue 35, P3, P4, L4): every markdown
character escaped (not only pairs), mentions broken, and the name cleaned of control,
format and separator characters — in messages and in the table picture, which can then
always be drawn; a picture that fails anyway never holds the table message back."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest
from app_fixture import start_app
from discord_helpers import my_hand, open_table, take_turn
from fakediscord import Harness
from fakediscord.models import StoredMessage
from hypothesis import given
from hypothesis import strategies as st

import bot.discord_bot.tables.presenter as presenter_module
from bot.discord_bot.club.club_texts import leaderboard_lines
from bot.discord_bot.drawing.safe import ZERO_WIDTH_SPACE, safe_name
from bot.discord_bot.drawing.texts import display_name, plain_name
from bot.i18n import translator
from bot.ratings import Leaderboard, LeaderboardRow
from bot.render import render_table
from bot.render.theme import fit_text
from bot.service import Seat
from bot.text_safety import clean_text

MARKDOWN = "\\*_~`|>#-[]()<"
HOSTILE = "[a](b)**B**[hand](http://x.y)"
"""The review's 29-character nickname: bold and a masked link past escape_markdown."""
BREAKERS = ["\u2029", "\u2028", "\u0085", "\u001c", "\u001d", "\u001e", "\n", "\r\n", "\t",
            "\u000b"]
INVISIBLE = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
             "\u2069", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
T = translator("en")


def unescaped(text: str) -> str:
    """``text`` with every backslash-escaped character taken out: what Discord could still
    read as markdown."""
    return re.sub(r"\\.", "", text, flags=re.DOTALL)


@given(st.text())
def test_no_markdown_character_is_left_live(text: str) -> None:
    live = unescaped(safe_name(text))
    assert not set(live) & set(MARKDOWN), (text, safe_name(text))
    assert re.search("@(?!" + ZERO_WIDTH_SPACE + ")", live) is None


def test_masked_links_bold_spoilers_and_code_are_escaped_everywhere_in_a_name() -> None:
    assert safe_name("[x](y) ||spoiler|| [z](w)") == (
        "\\[x\\]\\(y\\) \\|\\|spoiler\\|\\| \\[z\\]\\(w\\)")
    assert safe_name(HOSTILE) == (
        "\\[a\\]\\(b\\)\\*\\*B\\*\\*\\[hand\\]\\(http://x.y\\)")
    assert safe_name("`code` ~~s~~ __u__ -# small") == (
        "\\`code\\` \\~\\~s\\~\\~ \\_\\_u\\_\\_ \\-\\# small")
    assert safe_name("<@123456789012345678> @everyone") == (
        "\\<@\u200b123456789012345678\\> @\u200beveryone")
    assert safe_name("1. first") == "1\\. first"
    assert safe_name("+ plus") == "\\+ plus"


@pytest.mark.parametrize("breaker", BREAKERS)
def test_line_and_paragraph_breaks_become_one_space(breaker: str) -> None:
    assert clean_text(f" Para{breaker}{breaker}graph{breaker}") == "Para graph"
    assert safe_name(f"Para{breaker}graph") == "Para graph"


@pytest.mark.parametrize("invisible", INVISIBLE)
def test_bidi_controls_and_zero_width_characters_are_removed(invisible: str) -> None:
    assert clean_text(f"a{invisible}lice") == "alice"
    assert safe_name(f"{invisible}evil{invisible}") == "evil"


def test_other_spaces_become_plain_spaces_and_visible_text_is_kept() -> None:
    assert clean_text("Ana\u00a0Maria\u3000Lopez") == "Ana Maria Lopez"
    assert clean_text("Zürich ÇAĞRI 山田 محمد 😀") == "Zürich ÇAĞRI 山田 محمد 😀"


def test_seat_names_are_cleaned_in_messages_and_pictures_with_a_fallback() -> None:
    seat = Seat.human(42, "\u202eBad\u2029**Name**\u200b")
    assert plain_name(seat, 1, T) == "Bad **Name**"
    assert display_name(seat, 1, T) == "Bad \\*\\*Name\\*\\*"
    blank = Seat.human(42, "\u200b\u2029 \u202e")
    assert plain_name(blank, 2, T) == "Seat 2"
    assert display_name(blank, 2, T) == "<@42>"


def test_the_leaderboard_names_a_member_without_a_visible_name_by_mention() -> None:
    rows = [LeaderboardRow(1, 42, "\u200b\u2029", 20.0, 25.0, 1.5, 3, 2),
            LeaderboardRow(2, 43, "**Ann**\u202e", 19.0, 24.0, 1.5, 3, 1)]
    lines = leaderboard_lines(Leaderboard(1, "turup", None, 0, 1, 2, rows), T)
    assert "**<@42>**" in lines[0] and "**\\*\\*Ann\\*\\***" in lines[1]


@pytest.mark.parametrize("breaker", BREAKERS + INVISIBLE)
def test_the_renderer_draws_any_name(breaker: str) -> None:
    name = f"Para{breaker}graph"
    assert fit_text(name, 15, 60).startswith("Para")
    view = {"players": 4, "dealer": 0, "to_act": [1], "trick": {"cards": [[0, "KH"]]}}
    png = render_table(view, [name, f"x{breaker}", "Budi", breaker], f"Deal 1{breaker}")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def _playing(fake_discord: Harness, message_id: int, table_id: int) -> StoredMessage | None:
    """The public message once it shows the match: **My hand**, no lobby buttons."""
    msg = fake_discord.server.message(message_id)
    ids = msg.custom_ids()
    if f"tt:h:{table_id}:0:" in ids and not any(i.endswith(":join") for i in ids):
        return msg
    return None


async def test_a_paragraph_separator_in_a_name_leaves_the_lobby_with_its_picture(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path, guild_settings={"images": True})
    alice = fake_discord.user("alice")
    alice.user.global_name = "Para\u2029graph"
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    shown = await fake_discord.wait_until(
        lambda: _playing(fake_discord, public.id, table_id), what="the match's message")
    assert shown.attachments and shown.attachments[0].data[:4] == b"\x89PNG"
    status = await (await alice.slash("table", "status")).wait_filled()
    assert "went wrong" not in status.content and f"table {table_id}, deal" in status.content


async def test_a_picture_that_fails_never_holds_back_the_table_message(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async def broken(*_: object) -> bytes:
        raise RuntimeError("raqm_layout() failed.")

    monkeypatch.setattr(presenter_module, "table_picture", broken)
    app = await start_app(fake_discord, tmp_path, guild_settings={"images": True})
    alice = fake_discord.user("alice")
    caplog.set_level(logging.WARNING, logger="bot.discord_bot.tables.presenter")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    shown = await fake_discord.wait_until(
        lambda: _playing(fake_discord, public.id, table_id), what="the match's message")
    assert not shown.attachments
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    rng = random.Random(3)
    for _ in range(2):  # more redraws: still one warning
        await app.service.settle()
        await fake_discord.settle()
        if seat in app.service.info(table_id).to_act:
            await take_turn(alice, await my_hand(alice, public, table_id), rng)
    warnings = [r for r in caplog.records if r.name == "bot.discord_bot.tables.presenter"
                and "picture" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


async def test_a_hostile_nickname_is_shown_literally_in_the_table_message(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    alice.user.global_name = HOSTILE
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    rng = random.Random(11)
    texts: list[str] = []
    for _ in range(40):
        await app.service.settle()
        await fake_discord.settle()
        texts.append(fake_discord.server.message(public.id).content)
        if any(safe_name(HOSTILE) in text for text in texts):
            break
        if seat in app.service.info(table_id).to_act:
            await take_turn(alice, await my_hand(alice, public, table_id), rng)
    shown = [text for text in texts if safe_name(HOSTILE) in text]
    assert shown, "the name never appeared in the table message"
    for text in texts:
        live = unescaped(text)
        assert "[hand]" not in live and "B**" not in live and "](" not in live
