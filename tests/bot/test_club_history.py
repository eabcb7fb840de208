"""``/history`` paging against the fake Discord: **◀ Newer** / **Older ▶** under the list
show the neighbouring pages of 10 in place, with the same filters, the record menu lists
the page shown, the ends are disabled, only the member who ran the command may page, a
malformed or stale button is refused privately and changes nothing, and the buttons
survive a restart. Plus :func:`bot.stats.history_page` and the ``custom_id`` codec on
their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from club_app import ClubApp, start_club, stop_club
from club_history import (
    click_page,
    in_place,
    listed,
    paging,
    post_buttons,
    record_options,
    store_matches,
)
from fakediscord import ComponentUnavailable, Harness
from fakediscord.models import StoredMessage

from bot.discord_bot import answer
from bot.discord_bot.club.leaderboard import HISTORY_ID, HistoryQuery
from bot.stats import MAX_HISTORY_PAGE, history_page


def check_limits(message: StoredMessage) -> None:
    """What Discord allows (the fake also refuses a message that breaks them)."""
    assert len(message.content) <= 2000
    for component in message.walk_components():
        assert len(str(component.get("custom_id", ""))) <= 100
        options = component.get("options", [])
        assert len(options) <= 25
        assert all(len(o["label"]) <= 100 for o in options)


def assert_page(message: StoredMessage, guild_id: int, ids: list[int], number: int, *,
                newer: bool, older: bool) -> None:
    assert listed(message) == ids
    assert record_options(message, guild_id) == ids
    footer = message.embeds[0]["footer"]["text"]
    first = (number - 1) * 10 + 1
    assert footer.startswith(f"Page {number} · matches {first}–{first + len(ids) - 1} ")
    buttons = paging(message)
    assert buttons["n"]["label"] == "◀ Newer" and buttons["o"]["label"] == "Older ▶"
    assert buttons["n"].get("disabled", False) is not newer
    assert buttons["o"].get("disabled", False) is not older
    check_limits(message)


async def test_history_pages_older_and_newer_in_place(fake_discord: Harness,
                                                      tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    ids = await store_matches(app.store, guild, 23, channel_id=here)
    # Another server's matches never show.
    await store_matches(app.store, guild + 1, 2, channel_id=here)
    newest = ids[::-1]
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")

    first = await alice.slash("history")
    assert first.type == 4 and not first.ephemeral
    message = first.message
    assert message is not None
    assert message.embeds[0]["title"] == "Recent matches"
    assert_page(message, guild, newest[:10], 1, newer=False, older=True)
    assert paging(message)["o"]["custom_id"] == f"club:hi:{guild}:-:0:{alice.id}:1:o"
    with pytest.raises(ComponentUnavailable, match="disabled"):
        await alice.click(message, paging(message)["n"]["custom_id"])

    message = await click_page(alice, message, "o")
    assert_page(message, guild, newest[10:20], 2, newer=True, older=True)
    assert message.embeds[0]["title"] == "Recent matches"

    # The record menu offers this page's matches, to anyone.
    picked = await bob.select(message, f"club:rec:{guild}", [str(newest[15])])
    record_message = await picked.wait_filled()
    assert record_message.ephemeral_for == bob.id
    assert record_message.attachments[0].filename == f"match-{newest[15]}.json"
    assert json.loads(record_message.attachments[0].data)["game"] == "arbaa_turub"

    message = await click_page(alice, message, "o")
    assert_page(message, guild, newest[20:], 3, newer=True, older=False)
    with pytest.raises(ComponentUnavailable, match="disabled"):
        await alice.click(message, paging(message)["o"]["custom_id"])

    message = await click_page(alice, message, "n")
    assert_page(message, guild, newest[10:20], 2, newer=True, older=True)
    message = await click_page(alice, message, "n")
    assert_page(message, guild, newest[:10], 1, newer=False, older=True)
    # Every page was an edit of the one message: nothing else was posted in the channel.
    assert [m.id for m in fake_discord.server.messages(fake_discord.channel)
            if not m.ephemeral] == [message.id]
    await stop_club(fake_discord, app)


async def test_only_the_member_who_ran_history_may_page(fake_discord: Harness,
                                                        tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    newest = (await store_matches(app.store, guild, 12, channel_id=here))[::-1]
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    message = (await alice.slash("history")).message
    assert message is not None
    edits, shown = message.edits, message.embeds

    refused = await bob.click(message, paging(message)["o"]["custom_id"])
    assert refused.type == 4 and refused.ephemeral
    assert refused.message is not None and refused.message.ephemeral_for == bob.id
    assert f"only <@{alice.id}>, who ran `/history`" in refused.content
    assert refused.data.get("allowed_mentions", {}).get("parse") == []  # nobody pinged
    assert (message.edits, message.embeds) == (edits, shown)
    assert listed(message) == newest[:10]

    message = await click_page(alice, message, "o")  # the owner still can
    assert_page(message, guild, newest[10:], 2, newer=True, older=False)
    await stop_club(fake_discord, app)


async def test_a_players_history_pages_with_its_filters_after_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app: ClubApp = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    mine = await store_matches(app.store, guild, 13, channel_id=here,
                               sides=[[bob.id, 12], [13, 14]], rated=True)
    await store_matches(app.store, guild, 3, channel_id=here, sides=[[11, 12], [13, 14]],
                        rated=True)
    await store_matches(app.store, guild, 2, channel_id=here, game="turup",
                        sides=[[bob.id, 12], [13, 14]], rated=True)
    newest = mine[::-1]

    result = await alice.slash("history", user=bob, game="arbaa_turub")
    message = result.message
    assert message is not None
    title = message.embeds[0]["title"]
    assert title.lower() == "recent rated arba'a turub matches of bob"  # the display name
    assert_page(message, guild, newest[:10], 1, newer=False, older=True)
    assert paging(message)["o"]["custom_id"] == \
        f"club:hi:{guild}:arbaa_turub:{bob.id}:{alice.id}:1:o"

    # A restart: a new bot on the same database; the old buttons still work.
    store, clock = app.store, app.clock
    await fake_discord.stop_bot(app.bot)
    await app.service.close()
    app = await start_club(fake_discord, tmp_path, store=store, clock=clock)
    message = await click_page(alice, message, "o")
    assert_page(message, guild, newest[10:], 2, newer=True, older=False)
    assert message.embeds[0]["title"] == title
    message = await click_page(alice, message, "n")
    assert_page(message, guild, newest[:10], 1, newer=False, older=True)
    await stop_club(fake_discord, app)


async def test_one_page_has_no_paging_buttons(fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    ids = await store_matches(app.store, guild, 10, channel_id=here)
    message = (await fake_discord.user("alice").slash("history")).message
    assert message is not None
    assert listed(message) == ids[::-1] == record_options(message, guild)
    assert paging(message) == {}
    assert message.embeds[0]["footer"]["text"].startswith("Page 1 · matches 1–10 ")
    empty = await fake_discord.user("alice").slash("history", game="truf")
    assert empty.content == "No finished matches yet."
    assert empty.message is not None and not empty.message.custom_ids()
    await stop_club(fake_discord, app)


async def test_malformed_and_stale_buttons_are_refused_and_change_nothing(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    await store_matches(app.store, guild, 12, channel_id=here)
    alice = fake_discord.user("alice")
    owner = alice.id
    cases = {
        "club:hi:garbage": "not understood",
        f"club:hi:{guild}:-:77:{owner}:1:o": "not understood",         # a player, no game
        f"club:hi:{guild}:-:0:{owner}:99999:o": "not understood",      # page out of range
        f"club:hi:{guild}:-:0:{owner}:1:x": "not understood",
        f"club:hi:{guild + 1}:-:0:{owner}:1:o": "another server",
        f"club:hi:{guild}:bridge:0:{owner}:1:o": "no longer offered",  # an unknown game
        f"club:hi:{guild}:-:0:{owner}:5:o": "no matches on that page",  # past the end now
    }
    message = await post_buttons(app, fake_discord, list(cases))
    before = (message.edits, message.embeds, message.components)
    for cid, why in cases.items():
        refused = await alice.click(message, cid)
        assert refused.type == 4 and refused.ephemeral, (cid, refused.content)
        assert why in refused.content, (cid, refused.content)
        assert (message.edits, message.embeds, message.components) == before
    await stop_club(fake_discord, app)


async def test_slow_paging_defers_then_edits_and_a_late_refusal_is_private(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild, here = fake_discord.guild.id, fake_discord.channel.id
    newest = (await store_matches(app.store, guild, 15, channel_id=here))[::-1]
    alice = fake_discord.user("alice")
    message = (await alice.slash("history")).message
    assert message is not None
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)  # as if the store were slow
    clicked = await alice.click(message, paging(message)["o"]["custom_id"])
    assert clicked.type == 6  # a deferred update, then an edit of the message itself
    message = await in_place(clicked, message)
    assert_page(message, guild, newest[10:], 2, newer=True, older=False)

    stale = await post_buttons(app, fake_discord, [f"club:hi:{guild}:-:0:{alice.id}:3:o"])
    before = (stale.edits, stale.embeds, stale.components)
    late = await alice.click(stale, f"club:hi:{guild}:-:0:{alice.id}:3:o")
    assert late.type == 6
    [followup] = await late.wait_followups(1)
    assert followup.ephemeral_for == alice.id
    assert "no matches on that page any more" in followup.content
    assert (stale.edits, stale.embeds, stale.components) == before
    await stop_club(fake_discord, app)


# -- the parts on their own -------------------------------------------------------------


def test_history_custom_ids_round_trip_within_discords_limit() -> None:
    biggest = 2**64 - 1  # a snowflake never exceeds 20 digits
    query = HistoryQuery(biggest, "arbaa_turub", biggest, biggest)
    cid = query.custom_id(MAX_HISTORY_PAGE, "o")
    assert len(cid) <= 100 and HISTORY_ID.fullmatch(cid)
    assert HistoryQuery.parse(cid) == (query, MAX_HISTORY_PAGE, "o")
    everything = HistoryQuery(5, None, None, 6)
    assert everything.custom_id(0, "n") == "club:hi:5:-:0:6:0:n"
    assert HistoryQuery.parse("club:hi:5:-:0:6:0:n") == (everything, 0, "n")
    for bad in ("club:hi:5:-:0:6:0:n:extra", "club:hi:0:-:0:6:0:n", "club:hi:5:-:0:0:0:n",
                "club:hi:5:Truf:0:6:0:n", "club:hi:5:-:7:6:0:n", "club:hi:5:-:0:6:-1:n"):
        with pytest.raises(ValueError):
            HistoryQuery.parse(bad)
    with pytest.raises(ValueError):
        HistoryQuery(5, "x" * 40, None, 6).custom_id(0, "o")


async def test_history_page_counts_and_ends(tmp_path: Path) -> None:
    from storage import open_store

    store = await open_store(f"sqlite:///{tmp_path / 'history.db'}")
    try:
        newest = (await store_matches(store, 9, 21))[::-1]
        pages = [await history_page(store, 9, page=p) for p in range(4)]
        assert [[e.match_id for e in p.entries] for p in pages] == [
            newest[:10], newest[10:20], newest[20:], []]
        assert [(p.has_newer, p.has_older) for p in pages] == [
            (False, True), (True, True), (True, False), (True, False)]
        assert (pages[2].first, pages[2].last) == (21, 21)
        assert (await history_page(store, 9, game="turup")).entries == []
        with pytest.raises(ValueError):
            await history_page(store, 9, user_id=11)  # a player's history needs a game
        with pytest.raises(ValueError):
            await history_page(store, 9, page=MAX_HISTORY_PAGE + 1)
    finally:
        await store.close()
