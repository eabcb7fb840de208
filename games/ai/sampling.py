"""Dealing hidden cards consistently with what a player knows.

Every search player samples "worlds": the cards it cannot see are dealt to the places they
may be (other hands, a stock, a player's own unseen kitty) so that every hard constraint the
view implies holds: each place gets exactly its size, and a card only goes where it may
be (a seat that showed a void gets no card of that suit, a seat that failed to overtrump
gets no higher trump, …). Constraints are given per card as a bitmask of allowed places.

:func:`deal_constrained` draws one such assignment. Without constraints it is exactly a
uniform shuffle-and-deal; with them it deals the most constrained cards first, each to an
allowed place chosen with probability proportional to that place's remaining room (times an
optional per-suit weight, used for soft inferences such as "his partner signalled strong
in hearts"). If the greedy deal gets stuck it retries, and finally falls back to an exact
matching, so it always succeeds when a consistent deal exists and raises
:class:`ImpossibleDeal` when none does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class ImpossibleDeal(ValueError):
    """No assignment satisfies the constraints (a bug in the caller's inference)."""


def deal_constrained(
    cards: Sequence[int],
    sizes: Sequence[int],
    allowed: Sequence[int],
    rng: random.Random,
    weights: Sequence[Sequence[float]] | None = None,
    tries: int = 6,
) -> list[list[int]]:
    """Deal ``cards`` into ``len(sizes)`` places of exactly ``sizes[p]`` cards.

    ``allowed[i]`` is the bitmask of places card ``cards[i]`` may go to (bit ``p`` for
    place ``p``). ``weights[p][suit]`` (optional, > 0) biases the draw towards a place for
    cards of a suit. Returns the cards of each place.
    """
    n = len(cards)
    k = len(sizes)
    if sum(sizes) != n or len(allowed) != n:
        raise ImpossibleDeal(f"{n} cards cannot fill places of sizes {list(sizes)}")
    full = (1 << k) - 1
    free = all((m & full) == full for m in allowed)
    if free and weights is None:
        order = list(cards)
        rng.shuffle(order)
        out: list[list[int]] = []
        pos = 0
        for size in sizes:
            out.append(order[pos:pos + size])
            pos += size
        return out
    idx = list(range(n))
    pop = [bin(m & full).count("1") for m in allowed]
    for _ in range(tries):
        rng.shuffle(idx)
        idx.sort(key=pop.__getitem__)
        left = list(sizes)
        out = [[] for _ in range(k)]
        ok = True
        for i in idx:
            m = allowed[i]
            c = cards[i]
            total = 0.0
            for p in range(k):
                if m >> p & 1 and left[p]:
                    total += left[p] * (weights[p][c // 13] if weights is not None else 1.0)
            if total <= 0.0:
                ok = False
                break
            x = rng.random() * total
            chosen = -1
            for p in range(k):
                if m >> p & 1 and left[p]:
                    chosen = p
                    x -= left[p] * (weights[p][c // 13] if weights is not None else 1.0)
                    if x < 0.0:
                        break
            out[chosen].append(c)
            left[chosen] -= 1
        if ok:
            return out
    return _exact(cards, sizes, allowed, rng)


def _exact(cards: Sequence[int], sizes: Sequence[int], allowed: Sequence[int],
           rng: random.Random) -> list[list[int]]:
    """A consistent assignment by augmenting paths (cards to places with capacities)."""
    k = len(sizes)
    place: list[int] = [-1] * len(cards)
    members: list[list[int]] = [[] for _ in range(k)]
    order = list(range(len(cards)))
    rng.shuffle(order)
    for i in order:
        # Breadth-first search over places: from the card's allowed places, moving one
        # card at a time to another place it may go to, until a place with room is found.
        parent: dict[int, tuple[int, int]] = {}  # place -> (previous place, card moved)
        frontier = []
        for p in range(k):
            if allowed[i] >> p & 1:
                parent[p] = (-1, i)
                frontier.append(p)
        found = -1
        while frontier and found < 0:
            nxt = []
            for p in frontier:
                if len(members[p]) < sizes[p]:
                    found = p
                    break
                for j in members[p]:
                    for q in range(k):
                        if q not in parent and allowed[j] >> q & 1:
                            parent[q] = (p, j)
                            nxt.append(q)
            frontier = nxt
        if found < 0:
            raise ImpossibleDeal("the known constraints leave no consistent deal")
        p = found
        while True:
            prev, j = parent[p]
            if prev >= 0:
                members[prev].remove(j)
            members[p].append(j)
            place[j] = p
            if prev < 0:
                break
            p = prev
    return [[cards[j] for j in m] for m in members]
