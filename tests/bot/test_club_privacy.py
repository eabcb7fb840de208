"""What the club commands show of matches played in channels a member cannot see, and
forged choices of their options, against the fake Discord.

``#private`` denies View Channel to @everyone and allows alice: eve's ``/history`` does not
list its matches (and still pages full pages), a record pick for one of them is refused
privately, and a member with Manage Server also sees the matches of a deleted channel.
A ``/history`` list is public only where every match it shows was played: alice's list
in #general that holds a #private match comes to her privately (its pages too, also when
the answer is slow), and nothing eve sees in #general names that match.
A ``/leaderboard``, ``/stats`` or ``/history`` with a game that is not one of the choices
(Discord only offers them; a client may send anything) is refused privately and never
echoed publicly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from club_app import start_club, stop_club
from club_history import click_page, listed, paging, record_options, store_matches
from fakediscord import FakeChannel, Harness, SimulatedUser, StoredMessage

from bot.discord_bot import answer

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
    assert first is not None and not seen.ephemeral  # all of #cards: public
    newest = public[::-1]
    assert listed(first) == record_options(first, guild) == newest[:10]
    assert first.embeds[0]["footer"]["text"].startswith("Page 1 · matches 1–10 ")
    older = (await eve.click(first, paging(first)["o"]["custom_id"])).message
    assert older is not None
    assert listed(older) == newest[10:]
    assert paging(older)["o"].get("disabled") is True  # nothing hidden is older

    # Whoever can see #private lists its matches; a manager also those of a gone channel
    # (both lists mix channels: private answers).
    shown = (await alice.at(private).slash("history")).message
    assert shown is not None and shown.ephemeral_for == alice.id
    assert listed(shown) == [i for i in everything if i not in gone][:10]
    managed = (await mona.slash("history")).message
    assert managed is not None and managed.ephemeral_for == mona.id
    assert listed(managed) == sorted(public + gone, reverse=True)[:10]

    async def pick(who: SimulatedUser, message: StoredMessage, match_id: int
                   ) -> StoredMessage:
        picked = await who.select(message, f"club:rec:{guild}", [str(match_id)])
        answer = await picked.wait_filled()
        assert answer.ephemeral_for == who.id
        return answer

    def tampered(message: StoredMessage, match_id: int) -> StoredMessage:
        """``message`` with its record menu offering ``match_id`` (as a forged pick would
        send it: eve never sees a list that offers it)."""
        message.component(f"club:rec:{guild}")["options"][0]["value"] = str(match_id)
        return message

    # eve picks a #private match (forged): refused, privately, no record attached.
    secret = listed(shown)[0]
    assert secret in hidden
    refusal = await pick(eve, tampered(first, secret), secret)
    assert not refusal.attachments
    assert (f"match #{secret} was played in a channel you cannot see"
            in refusal.content), refusal.content
    refusal = await pick(eve, tampered(first, gone[0]), gone[0])  # managers only
    assert not refusal.attachments and "channel you cannot see" in refusal.content
    # alice gets hers, eve one of a channel she can read, mona the gone channel's.
    for who, message, match_id in ((alice, shown, secret), (eve, older, public[0]),
                                   (mona, managed, gone[0])):
        got = await pick(who, message, match_id)
        assert got.attachments[0].filename == f"match-{match_id}.json", got.content
        assert json.loads(got.attachments[0].data)["game"] == "arbaa_turub"
    await stop_club(fake_discord, app)


def names_match(message: StoredMessage, match_id: int) -> bool:
    """Whether any version of ``message`` names match ``#match_id`` (a list line or a
    record menu option)."""
    text = json.dumps([message.payload, *message.history], ensure_ascii=False)
    return re.search(rf"#{match_id}(?!\d)", text) is not None


async def test_history_is_public_only_where_every_match_it_shows_was_played(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, eve = fake_discord.user("alice"), fake_discord.user("eve")
    private = private_channel(fake_discord, alice)
    app = await start_club(fake_discord, tmp_path)
    guild, general = fake_discord.guild.id, fake_discord.channel.id
    [old_secret] = await store_matches(app.store, guild, 1, channel_id=private.id)
    newest = (await store_matches(app.store, guild, 12, channel_id=general))[::-1]

    # alice's first page holds #general matches only: public. Its next page holds the
    # #private match: it comes to alice privately, the public list stays as it was.
    first = await alice.slash("history")
    assert first.message is not None and not first.ephemeral
    assert listed(first.message) == newest[:10]
    older = await alice.click(first.message, paging(first.message)["o"]["custom_id"])
    assert older.type == 4 and older.message is not None
    assert older.message.ephemeral_for == alice.id
    assert listed(older.message) == [*newest[10:], old_secret]
    assert first.message.edits == 0 and listed(first.message) == newest[:10]
    # The private page's buttons keep it private: they page it in place.
    back = await click_page(alice, older.message, "n")
    assert back.ephemeral_for == alice.id and listed(back) == newest[:10]

    # A newer #private match: alice's list in #general is private from its first page,
    # and so are its pages; her record menu gives her the match.
    [secret] = await store_matches(app.store, guild, 1, channel_id=private.id)
    mine = await alice.slash("history")
    assert mine.message is not None and mine.message.ephemeral_for == alice.id
    assert listed(mine.message) == [secret, *newest[:9]]
    page = await click_page(alice, mine.message, "o")
    assert page.ephemeral_for == alice.id
    assert listed(page) == [*newest[9:], old_secret]
    got = await (await alice.select(page, f"club:rec:{guild}", [str(old_secret)])
                 ).wait_filled()
    assert got.attachments[0].filename == f"match-{old_secret}.json"
    # In #private too her list mixes channels: private.
    there = await alice.at(private).slash("history")
    assert there.message is not None and there.message.ephemeral_for == alice.id
    # A slow answer waits privately, so the private list never fills a public message.
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    slow = await alice.slash("history")
    assert slow.type == 5
    filled = await slow.wait_filled()
    assert filled.ephemeral_for == alice.id and listed(filled)[0] == secret
    # A slow page of the public list that may not show there comes privately too.
    late = await alice.click(first.message, paging(first.message)["o"]["custom_id"])
    assert late.type == 6
    [private_page] = await late.wait_followups(1)
    assert private_page.ephemeral_for == alice.id
    assert listed(private_page) == [*newest[9:], old_secret]
    assert first.message.edits == 0
    monkeypatch.undo()

    # eve's own list in #general is public: #general's matches only.
    theirs = await eve.slash("history")
    assert theirs.message is not None and not theirs.ephemeral
    assert listed(theirs.message) == newest[:10]
    # Nothing eve can see in #general, in any version, names a #private match.
    seen = eve.visible()
    assert seen and not [m.id for m in seen
                         if names_match(m, secret) or names_match(m, old_secret)]
    await stop_club(fake_discord, app)


def forged(user: SimulatedUser, option: str, value: Any, *path: str, **options: Any
           ) -> Any:
    """``/path options`` with ``option`` then replaced by ``value`` (no choice of it)."""
    record = user.build_slash(*path, **options)
    entries = list(record.payload["data"]["options"])
    while entries:  # a subcommand's options are nested in it
        entry = entries.pop()
        entries += entry.get("options", [])
        if entry["name"] == option and "value" in entry:
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


@pytest.mark.parametrize("name", ["   ", "\u200b\u2029\u202e", "x" * 101, "Spring " * 700],
                         ids=["blank", "invisible", "101", "4900"])
async def test_a_forged_season_name_is_refused_privately_and_nothing_is_stored(
        fake_discord: Harness, tmp_path: Path, name: str) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    mona = fake_discord.user("mona", manager=True)
    running = await mona.slash("season", "start", name="  Winter\u202e\n2026 ")
    assert not running.ephemeral
    [winter] = await app.store.list_seasons(guild, league_id=None)
    assert (winter.name, winter.status) == ("Winter 2026", "active")  # stored cleaned
    before = list(fake_discord.server.messages(fake_discord.channel))

    result = await fake_discord.interact(forged(mona, "name", name, "season", "start",
                                                name="Spring"))
    assert result.ephemeral and result.message is not None
    assert result.message.ephemeral_for == mona.id
    assert "must be 1 to 100 visible characters long" in result.content, result.content
    assert await app.store.list_seasons(guild, league_id=None) == [winter]  # still running
    assert list(fake_discord.server.messages(fake_discord.channel)) == [
        *before, result.message]
    await stop_club(fake_discord, app)
