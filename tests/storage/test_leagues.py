"""Contract: leagues, seasons, entrants, fixtures and reminders (both backends)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from storage import (
    ChannelLocation,
    ConstraintViolation,
    NewFixture,
    NotFound,
    SqlStore,
    open_store,
)

GUILD = 300
EVENING = dt.time(20, 30)


async def test_league_create_get_list_update(store: SqlStore) -> None:
    league = await store.create_league(
        GUILD,
        1,
        "Thursday Tarabish",
        "tarabish",
        weekday=3,
        start_time=EVENING,
        time_zone="Europe/Belgrade",
        options={"target": 1001},
        rounds="double",
    )
    assert (league.weekday, league.start_time, league.time_zone) == (3, EVENING, "Europe/Belgrade")
    assert (league.points_win, league.points_draw, league.points_loss) == (3, 1, 0)
    assert league.status == "draft" and league.rounds == "double"
    assert league.options == {"target": 1001}
    assert await store.get_league(league.id) == league
    other = await store.create_league(
        GUILD, 2, "Truf", "truf", weekday=0, start_time=dt.time(9), time_zone="UTC"
    )
    await store.create_league(
        GUILD + 1, 2, "Elsewhere", "truf", weekday=0, start_time=dt.time(9), time_zone="UTC"
    )
    assert [x.id for x in await store.list_leagues(GUILD)] == [league.id, other.id]

    updated = await store.update_league(
        league.id, status="active", weekday=4, start_time=dt.time(19), points_draw=2
    )
    assert (updated.status, updated.weekday, updated.start_time, updated.points_draw) == (
        "active",
        4,
        dt.time(19),
        2,
    )
    assert updated.name == league.name and updated.updated_at >= league.updated_at
    assert await store.get_league(league.id) == updated
    with pytest.raises(NotFound):
        await store.update_league(league.id + 100, status="active")
    assert await store.get_league(league.id + 100) is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("weekday", 7),
        ("weekday", -1),
        ("start_time", dt.time(20, 30, 15)),
        ("start_time", dt.time(20, tzinfo=dt.UTC)),
        ("rounds", "triple"),
        ("points_win", 1.5),
    ],
)
async def test_league_rejects_bad_values(store: SqlStore, field: str, value: object) -> None:
    kwargs: dict[str, object] = {"weekday": 1, "start_time": EVENING, "time_zone": "UTC"}
    kwargs[field] = value
    with pytest.raises(ValueError):
        await store.create_league(GUILD, 1, "L", "truf", **kwargs)  # type: ignore[arg-type]
    assert await store.list_leagues(GUILD) == []


async def test_seasons(store: SqlStore) -> None:
    league = await store.create_league(
        GUILD, 1, "L", "truf", weekday=1, start_time=EVENING, time_zone="UTC"
    )
    start = dt.datetime(2025, 9, 1, tzinfo=dt.UTC)
    first = await store.create_season(GUILD, "Autumn", league_id=league.id, starts_at=start)
    rating_season = await store.create_season(GUILD, "2025")
    assert first.status == "planned" and first.starts_at == start and first.ends_at is None
    assert rating_season.league_id is None
    assert await store.get_season(first.id) == first
    assert [s.id for s in await store.list_seasons(GUILD)] == [first.id, rating_season.id]
    assert [s.id for s in await store.list_seasons(GUILD, league_id=league.id)] == [first.id]
    assert [s.id for s in await store.list_seasons(GUILD, league_id=None)] == [rating_season.id]
    end = dt.datetime(2025, 12, 1, tzinfo=dt.UTC)
    done = await store.update_season(first.id, status="finished", ends_at=end, starts_at=None)
    assert (done.status, done.ends_at, done.starts_at) == ("finished", end, None)
    with pytest.raises(NotFound):
        await store.update_season(first.id + 100, status="x")
    with pytest.raises(ConstraintViolation):
        await store.create_season(GUILD, "orphan", league_id=league.id + 100)


async def test_entrants(store: SqlStore) -> None:
    season = await store.create_season(GUILD, "S")
    team = await store.add_entrant(season.id, [5, 3], name="Aces")
    solo = await store.add_entrant(season.id, [7])
    assert team.members == (5, 3) and team.name == "Aces"
    assert solo.members == (7,) and solo.name is None
    assert await store.get_entrant(team.id) == team
    assert await store.list_entrants(season.id) == [team, solo]
    renamed = await store.update_entrant(team.id, name="Kings", members=[3, 9, 5])
    assert renamed.name == "Kings" and renamed.members == (3, 9, 5)
    assert (await store.update_entrant(team.id, name=None)).members == (3, 9, 5)
    for bad in ([], [1, 1]):
        with pytest.raises(ValueError):
            await store.add_entrant(season.id, bad)
    with pytest.raises(NotFound):
        await store.update_entrant(team.id + 100, name="x")
    assert await store.get_entrant(team.id + 100) is None
    with pytest.raises(ConstraintViolation):
        await store.add_entrant(season.id + 100, [1])


async def test_fixtures(store: SqlStore) -> None:
    season = await store.create_season(GUILD, "S")
    a, b, c = [await store.add_entrant(season.id, [u]) for u in (1, 2, 3)]
    monday = dt.datetime(2025, 9, 1, 18, tzinfo=dt.UTC)
    created = await store.create_fixtures(
        season.id,
        [
            NewFixture(1, a.id, b.id, monday),
            NewFixture(1, c.id, None),  # bye
            NewFixture(2, b.id, c.id, monday + dt.timedelta(days=7)),
        ],
    )
    assert [f.round for f in created] == [1, 1, 2]
    assert created[1].away_entrant_id is None and created[1].scheduled_at is None
    assert created[0].status == "scheduled" and created[0].result is None
    assert await store.get_fixture(created[0].id) == created[0]
    assert await store.list_fixtures(season.id) == created
    assert await store.list_fixtures(season.id, round=2) == created[2:]

    due = await store.fixtures_due(monday + dt.timedelta(hours=1))
    assert [f.id for f in due] == [created[0].id]
    assert len(await store.fixtures_due(monday + dt.timedelta(days=30))) == 2

    played = await store.update_fixture(
        created[0].id, status="confirmed", result={"home": 2, "away": 0}, confirmed_by=1
    )
    assert (played.status, played.result, played.confirmed_by) == (
        "confirmed",
        {"home": 2, "away": 0},
        1,
    )
    assert await store.fixtures_due(monday + dt.timedelta(hours=1)) == []
    cleared = await store.update_fixture(created[0].id, result=None, confirmed_by=None)
    assert cleared.result is None and cleared.confirmed_by is None
    with pytest.raises(NotFound):
        await store.update_fixture(created[0].id + 100, status="x")
    with pytest.raises(ConstraintViolation):  # an unknown entrant: nothing is created
        await store.create_fixtures(
            season.id, [NewFixture(3, a.id, b.id), NewFixture(3, a.id, 999)]
        )
    assert len(await store.list_fixtures(season.id)) == 3


async def test_fixture_links_to_table_and_match(store: SqlStore) -> None:
    season = await store.create_season(GUILD, "S")
    a, b = [await store.add_entrant(season.id, [u]) for u in (1, 2)]
    (fixture,) = await store.create_fixtures(season.id, [NewFixture(1, a.id, b.id)])
    table = await store.create_table(ChannelLocation(GUILD, 5), "truf")
    linked = await store.update_fixture(fixture.id, table_id=table.id, status="playing")
    assert linked.table_id == table.id and linked.match_id is None
    with pytest.raises(ConstraintViolation):
        await store.update_fixture(fixture.id, match_id=4242)


async def test_reminders_are_claimed_once(store: SqlStore, store_url: str) -> None:
    season = await store.create_season(GUILD, "S")
    a = await store.add_entrant(season.id, [1])
    (fixture,) = await store.create_fixtures(season.id, [NewFixture(1, a.id)])
    assert await store.mark_reminder_sent(fixture.id, "24h") is True
    assert await store.mark_reminder_sent(fixture.id, "24h") is False
    other = await open_store(store_url)  # another process racing for the same reminder
    try:
        claims = await asyncio.gather(
            *(s.mark_reminder_sent(fixture.id, "1h") for s in (store, other) * 3)
        )
    finally:
        await other.close()
    assert claims.count(True) == 1
    sent = await store.reminders_sent(fixture.id)
    assert list(sent) == ["1h", "24h"] and all(t.tzinfo is not None for t in sent.values())
    with pytest.raises(ConstraintViolation):
        await store.mark_reminder_sent(fixture.id + 100, "1h")
