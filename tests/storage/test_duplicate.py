"""Contract: duplicate events, boards, entrants, plays, AI records, posts (both backends)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from storage import ChannelLocation, NotFound, SqlStore, open_store
from storage.duplicate import AlreadyEntered, AlreadyPlayed, DuplicateEvent
from storage.migrations import latest

GUILD = 400
FRIDAY = dt.datetime(2026, 11, 27, 19, 0, tzinfo=dt.UTC)


async def _event(store: SqlStore, boards: int = 3) -> DuplicateEvent:
    return await store.create_duplicate_event(
        GUILD, 5, "Friday duplicate", "tarabish",
        boards=[(f"seed-{n}", n % 4) for n in range(boards)], players=4,
        opens_at=FRIDAY, closes_at=FRIDAY + dt.timedelta(days=2), time_zone="Europe/Oslo",
        created_by=1, scoring="imps", leaderboard=True)


def test_migration_8_is_there() -> None:
    assert latest() >= 8


def test_migration_11_is_there() -> None:
    assert latest() >= 11


async def test_event_and_boards(store: SqlStore) -> None:
    event = await _event(store)
    assert (event.status, event.boards, event.scoring, event.leaderboard) == (
        "open", 3, "imps", True)
    assert event.closes_at == FRIDAY + dt.timedelta(days=2)
    assert await store.get_duplicate_event(event.id) == event
    boards = await store.list_duplicate_boards(event.id)
    assert [(b.number, b.seed, b.dealer) for b in boards] == [
        (1, "seed-0", 0), (2, "seed-1", 1), (3, "seed-2", 2)]
    assert [e.id for e in await store.list_duplicate_events(GUILD)] == [event.id]
    assert await store.list_duplicate_events(GUILD, status="closed") == []
    assert [e.id for e in await store.due_duplicate_events(FRIDAY + dt.timedelta(days=3))] == [
        event.id]
    assert await store.due_duplicate_events(FRIDAY) == []
    closed = await store.close_duplicate_event(event.id)
    assert closed.status == "closed"
    assert await store.due_duplicate_events(FRIDAY + dt.timedelta(days=3)) == []


@pytest.mark.parametrize(("field", "value"), [
    ("format", "teams"), ("scoring", "vp"), ("boards", []), ("closes_at", FRIDAY)])
async def test_event_refuses_bad_values(store: SqlStore, field: str, value: object) -> None:
    args: dict[str, object] = {
        "boards": [("s", 0)], "players": 4, "opens_at": FRIDAY,
        "closes_at": FRIDAY + dt.timedelta(hours=1), "time_zone": "UTC", "created_by": 1}
    args[field] = value
    with pytest.raises(ValueError):
        await store.create_duplicate_event(GUILD, 5, "x", "turup", **args)  # type: ignore[arg-type]


async def test_entrants_pairs_and_confirmation(store: SqlStore) -> None:
    event = await _event(store)
    pair = await store.add_duplicate_entrant(event.id, "Ann & Bo", [11, 12], confirmed=[11])
    assert (pair.members, pair.confirmed, pair.ready) == ((11, 12), (11,), False)
    with pytest.raises(AlreadyEntered) as err:
        await store.add_duplicate_entrant(event.id, "Bo & Cy", [13, 12])
    assert err.value.user_id == 12
    confirmed = await store.confirm_duplicate_member(event.id, 12)
    assert confirmed.ready and confirmed.id == pair.id
    with pytest.raises(NotFound):
        await store.confirm_duplicate_member(event.id, 99)
    solo = await store.add_duplicate_entrant(event.id, "Cy", [13], confirmed=[13])
    assert (await store.duplicate_entrant_of(event.id, 13)) == solo
    assert await store.duplicate_entrant_of(event.id, 99) is None
    assert [e.id for e in await store.list_duplicate_entrants(event.id)] == [pair.id, solo.id]
    await store.remove_duplicate_entrant(solo.id)
    assert await store.duplicate_entrant_of(event.id, 13) is None


async def test_a_board_is_played_once_and_directions_alternate(store: SqlStore) -> None:
    event = await _event(store)
    ids = [(await store.add_duplicate_entrant(event.id, f"E{i}", [20 + i], confirmed=[20 + i])).id
           for i in range(4)]
    plays = [await store.start_duplicate_play(event.id, e, 1, 2) for e in ids]
    # Each direction is taken as evenly as the entries allow: two and two.
    assert sorted(p.direction for p in plays) == [0, 0, 1, 1]
    assert all(p.status == "playing" and p.table_id is None for p in plays)
    with pytest.raises(AlreadyPlayed):
        await store.start_duplicate_play(event.id, ids[0], 1, 2)
    with pytest.raises(NotFound):
        await store.finish_duplicate_play(ids[0], 2, {}, {})
    table = await store.create_table(ChannelLocation(GUILD, 77), "tarabish")
    await store.set_duplicate_play_table(ids[0], 1, table.id)
    assert [p.board for p in await store.duplicate_plays_of_table(table.id)] == [1]
    done = await store.finish_duplicate_play(ids[0], 1, {"game": "tarabish"}, {"score": 10})
    again = await store.finish_duplicate_play(ids[0], 1, {"game": "x"}, {"score": 0})
    assert done.status == again.status == "finished"
    assert again.record == {"game": "tarabish"} and again.result == {"score": 10}
    assert len(await store.list_duplicate_plays(event.id, board=1)) == 4
    assert await store.list_duplicate_plays(event.id, board=2) == []
    with pytest.raises(AlreadyPlayed):
        await store.remove_duplicate_entrant(ids[0])


async def test_two_entrants_meet_from_opposite_directions_or_not_at_all(
        store: SqlStore) -> None:
    event = await _event(store)
    a, b, c = [(await store.add_duplicate_entrant(event.id, f"M{i}", [40 + i])).id
               for i in range(3)]
    alone = await store.start_duplicate_play(event.id, c, 1, 2)
    first, second = await store.start_duplicate_meeting(event.id, (a, b), 1)
    # The first takes the direction played less so far, the second the other one.
    assert (first.entrant_id, second.entrant_id) == (a, b)
    assert first.direction == 1 - alone.direction and second.direction == alone.direction
    table = await store.create_table(ChannelLocation(GUILD, 78), "tarabish")
    for entrant in (a, b):
        await store.set_duplicate_play_table(entrant, 1, table.id)
    assert {p.entrant_id for p in await store.duplicate_plays_of_table(table.id)} == {a, b}
    # Either entrant having started the board refuses the meeting, and nothing starts.
    await store.start_duplicate_play(event.id, c, 2, 2)
    with pytest.raises(AlreadyPlayed) as err:
        await store.start_duplicate_meeting(event.id, (a, c), 2)
    assert err.value.entrant_id == c
    assert await store.get_duplicate_play(a, 2) is None
    with pytest.raises(ValueError):
        await store.start_duplicate_meeting(event.id, (a, a), 3)


async def test_concurrent_starts_cover_both_directions(store: SqlStore) -> None:
    event = await _event(store)
    ids = [(await store.add_duplicate_entrant(event.id, f"E{i}", [30 + i])).id for i in range(6)]
    plays = await asyncio.gather(*(store.start_duplicate_play(event.id, e, 2, 2) for e in ids))
    assert sorted(p.direction for p in plays) == [0, 0, 0, 1, 1, 1]
    results = await asyncio.gather(*(store.start_duplicate_play(event.id, ids[0], 3, 2)
                                     for _ in range(3)), return_exceptions=True)
    assert sum(isinstance(r, AlreadyPlayed) for r in results) == 2


async def test_ai_record_first_writer_wins_and_posts_are_claimed_once(store: SqlStore) -> None:
    event = await _event(store)
    assert await store.get_duplicate_ai(event.id, 1, 0) is None
    assert await store.put_duplicate_ai(event.id, 1, 0, {"n": 1}) == {"n": 1}
    assert await store.put_duplicate_ai(event.id, 1, 0, {"n": 2}) == {"n": 1}
    assert await store.get_duplicate_ai(event.id, 1, 1) is None
    claims = await asyncio.gather(*(store.claim_duplicate_post(event.id, "thread")
                                    for _ in range(3)))
    assert sorted(claims) == [False, False, True]
    await store.set_duplicate_post_value(event.id, "thread", "12345")
    assert await store.duplicate_post_value(event.id, "thread") == "12345"
    assert await store.duplicate_post_value(event.id, "card:1") is None


async def test_meeting_invitations_outlive_the_store_and_are_taken_once(
        store: SqlStore, store_url: str) -> None:
    event = await _event(store)
    a, b, c = [(await store.add_duplicate_entrant(event.id, f"P{i}", [60 + i])).id
               for i in range(3)]
    assert await store.get_duplicate_invitation(event.id, a) is None
    await store.put_duplicate_invitation(event.id, a, b, 2)
    await store.put_duplicate_invitation(event.id, a, c, None)  # replaces the first
    await store.put_duplicate_invitation(event.id, b, c, 3)
    with pytest.raises(ValueError):
        await store.put_duplicate_invitation(event.id, c, a, 0)
    # Another process (or this one after a restart) reads them back.
    reopened = await open_store(store_url)
    try:
        asked = await reopened.get_duplicate_invitation(event.id, a)
        assert asked is not None and (asked.invited_id, asked.board) == (c, None)
        taken = await asyncio.gather(*(reopened.take_duplicate_invitation(event.id, b)
                                       for _ in range(3)))
        assert [(i.invited_id, i.board) for i in taken if i is not None] == [(c, 3)]
        assert await reopened.get_duplicate_invitation(event.id, b) is None
    finally:
        await reopened.close()
    # Removing an entrant removes the invitations it made or got.
    await store.remove_duplicate_entrant(c)
    assert await store.get_duplicate_invitation(event.id, a) is None


async def test_an_invitation_replaced_after_it_was_read_is_not_taken_for_it(
        store: SqlStore) -> None:
    """Accepting takes the invitation that was read, or nothing: one the asking pair
    replaced in the meantime (another pair, another board) stays."""
    event = await _event(store)
    a, b, c = [(await store.add_duplicate_entrant(event.id, f"P{i}", [70 + i])).id
               for i in range(3)]
    read = await store.put_duplicate_invitation(event.id, a, b, None)
    await store.put_duplicate_invitation(event.id, a, c, None)  # a now asks c
    assert await store.take_duplicate_invitation(event.id, a, expected=read) is None
    kept = await store.get_duplicate_invitation(event.id, a)
    assert kept is not None and kept.invited_id == c
    read = await store.put_duplicate_invitation(event.id, a, b, 2)
    await store.put_duplicate_invitation(event.id, a, b, 3)  # the same pair, another board
    assert await store.take_duplicate_invitation(event.id, a, expected=read) is None
    kept = await store.get_duplicate_invitation(event.id, a)
    assert kept is not None and kept.board == 3
    taken = await store.take_duplicate_invitation(event.id, a, expected=kept)
    assert taken is not None and (taken.invited_id, taken.board) == (b, 3)
    assert await store.get_duplicate_invitation(event.id, a) is None


async def test_the_last_finished_table_of_a_channel_is_a_members_only(store: SqlStore) -> None:
    """The Activity's reload after a board's end: the table of the board the user's entrant
    finished last in the channel, since the given time; nobody else's, nothing still
    playing, nothing of another channel."""
    event = await _event(store)
    pair = (await store.add_duplicate_entrant(event.id, "Pair", [70, 71])).id
    other = (await store.add_duplicate_entrant(event.id, "Other", [72])).id
    since = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)

    async def played(entrant: int, board: int, channel: int, finish: bool) -> int:
        await store.start_duplicate_play(event.id, entrant, board, 2)
        table = await store.create_table(ChannelLocation(GUILD, channel), "tarabish")
        await store.set_duplicate_play_table(entrant, board, table.id)
        await store.update_table(table.id, status="finished")
        if finish:
            await store.finish_duplicate_play(entrant, board, {}, {})
        return table.id

    last = store.last_finished_duplicate_table
    first = await played(pair, 1, 90, finish=True)
    assert await last(GUILD, 90, 70, since) == await last(GUILD, 90, 71, since) == first
    later = await played(pair, 2, 90, finish=True)
    assert await last(GUILD, 90, 71, since) == later
    await played(pair, 3, 90, finish=False)  # still playing: not finished
    assert await last(GUILD, 90, 70, since) == later
    assert await last(GUILD, 90, 72, since) is None  # another entrant's member
    assert await last(GUILD, 90, 99, since) is None  # no entrant at all
    assert await last(GUILD, 91, 70, since) is None  # another channel
    assert await last(GUILD + 1, 90, 70, since) is None
    assert await last(GUILD, 90, 70, dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)) is None
    mine = await played(other, 1, 91, finish=True)
    assert await last(GUILD, 91, 72, since) == mine and await last(GUILD, 91, 70, since) is None
