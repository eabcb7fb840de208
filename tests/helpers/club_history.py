"""Stored matches and the ``/history`` list's pages as the club tests read and click them."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import discord
from club_app import MONDAY, ClubApp
from fakediscord import Harness, InteractionResult
from fakediscord.models import StoredMessage
from league_fixtures import store_match

from bot.ratings import rate_match
from storage import Store

DEALS = [{"dealer": 0, "summary": {"tricks_by_team": [20, 16]}}]


async def store_matches(store: Store, guild_id: int, count: int, *,
                        game: str = "arbaa_turub", sides: list[list[int | None]] | None = None,
                        rated: bool = False, channel_id: int | None = None) -> list[int]:
    """``count`` finished matches of ``game`` in the guild, played in ``channel_id`` (default:
    a channel of their own), an hour apart, oldest first; rated ones go through
    :func:`bot.ratings.rate_match` (so they enter the players' rating history)."""
    ids = []
    for k in range(count):
        match_id = await store_match(
            store, game, sides or [[11, 12], [13, 14]], winner=k % 2,
            totals=[2, 0] if k % 2 == 0 else [0, 2], guild_id=guild_id,
            finished_at=MONDAY + dt.timedelta(hours=k), deals=DEALS, rated=rated,
            channel_id=channel_id)
        if rated:
            await rate_match(store, match_id)
        ids.append(match_id)
    return ids


def listed(message: StoredMessage) -> list[int]:
    """The match ids of the list's lines, top to bottom."""
    return [int(m) for m in re.findall(r"^`#(\d+)`", message.embeds[0]["description"], re.M)]


def record_options(message: StoredMessage, guild_id: int) -> list[int]:
    return [int(o["value"]) for o in message.component(f"club:rec:{guild_id}")["options"]]


def paging(message: StoredMessage) -> dict[str, dict[str, Any]]:
    """The paging buttons by direction: ``{"n": newer, "o": older}`` (empty: none)."""
    return {str(c["custom_id"])[-1]: c for c in message.walk_components()
            if str(c.get("custom_id", "")).startswith("club:hi:")}


async def in_place(result: InteractionResult, message: StoredMessage) -> StoredMessage:
    """The click replaced ``message`` itself (an update), not a new message."""
    assert result.type in (6, 7), result.content
    assert result.message is not None and result.message.id == message.id
    if result.type == 6:
        await result.wait_request(
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    return result.message


async def click_page(user: Any, message: StoredMessage, direction: str) -> StoredMessage:
    return await in_place(await user.click(message, paging(message)[direction]["custom_id"]),
                          message)


async def post_buttons(app: ClubApp, harness: Harness, custom_ids: list[str]
                       ) -> StoredMessage:
    """A message of the bot holding buttons with these ``custom_id`` s, as an older or a
    tampered message would (the bot posts it through discord.py's own API)."""
    channel = app.bot.get_channel(harness.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    for cid in custom_ids:
        view.add_item(discord.ui.Button(label="old", custom_id=cid))
    sent = await channel.send(embed=discord.Embed(title="Recent matches"), view=view)
    view.stop()  # only the persistent dynamic items answer its clicks
    return harness.server.message(sent.id)
