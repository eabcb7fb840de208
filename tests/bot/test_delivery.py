"""The promises of :class:`bot.discord_bot.tables.delivery.LiveMessage` that no Discord timing
shows reliably: a request under way is never cancelled (discord.py's rate-limit buckets
are settled after the answer: a cancelled request can leave its channel's next edits
waiting), a drawing an answer showed while the worker's own edit was under way is
checked after that edit (which of the two Discord applied last is unknown), and when
Discord holds the bot back the panel of the seat to act gets in first at the process's
gate (:mod:`bot.discord_bot.tables.gate`). End-to-end guards: ``tests/bot/test_discord_turns.py``
and the 429/502 test of ``tests/bot/test_discord_adapter.py``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.discord_bot.tables.delivery import Drawn, LiveMessage
from bot.discord_bot.tables.gate import LATER, TABLE, TO_ACT, Gate


class Message:
    """A message whose edits the test lets land one at a time (``released``: at once)."""

    def __init__(self, key: str, *, released: bool = False,
                 landed: list[str] | None = None) -> None:
        self.key = key
        """The state the owner wants shown."""
        self.edits: list[str] = [] if landed is None else landed
        """The drawings whose edit landed, in order (``landed``: a list shared by
        several messages)."""
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        if released:
            self.release.set()

    async def draw(self) -> Drawn:
        key = self.key

        async def send() -> int:
            raise AssertionError("the message exists: never sent anew")

        async def edit(message_id: int) -> None:
            self.started.set()
            await self.release.wait()
            self.edits.append(key)

        return Drawn(key, send, edit)


async def settled(live: LiveMessage) -> None:
    await until(lambda: not live.busy, "the live message settled")


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait until ``check()`` (polled on the loop); fails after 30 s (liveness only)."""
    try:
        async with asyncio.timeout(30):
            while not check():
                await asyncio.sleep(0.005)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


async def test_closing_a_live_message_lets_its_request_under_way_finish() -> None:
    msg = Message("turn")
    live = LiveMessage("test", msg.draw, message_id=1)
    live.mark()
    await msg.started.wait()
    live.close()  # e.g. the table closed, or the next deal's DM replaced this one
    msg.release.set()
    await settled(live)
    assert msg.edits == ["turn"]
    msg.key = "later"
    live.mark()  # closed: nothing more is tried
    await settled(live)
    assert msg.edits == ["turn"]


async def test_an_answer_shown_during_an_edit_is_checked_after_it() -> None:
    msg = Message("wait")
    live = LiveMessage("test", msg.draw, message_id=1)
    live.shown_as("turn")
    live.mark()
    await msg.started.wait()  # the edit to "wait" is under way ...
    msg.key = "turn 2"
    live.shown_as("turn 2")  # ... when a click's answer shows the newest state
    msg.release.set()
    await settled(live)
    # which of the two Discord applied last is unknown: the newest state is drawn again
    assert msg.edits == ["wait", "turn 2"]


async def test_an_answer_shown_between_edits_costs_no_request() -> None:
    msg = Message("turn")
    msg.release.set()
    live = LiveMessage("test", msg.draw, message_id=1)
    live.shown_as("turn")
    live.mark()
    await settled(live)
    assert msg.edits == []


async def test_the_panel_of_the_seat_to_act_gets_in_first_when_discord_holds_the_bot_back(
        ) -> None:
    gate = Gate(1)
    held = Message("held")
    first = LiveMessage("held", held.draw, message_id=1, gate=gate)
    first.mark()
    await held.started.wait()  # Discord holds the one request under way
    landed: list[str] = []
    waiting = [LiveMessage(key, Message(key, released=True, landed=landed).draw,
                           message_id=n, gate=gate, urgency=lambda u=urgency: u)
               for n, (key, urgency) in enumerate(
                   [("other panel", LATER), ("table", TABLE), ("to act", TO_ACT)], 2)]
    for queued, live in enumerate(waiting, 1):
        live.mark()  # each waits at the gate before the next is marked
        await until(lambda queued=queued: gate.waiting == queued, "a place at the gate")
    held.release.set()
    for live in [first, *waiting]:
        await settled(live)
    assert landed == ["to act", "table", "other panel"]
    assert gate.under_way == 0 and gate.waiting == 0


async def test_a_message_closed_while_waiting_at_the_gate_gives_its_place_on() -> None:
    gate = Gate(1)
    held = Message("held")
    first = LiveMessage("held", held.draw, message_id=1, gate=gate)
    first.mark()
    await held.started.wait()
    landed: list[str] = []
    gone = LiveMessage("gone", Message("gone", released=True, landed=landed).draw,
                       message_id=2, gate=gate, urgency=lambda: TO_ACT)
    kept = LiveMessage("kept", Message("kept", released=True, landed=landed).draw,
                       message_id=3, gate=gate)
    gone.mark()
    kept.mark()
    await until(lambda: gate.waiting == 2, "both waiting at the gate")
    gone.close()  # e.g. the table closed while its panel waited
    held.release.set()
    for live in (first, gone, kept):
        await settled(live)
    assert landed == ["kept"]
    assert gate.under_way == 0 and gate.waiting == 0
