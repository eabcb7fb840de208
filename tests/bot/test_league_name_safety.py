"""A league team named to ping and to link (issue 35, P1), against the fake Discord: the
schedule announcement, ``/league fixtures``, ``/league standings`` and the fixture reminder
show the name literally (no live mention, masked link or bold from it), and the reminder
may ping exactly the fixture's members."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from club_app import start_club, stop_club
from fakediscord import Harness

from bot.leagues.service import LeagueView, create_league, join_league, league_view
from storage import open_store

# The club bot's fake clock starts on Monday 16 March 2026, 12:00 UTC: a Thursday 19:00
# Berlin league plays round 1 on Thursday 19 March at 18:00 UTC.
KICKOFF = dt.datetime(2026, 3, 19, 18, 0, tzinfo=dt.UTC)


def hostile(victim: int) -> str:
    """The review's 47-character team name: pings a member, links, and bolds."""
    return f"<@{victim}> [x](https://e.vil) **b**"


def live(text: str) -> str:
    """What Discord reads as markup in ``text``: backslash-escaped characters taken out."""
    return re.sub(r"\\.", "", text, flags=re.DOTALL)


def assert_inert(text: str, victim: int) -> None:
    """Nothing of the hostile name is markup in ``text``: no mention, link or bold."""
    shown = live(text)
    assert f"<@{victim}>" not in shown, text
    assert "[x]" not in shown and "](" not in shown, text
    assert "**b**" not in shown, text


def embed_text(message: Any) -> str:
    return "\n".join(f"{e.get('title', '')}\n{e.get('description', '')}"
                     for e in message.embeds)


async def test_a_team_name_neither_pings_nor_links_in_any_league_message(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path, reminders=True)
    server, channel = fake_discord.server, fake_discord.channel
    mona = fake_discord.user("mona", manager=True)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol, dave = fake_discord.user("carol"), fake_discord.user("dave")
    victim = fake_discord.user("victim")
    name = hostile(victim.id)

    created = await mona.slash("league", "create", name="Club League", game="turup",
                               weekday=3, time="19:00", timezone="Europe/Berlin")
    assert not created.ephemeral
    team = await alice.slash("league", "team", "add", name=name, member1=alice, member2=bob)
    assert not team.ephemeral, team.content
    assert_inert(team.content, victim.id)
    kings = await carol.slash("league", "team", "add", name="Kings", member1=carol,
                              member2=dave)
    assert not kings.ephemeral

    started = await mona.slash("league", "schedule")
    announcement = embed_text(started.message)
    assert " vs Kings" in announcement
    assert_inert(announcement, victim.id)
    fixtures = await alice.slash("league", "fixtures")
    assert " vs Kings" in embed_text(fixtures.message)
    assert_inert(embed_text(fixtures.message), victim.id)
    standings = await alice.slash("league", "standings")
    assert "Kings" in embed_text(standings.message)
    assert_inert(embed_text(standings.message), victim.id)

    await fake_discord.wait_until(lambda: app.clock.sleepers or None,
                                  what="the reminder loop asleep")
    await app.clock.advance(to=KICKOFF - dt.timedelta(hours=24))
    reminder = await server.wait_for_message(channel, lambda m: "starts in 24 hours"
                                             in m.content)
    assert_inert(reminder.content, victim.id)
    players = {alice.id, bob.id, carol.id, dave.id}
    assert {int(u["id"]) for u in reminder.payload["mentions"]} == players
    post = server.calls("POST /channels/{channel_id}/messages")[-1]
    allowed = post.json["allowed_mentions"]
    assert allowed.get("parse", []) == [] and set(map(int, allowed["users"])) == players
    await stop_club(fake_discord, app)


async def test_team_names_are_stored_clean_and_labelled_escaped_or_by_their_members(
        tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        league = await create_league(store, 1, 2, "Cup", "turup", weekday=3,
                                     start_time=dt.time(19, 0), time_zone="Europe/Berlin")
        shout = await join_league(store, league.id, [11, 13], name="**Aces**\u2029\u202e")
        assert shout.name == "**Aces**"  # stored cleaned, shown escaped
        blank = await join_league(store, league.id, [12, 14], name="\u200b\u2029")
        assert blank.name == "Team 2"
        # a name stored before names were cleaned, with nothing visible: the members
        older = await store.add_entrant(blank.season_id, [15, 16], name="\u200b")
        view: LeagueView = await league_view(store, league.id)
        assert view.label(shout.id) == "\\*\\*Aces\\*\\*"
        assert view.label(older.id) == "<@15> & <@16>"
    finally:
        await store.close()
