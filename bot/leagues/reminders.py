"""Fixture reminders: 24 hours and 1 hour before each fixture, and at its start.

:class:`ReminderScheduler` is an async loop over the Store, with an injectable clock
(:class:`bot.service.clock.Clock`) and a ``send(channel_id, text, members)`` coroutine
callback (:data:`Send`). It keeps no state that matters across restarts: what was sent is
the store's ``reminders_sent`` table.

* **Never twice.** A reminder is claimed with ``Store.mark_reminder_sent`` before it is
  sent; only the process whose claim succeeds sends it (a send that then fails is logged
  and not retried: a missed reminder is better than a double one).
* **Never skipped.** Each pass looks at every ``scheduled`` fixture due within 24 hours
  (past ones included), so a reminder that fell due while the bot was down is found on the
  next pass and sent then, once, marked late (more than :data:`LATE_AFTER` after its time).
* **No late spam.** Only the most recent kind that has fallen due is ever sent: a 24-hour
  reminder overtaken by the 1-hour one (the bot was down across the 1-hour mark) is never
  sent, and neither are the two before a missed start reminder. A fixture that has been
  played, forfeited or voided gets no more reminders.
* Reminders go to the league's channel and mention every member of both entrants; they
  are sent to ping exactly those members (``send``'s third argument). Team and league
  names are shown literally (:func:`bot.text_safety.safe_name`): a name cannot ping anyone
  or format the message.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from bot.i18n import Translator, translator
from bot.service.clock import Clock, SystemClock
from bot.text_safety import safe_name
from storage.base import Store
from storage.models import Fixture

log = logging.getLogger(__name__)

Send = Callable[[int, str, tuple[int, ...]], Awaitable[None]]
"""``send(channel_id, text, members)``: post ``text`` in the channel, pinging exactly
``members`` (the fixture's players) and nobody else."""

KINDS: Final[tuple[tuple[str, dt.timedelta], ...]] = (
    ("24h", dt.timedelta(hours=24)),
    ("1h", dt.timedelta(hours=1)),
    ("start", dt.timedelta(0)),
)
"""Reminder kinds, earliest first, with how long before kick-off each falls due."""
LOOKAHEAD: Final = KINDS[0][1]
LATE_AFTER: Final = dt.timedelta(minutes=5)
"""A reminder sent more than this after its time is marked late."""


def due_kind(scheduled_at: dt.datetime, now: dt.datetime) -> tuple[str, dt.datetime] | None:
    """The most recent reminder kind that has fallen due at ``now``, with its due time."""
    found = None
    for kind, before in KINDS:
        due = scheduled_at - before
        if due <= now:
            found = (kind, due)
    return found


def reminder_text(
    kind: str, league_name: str, round_no: int, home: str, away: str,
    scheduled_at: dt.datetime, *, late: bool, t: Translator | None = None,
) -> str:
    """The message in ``t``'s language (English by default); times use Discord's
    ``<t:…>`` markup (shown in each reader's zone and language)."""
    t = t or translator("en")
    stamp = int(scheduled_at.timestamp())
    when = {"24h": t.gettext("starts in 24 hours, {time}").format(time=f"<t:{stamp}:F>"),
            "1h": t.gettext("starts in 1 hour, {time}").format(time=f"<t:{stamp}:t>"),
            "start": t.gettext("starts now")}[kind]
    text = t.gettext("**{league}**, round {round}: {home} vs {away} — {when}.").format(
        league=league_name, round=round_no, home=home, away=away, when=when)
    if late:
        text = t.gettext("{reminder} (late reminder: kick-off {time})").format(
            reminder=text, time=f"<t:{stamp}:R>")
    return text


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder ready to send: where, what, and whom it may ping."""

    channel_id: int
    text: str
    members: tuple[int, ...]


class ReminderScheduler:
    """Sends fixture reminders; call :meth:`run` as a task, or :meth:`tick` from tests."""

    def __init__(self, store: Store, send: Send, *, clock: Clock | None = None,
                 poll_seconds: float = 60.0,
                 handles_guild: Callable[[int], bool] | None = None,
                 language: Callable[[int], Awaitable[Translator]] | None = None) -> None:
        """``handles_guild(guild_id)``: whether this process sends that guild's reminders.
        Several processes sharing PostgreSQL, one per group of shards, each pass
        :meth:`bot.cluster.ClusterNode.owns_guild`, so a guild's reminders come from its
        owner only (and the store's claim keeps them single even if two processes
        disagreed). Default: every guild (one process)."""
        self.store = store
        self.send = send
        self.language = language
        """The translator of a guild's public messages (default: English)."""
        self.handles_guild = handles_guild
        self.clock: Clock = clock or SystemClock()
        self.poll_seconds = poll_seconds
        self._finished: set[int] = set()
        """Fixtures this process is done with: start reminder claimed, or another process's
        guild (saves queries; losing it on restart only costs one query per fixture)."""

    async def tick(self) -> list[tuple[int, str]]:
        """One pass: send every reminder due now. Returns (fixture id, kind) sent."""
        now = self.clock.now()
        sent: list[tuple[int, str]] = []
        for fixture in await self.store.fixtures_due(now + LOOKAHEAD):
            if fixture.id in self._finished or fixture.away_entrant_id is None:
                continue
            assert fixture.scheduled_at is not None
            due = due_kind(fixture.scheduled_at, now)
            if due is None:
                continue
            kind, due_at = due
            try:
                reminder = await self._reminder(fixture, kind, late=now - due_at > LATE_AFTER)
            except Exception:
                log.exception("fixture %s: could not prepare the %s reminder", fixture.id, kind)
                continue
            if reminder is None:
                continue
            if kind == "start":
                self._finished.add(fixture.id)
            if not await self.store.mark_reminder_sent(fixture.id, kind):
                continue
            try:
                await self.send(reminder.channel_id, reminder.text, reminder.members)
                sent.append((fixture.id, kind))
            except Exception:
                log.exception("fixture %s: could not send the %s reminder", fixture.id, kind)
        return sent

    async def _reminder(self, fixture: Fixture, kind: str, *, late: bool) -> Reminder | None:
        season = await self.store.get_season(fixture.season_id)
        if season is None or season.league_id is None:
            return None
        league = await self.store.get_league(season.league_id)
        if league is None or league.status != "running":
            return None
        if self.handles_guild is not None and not self.handles_guild(league.guild_id):
            self._finished.add(fixture.id)  # another process's: never look at it again
            return None
        labels = []
        members: list[int] = []
        for entrant_id in (fixture.home_entrant_id, fixture.away_entrant_id):
            entrant = None if entrant_id is None else await self.store.get_entrant(entrant_id)
            if entrant is None:
                return None
            members += entrant.members
            mentions = " & ".join(f"<@{m}>" for m in entrant.members)
            name = safe_name(entrant.name or "")
            labels.append(f"{name} ({mentions})" if name else mentions)
        assert fixture.scheduled_at is not None
        t = None if self.language is None else await self.language(league.guild_id)
        text = reminder_text(kind, safe_name(league.name), fixture.round, labels[0], labels[1],
                             fixture.scheduled_at, late=late, t=t)
        return Reminder(league.channel_id, text, tuple(dict.fromkeys(members)))

    async def run(self) -> None:
        """Loop forever: a pass, then sleep until the next reminder falls due (at most
        ``poll_seconds``, so fixtures created meanwhile are seen)."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("reminder pass failed")
            await self.clock.sleep_until(await self._next_wake())

    async def _next_wake(self) -> dt.datetime:
        now = self.clock.now()
        wake = now + dt.timedelta(seconds=self.poll_seconds)
        try:
            upcoming = await self.store.fixtures_due(now + LOOKAHEAD + (wake - now))
        except Exception:
            return wake
        for f in upcoming:
            if f.scheduled_at is None or f.id in self._finished:
                continue
            for _, before in KINDS:
                due = f.scheduled_at - before
                if now < due < wake:
                    wake = due
        return wake
