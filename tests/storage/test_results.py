"""Contract: matches, deals, ratings, leaderboards and statistics (both backends)."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt

import pytest

from storage import (
    ChannelLocation,
    ConstraintViolation,
    DealRecord,
    MatchRecord,
    NotFound,
    Participant,
    RatingUpdate,
    SqlStore,
    TerminalLocation,
    open_store,
)
from storage.models import MatchChannels

GUILD = 100
FINISHED = dt.datetime(2025, 3, 1, 20, 0, tzinfo=dt.UTC)


async def finished_table(store: SqlStore, channel: int, game: str = "tarabish") -> int:
    table = await store.create_table(ChannelLocation(GUILD, channel), game, status="playing")
    await store.update_table(table.id, status="finished")
    return table.id


def team_match(
    table_id: int,
    winners: tuple[int | None, int | None],
    losers: tuple[int | None, int | None],
    *,
    game: str = "tarabish",
    guild_id: int | None = GUILD,
    deals: int = 3,
    finished_at: dt.datetime = FINISHED,
    season_id: int | None = None,
) -> MatchRecord:
    """A four-seat partnership match: seats 0 and 2 beat seats 1 and 3."""
    seats = [
        Participant(0, winners[0], 0, "win", 1),
        Participant(1, losers[0], 1, "loss", 2),
        Participant(2, winners[1], 0, "win", 1),
        Participant(3, losers[1], 1, "loss", 2),
    ]
    return MatchRecord(
        table_id=table_id,
        game=game,
        guild_id=guild_id,
        finished_at=finished_at,
        result={"totals": [501, 312]},
        participants=tuple(seats),
        deals=tuple(
            DealRecord(n, {"deal": n, "tricks": [[1, 2, 3, 4]]}) for n in range(1, deals + 1)
        ),
        season_id=season_id,
        started_at=finished_at - dt.timedelta(minutes=40),
    )


async def test_record_match_once(store: SqlStore) -> None:
    table_id = await finished_table(store, 1)
    record = team_match(table_id, (1, 2), (3, None))
    assert await store.record_match(record) is True
    assert await store.record_match(record) is False
    changed = dataclasses.replace(record, result={"other": 1}, participants=record.participants[:2])
    assert await store.record_match(changed) is False  # the first record stands
    match = await store.get_match_for_table(table_id)
    assert match is not None
    assert await store.get_match(match.id) == match
    assert match.result == {"totals": [501, 312]} and len(match.participants) == 4
    assert match.table_id == table_id and match.game == "tarabish" and match.guild_id == GUILD
    assert match.result == {"totals": [501, 312]} and match.rated is True
    assert match.deal_count == 3 and match.finished_at == FINISHED
    assert match.started_at == FINISHED - dt.timedelta(minutes=40)
    assert [p.user_id for p in match.participants] == [1, 3, 2, None]
    assert match.participants[3] == Participant(3, None, 1, "loss", 2)
    deals = await store.load_deals(match.id)
    assert [d.deal_no for d in deals] == [1, 2, 3]
    assert deals[0].record == {"deal": 1, "tricks": [[1, 2, 3, 4]]}
    assert await store.get_match(match.id + 1) is None


async def test_record_match_from_two_processes_stores_once(store: SqlStore, store_url: str) -> None:
    table_id = await finished_table(store, 1)
    other = await open_store(store_url)  # a second pool / connection, like another process
    try:
        record = team_match(table_id, (1, 2), (3, 4))
        results = await asyncio.gather(
            *(s.record_match(record) for s in (store, other, store, other))
        )
    finally:
        await other.close()
    assert sorted(results) == [False, False, False, True]
    match = await store.get_match_for_table(table_id)
    assert match is not None and len(match.participants) == 4
    assert len(await store.load_deals(match.id)) == 3


async def test_record_match_checks(store: SqlStore) -> None:
    with pytest.raises(NotFound):
        await store.record_match(team_match(999, (1, 2), (3, 4)))
    table_id = await finished_table(store, 1)
    bad_seats = MatchRecord(
        table_id,
        "truf",
        GUILD,
        FINISHED,
        {},
        (Participant(0, 1, 0, "win"), Participant(0, 2, 1, "loss")),
    )
    with pytest.raises(ValueError):
        await store.record_match(bad_seats)
    with pytest.raises(ValueError):
        await store.record_match(MatchRecord(table_id, "truf", GUILD, FINISHED, {}, ()))
    with pytest.raises(ValueError):
        await store.record_match(
            team_match(table_id, (1, 2), (3, 4), finished_at=dt.datetime(2025, 1, 1))
        )
    with pytest.raises(ConstraintViolation):  # unknown season: nothing is written
        await store.record_match(team_match(table_id, (1, 2), (3, 4), season_id=12345))
    assert await store.get_match_for_table(table_id) is None
    assert await store.record_match(team_match(table_id, (1, 2), (3, 4))) is True


async def test_terminal_matches_are_recorded_but_not_rated(store: SqlStore) -> None:
    table = await store.create_table(TerminalLocation("local"), "truf")
    record = team_match(table.id, (None, None), (None, None), guild_id=None, game="truf")
    assert await store.record_match(record)
    match = await store.get_match_for_table(table.id)
    assert match is not None and match.guild_id is None
    with pytest.raises(ValueError):
        await store.record_ratings(match.id, [RatingUpdate(1, 25.0, 8.0, True)])


# -- ratings -----------------------------------------------------------------------------


async def play(
    store: SqlStore,
    channel: int,
    winners: tuple[int | None, int | None],
    losers: tuple[int | None, int | None],
    *,
    game: str = "tarabish",
    deals: int = 3,
) -> int:
    """Record a finished partnership match in GUILD; return its match id."""
    table_id = await finished_table(store, channel, game)
    assert await store.record_match(team_match(table_id, winners, losers, game=game, deals=deals))
    match = await store.get_match_for_table(table_id)
    assert match is not None
    return match.id


async def test_record_ratings_once_per_match_and_season(store: SqlStore) -> None:
    match_id = await play(store, 1, (1, 2), (3, 4))
    updates = [
        RatingUpdate(1, 27.0, 8.0, True),
        RatingUpdate(2, 26.0, 7.0, True),
        RatingUpdate(3, 23.0, 8.0, False),
    ]
    assert await store.record_ratings(match_id, updates) is True
    assert await store.record_ratings(match_id, updates) is False
    season = await store.create_season(GUILD, "Spring")
    assert await store.record_ratings(match_id, updates[:1], season_id=season.id) is True
    ratings = await store.get_ratings(GUILD, "tarabish", [1, 2, 3, 4, 5])
    assert sorted(ratings) == [1, 2, 3]
    assert ratings[1].mu == 27.0 and ratings[1].sigma == 8.0
    assert ratings[1].conservative == pytest.approx(27.0 - 24.0)
    assert (ratings[1].matches, ratings[1].wins) == (1, 1)
    assert (ratings[3].matches, ratings[3].wins) == (1, 0)
    seasonal = await store.get_ratings(GUILD, "tarabish", [1, 2], season_id=season.id)
    assert list(seasonal) == [1] and seasonal[1].matches == 1
    assert await store.get_ratings(GUILD, "truf", [1]) == {}
    assert await store.get_ratings(GUILD, "tarabish", []) == {}

    second = await play(store, 2, (3, 4), (1, 2))
    assert await store.record_ratings(second, [RatingUpdate(1, 25.5, 7.5, False)])
    after = (await store.get_ratings(GUILD, "tarabish", [1]))[1]
    assert (after.mu, after.sigma, after.matches, after.wins) == (25.5, 7.5, 2, 1)
    history = await store.rating_history(1, GUILD, "tarabish")
    assert [(h.match_id, h.mu) for h in history] == [(second, 25.5), (match_id, 27.0)]
    assert history[0].conservative == pytest.approx(25.5 - 22.5)
    assert [
        h.match_id for h in await store.rating_history(1, GUILD, "tarabish", season_id=season.id)
    ] == [match_id]


async def test_record_ratings_checks(store: SqlStore) -> None:
    with pytest.raises(NotFound):
        await store.record_ratings(4242, [RatingUpdate(1, 25.0, 8.0, True)])
    match_id = await play(store, 1, (1, 2), (3, 4))
    for bad in (
        [],
        [RatingUpdate(1, 25.0, 8.0, True), RatingUpdate(1, 25.0, 8.0, True)],
        [RatingUpdate(1, float("inf"), 8.0, True)],
        [RatingUpdate(1, 25.0, 0.0, True)],
    ):
        with pytest.raises(ValueError):
            await store.record_ratings(match_id, bad)
    assert await store.get_ratings(GUILD, "tarabish", [1]) == {}


async def test_leaderboard_order_paging_and_scopes(store: SqlStore) -> None:
    # (user, mu, sigma): conservative = mu - 3 sigma
    players = [
        (1, 30.0, 5.0),
        (2, 25.0, 1.0),
        (3, 40.0, 9.0),
        (4, 28.0, 2.0),
        (5, 22.0, 0.5),
        (6, 25.0, 1.0),
    ]
    for user_id, _, _ in players:
        await store.upsert_player(user_id, f"player {user_id}")
    match_id = await play(store, 1, (1, 2), (3, 4))
    await store.record_ratings(
        match_id, [RatingUpdate(u, mu, s, u % 2 == 1) for u, mu, s in players]
    )
    other_game = await play(store, 2, (1, 2), (3, 4), game="truf")
    await store.record_ratings(other_game, [RatingUpdate(9, 50.0, 1.0, True)])

    page = await store.leaderboard(GUILD, "tarabish", limit=4)
    assert page.total == 6 and (page.offset, page.limit) == (0, 4)
    # conservative: 1 → 15, 2 → 22, 3 → 13, 4 → 22, 5 → 20.5, 6 → 22 (ties by user id)
    assert [e.user_id for e in page.entries] == [2, 4, 6, 5]
    assert [e.rank for e in page.entries] == [1, 2, 3, 4]
    assert page.entries[0].display_name == "player 2"
    assert page.entries[0].conservative == pytest.approx(22.0)
    rest = await store.leaderboard(GUILD, "tarabish", limit=4, offset=4)
    assert [(e.rank, e.user_id) for e in rest.entries] == [(5, 1), (6, 3)]
    assert [e.user_id for e in (await store.leaderboard(GUILD, "truf")).entries] == [9]
    assert (await store.leaderboard(GUILD + 1, "tarabish")).total == 0
    assert (await store.leaderboard(GUILD, "tarabish", season_id=77)).entries == []
    with pytest.raises(ValueError):
        await store.leaderboard(GUILD, "tarabish", limit=0)


async def test_leaderboard_names_are_optional(store: SqlStore) -> None:
    match_id = await play(store, 1, (1, 2), (3, 4))
    await store.record_ratings(match_id, [RatingUpdate(77, 25.0, 8.0, True)])
    (entry,) = (await store.leaderboard(GUILD, "tarabish")).entries
    assert entry.user_id == 77 and entry.display_name is None


async def test_player_stats_and_partners(store: SqlStore) -> None:
    await store.upsert_player(1, "Ana")
    await store.upsert_player(2, "Bo")
    await play(store, 1, (1, 2), (3, 4), deals=3)
    await play(store, 2, (1, 2), (3, 4), deals=4)
    await play(store, 3, (3, 1), (2, 4), deals=2)
    await play(store, 4, (1, 5), (6, 7), deals=5, game="truf")
    # Another guild.
    other = await store.create_table(ChannelLocation(GUILD + 1, 1), "tarabish")
    await store.record_match(team_match(other.id, (3, 4), (1, 2), deals=1, guild_id=GUILD + 1))

    stats = await store.player_stats(1)
    assert stats.display_name == "Ana"
    by_game = {g.game: g for g in stats.games}
    assert [g.game for g in stats.games] == ["tarabish", "truf"]
    assert (by_game["tarabish"].matches, by_game["tarabish"].wins, by_game["tarabish"].losses) == (
        4,
        3,
        1,
    )
    assert by_game["tarabish"].deals == 3 + 4 + 2 + 1
    assert (by_game["truf"].matches, by_game["truf"].wins, by_game["truf"].deals) == (1, 1, 5)
    assert (stats.matches, stats.wins, stats.deals) == (5, 4, 15)
    local = await store.player_stats(1, guild_id=GUILD)
    assert local.matches == 4 and local.deals == 14
    nobody = await store.player_stats(999)
    assert nobody.games == () and nobody.display_name is None

    partners = await store.player_partners(1)
    assert [(p.user_id, p.matches, p.wins) for p in partners] == [(2, 3, 2), (3, 1, 1), (5, 1, 1)]
    assert partners[0].display_name == "Bo"
    assert [p.user_id for p in await store.player_partners(1, game="truf")] == [5]
    assert [(p.user_id, p.matches) for p in await store.player_partners(1, guild_id=GUILD)] == [
        (2, 2),
        (3, 1),
        (5, 1),
    ]
    assert len(await store.player_partners(1, limit=1)) == 1


async def test_ai_seats_are_never_partners(store: SqlStore) -> None:
    await play(store, 1, (1, None), (None, None))
    assert await store.player_partners(1) == []
    stats = await store.player_stats(1)
    assert stats.matches == 1 and stats.wins == 1


async def test_list_matches_newest_first_with_filters_and_paging(store: SqlStore) -> None:
    ids = []
    for n, (game, people) in enumerate([("tarabish", (1, 2)), ("turup", (1, 5)),
                                         ("tarabish", (6, 7))]):
        table_id = await finished_table(store, 100 + n, game)
        await store.record_match(team_match(table_id, people, (3, 4), game=game))
        found = await store.get_match_for_table(table_id)
        assert found is not None
        ids.append(found.id)
    other = await finished_table(store, 200)
    await store.record_match(team_match(other, (1, 2), (3, 4), guild_id=GUILD + 1))
    listed = await store.list_matches(GUILD)
    assert [m.id for m in listed] == ids[::-1]
    assert [p.user_id for p in listed[-1].participants] == [1, 3, 2, 4]
    assert [m.id for m in await store.list_matches(GUILD, game="tarabish")] == [ids[2], ids[0]]
    assert [m.id for m in await store.list_matches(GUILD, user_id=1)] == [ids[1], ids[0]]
    assert [m.id for m in await store.list_matches(GUILD, limit=1, before_id=ids[2])] == [
        ids[1]]
    assert await store.list_matches(GUILD, game="truf") == []


async def test_list_matches_pages_by_offset(store: SqlStore) -> None:
    """``offset`` pages the same newest-first order, with every filter; pages of 10 put
    together are the whole list, and a page past the end is empty."""
    ids = []
    for n in range(23):
        game = "turup" if n % 3 == 0 else "tarabish"
        table_id = await finished_table(store, 300 + n, game)
        await store.record_match(team_match(table_id, (1, 2 + n % 2), (3, 4), game=game))
        found = await store.get_match_for_table(table_id)
        assert found is not None
        ids.append(found.id)
    other = await finished_table(store, 400)
    await store.record_match(team_match(other, (1, 2), (3, 4), guild_id=GUILD + 1))
    newest_first = ids[::-1]
    pages = [[m.id for m in await store.list_matches(GUILD, limit=10, offset=offset)]
             for offset in (0, 10, 20, 30)]
    assert pages == [newest_first[:10], newest_first[10:20], newest_first[20:], []]
    tarabish = [i for n, i in enumerate(ids) if n % 3 != 0][::-1]
    assert [m.id for m in await store.list_matches(GUILD, game="tarabish", limit=5,
                                                   offset=5)] == tarabish[5:10]
    with_2 = [i for n, i in enumerate(ids) if n % 2 == 0][::-1]
    assert [m.id for m in await store.list_matches(GUILD, user_id=2, limit=4,
                                                   offset=4)] == with_2[4:8]
    second = await store.list_matches(GUILD, limit=3, offset=3)
    assert [p.user_id for p in second[0].participants] == [1, 3, 2 + (22 - 3) % 2, 4]
    # Keyset and offset together: skip ``offset`` of the ids below ``before_id``.
    assert [m.id for m in await store.list_matches(GUILD, limit=2, offset=1,
                                                   before_id=newest_first[4])] == \
        newest_first[6:8]
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match="offset"):
            await store.list_matches(GUILD, offset=bad)  # type: ignore[arg-type]


async def test_rating_history_pages_by_offset_in_finish_order(store: SqlStore) -> None:
    """``offset`` pages the history newest first by finish time (not by match id), ties
    by match id; only the player's own rows, of the season asked for."""
    finished = [FINISHED + dt.timedelta(hours=h) for h in (5, 1, 3, 3, 0, 4, 2)]
    ids = []
    for n, when in enumerate(finished):
        table_id = await finished_table(store, 500 + n)
        await store.record_match(team_match(table_id, (1, 2), (3, 4), finished_at=when))
        found = await store.get_match_for_table(table_id)
        assert found is not None
        ids.append(found.id)
        assert await store.record_ratings(found.id, [RatingUpdate(1, 25.0 + n, 8.0, True)])
    newest_first = [i for _, i in sorted(zip(finished, ids, strict=True), reverse=True)]
    pages = [[h.match_id for h in await store.rating_history(1, GUILD, "tarabish", limit=3,
                                                             offset=offset)]
             for offset in (0, 3, 6, 9)]
    assert pages == [newest_first[:3], newest_first[3:6], newest_first[6:], []]
    assert [i for page in pages for i in page] == [
        h.match_id for h in await store.rating_history(1, GUILD, "tarabish")]
    assert await store.rating_history(2, GUILD, "tarabish", offset=0) == []
    season = await store.create_season(GUILD, "Autumn")
    assert await store.rating_history(1, GUILD, "tarabish", season_id=season.id,
                                      offset=1) == []
    for bad in (-1, False):
        with pytest.raises(ValueError, match="offset"):
            await store.rating_history(1, GUILD, "tarabish", offset=bad)


async def test_matches_keep_their_channel_and_list_only_admitted_channels(
        store: SqlStore) -> None:
    """A match keeps the channel it was played in; ``channels`` lists only the matches of
    readable channels (with ``known``: also those of an unknown or deleted channel), in
    the query, so pages stay full and the rating history pages the same way."""
    public, private, deleted = 71, 72, 73
    where = [public, private, public, None, private, deleted, public, private, public]
    ids = []
    for n, channel in enumerate(where):
        table_id = await finished_table(store, 600 + n)
        record = team_match(table_id, (1, 2), (3, 4),
                            finished_at=FINISHED + dt.timedelta(hours=n))
        await store.record_match(dataclasses.replace(record, channel_id=channel))
        found = await store.get_match_for_table(table_id)
        assert found is not None and found.channel_id == channel
        assert await store.get_match(found.id) == found
        assert await store.record_ratings(found.id, [RatingUpdate(1, 25.0, 8.0, True)])
        ids.append(found.id)
    newest = ids[::-1]

    def of(*channels: int | None) -> list[int]:
        return [i for i, c in zip(newest, where[::-1], strict=True) if c in channels]

    member = MatchChannels(frozenset({public}))
    pages = [[m.id for m in await store.list_matches(GUILD, limit=2, offset=offset,
                                                     channels=member)]
             for offset in (0, 2, 4)]
    assert pages == [of(public)[:2], of(public)[2:], []]
    history = [[h.match_id for h in await store.rating_history(
        1, GUILD, "tarabish", limit=3, offset=offset, channels=member)] for offset in (0, 3)]
    assert history == [of(public)[:3], of(public)[3:]]
    both = MatchChannels(frozenset({public, private}))
    assert [m.id for m in await store.list_matches(GUILD, channels=both)] == of(public,
                                                                               private)
    manager = MatchChannels(frozenset({public}), known=frozenset({public, private}))
    assert [m.id for m in await store.list_matches(GUILD, channels=manager)] == of(
        public, None, deleted)
    assert [m.id for m in await store.list_matches(GUILD, limit=2, offset=2,
                                                   channels=manager)] == of(
        public, None, deleted)[2:4]
    assert await store.list_matches(GUILD, channels=MatchChannels(frozenset())) == []
    everything = MatchChannels(frozenset(), known=frozenset())  # no channel exists any more
    assert [m.id for m in await store.list_matches(GUILD, channels=everything)] == newest
    assert [m.id for m in await store.list_matches(GUILD)] == newest  # no filter
    assert [manager.admits(c) for c in (public, private, None, deleted)] == [
        True, False, True, True]
    assert [member.admits(c) for c in (public, private, None, deleted)] == [
        True, False, False, False]
