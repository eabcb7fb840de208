"""A human at a Turup table of AI players on the fake Discord, and the requests a card of
theirs costs: what ``tests/bot/test_discord_rest_budget.py`` counts (and the web links
test, with the web table bound)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app_fixture import App, start_app
from discord_helpers import advance_until_turn, controls, live_panel, open_table, versions
from fakediscord import Harness, SimulatedUser
from fakediscord.models import RecordedRequest, StoredMessage

from bot.service import FakeClock, NoSuchTable
from bot.words.cards import hand_lines

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


def request_kind(r: RecordedRequest, dm_channel: int, table_channel: int) -> str:
    route = f"{r.method} {r.route}"
    if route.endswith("/callback"):
        return "callback"
    if route == ORIGINAL:
        return "original"
    if route == EDIT:
        channel = int(r.params["channel_id"])
        return ("dm edit" if channel == dm_channel
                else "table edit" if channel == table_channel else "other edit")
    return route


async def choose_any(user: SimulatedUser, panel: StoredMessage, rng: random.Random) -> None:
    """A choice that is not a card (trump, kort): any control but conceding."""
    c = rng.choice([c for c in controls(panel) if "concede" not in c["custom_id"]])
    if c["type"] == 3:
        r = await user.select(panel, c["custom_id"], [rng.choice(c["options"])["value"]])
    else:
        r = await user.click(panel, c["custom_id"])
    if r.type == 6:
        await r.wait_request(ORIGINAL)


@dataclass
class AliceAtTurup:
    """A Turup table of alice (a human, in the hand DM) and three AI players."""

    app: App
    clock: FakeClock
    alice: SimulatedUser
    table_id: int
    table_channel: int
    seat: int
    dm_channel: int


Start = Callable[..., Awaitable[App]]
"""How a test starts the bot (:func:`app_fixture.start_app`'s arguments)."""


async def alice_at_turup(fake_discord: Harness, tmp_path: Path, start: Start = start_app,
                          **settings: Any) -> AliceAtTurup:
    clock = FakeClock()
    app = await start(fake_discord, tmp_path, clock=clock,
                          guild_settings={"ai_pace": 1.0, "turn_timeout": 3600}, **settings)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    return AliceAtTurup(app, clock, alice, table_id, int(public.channel_id), seat,
                         int(alice.dm_channel.id))


async def next_table(at: AliceAtTurup) -> AliceAtTurup:
    """Alice at a new Turup table of the same bot (the match at ``at`` is over)."""
    table_id, public = await open_table(at.app, at.alice, "turup", ais=3)
    seat = at.app.service.seat_of(table_id, at.alice.id)
    assert seat is not None
    return dataclasses.replace(at, table_id=table_id, seat=seat,
                               table_channel=int(public.channel_id))


async def card_turns(at: AliceAtTurup, rng: random.Random, tries: int = 40
                     ) -> AsyncIterator[tuple[int, StoredMessage, dict[str, Any]]]:
    """Alice's turns to play a card while the table is open: each turn's deal, her DM
    (the live panel) and its card menu (a decision that is not a card — trump, kort — is made
    here at random on the way)."""
    app, table_id = at.app, at.table_id
    for _ in range(tries):
        try:
            await advance_until_turn(app, at.clock, table_id, at.seat)
            info = app.service.info(table_id)
        except NoSuchTable:  # the match ended
            return
        deal, heading = info.deal, f"table {table_id}, deal {info.deal + 1}"

        def live_dm(heading: str = heading, version: int = info.version
                    ) -> StoredMessage | None:
            """The deal's DM offering this turn's choices (the previous deal's DM, answered
            by the click that ended that deal, may show the new deal's heading too)."""
            return next((m for m in reversed(at.alice.dms)
                         if heading in m.content and versions(m) == {version}), None)

        panel = await app.harness.wait_until(live_dm, what="alice's live DM panel")
        select = next((c for c in controls(panel) if c["type"] == 3
                       and '"play"' in c["options"][0]["value"]), None)
        if select is None:
            await choose_any(at.alice, panel, rng)
            continue
        yield deal, panel, select


async def human_card_budget(fake_discord: Harness, tmp_path: Path, defer_after: float,
                            start: Start = start_app) -> None:
    """A human's card costs the interaction's answer and, when AI players played between,
    one edit of the DM when the turn comes back; the table message at most one edit per
    card (``start`` starts the bot: the web links test binds the web table to it)."""
    at = await alice_at_turup(fake_discord, tmp_path, start=start, defer_after=defer_after)
    app, clock, alice, table_id, seat = at.app, at.clock, at.alice, at.table_id, at.seat
    server = fake_discord.server
    dm_channel = at.dm_channel
    rng = random.Random(4)
    measured = with_ai_between = 0
    async for deal, panel, select in card_turns(at, rng):
        if measured >= 6:
            break
        played_before = len(await app.store.load_actions(table_id))
        seq = server.requests[-1].seq
        value = rng.choice(select["options"])["value"]
        r = await alice.select(panel, select["custom_id"], [value])
        assert r.type == (7 if defer_after else 6), r.content
        card = json.loads(value)["card"]
        await app.service.settle()
        await fake_discord.settle()
        if r.type == 6:
            await r.wait_request(ORIGINAL)
        if table_id not in app.service.table_ids():
            break
        if app.service.info(table_id).deal != deal:
            continue  # the card ended the deal: its DM says so (a test below)
        # the answer shows the hand without the card at once (nothing stale)
        hand = list(app.service.view(table_id, seat).get("hand") or [])
        assert card not in hand
        shown = server.message(panel.id).content
        assert f"({len(hand)} card" in shown and all(
            line in shown for line in hand_lines(hand)), shown
        await advance_until_turn(app, clock, table_id, seat)
        if app.service.info(table_id).deal != deal:
            continue  # the deal ended: results and the next deal's DM are new messages
        await live_panel(app, panel.id, table_id)
        presenter = app.tables.presenters[table_id]
        for _ in range(500):  # the table message's last edit of these cards has landed
            if not presenter.live.busy:
                break
            await asyncio.sleep(0.01)
        await app.service.settle()
        await fake_discord.settle()
        cards = len(await app.store.load_actions(table_id)) - played_before
        kinds = [request_kind(x, dm_channel, at.table_channel)
                 for x in server.calls(since=seq)]
        assert kinds.count("callback") == 1, kinds
        ai_between = cards > 1  # else the answer itself offered the next turn
        # the next turn's controls come through the click's token (the deferred answer's
        # edit too): the DM costs no request counted against the bot's global limit
        originals = list(server.calls(ORIGINAL, since=seq))
        assert len(originals) == (0 if defer_after else 1) + ai_between, kinds
        if ai_between:
            assert "Your turn" in str((originals[-1].json or {}).get("content"))
        assert "dm edit" not in kinds, kinds
        table_edits = kinds.count("table edit")
        assert 1 <= table_edits <= cards, (table_edits, cards)
        assert set(kinds) <= {"callback", "original", "table edit"}, kinds
        # counted: at most one table edit per card played until then, nothing else
        counted = server.counted(since=seq)
        assert len(counted) == table_edits, counted
        measured += 1
        with_ai_between += ai_between
    assert measured >= 3 and with_ai_between >= 1, (measured, with_ai_between)
