"""``/league …`` against the fake Discord: the whole flow (create → teams → schedule →
fixtures → report → confirm → standings → close) with the permission refusals, single
players and withdrawal, rejected and invalid reports, and the reminders posted to the
league's channel by the running scheduler on the table service's fake clock."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from club_app import start_club, stop_club
from fakediscord import Harness

from bot.leagues.service import create_league, join_league, start_league

# The fake clock starts on Monday 16 March 2026, 12:00 UTC: a Thursday 19:00 Berlin
# league (UTC+1 in March) plays round 1 on Thursday 19 March at 18:00 UTC.
KICKOFF = dt.datetime(2026, 3, 19, 18, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)


async def test_league_flow_with_teams_reports_and_permissions(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    guild = fake_discord.guild.id
    mona = fake_discord.user("mona", manager=True)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol, dave = fake_discord.user("carol"), fake_discord.user("dave")
    eve = fake_discord.user("eve")

    refused = await alice.slash("league", "create", name="Cup", game="arbaa_turub")
    assert refused.ephemeral and "Manage Server" in refused.content
    assert await app.store.list_leagues(guild) == []

    created = await mona.slash("league", "create", name="Cup", game="arbaa_turub", weekday=3,
                               time="19:00", timezone="Europe/Berlin")
    assert not created.ephemeral
    [league] = await app.store.list_leagues(guild)
    assert (league.name, league.channel_id, league.weekday, league.time_zone,
            league.start_time) == ("Cup", fake_discord.channel.id, 3, "Europe/Berlin",
                                   dt.time(19, 0))
    assert "Thursdays at 19:00 (Europe/Berlin)" in created.message.embeds[0]["description"]
    bad_zone = await mona.slash("league", "create", name="Other", game="turup",
                                timezone="Mars/Olympus")
    assert bad_zone.ephemeral and "unknown time zone 'Mars/Olympus'" in bad_zone.content
    zones = await mona.autocomplete("league", "create", focused="timezone", name="X",
                                    game="turup", timezone="berl")
    assert [c["value"] for c in zones] == ["Europe/Berlin"]
    pairs = await mona.slash("league", "create", name="Pairs", game="arbaa_turub", players=2)
    assert pairs.ephemeral and "needs 4 players" in pairs.content

    aces = await alice.slash("league", "team", "add", name="Aces", member1=alice,
                             member2=carol)
    assert not aces.ephemeral and "Team **Aces**" in aces.content
    not_mine = await eve.slash("league", "team", "add", name="Kings", member1=bob,
                               member2=dave)
    assert not_mine.ephemeral and "a team you play in" in not_mine.content
    twice = await bob.slash("league", "team", "add", name="Kings", member1=bob, member2=carol)
    assert twice.ephemeral and "already plays" in twice.content
    kings = await bob.slash("league", "team", "add", name="Kings", member1=bob, member2=dave)
    assert not kings.ephemeral
    single = await eve.slash("league", "join")
    assert single.ephemeral and "teams of two" in single.content
    choices = await alice.autocomplete("league", "join", focused="league", league="cu")
    assert choices == [{"name": "Cup (Arba'a Turub, open for entries)", "value": str(league.id)}]

    early = await alice.slash("league", "fixtures")
    assert early.ephemeral and "/league schedule" in early.content
    denied = await alice.slash("league", "schedule")
    assert denied.ephemeral and "Manage Server" in denied.content
    started = await mona.slash("league", "schedule", league="Cup")
    text = started.message.embeds[0]["description"]
    assert f"<t:{int(KICKOFF.timestamp())}:F>" in text
    assert "**Round 1**" in text and "Aces vs Kings" in text and "1 round, one a week" in text
    [fixture] = await app.store.list_fixtures(
        (await app.store.list_seasons(guild, league_id=league.id))[0].id)
    assert fixture.scheduled_at == KICKOFF and fixture.status == "scheduled"
    again = await mona.slash("league", "schedule")
    assert again.ephemeral and "already started" in again.content

    listed = await carol.slash("league", "fixtures")
    assert f"`#{fixture.id}` R1 · Aces vs Kings · <t:{int(KICKOFF.timestamp())}:F> · scheduled" \
        in listed.message.embeds[0]["description"]
    offered = await alice.autocomplete("league", "report", focused="fixture", fixture=fixture.id,
                                        result="1-0")
    assert [c["value"] for c in offered] == [fixture.id]
    assert await eve.autocomplete("league", "report", focused="fixture", fixture=fixture.id,
                                        result="1-0") == []

    outsider = await eve.slash("league", "report", fixture=fixture.id, result="20-16 22-14")
    assert outsider.ephemeral and "only the players of this fixture" in outsider.content
    short = await alice.slash("league", "report", fixture=fixture.id, result="20-16")
    assert short.ephemeral and "does not finish the match" in short.content
    garbled = await alice.slash("league", "report", fixture=fixture.id, result="20 to 16")
    assert garbled.ephemeral and "cannot read '20'" in garbled.content
    assert (await app.store.get_fixture(fixture.id)).status == "scheduled"  # type: ignore

    report = await alice.slash("league", "report", fixture=fixture.id, result="20-16, 22-14")
    assert not report.ephemeral
    assert "reports Aces 2–0 Kings (home win) over 2 deals" in report.content
    mentions = report.callback.json["data"]["allowed_mentions"]
    assert sorted(map(int, mentions["users"])) == sorted([bob.id, dave.id])
    assert "users" not in mentions.get("parse", [])
    assert {int(u["id"]) for u in report.message.payload["mentions"]} == {bob.id, dave.id}
    assert (await app.store.get_fixture(fixture.id)).status == "reported"  # type: ignore
    standings = await alice.slash("league", "standings")
    assert "**0 pts** · P0" in standings.message.embeds[0]["description"]  # not yet counted

    partner = await carol.click(report.message, f"club:fx:{fixture.id}:confirm")
    # refused at once: a private answer in the same request, the report unchanged
    assert partner.type == 4 and partner.ephemeral
    assert "only the opponents of the reporter" in partner.content
    assert (await app.store.get_fixture(fixture.id)).status == "reported"  # type: ignore
    confirmed = await dave.click(report.message, f"club:fx:{fixture.id}:confirm")
    message = await fake_discord.server.wait_for_message(
        fake_discord.channel, lambda m: m.id == confirmed.message.id and "✅" in m.content)
    assert "Aces 2–0 Kings (home win) — confirmed by" in message.content
    assert message.components == []
    assert (await app.store.get_fixture(fixture.id)).status == "played"  # type: ignore

    table = (await alice.slash("league", "standings")).message.embeds[0]["description"]
    lines = table.split("\n\n", 1)[1].split("\n")
    assert lines[0] == "`1.` **Aces** — **2 pts** · P1 W1 D0 L0 · 2:0 (+2)"
    assert lines[1] == "`2.` **Kings** — **0 pts** · P1 W0 D0 L1 · 0:2 (-2)"

    no_close = await carol.slash("league", "close")
    assert no_close.ephemeral and "Manage Server" in no_close.content
    closed = await mona.slash("league", "close", league=str(league.id))
    assert "final standings" in closed.message.embeds[0]["title"]
    assert "**Aces** — **2 pts**" in closed.message.embeds[0]["description"]
    assert (await app.store.get_league(league.id)).status == "closed"  # type: ignore
    gone = await alice.slash("league", "standings")
    assert gone.ephemeral and "no league running" in gone.content
    await stop_club(fake_discord, app)


async def test_single_players_withdrawal_and_rejected_reports(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    mona = fake_discord.user("mona", manager=True)
    alice, bob, carol = (fake_discord.user(n) for n in ("alice", "bob", "carol"))
    await mona.slash("league", "create", name="Duels", game="albastini", players=2,
                     weekday=3, time="19:00", timezone="Europe/Berlin", rounds="double")
    team = await alice.slash("league", "team", "add", name="X", member1=alice, member2=bob)
    assert team.ephemeral and "single players" in team.content
    for user in (alice, bob, carol):
        joined = await user.slash("league", "join", league="duels")
        assert joined.content == f"<@{user.id}> entered league **Duels**."
    dan = fake_discord.user("dan")
    await dan.slash("league", "join")
    early_exit = await dan.slash("league", "withdraw")
    assert "has not started: it is simply left out of the schedule" in early_exit.content
    not_in = await dan.slash("league", "withdraw")
    assert not_in.ephemeral and "does not play in league 'Duels'" in not_in.content
    wrong_day = await mona.slash("league", "schedule", first_day="2026-03-27")
    assert wrong_day.ephemeral and "league's weekday" in wrong_day.content
    started = await mona.slash("league", "schedule", first_day="2026-03-26")
    assert f"<t:{int((KICKOFF + 7 * 24 * H).timestamp())}:F>" in \
        started.message.embeds[0]["description"]
    [league] = await app.store.list_leagues(fake_discord.guild.id)
    season = (await app.store.list_seasons(fake_discord.guild.id, league_id=league.id))[0]
    fixtures = await app.store.list_fixtures(season.id)
    assert len(fixtures) == 12 and max(f.round for f in fixtures) == 6
    assert sum(f.away_entrant_id is None for f in fixtures) == 6  # one bye per round
    player = {e.id: e.members[0] for e in await app.store.list_entrants(season.id)}
    duel = next(f for f in fixtures if f.away_entrant_id is not None
                and {player[f.home_entrant_id], player[f.away_entrant_id]} == {alice.id, bob.id})
    reporter = alice if player[duel.home_entrant_id] == alice.id else bob
    opponent = bob if reporter is alice else alice
    json_sheet = json.dumps({"first_dealer": 1, "deals": [{"points_by_side": [80, 40]}] * 4})
    unfinished = await reporter.slash("league", "report", fixture=duel.id, result=json_sheet)
    assert unfinished.ephemeral and "does not finish the match" in unfinished.content
    sent = await reporter.slash("league", "report", fixture=duel.id,
                                result="80-40 80-40 80-40 80-40 80-40")
    assert not sent.ephemeral and "5–0" in sent.content and "(home win)" in sent.content
    assert f"<@{opponent.id}>: confirm or reject" in sent.content
    rejected = await opponent.slash("league", "reject", fixture=duel.id)
    assert "rejected by" in rejected.content
    assert (await app.store.get_fixture(duel.id)).status == "scheduled"  # type: ignore
    nothing = await opponent.slash("league", "confirm", fixture=duel.id)
    assert nothing.ephemeral and "no result waiting" in nothing.content

    other = await alice.slash("league", "withdraw", member=carol)
    assert other.ephemeral and "Manage Server" in other.content
    left = await carol.slash("league", "withdraw")
    assert not left.ephemeral
    carol_fixtures = [f for f in fixtures if carol.id in (
        player[f.home_entrant_id], player.get(f.away_entrant_id or 0))]
    byes = [f for f in carol_fixtures if f.away_entrant_id is None]
    played = [f for f in carol_fixtures if f.away_entrant_id is not None]
    assert len(played) > 1 and len(byes) > 1
    assert f"{len(played)} unplayed fixtures become forfeits won by the opponent" \
        in left.content
    assert f"{len(byes)} byes of theirs are void" in left.content
    for f in carol_fixtures:
        status = (await app.store.get_fixture(f.id)).status  # type: ignore[union-attr]
        assert status == ("void" if f.away_entrant_id is None else "forfeit")
    rejoin = await carol.slash("league", "join")
    assert rejoin.ephemeral and "not taking entrants" in rejoin.content
    await stop_club(fake_discord, app)


async def test_reminders_are_posted_to_the_league_channel(fake_discord: Harness,
                                                          tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path, reminders=True)
    server, channel = fake_discord.server, fake_discord.channel
    players = [fake_discord.user(n) for n in ("alice", "bob", "carol", "dave")]
    league = await create_league(app.store, fake_discord.guild.id, channel.id, "Cup", "turup",
                                 weekday=3, start_time=dt.time(19, 0),
                                 time_zone="Europe/Berlin")
    await join_league(app.store, league.id, [players[0].id, players[2].id], name="Aces")
    await join_league(app.store, league.id, [players[1].id, players[3].id], name="Kings")
    [fixture] = await start_league(app.store, league.id, app.clock.now())
    assert fixture.scheduled_at == KICKOFF
    ids = {p.id for p in players}

    async def reminder(after: dt.datetime, words: str) -> None:
        before = len(server.calls("POST /channels/{channel_id}/messages"))
        # The scheduler's loop is asleep on the fake clock until its next pass.
        await fake_discord.wait_until(lambda: app.clock.sleepers or None,
                                      what="the reminder loop asleep")
        await app.clock.advance(to=after)
        message = await server.wait_for_message(channel, lambda m: words in m.content)
        assert "**Cup**, round 1: Aces (" in message.content
        assert {int(u["id"]) for u in message.payload["mentions"]} == ids
        posts = server.calls("POST /channels/{channel_id}/messages")
        assert len(posts) == before + 1  # exactly one reminder, never a stale one
        allowed = posts[-1].json["allowed_mentions"]  # exactly the fixture's members
        assert allowed["parse"] == [] and set(map(int, allowed["users"])) == ids

    await reminder(KICKOFF - 24 * H, f"starts in 24 hours, <t:{int(KICKOFF.timestamp())}:F>")
    await reminder(KICKOFF - H, "starts in 1 hour")
    await reminder(KICKOFF + dt.timedelta(minutes=2), "starts now")

    cog = app.cog("ClubLeagues")
    task = cog._task
    assert task is not None and not task.done()
    await app.bot.remove_cog("ClubLeagues")  # cog_unload stops the scheduler
    assert task.done() and cog._task is None
    await stop_club(fake_discord, app)
