"""Timers on a fake clock: reminders, AI stand-ins at expiry, away seats, lobby expiry, AI
pace, and deadlines that survive a restart."""

from __future__ import annotations

import datetime as dt

from bot.service import AWAY_AFTER, FakeClock, Seat, TableService
from storage import Store, TerminalLocation

HUMAN = 1001
TIMEOUT = 60.0


async def table_with_human(service: TableService, *, seed: int = 7, pace: float = 0.0,
                           game: str = "turup") -> int:
    seats = [Seat.human(HUMAN, "Ann"), *(Seat.ai("random") for _ in range(3))]
    table_id = await service.create_table(
        TerminalLocation("timers"), game, seed=seed, seats=seats, ai_pace=pace,
        turn_timeout=TIMEOUT, start=True,
    )
    await service.settle()
    return table_id


async def wait_for_human(service: TableService, clock: FakeClock, table_id: int) -> None:
    """Let AI seats play until seat 0 is to act (pace 0)."""
    await service.settle()
    assert service.info(table_id).to_act == (0,)


async def test_reminder_at_half_time_then_ai_plays(service: TableService, clock: FakeClock,
                                                  store: Store) -> None:
    table_id = await table_with_human(service)
    await wait_for_human(service, clock, table_id)
    info = service.info(table_id)
    assert info.turn_deadline == clock.now() + dt.timedelta(seconds=TIMEOUT)
    row = await store.get_table(table_id)
    assert row is not None and row.turn_deadline == info.turn_deadline
    mine, spectator = service.subscribe(table_id, 0), service.subscribe(table_id)
    mine.drain()
    spectator.drain()
    await clock.advance(TIMEOUT / 2 - 1)
    await service.settle()
    assert not [e for e in mine.drain() if e.type == "reminder"]
    await clock.advance(1)
    await service.settle()
    reminders = [e for e in mine.drain() if e.type == "reminder"]
    assert len(reminders) == 1 and reminders[0].to == frozenset({0})
    assert not [e for e in spectator.drain() if e.type == "reminder"]
    assert service.info(table_id).version == info.version  # nobody played for Ann yet
    await clock.advance(TIMEOUT / 2)
    await service.settle()
    assert service.info(table_id).version > info.version
    entries = await store.load_actions(table_id)
    stood_in = entries[info.version]
    assert stood_in.action["by"] == "timeout" and stood_in.action["action"]["seat"] == 0
    assert [e.data for e in spectator.drain() if e.type == "timeout"] == [{"seat": 0}]
    assert service.info(table_id).seats[0].timeouts == 1  # type: ignore[union-attr]
    row = await store.get_table(table_id)
    assert row is not None and row.seats[0]["timeouts"] == 1


async def until_seat0(service: TableService, clock: FakeClock, table_id: int) -> None:
    """Advance one second at a time (AI pace 1 s) until seat 0 is to act."""
    for _ in range(50):
        await service.settle()
        if service.info(table_id).to_act == (0,):
            return
        await clock.advance(1)
    raise AssertionError("seat 0 never came to act")


async def test_away_after_three_timeouts_until_return(service: TableService,
                                                      clock: FakeClock,
                                                      store: Store) -> None:
    table_id = await table_with_human(service, pace=1.0)
    spectator = service.subscribe(table_id)
    for n in range(1, AWAY_AFTER + 1):
        await until_seat0(service, clock, table_id)
        deadline = service.info(table_id).turn_deadline
        assert deadline is not None
        await clock.advance(to=deadline)
        await service.settle()
        seat = service.info(table_id).seats[0]
        assert seat is not None and seat.timeouts == n
    assert seat is not None and seat.away
    assert [e.data for e in spectator.drain() if e.type == "away"] == [{"seat": 0}]
    row = await store.get_table(table_id)
    assert row is not None and row.seats[0]["away"] is True
    # While away, the AI plays the seat at its pace: no deadline, no waiting for Ann.
    await until_seat0(service, clock, table_id)
    assert service.info(table_id).turn_deadline is None
    version = service.info(table_id).version
    await clock.advance(1)
    await service.settle()
    entries = await store.load_actions(table_id)
    assert entries[version].action == {**entries[version].action, "by": "ai"}
    assert entries[version].action["action"]["seat"] == 0
    await service.rejoin(table_id, HUMAN)
    seat = service.info(table_id).seats[0]
    assert seat is not None and not seat.away and seat.timeouts == 0
    assert [e.data for e in spectator.drain() if e.type == "returned"] == [{"seat": 0}]
    await until_seat0(service, clock, table_id)
    assert service.info(table_id).turn_deadline is not None  # Ann's turns are hers again


async def test_acting_resets_the_timeout_count(service: TableService, clock: FakeClock) -> None:
    table_id = await table_with_human(service)
    await wait_for_human(service, clock, table_id)
    await clock.advance(TIMEOUT)
    await wait_for_human(service, clock, table_id)
    assert service.info(table_id).seats[0].timeouts == 1  # type: ignore[union-attr]
    info = service.info(table_id)
    await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], info.version)
    assert service.info(table_id).seats[0].timeouts == 0  # type: ignore[union-attr]


async def test_deadline_survives_a_restart(store: Store, clock: FakeClock) -> None:
    service = TableService(store, clock=clock)
    table_id = await table_with_human(service)
    await wait_for_human(service, clock, table_id)
    deadline = service.info(table_id).turn_deadline
    version = service.info(table_id).version
    await service.close()
    await clock.advance(TIMEOUT - 10)  # the bot is down for 50 seconds
    service = TableService(store, clock=clock)
    await service.start()
    await service.settle()
    assert service.info(table_id).turn_deadline == deadline  # not restarted from zero
    assert service.info(table_id).version == version
    await clock.advance(10)
    await service.settle()
    entries = await store.load_actions(table_id)
    assert entries[version].action["by"] == "timeout"
    await service.close()


async def test_expired_while_down_plays_at_once(store: Store, clock: FakeClock) -> None:
    service = TableService(store, clock=clock)
    table_id = await table_with_human(service)
    await wait_for_human(service, clock, table_id)
    version = service.info(table_id).version
    await service.close()
    await clock.advance(TIMEOUT * 5)
    service = TableService(store, clock=clock)
    await service.start()
    await service.settle()
    entries = await store.load_actions(table_id)
    assert entries[version].action["by"] == "timeout"
    await service.close()


async def test_lobby_expires_after_30_idle_minutes(service: TableService, clock: FakeClock,
                                                   store: Store) -> None:
    loc = TerminalLocation("lobby")
    table_id = await service.create_table(loc, "turup")
    sub = service.subscribe(table_id)
    await clock.advance(29 * 60)
    await service.settle()
    await service.join(table_id, HUMAN, "Ann")  # activity: the lobby lives 30 more minutes
    await clock.advance(29 * 60)
    await service.settle()
    assert service.find(loc) == table_id
    await clock.advance(60)
    await service.settle()
    assert service.find(loc) is None
    assert [e.type for e in sub.drain()][-1] == "abandoned"
    row = await store.get_table(table_id)
    assert row is not None and row.status == "abandoned"


async def test_ai_waits_for_its_pace(service: TableService, clock: FakeClock) -> None:
    seats = [Seat.ai("random") for _ in range(4)]
    table_id = await service.create_table(TerminalLocation("pace"), "turup", seed=1,
                                          seats=seats, ai_pace=2.0, start=True)
    await service.settle()
    assert service.info(table_id).version == 0
    await clock.advance(1.9)
    await service.settle()
    assert service.info(table_id).version == 0
    await clock.advance(0.1)
    await service.settle()
    assert service.info(table_id).version == 1


async def test_secret_bids_share_one_deadline(service: TableService, clock: FakeClock) -> None:
    """Truf: when one human bids, the other's time keeps running (no fresh period)."""
    seats = [Seat.human(HUMAN, "Ann"), Seat.human(HUMAN + 1, "Bob"), Seat.ai("random"),
             Seat.ai("random")]
    table_id = await service.create_table(TerminalLocation("truf"), "truf", seed=3,
                                          seats=seats, ai_pace=0, turn_timeout=TIMEOUT,
                                          start=True)
    await service.settle()
    info = service.info(table_id)
    assert set(info.to_act) == {0, 1}
    deadline = info.turn_deadline
    await clock.advance(20)
    await service.act(table_id, HUMAN + 1, service.legal(table_id, 1)[0], info.version)
    assert service.info(table_id).turn_deadline == deadline
    await clock.advance(TIMEOUT - 20)
    await service.settle()
    seat = service.info(table_id).seats[0]
    assert seat is not None and seat.timeouts == 1  # Ann's bid was made for her
    other = service.info(table_id).seats[1]
    assert other is not None and other.timeouts == 0
