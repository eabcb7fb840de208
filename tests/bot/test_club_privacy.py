"""What the club commands show of matches played in channels a member cannot see, and
forged choices of their options, against the fake Discord.

``#private`` denies View Channel to @everyone and allows alice: eve's ``/history`` does not
list its matches (and still pages full pages), a record pick for one of them is refused
privately, and a member with Manage Server also sees the matches of a deleted channel.
A ``/leaderboard``, ``/stats`` or ``/history`` with a game that is not one of the choices
(Discord only offers them; a client may send anything) is refused privately and never
echoed publicly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest
from fakediscord import FakeChannel, Harness, SimulatedUser, StoredMessage
from test_club_history import listed, paging, record_options, store_matches
from test_club_support import start_club, stop_club

READ = discord.Permissions(view_channel=True, read_message_history=True).value


def private_channel(harness: Harness, *readers: SimulatedUser) -> FakeChannel:
    """``#private``: @everyone may not view it, each of ``readers`` may."""
    channel = harness.server.add_text_channel(harness.guild, "private")
    channel.overwrites = [
        {"id": str(harness.guild.id), "type": 0, "allow": "0", "deny": str(READ)},
        *({"id": str(r.id), "type": 1, "allow": str(READ), "deny": "0"} for r in readers)]
    return channel


async def test_history_lists_and_hands_out_only_matches_of_channels_the_member_can_see(
        fake_discord: Harness, tmp_path: Path) -> None:
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    mona = fake_discord.user("mona", manager=True)  # Manage Server, not in #private
    private = private_channel(fake_discord, alice)
    app = await start_club(fake_discord, tmp_path)  # the bot learns the channels at start
    guild, cards = fake_discord.guild.id, fake_discord.channel.id
    public: list[int] = []
    hidden: list[int] = []
    for _ in range(4):  # interleaved, so that a filter applied after paging shows
        public += await store_matches(app.store, guild, 3, channel_id=cards)
        hidden += await store_matches(app.store, guild, 2, channel_id=private.id)
    gone = await store_matches(app.store, guild, 1, channel_id=private.id + 999)  # deleted
    everything = sorted(public + hidden + gone, reverse=True)

    seen = await eve.slash("history")
    first = seen.message
    assert first is not None and not seen.ephemeral
    newest = public[::-1]
    assert listed(first) == record_options(first, guild) == newest[:10]
    assert first.embeds[0]["footer"]["text"].startswith("Page 1 · matches 1–10 ")
    older = (await eve.click(first, paging(first)["o"]["custom_id"])).message
    assert older is not None
    assert listed(older) == newest[10:]
    assert paging(older)["o"].get("disabled") is True  # nothing hidden is older

    # Whoever can see #private lists its matches; a manager also those of a gone channel.
    shown = (await alice.at(private).slash("history")).message
    assert shown is not None
    assert listed(shown) == [i for i in everything if i not in gone][:10]
    managed = (await mona.slash("history")).message
    assert managed is not None
    assert listed(managed) == sorted(public + gone, reverse=True)[:10]

    async def pick(who: SimulatedUser, message: StoredMessage, match_id: int
                   ) -> StoredMessage:
        picked = await who.select(message, f"club:rec:{guild}", [str(match_id)])
        answer = await picked.wait_filled()
        assert answer.ephemeral_for == who.id
        return answer

    # eve picks a #private match from alice's list (she could not read that message in
    # Discord, so this is a forged pick): refused, privately, no record attached.
    secret = listed(shown)[0]
    assert secret in hidden
    refusal = await pick(eve, shown, secret)
    assert not refusal.attachments
    assert (f"match #{secret} was played in a channel you cannot see"
            in refusal.content), refusal.content
    refusal = await pick(eve, managed, gone[0])  # the gone channel's: managers only
    assert not refusal.attachments and "channel you cannot see" in refusal.content
    # alice gets hers, eve one of a channel she can read, mona the gone channel's.
    for who, message, match_id in ((alice, shown, secret), (eve, older, public[0]),
                                   (mona, managed, gone[0])):
        got = await pick(who, message, match_id)
        assert got.attachments[0].filename == f"match-{match_id}.json", got.content
        assert json.loads(got.attachments[0].data)["game"] == "arbaa_turub"
    await stop_club(fake_discord, app)


def forged(user: SimulatedUser, option: str, value: Any, *path: str, **options: Any
           ) -> Any:
    """``/path options`` with ``option`` then replaced by ``value`` (no choice of it)."""
    record = user.build_slash(*path, **options)
    for entry in record.payload["data"]["options"]:
        if entry["name"] == option:
            entry["value"] = value
    return record


@pytest.mark.parametrize("path, options", [
    (("leaderboard",), {"game": "turup"}),
    (("stats",), {"game": "turup"}),
    (("history",), {"game": "turup"}),
])
async def test_a_forged_game_is_refused_privately_and_never_echoed(
        fake_discord: Harness, tmp_path: Path, path: tuple[str, ...],
        options: dict[str, Any]) -> None:
    app = await start_club(fake_discord, tmp_path)
    await store_matches(app.store, fake_discord.guild.id, 2,
                        channel_id=fake_discord.channel.id)
    alice = fake_discord.user("alice")
    before = list(fake_discord.server.messages(fake_discord.channel))
    result = await fake_discord.interact(
        forged(alice, "game", "**Bridge** @everyone", *path, **options))
    assert result.ephemeral and result.message is not None
    assert result.message.ephemeral_for == alice.id
    assert "Unknown game" in result.content and "**Bridge**" not in result.content
    assert not result.message.embeds and not result.message.attachments
    assert [m for m in fake_discord.server.messages(fake_discord.channel)
            if not m.ephemeral] == [m for m in before if not m.ephemeral]
    await stop_club(fake_discord, app)


@pytest.mark.parametrize("page", [0, -5, 1001, 10**15])
async def test_a_forged_leaderboard_page_is_refused_privately(
        fake_discord: Harness, tmp_path: Path, page: int) -> None:
    app = await start_club(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    result = await fake_discord.interact(
        forged(alice, "page", page, "leaderboard", game="turup", page=1))
    assert result.ephemeral and result.message is not None
    assert result.message.ephemeral_for == alice.id and not result.message.embeds
    assert "must be a whole number from 1 to 1000" in result.content, result.content
    await stop_club(fake_discord, app)


async def test_a_forged_record_pick_that_is_no_match_id_is_refused(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    await store_matches(app.store, guild, 1, channel_id=fake_discord.channel.id)
    alice = fake_discord.user("alice")
    message = (await alice.slash("history")).message
    assert message is not None
    select = message.component(f"club:rec:{guild}")
    for value in ("9" * 5000, "١", "0", "-1"):
        select["options"][0]["value"] = value  # as a tampered menu would send it
        refused = await (await alice.select(message, f"club:rec:{guild}", [value])
                         ).wait_filled()
        assert refused.ephemeral_for == alice.id and not refused.attachments
        assert "not from this server" in refused.content, (value, refused.content)
    await stop_club(fake_discord, app)
