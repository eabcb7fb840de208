"""Actions through the table service: current, stale, duplicate, concurrent, illegal; and
the lobby (seats, arrangement, start)."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import (
    FakeClock,
    LobbyError,
    NoSuchTable,
    Rejected,
    Seat,
    StaleAction,
    TableService,
)
from games.actions import Action
from storage import ChannelLocation, Store, TerminalLocation, open_store

HUMAN = 1001
OTHER = 1002


async def human_table(service: TableService, game: str = "turup", players: int = 4,
                      humans: tuple[int, ...] = (0,), seed: int = 7) -> int:
    seats = [Seat.human(HUMAN + i, f"P{i}") if i in humans else Seat.ai("random")
             for i in range(players)]
    table_id = await service.create_table(TerminalLocation("t"), game, players=players,
                                          seed=seed, seats=seats, ai_pace=0, start=True)
    await service.settle()
    return table_id


async def log_len(store: Store, table_id: int) -> int:
    return len(await store.load_actions(table_id))


async def test_current_action_is_accepted_and_logged(service: TableService,
                                                     store: Store) -> None:
    table_id = await human_table(service)
    info = service.info(table_id)
    assert info.to_act == (0,)
    legal = service.legal(table_id, 0)
    await service.act(table_id, HUMAN, legal[0], info.version)
    entries = await store.load_actions(table_id)
    mine = [e for e in entries if e.action["by"] == "human"]
    assert mine[-1].seq == info.version + 1
    assert mine[-1].action["action"] == legal[0].to_json(0)


async def test_double_click_is_stale_and_changes_nothing(service: TableService,
                                                         store: Store) -> None:
    table_id = await human_table(service)
    version = service.info(table_id).version
    action = service.legal(table_id, 0)[0]
    await service.act(table_id, HUMAN, action, version)
    await service.settle()
    before = (service.info(table_id).version, await log_len(store, table_id),
              service.view(table_id, 0))
    with pytest.raises(StaleAction, match="that choice is no longer current"):
        await service.act(table_id, HUMAN, action, version)
    assert (service.info(table_id).version, await log_len(store, table_id),
            service.view(table_id, 0)) == before


async def test_concurrent_duplicates_one_wins(service: TableService, store: Store) -> None:
    table_id = await human_table(service)
    version = service.info(table_id).version
    legal = service.legal(table_id, 0)
    attempts = [legal[i % len(legal)] for i in range(6)]
    results = await asyncio.gather(
        *(service.act(table_id, HUMAN, a, version) for a in attempts),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StaleAction) for r in results if r is not None)
    entries = await store.load_actions(table_id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert sum(1 for e in entries if e.action["by"] == "human") == 1


async def test_old_button_from_an_earlier_turn_is_stale(service: TableService) -> None:
    table_id = await human_table(service)
    first = service.info(table_id).version
    await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], first)
    await service.settle()
    info = service.info(table_id)
    if info.to_act != (0,):
        pytest.skip("the human is not to act again yet")  # pragma: no cover
    # A button from the previous turn (chosen at `first`) is refused even if that card
    # happens to be legal again.
    with pytest.raises(StaleAction):
        await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], first)
    with pytest.raises(StaleAction):  # a version from the future is never current
        await service.act(table_id, HUMAN, service.legal(table_id, 0)[0], info.version + 1)


async def test_illegal_action_gets_the_rule_and_changes_nothing(service: TableService,
                                                                store: Store) -> None:
    table_id = await human_table(service)
    info = service.info(table_id)
    view = service.view(table_id, 0)
    legal = service.legal(table_id, 0)
    held = {a.card for a in legal if a.card}
    not_held = next(c for c in ("AS", "KS", "AH", "KH", "AD", "AC", "KC")
                    if c not in view["hand"])
    with pytest.raises(Rejected) as caught:
        await service.act(table_id, HUMAN, Action.play(not_held), info.version)
    assert not isinstance(caught.value, StaleAction)
    assert str(caught.value)
    assert held  # the human had something legal
    with pytest.raises(Rejected):
        await service.act(table_id, HUMAN, Action.play("ZZ"), info.version)
    with pytest.raises(Rejected, match="no seat"):
        await service.act(table_id, OTHER + 50, legal[0], info.version)
    assert service.info(table_id).version == info.version
    assert await log_len(store, table_id) == info.version
    assert service.view(table_id, 0) == view


async def test_secret_bids_stay_current_while_others_bid(service: TableService) -> None:
    """Truf: two humans bid at once; the second bid (chosen before the first was
    accepted) is still current; a repeated bid is stale."""
    table_id = await human_table(service, "truf", 4, humans=(0, 1), seed=3)
    info = service.info(table_id)
    assert set(info.to_act) == {0, 1}
    version = info.version
    bid0 = service.legal(table_id, 0)[0]
    bid1 = service.legal(table_id, 1)[0]
    await service.act(table_id, HUMAN + 1, bid1, version)
    assert 0 in service.info(table_id).to_act
    await service.act(table_id, HUMAN, bid0, version)
    with pytest.raises((StaleAction, Rejected)):
        await service.act(table_id, HUMAN, bid0, version)


async def test_secret_bid_reaches_only_its_seat(service: TableService) -> None:
    table_id = await human_table(service, "truf", 4, humans=(0, 1), seed=3)
    spectator = service.subscribe(table_id)
    other = service.subscribe(table_id, 1)
    version = service.info(table_id).version
    bid = service.legal(table_id, 0)[0]
    mine = service.subscribe(table_id, 0)
    mine.drain()
    other.drain()
    spectator.drain()
    await service.act(table_id, HUMAN, bid, version)
    got_mine = [e for e in mine.drain() if e.type == "bid"]
    assert got_mine and got_mine[0].data["cards"] == list(bid.cards or [bid.card])
    assert not [e for e in other.drain() if e.type == "bid"]
    assert not [e for e in spectator.drain() if e.type == "bid"]


# -- lobby ---------------------------------------------------------------------------------

async def test_lobby_seats_arrangement_and_start(service: TableService, store: Store) -> None:
    loc = ChannelLocation(1, 2)
    table_id = await service.create_table(loc, "tarabish", seed=1, ai_pace=0)
    assert service.find(loc) == table_id
    with pytest.raises(LobbyError):
        await service.create_table(loc, "turup")
    assert await service.join(table_id, HUMAN, "Ann") == 0
    with pytest.raises(LobbyError, match="already have a seat"):
        await service.join(table_id, HUMAN, "Ann")
    assert await service.join(table_id, OTHER, "Bob", seat=2) == 2
    with pytest.raises(LobbyError, match="taken"):
        await service.add_ai(table_id, "rules", seat=2)
    assert await service.add_ai(table_id, "rules") == 1
    with pytest.raises(LobbyError, match="still empty"):
        await service.start_match(table_id)
    assert await service.add_ai(table_id, "random") == 3
    with pytest.raises(LobbyError, match="every seat is taken"):
        await service.add_ai(table_id)
    # Ann and Bob become opponents instead of partners.
    await service.arrange(table_id, [0, 2, 1, 3])
    seats = service.info(table_id).seats
    assert [s.user_id if s else None for s in seats] == [HUMAN, OTHER, None, None]
    assert service.info(table_id).teams == [[0, 2], [1, 3]]
    with pytest.raises(LobbyError):
        await service.arrange(table_id, [0, 0, 1, 2])
    row = await store.get_table(table_id)
    assert row is not None and row.seats[1]["user_id"] == OTHER
    await service.leave(table_id, OTHER)
    with pytest.raises(LobbyError):
        await service.start_match(table_id)
    await service.join(table_id, OTHER, "Bob")
    await service.start_match(table_id)
    row = await store.get_table(table_id)
    assert row is not None and row.status == "playing"
    with pytest.raises(LobbyError, match="already started"):
        await service.join(table_id, 77, "Late")


async def test_bad_game_options_and_counts_are_refused(service: TableService) -> None:
    with pytest.raises(LobbyError, match="unknown game"):
        await service.create_table(TerminalLocation("x"), "bridge")
    with pytest.raises(LobbyError):
        await service.create_table(TerminalLocation("x"), "turup", options={"nope": 1})
    with pytest.raises(LobbyError):
        await service.create_table(TerminalLocation("x"), "turup", players=3)
    with pytest.raises(NoSuchTable):
        service.info(999)


async def test_lobby_survives_a_restart(sqlite_url: str) -> None:
    store = await open_store(sqlite_url)
    clock = FakeClock()
    service = TableService(store, clock=clock)
    table_id = await service.create_table(TerminalLocation("l"), "turup", seed=2)
    await service.join(table_id, HUMAN, "Ann", seat=1)
    await service.close()
    service = TableService(store, clock=clock)
    assert await service.start() == [table_id]
    info = service.info(table_id)
    assert info.status == "lobby"
    assert info.seats[1] == Seat.human(HUMAN, "Ann")
    await service.close()
    await store.close()


async def test_abandon_frees_the_location(service: TableService, store: Store) -> None:
    loc = TerminalLocation("a")
    table_id = await service.create_table(loc, "turup")
    sub = service.subscribe(table_id)
    await service.abandon(table_id, "host closed it")
    events = sub.drain()
    assert events[-1].type == "abandoned"
    assert sub.closed
    row = await store.get_table(table_id)
    assert row is not None and row.status == "abandoned"
    assert service.find(loc) is None
    await service.create_table(loc, "turup")


class FlakyStore:
    """Fails the next append (a lost connection), then works again."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.fail_next = False

    def __getattr__(self, name: str) -> object:
        attr = getattr(self.inner, name)
        if name != "append_action":
            return attr

        async def append_action(*args: object, **kwargs: object) -> None:
            if self.fail_next:
                self.fail_next = False
                raise ConnectionError("the database went away")
            await attr(*args, **kwargs)

        return append_action


async def test_failed_save_changes_nothing_and_can_be_retried(store: Store) -> None:
    from bot.service import SaveFailed

    flaky = FlakyStore(store)
    service = TableService(flaky, clock=FakeClock())  # type: ignore[arg-type]
    table_id = await human_table(service)
    info = service.info(table_id)
    view = service.view(table_id, 0)
    sub = service.subscribe(table_id, 0)
    sub.drain()
    action = service.legal(table_id, 0)[0]
    flaky.fail_next = True
    with pytest.raises(SaveFailed):
        await service.act(table_id, HUMAN, action, info.version)
    assert service.info(table_id).version == info.version
    assert service.view(table_id, 0) == view
    assert sub.drain() == []  # nothing was announced
    assert await log_len(store, table_id) == info.version
    await service.act(table_id, HUMAN, action, info.version)
    assert await log_len(store, table_id) > info.version
    await service.close()


async def test_clicks_property(sqlite_url: str) -> None:
    """Random bursts of clicks (current and old versions, several at once): exactly
    the first current click of each burst is accepted, and the log holds exactly the
    accepted actions."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    bursts = st.lists(st.lists(st.tuples(st.integers(-3, 0), st.integers(0, 5)),
                               min_size=1, max_size=4), min_size=1, max_size=6)

    store = await open_store(sqlite_url)
    counter = {"n": 0}
    # Hypothesis draws the plans; they run inside this test's event loop.
    plans: list[list[list[tuple[int, int]]]] = []

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)
    @given(plan=bursts)
    def collect(plan: list[list[tuple[int, int]]]) -> None:
        plans.append(plan)

    collect()
    service = TableService(store, clock=FakeClock())
    try:
        for plan in plans:
            counter["n"] += 1
            await service.close()
            service = TableService(store, clock=FakeClock())
            seats = [Seat.human(HUMAN, "Ann"), *(Seat.ai("random") for _ in range(3))]
            table_id = await service.create_table(
                TerminalLocation(f"p{counter['n']}"), "turup", seed=counter["n"], seats=seats,
                ai_pace=0, start=True)
            await service.settle()
            accepted = 0
            for burst in plan:
                info = service.info(table_id)
                if info.status != "playing" or info.to_act != (0,):
                    break
                legal = service.legal(table_id, 0)
                clicks = [(info.version + delta, legal[pick % len(legal)])
                          for delta, pick in burst]
                results = await asyncio.gather(
                    *(service.act(table_id, HUMAN, a, v) for v, a in clicks),
                    return_exceptions=True)
                current = [i for i, (v, _) in enumerate(clicks) if v == info.version]
                expected_ok = current[:1]
                assert [i for i, r in enumerate(results) if r is None] == expected_ok
                assert all(isinstance(r, StaleAction) for r in results if r is not None)
                accepted += len(expected_ok)
                await service.settle()
            entries = await store.load_actions(table_id)
            assert sum(1 for e in entries if e.action["by"] == "human") == accepted
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
            if table_id in service.table_ids():
                await service.abandon(table_id)
    finally:
        await service.close()
        await store.close()


async def test_a_refusal_of_the_rules_carries_the_engines_template_as_data(
        service: TableService) -> None:
    """The service passes the engine's refusal on as data (template and fields), so each
    front end words it for its reader: here in Somali with the table's names."""
    from bot.i18n import translator
    from bot.i18n.leftovers import english_leftovers
    from bot.service import RuleRefusal
    from bot.words.seating import Seating
    from bot.words.table_state import reason_text

    table_id = await human_table(service)
    info = service.info(table_id)
    view = service.view(table_id, 0)
    not_held = next(c for c in ("AS", "KS", "AH", "KH", "AD", "AC", "KC")
                    if c not in view["hand"])
    with pytest.raises(RuleRefusal) as caught:
        await service.act(table_id, HUMAN, Action.play(not_held), info.version)
    refusal = caught.value
    assert refusal.params and "{" in refusal.template
    assert str(refusal) == refusal.said.message  # the engine's English reason, unchanged
    names = ["Asha", "Bashir", "Cali", "Deeqa"]
    somali = reason_text(refusal, Seating.of("turup", names, t=translator("so")))
    english = reason_text(refusal, Seating.of("turup", names))
    assert somali != english and english_leftovers(somali, "so") == []
    assert "seat" not in somali and not_held not in somali
    assert service.info(table_id).version == info.version
