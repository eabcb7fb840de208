"""``/leaderboard`` (paging buttons that survive a restart), ``/stats`` (chart attachment)
and ``/history`` (record menu) against the fake Discord, on matches stored as the table
service stores them and rated by ``bot.ratings.rate_match``."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path

import pytest
from club_app import MONDAY, start_club, stop_club
from fakediscord import CommandUnavailable, Harness
from league_fixtures import store_match
from PIL import Image

from bot.discord_bot import answer
from bot.ratings import leaderboard, rate_match, start_rating_season
from bot.stats import player_history
from storage import Store

DEALS = [{"dealer": 0, "summary": {"tricks_by_team": [20, 16]}},
         {"summary": {"tricks_by_team": [22, 14]}}]


async def rated(store: Store, guild_id: int, sides: list[list[int | None]], winner: int,
                *, when: dt.datetime = MONDAY, deals: list[dict[str, object]] | None = None,
                channel_id: int | None = None) -> int:
    match_id = await store_match(store, "arbaa_turub", sides, winner=winner, totals=[2, 0]
                                 if winner == 0 else [0, 2], guild_id=guild_id,
                                 finished_at=when, deals=deals or (), channel_id=channel_id)
    await rate_match(store, match_id)
    return match_id


def mentioned_ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@(\d+)>", text)]


async def on_page(harness: Harness, message_id: int, page: int) -> None:
    """Wait until the board's message was edited to ``page`` (the edit follows a deferral
    and the store reads in a thread, which the harness's settling does not see)."""
    await harness.wait_until(
        lambda: f"Page {page}/" in harness.server.message(message_id).embeds[0]["footer"]["text"]
        or None, what=f"the leaderboard on page {page}")


async def test_leaderboard_pages_with_buttons_that_survive_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    winners: set[int] = set()
    for k in range(6):  # 24 players, 12 of them winners of their only match
        base = 1000 + 4 * k
        await rated(app.store, guild, [[base, base + 2], [base + 1, base + 3]], 0)
        winners |= {base, base + 2}
    await rated(app.store, guild + 1, [[1, 2], [3, 4]], 0)  # another server's match
    alice = fake_discord.user("alice")

    first = await alice.slash("leaderboard", game="arbaa_turub")
    assert first.type == 4 and not first.ephemeral
    embed = first.message.embeds[0]
    lines = embed["description"].split("\n")
    assert len(lines) == 10
    assert [int(re.match(r"`#\s*(\d+)`", line)[1]) for line in lines] == list(range(1, 11))
    top_ids = [mentioned_ids(line)[0] for line in lines]
    assert set(top_ids) <= winners            # every winner outranks every loser
    expected = await leaderboard(app.store, guild, "arbaa_turub", per_page=10)
    assert top_ids == [r.user_id for r in expected.rows]
    assert "1 played · 1 won · 100%" in lines[0]
    assert f"**{expected.rows[0].rating:.1f}**" in lines[0]
    assert embed["footer"]["text"].startswith("Page 1/3 · 24 rated players")
    ids = first.message.custom_ids()
    prev_id = next(i for i in ids if i.endswith(":p"))
    next_id = next(i for i in ids if i.endswith(":n"))
    assert next_id == f"club:lb:{guild}:arbaa_turub:0:1:n"
    assert first.message.component(prev_id)["disabled"] is True

    second = await alice.click(first.message, next_id)
    assert second.type in (6, 7) and second.message.id == first.message.id
    await on_page(fake_discord, second.message.id, 2)
    lines2 = second.message.embeds[0]["description"].split("\n")
    assert lines2[0].startswith("`#11`")
    assert not set(mentioned_ids("\n".join(lines2))) & set(top_ids)
    assert second.message.embeds[0]["footer"]["text"].startswith("Page 2/3")

    # A restart: a new bot process on the same database; the old buttons still work.
    store, clock = app.store, app.clock
    await fake_discord.stop_bot(app.bot)
    await app.service.close()
    app = await start_club(fake_discord, tmp_path, store=store, clock=clock)
    third = await fake_discord.user("bob").click(second.message,
                                                 f"club:lb:{guild}:arbaa_turub:0:2:n")
    await on_page(fake_discord, second.message.id, 3)
    lines3 = third.message.embeds[0]["description"].split("\n")
    assert len(lines3) == 4 and lines3[0].startswith("`#21`")
    assert third.message.component(f"club:lb:{guild}:arbaa_turub:0:2:n")["disabled"] is True
    await stop_club(fake_discord, app)


async def test_leaderboard_refusals_and_empty_board(fake_discord: Harness,
                                                    tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    empty = await alice.slash("leaderboard", game="turup")
    assert "No rated matches yet" in empty.message.embeds[0]["description"]
    assert not empty.message.custom_ids()
    unknown = await alice.slash("leaderboard", game="turup", season="Winter")
    assert unknown.ephemeral and "no rating season “Winter”" in unknown.content
    await stop_club(fake_discord, app)


async def test_stats_with_partners_and_the_rating_chart(fake_discord: Harness,
                                                        tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    for k, winner in enumerate((0, 0, 1)):
        await rated(app.store, guild, [[alice.id, bob.id], [77, 78]], winner,
                    when=MONDAY + dt.timedelta(hours=k), deals=DEALS)
    await rated(app.store, guild, [[alice.id, 79], [77, 78]], 0,
                when=MONDAY + dt.timedelta(hours=5))
    # The chart is slow work: force the deferred path, which must fill the loading message.
    monkeypatch.setattr(answer, "DEFER_AFTER", 0)
    result = await bob.slash("stats", user=alice, game="arbaa_turub")
    assert result.type == 5
    message = await result.wait_filled()
    embed = message.embeds[0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Arba'a Turub"].startswith("4 matches · 3 won · 0 drawn · 1 lost · "
                                             "win rate 75%")
    assert f"<@{bob.id}> — 3 matches, 2 won" == fields["Most frequent partner"]
    assert f"<@{bob.id}> — win rate 67% over 3 matches" == fields["Best partnership"]
    assert embed["image"]["url"] == "attachment://rating.png"
    chart = message.attachments[0]
    assert chart.filename == "rating.png"
    image = Image.open(io.BytesIO(chart.data))
    assert image.format == "PNG" and image.size == (800, 400)

    nobody = await fake_discord.user("carol").slash("stats")
    assert nobody.type == 5
    filled = await nobody.wait_filled()
    assert "no finished matches" in filled.content and not filled.attachments
    await stop_club(fake_discord, app)


async def test_history_lists_matches_and_sends_a_record(fake_discord: Harness,
                                                        tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    here = fake_discord.channel.id  # /history lists the channels the member can read
    older = await rated(app.store, guild, [[alice.id, bob.id], [77, None]], 0, deals=DEALS,
                        channel_id=here)
    newer = await rated(app.store, guild, [[alice.id, bob.id], [77, 78]], 1,
                        when=MONDAY + dt.timedelta(hours=1), channel_id=here)
    result = await alice.slash("history")
    assert not result.ephemeral
    lines = result.message.embeds[0]["description"].split("\n")
    assert lines[0].startswith(f"`#{newer}`") and lines[1].startswith(f"`#{older}`")
    assert f"**<@{alice.id}> & <@{bob.id}>** 2 – 0 <@77> & AI" in lines[1]
    assert f"<@{alice.id}> & <@{bob.id}> 0 – 2 **<@77> & <@78>**" in lines[0]
    select = result.message.component(f"club:rec:{guild}")
    assert [o["value"] for o in select["options"]] == [str(newer), str(older)]

    picked = await bob.select(result.message, f"club:rec:{guild}", [str(older)])
    record_message = await picked.wait_filled()
    assert record_message.ephemeral and record_message.ephemeral_for == bob.id
    attachment = record_message.attachments[0]
    assert attachment.filename == f"match-{older}.json"
    record = json.loads(attachment.data)
    assert record["game"] == "arbaa_turub"
    assert [d["summary"] for d in record["deals"]] == [d["summary"] for d in DEALS]

    player = await alice.slash("history", user=bob)
    assert player.ephemeral and "choose a game" in player.content
    player = await alice.slash("history", user=bob, game="arbaa_turub")
    expected = await player_history(app.store, bob.id, guild, "arbaa_turub")
    assert [int(m) for m in re.findall(r"^`#(\d+)`", player.message.embeds[0]["description"],
                                        re.M)] == [e.match_id for e in expected] != []
    await stop_club(fake_discord, app)


async def test_season_board_and_a_refusal_after_a_deferral(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    await rated(app.store, guild, [[1, 2], [3, 4]], 0)  # all-time only
    season = await start_rating_season(app.store, guild, "Spring",
                                       MONDAY + dt.timedelta(days=1))
    await rated(app.store, guild, [[5, 6], [7, 8]], 1, when=MONDAY + dt.timedelta(days=2))
    alice = fake_discord.user("alice")
    offered = await alice.autocomplete("leaderboard", focused="season", game="arbaa_turub",
                                       season="spr")
    assert offered == [{"name": "All time", "value": "all"},
                       {"name": "Spring (active)", "value": str(season.id)}]
    board = await alice.slash("leaderboard", game="arbaa_turub", season=str(season.id))
    embed = board.message.embeds[0]
    assert embed["title"] == "Arba'a Turub leaderboard — Spring"
    assert set(mentioned_ids(embed["description"])) == {5, 6, 7, 8}
    everyone = await alice.slash("leaderboard", game="arbaa_turub", season="all")
    assert "8 rated players" in everyone.message.embeds[0]["footer"]["text"]

    monkeypatch.setattr(answer, "DEFER_AFTER", 0)  # a refusal after the "thinking" message
    late = await alice.slash("leaderboard", game="arbaa_turub", season="Autumn")
    assert late.type == 5
    shown = await fake_discord.wait_until(
        lambda: late.message if late.message and not late.message.loading else None,
        what="the refusal")
    assert "no rating season “Autumn”" in shown.content and not shown.embeds
    await stop_club(fake_discord, app)


async def test_season_commands_start_and_end_rating_seasons(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    alice = fake_discord.user("alice")
    mona = fake_discord.user("mona", manager=True)
    with pytest.raises(CommandUnavailable):  # /season is for Manage Server only
        await alice.slash("season", "start", name="Spring")
    assert await app.store.list_seasons(guild, league_id=None) == []
    started = await mona.slash("season", "start", name="Spring")
    assert "**Spring** has started" in started.message.content
    seasons = await app.store.list_seasons(guild, league_id=None)
    assert [(s.name, s.status) for s in seasons] == [("Spring", "active")]
    again = await mona.slash("season", "start", name="Summer")  # ends Spring, starts Summer
    assert "**Summer** has started" in again.message.content
    statuses = {s.name: s.status for s in await app.store.list_seasons(guild, league_id=None)}
    assert statuses == {"Spring": "finished", "Summer": "active"}
    ended = await mona.slash("season", "end")
    assert "**Summer** has ended" in ended.message.content
    none_left = await mona.slash("season", "end")
    assert none_left.ephemeral and "no rating season is running" in none_left.message.content
    await stop_club(fake_discord, app)
