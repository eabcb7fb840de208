"""The reminder scheduler on a fake clock: on time, late once, never twice, across restarts."""

from __future__ import annotations

import asyncio
import datetime as dt
import re

import pytest
from league_fixtures import (
    CHANNEL,
    GUILD,
    club_backend,
    club_schemas,
    club_store,
    club_url,
)

from bot.leagues.reminders import ReminderScheduler, due_kind
from bot.leagues.reports import record_table_match
from bot.leagues.service import create_league, join_league, start_league
from bot.service.clock import FakeClock
from storage import Store
from storage.models import Fixture

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]

# Round 1 of a Thursday 19:00 Berlin league started on Monday 16 March 2026.
KICKOFF = dt.datetime(2026, 3, 19, 18, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)


class Outbox:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []
        self.pinged: list[tuple[int, ...]] = []

    async def send(self, channel_id: int, text: str, members: tuple[int, ...]) -> None:
        self.sent.append((channel_id, text))
        self.pinged.append(members)

    def kinds(self) -> list[str]:
        out = []
        for _, text in self.sent:
            kind = ("24h" if "24 hours" in text else "1h" if "1 hour" in text
                    else "start" if "starts now" in text else "?")
            out.append(kind + (" late" if "late reminder" in text else ""))
        return out


async def league_with_two_teams(store: Store) -> Fixture:
    league = await create_league(store, GUILD, CHANNEL, "Cup", "turup", weekday=3,
                                 start_time=dt.time(19, 0), time_zone="Europe/Berlin")
    await join_league(store, league.id, [11, 13], name="Aces")
    await join_league(store, league.id, [12, 14], name="Kings")
    fixtures = await start_league(store, league.id, KICKOFF - 72 * H)
    assert [f.scheduled_at for f in fixtures] == [KICKOFF]
    return fixtures[0]


def test_due_kind_picks_the_most_recent() -> None:
    assert due_kind(KICKOFF, KICKOFF - 25 * H) is None
    assert due_kind(KICKOFF, KICKOFF - 24 * H) == ("24h", KICKOFF - 24 * H)
    assert due_kind(KICKOFF, KICKOFF - 30 * dt.timedelta(minutes=1)) == ("1h", KICKOFF - H)
    assert due_kind(KICKOFF, KICKOFF + 50 * H) == ("start", KICKOFF)


async def test_each_reminder_on_time_once(club_store: Store) -> None:
    await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF - 25 * H)
    box = Outbox()
    scheduler = ReminderScheduler(club_store, box.send, clock=clock)
    assert await scheduler.tick() == []
    for moment, kinds in [(KICKOFF - 24 * H, ["24h"]), (KICKOFF - 2 * H, ["24h"]),
                          (KICKOFF - H, ["24h", "1h"]), (KICKOFF, ["24h", "1h", "start"]),
                          (KICKOFF + 3 * H, ["24h", "1h", "start"])]:
        await clock.advance(to=moment)
        await scheduler.tick()
        await scheduler.tick()
        assert box.kinds() == kinds, moment
    channel, text = box.sent[0]
    assert channel == CHANNEL
    assert set(re.findall(r"<@(\d+)>", text)) == {"11", "12", "13", "14"}
    assert box.pinged[0] == (11, 13, 12, 14)  # exactly the fixture's members
    assert "Aces" in text and "Kings" in text and "round 1" in text
    assert f"<t:{int(KICKOFF.timestamp())}:F>" in text


async def test_down_across_the_1h_mark_sends_only_the_1h_reminder_late(
    club_store: Store,
) -> None:
    await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF - 30 * H)
    box = Outbox()
    await ReminderScheduler(club_store, box.send, clock=clock).tick()
    await clock.advance(to=KICKOFF - 30 * dt.timedelta(minutes=1))  # the bot was down
    restarted = ReminderScheduler(club_store, box.send, clock=clock)
    await restarted.tick()
    await restarted.tick()
    assert box.kinds() == ["1h late"]
    assert await club_store.reminders_sent((await restarted.store.fixtures_due(KICKOFF))[0].id)
    await clock.advance(to=KICKOFF)
    await ReminderScheduler(club_store, box.send, clock=clock).tick()
    assert box.kinds() == ["1h late", "start"]


async def test_down_past_the_start_sends_one_late_start(club_store: Store) -> None:
    fixture = await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF + 5 * H)
    box = Outbox()
    for _ in range(3):  # three restarts
        await ReminderScheduler(club_store, box.send, clock=clock).tick()
    assert box.kinds() == ["start late"]
    assert set(await club_store.reminders_sent(fixture.id)) == {"start"}


async def test_two_processes_send_each_reminder_once(club_store: Store) -> None:
    await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF - H)
    box = Outbox()
    a = ReminderScheduler(club_store, box.send, clock=clock)
    b = ReminderScheduler(club_store, box.send, clock=clock)
    await asyncio.gather(a.tick(), b.tick(), a.tick(), b.tick())
    assert box.kinds() == ["1h"]


async def test_played_fixtures_and_byes_get_no_reminder(club_store: Store) -> None:
    await league_with_two_teams(club_store)
    await record_table_match(club_store, guild_id=GUILD, game="turup", players=4, options={},
                             sides=[[11, 13], [12, 14]],
                             summary={"winner": 0, "totals": [5, 2]})
    clock = FakeClock(KICKOFF - H)
    box = Outbox()
    await ReminderScheduler(club_store, box.send, clock=clock).tick()
    assert box.sent == []


async def test_a_failed_send_is_not_retried(club_store: Store) -> None:
    await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF)
    calls: list[str] = []

    async def broken(channel_id: int, text: str, members: tuple[int, ...]) -> None:
        calls.append(text)
        raise RuntimeError("Discord is down")

    scheduler = ReminderScheduler(club_store, broken, clock=clock)
    assert await scheduler.tick() == []
    assert await scheduler.tick() == []
    assert len(calls) == 1


async def _until(predicate: object, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():  # type: ignore[operator]
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def test_run_loop_wakes_at_the_due_time(club_store: Store) -> None:
    await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF - 2 * H)
    box = Outbox()
    scheduler = ReminderScheduler(club_store, box.send, clock=clock, poll_seconds=6 * 3600)
    task = asyncio.create_task(scheduler.run())
    try:
        await _until(lambda: clock.next_deadline() is not None)
        assert box.kinds() == ["24h late"]
        assert clock.next_deadline() == KICKOFF - H  # not the 6-hour poll
        await clock.advance(to=KICKOFF - H)
        await _until(lambda: len(box.sent) == 2)
        await _until(lambda: clock.next_deadline() == KICKOFF)
        await clock.advance(to=KICKOFF)
        await _until(lambda: len(box.sent) == 3)
        assert box.kinds() == ["24h late", "1h", "start"]
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_process_sends_only_its_own_guilds(club_store: Store) -> None:
    fixture = await league_with_two_teams(club_store)
    clock = FakeClock(KICKOFF)
    box = Outbox()
    other = ReminderScheduler(club_store, box.send, clock=clock,
                              handles_guild=lambda g: g != GUILD)
    assert await other.tick() == []
    assert await club_store.reminders_sent(fixture.id) == {}  # not claimed: left to the owner
    mine = ReminderScheduler(club_store, box.send, clock=clock,
                             handles_guild=lambda g: g == GUILD)
    assert await mine.tick() == [(fixture.id, "start")]
