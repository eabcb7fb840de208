"""Finished matches: stored result and record, the ratings hook once per match, rated or
not, and the AI pool path."""

from __future__ import annotations

from typing import Any

from bot.service import FakeClock, FinishedMatch, Seat, TableService
from storage import ChannelLocation, Store, TerminalLocation


class Hook:
    def __init__(self) -> None:
        self.calls: list[FinishedMatch] = []

    async def match_finished(self, match: FinishedMatch) -> None:
        self.calls.append(match)


async def run_match(store: Store, hook: Hook, location: Any, seats: list[Seat],
                    game: str = "turup") -> int:
    service = TableService(store, clock=FakeClock(), ratings=hook)
    table_id = await service.create_table(location, game, seed=9, seats=seats, ai_pace=0,
                                          turn_timeout=0, start=True)
    # Humans are played by the stand-in AI (they are away from the start).
    for i, s in enumerate(seats):
        if not s.is_ai:
            await service.set_away(table_id, i)
    await service.settle(timeout=60)
    await service.close()
    return table_id


async def test_hook_called_once_with_the_result(store: Store) -> None:
    hook = Hook()
    seats = [Seat.human(11, "Ann"), Seat.human(12, "Bob"), Seat.human(13, "Cy"),
             Seat.human(14, "Di")]
    table_id = await run_match(store, hook, ChannelLocation(5, 6), seats)
    assert len(hook.calls) == 1
    call = hook.calls[0]
    match = await store.get_match_for_table(table_id)
    assert match is not None and call.match_id == match.id
    assert call.rated and match.rated and call.guild_id == 5
    assert match.channel_id == 6  # /history shows it to those who may read channel 6
    assert [p.user_id for p in call.participants] == [11, 12, 13, 14]
    assert [p.team for p in call.participants] == [0, 1, 0, 1]
    winner = call.summary["winner"]
    assert {p.outcome for p in call.participants if p.team == winner} == {"win"}
    assert {p.outcome for p in call.participants if p.team != winner} == {"loss"}
    assert match.result["summary"] == call.summary
    deals = await store.load_deals(match.id)
    assert len(deals) == match.deal_count == len(call.summary["dealers"]) - 1


async def test_matches_with_ai_follow_the_guild_setting(store: Store) -> None:
    hook = Hook()
    seats = [Seat.human(11, "Ann"), Seat.ai("random"), Seat.ai("random"), Seat.ai("random")]
    await run_match(store, hook, ChannelLocation(5, 7), seats)
    assert hook.calls[-1].rated is False
    await store.update_guild_settings(8, {"ai_matches_rated": True})
    service = TableService(store, clock=FakeClock(), ratings=hook)
    table_id = await service.create_table(ChannelLocation(8, 1), "turup", seed=1,
                                          seats=seats, ai_pace=0, turn_timeout=0)
    assert service.info(table_id).settings.rated is True
    await service.close()
    await run_match(store, hook, TerminalLocation("x"), [Seat.ai("random")] * 4)
    assert hook.calls[-1].rated is False and hook.calls[-1].guild_id is None


async def test_guild_settings_give_timeout_and_pace(store: Store) -> None:
    await store.update_guild_settings(3, {"turn_timeout": 45, "ai_pace": 0.25})
    service = TableService(store, clock=FakeClock())
    table_id = await service.create_table(ChannelLocation(3, 4), "turup")
    settings = service.info(table_id).settings
    assert (settings.turn_timeout, settings.ai_pace) == (45.0, 0.25)
    await service.close()


async def test_ai_pool_plays_the_rules_level(store: Store) -> None:
    from bot.ai_pool import AIPool

    async with AIPool(workers=1, nice=0) as pool:
        service = TableService(store, clock=FakeClock(), ai_pool=pool)
        table_id = await service.create_table(
            TerminalLocation("pool"), "turup", seed=9, seats=[Seat.ai("rules")] * 4,
            ai_pace=0, start=True, options={"target": 1})
        await service.settle(timeout=120)
        await service.close()
    assert (await store.get_match_for_table(table_id)) is not None


class Crash(BaseException):
    pass


class DiesBeforeFinishing:
    """A store whose process dies right after the match is recorded, before the table is
    marked finished (the window where the hook may run twice)."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name != "update_table":
            return attr

        async def update_table(table_id: int, **changes: Any) -> Any:
            if changes.get("status") == "finished":
                raise Crash()
            return await attr(table_id, **changes)

        return update_table


async def test_recovery_after_recording_finishes_the_table(store: Store) -> None:
    hook = Hook()
    seats = [Seat.ai("random")] * 4
    service = TableService(DiesBeforeFinishing(store), clock=FakeClock(),  # type: ignore[arg-type]
                           ratings=hook)
    table_id = await service.create_table(ChannelLocation(1, 1), "turup", seed=2,
                                          seats=seats, ai_pace=0, start=True)
    await service.settle(timeout=60)
    await service.close()
    assert len(hook.calls) == 1
    row = await store.get_table(table_id)
    assert row is not None and row.status == "playing"
    service = TableService(store, clock=FakeClock(), ratings=hook)
    await service.start()
    await service.settle()
    row = await store.get_table(table_id)
    assert row is not None and row.status == "finished"
    assert [c.match_id for c in hook.calls] == [hook.calls[0].match_id] * 2
    assert service.table_ids() == []
    await service.close()
