"""View secrecy of every published event, for every game.

An AI-only match runs with a subscription for every seat and one for spectators. Then the
stored log is re-applied through the engine, and every delivered event is checked against
the state at its version:

* a seat subscription receives only events addressed to everybody or to that seat, and a
  spectator only public ones;
* every ``state`` event equals the seat's own ``view`` (and legal actions) at that version;
* no event delivered to a seat names a card that another seat held at that moment and
  that the seat's own view did not show.
"""

from __future__ import annotations

from typing import Any

import pytest
from card_names import cards_in

from bot.service import FakeClock, Seat, Subscription, TableEvent, TableService
from games.actions import action_from_json
from games.registry import GAMES
from storage import Store, TerminalLocation

CONFIGS = [(name, n) for name, info in GAMES.items() for n in info.player_counts[:1]]



class Snapshot:
    """Views right after one action (in the deal it belonged to) and after the rollover
    to the next deal."""

    def __init__(self, after_apply: dict[int | None, dict[str, Any]],
                 current: dict[int | None, Any], legal: dict[int, list[Any]]) -> None:
        self.after_apply = after_apply
        self.current = current
        self.legal = legal


def rebuild(game: str, players: int, seed: str, log: list[dict[str, Any]]
            ) -> dict[int, Snapshot]:
    info = GAMES[game]
    match = info.match_type({}, players, 0, seed=seed)
    deal = match.start_deal()

    def current() -> tuple[dict[int | None, Any], dict[int, list[Any]]]:
        d = match.current
        if d is None:
            return {}, {}
        views: dict[int | None, Any] = {s: d.view(s) for s in range(players)}
        views[None] = d.view(None)
        legal = {s: [a.to_json() for a in d.legal_actions(s)] if s in d.to_act else []
                 for s in range(players)}
        return views, legal

    def views_of(d: Any) -> dict[int | None, dict[str, Any]]:
        return {s: d.view(s) for s in [None, *range(players)]}

    snaps = {0: Snapshot(views_of(deal), *current())}
    for version, entry in enumerate(log, start=1):
        seat, action = action_from_json(entry["action"], "log")
        deal.apply(seat, action)
        after = views_of(deal)
        if deal.is_over:
            match.finish_deal()
            if not match.over:
                deal = match.start_deal()
        snaps[version] = Snapshot(after, *current())
    return snaps


def check(event: TableEvent, seat: int | None, snaps: dict[int, Snapshot],
          players: int) -> None:
    assert event.visible_to(seat), (seat, event)
    if seat is None:
        assert event.to is None
    snap = snaps[event.version]
    if event.type == "state":
        assert event.data["view"] == snap.current[seat]
        legal = [a.to_json() for a in event.data["legal"]]  # Action values in process
        assert legal == ([] if seat is None else snap.legal[seat])
        return
    if event.type in ("deal_over", "deal_scored", "match_over"):
        return  # the engine's public end-of-deal summaries
    views = snap.after_apply
    own = cards_in(views[seat])
    hidden: set[str] = set()
    for other in range(players):
        if other != seat:
            hidden |= set(views[other]["hand"])
    leaked = (cards_in(event.data) & hidden) - own
    assert not leaked, (seat, event, leaked)


async def test_every_event_is_what_its_seat_may_see(service: TableService,
                                                    store: Store) -> None:
    for game, players in CONFIGS:
        table_id = await service.create_table(
            TerminalLocation(f"s-{game}-{players}"), game, players=players, seed="sec",
            seats=[Seat.ai("random") for _ in range(players)], ai_pace=0,
        )
        # read only once the match is over: a bound above the match's ~2,500 events
        subs: dict[int | None, Subscription] = {
            s: service.subscribe(table_id, s, bound=100_000) for s in [None, *range(players)]
        }
        await service.start_match(table_id)
        await service.settle(timeout=60)
        log = [e.action for e in await store.load_actions(table_id)]
        snaps = rebuild(game, players, "sec", log)
        counts = {}
        for seat, sub in subs.items():
            events = sub.drain()
            assert events[-1].type == "match_over"
            for event in events:
                if event.type == "lobby":
                    continue
                check(event, seat, snaps, players)
            counts[seat] = len(events)
        # Private events exist (hands, draws, bids) and were routed to their seat only.
        assert any(counts[s] > counts[None] for s in range(players)), game


@pytest.mark.parametrize("seat", [0, None])
async def test_subscription_never_queues_an_event_for_another_seat(seat: int | None) -> None:
    sub = Subscription(1, seat, lambda s: None)
    sub.deliver(TableEvent(1, "hand", {"cards": ["AS"]}, frozenset({1})))
    sub.deliver(TableEvent(1, "hand", {"cards": ["KS"]}, frozenset({0})))
    sub.deliver(TableEvent(1, "play", {"card": "QS"}, None))
    sub.deliver(TableEvent(1, "trump", {"card": "??"}, None, exclude=frozenset({0})))
    sub.deliver(TableEvent(1, "trump", {"card": "9S"}, frozenset({0})))
    got = [e.data for e in sub.drain()]
    if seat == 0:
        assert got == [{"cards": ["KS"]}, {"card": "QS"}, {"card": "9S"}]
    else:
        assert got == [{"card": "QS"}, {"card": "??"}]


def test_fake_clock_is_used() -> None:
    assert FakeClock().now().tzinfo is not None
