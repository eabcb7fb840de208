"""Exact play of Tarabish's last tricks (double-dummy), for search rollouts.

Once at most :data:`ENDGAME_TRICKS` tricks are left, a rollout stops playing by the
rule-based policy and solves the rest of its world exactly: both sides see all four hands
and each plays for its own side's score.

Why points are enough: every value a rollout can give a side (its score minus the other
side's, made, half-bait or bait, plus the win bonus) never falls when the side takes more
of the card points still to be won, and the other side's value never rises. So the
minimax of those points — a side maximising them, the other minimising them — is the
minimax of the final result too. Bella needs no search: a holder who still has his king
or queen of trumps announces it with the second of them (as every rollout player does),
whatever the order of play. The points are searched with alpha-beta; a position at a
trick boundary (hands and leader) is solved once and remembered, across the solves of a
process (:data:`SOLVED_LIMIT`). The solver works on its
own copy of the hands as the engine's strength masks and applies the engine's legal-play
predicate (:func:`~games.tarabish.following_duty`, with ``must_head_plain`` and
``partner_exception``); a test holds it to a plain minimax over the engine's own moves.
"""

from __future__ import annotations

from games.tarabish import (
    BIT_OF,
    BITS,
    HAND_POINTS,
    KING,
    LAST_TRICK,
    POINTS,
    QUEEN,
    TarabishHand,
    TarabishPhase,
    following_duty,
)
from games.trick import rebased_key

ENDGAME_TRICKS = 3
"""Rollouts play the last this many tricks (the trick in progress included) exactly."""

SOLVED_LIMIT = 20_000
"""Positions between tricks whose exact value is remembered, across solves (the playouts
of one decision often meet the same endings); the memory is emptied when it grows past
this many."""

_SOLVED: dict[tuple[int | bool, ...], int] = {}
"""Exact values of positions between tricks: keyed by the side searched for, trump, the
two options that change the legal cards, the leader and every hand (the hands tell how
many tricks are left). A value never changes, so remembering it changes no result."""

_INF = 10_000
_TRUMP = 100
"""The solver's card key: a trump's strength bit plus this; a card of the led suit its
bit; any other card ``-1``."""


def in_endgame(d: TarabishHand) -> bool:
    """Whether the world has reached the exactly solved part of the hand (play phase, at
    most :data:`ENDGAME_TRICKS` tricks left, the first trick over)."""
    done = len(d.completed)
    return d.phase == TarabishPhase.PLAY and done >= 9 - ENDGAME_TRICKS and done >= 1


def finish_exactly(d: TarabishHand, team: int) -> None:
    """End the hand in ``d`` as perfect play would (see :func:`best_points`): the points
    left are shared as the solution says, bella goes to a holder who still has his king or
    queen of trumps, and the hand is over (its :meth:`~TarabishHand.outcome` is final).
    The tricks themselves are not played out."""
    mine = best_points(d, team)
    left = HAND_POINTS - d.card_points[0] - d.card_points[1]
    d.card_points[team] += mine
    d.card_points[1 - team] += left - mine
    holder = d.kq_holder[d.trump]
    if d.bella_seat is None and holder >= 0 and (
            d.holds(holder, d.trump * 13 + KING) or d.holds(holder, d.trump * 13 + QUEEN)):
        d.bella_seat = holder
    d.phase = TarabishPhase.OVER


def best_points(d: TarabishHand, team: int) -> int:
    """The card points (the last trick's 10 included) side ``team`` takes in the rest of
    the hand when both sides play perfectly knowing every hand. ``d`` is not changed."""
    hands = [list(h) for h in d.hands]
    trump = d.trump
    head_plain = d.opts.must_head_plain
    partner_free = d.opts.partner_exception
    if len(_SOLVED) > SOLVED_LIMIT:
        _SOLVED.clear()
    memo = _SOLVED
    rules = (team, trump, head_plain, partner_free)

    def between_tricks(leader: int, done: int) -> int:
        """The exact value of the position before trick ``done + 1`` (remembered)."""
        if done == 8:
            return last_trick(leader)
        h0, h1, h2, h3 = hands
        key = (*rules, leader, *h0, *h1, *h2, *h3)
        value = memo.get(key)
        if value is None:
            value = in_trick(leader, 0, -1, -1, -1, 0, done, -_INF, _INF)
            memo[key] = value
        return value

    def last_trick(leader: int) -> int:
        """The last trick, one card in each hand: no choice left."""
        best, winner, points, led = -1, leader, LAST_TRICK, -1
        for i in range(4):
            seat = (leader + i) & 3
            h = hands[seat]
            s = 0 if h[0] else 1 if h[1] else 2 if h[2] else 3
            b = BITS[h[s]][0]
            if not i:
                led = s
            points += POINTS[s == trump][b]
            key = _TRUMP + b if s == trump else (b if s == led else -1)
            if key > best:
                best, winner = key, seat
        return points if winner & 1 == team else 0

    def in_trick(seat: int, played: int, led: int, best: int, best_seat: int, points: int,
                 done: int, alpha: int, beta: int) -> int:
        """Alpha-beta over ``seat``'s legal cards, ``played`` cards into the trick."""
        h = hands[seat]
        if not played:
            suits = [(s, h[s]) for s in range(4) if h[s]]
        else:
            top_trump = best - _TRUMP if best >= _TRUMP else -1
            free = partner_free and best_seat == seat ^ 2
            _, suit, m = following_duty(h, led, trump, best, top_trump, free, head_plain)
            suits = [(suit, m)] if suit >= 0 else [(s, h[s]) for s in range(4) if h[s]]
        maximise = seat & 1 == team
        value = -_INF if maximise else _INF
        after = (seat + 1) & 3
        for s, m in suits:
            is_trump = s == trump
            card_points = POINTS[is_trump]
            lead = s if not played else led
            for b in BITS[m]:
                key = _TRUMP + b if is_trump else (b if s == lead else -1)
                if key > best:
                    new_best, new_seat = key, seat
                else:
                    new_best, new_seat = best, best_seat
                gained = points + card_points[b]
                h[s] ^= 1 << b
                if played == 3:
                    if done == 8:
                        gained += LAST_TRICK
                        v = gained if new_seat & 1 == team else 0
                    else:
                        v = ((gained if new_seat & 1 == team else 0)
                             + between_tricks(new_seat, done + 1))
                else:
                    v = in_trick(after, played + 1, lead, new_best, new_seat, gained, done,
                                 alpha, beta)
                h[s] ^= 1 << b
                if maximise:
                    if v > value:
                        value = v
                        if v > alpha:
                            alpha = v
                elif v < value:
                    value = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    return value
        return value

    if not d.trick:
        return between_tricks(d.leader, len(d.completed))
    best = rebased_key(d.best_key, _TRUMP)
    so_far = sum(POINTS[c // 13 == trump][BIT_OF[c // 13 == trump][c]] for _, c in d.trick)
    return in_trick(d.turn, len(d.trick), d.led, best, d.best_seat, so_far, len(d.completed),
                    -_INF, _INF)

