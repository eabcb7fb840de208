"""Arba'a Turub, exactly as ``docs/rules/arbaa-turub.md``.

* 144 cards (four identical 36-card packs), four players, partners opposite.
* Deal clockwise in packets of three from eldest (the dealer's left). After eldest's first
  packet the deal pauses and eldest names trump; his view then holds exactly those three
  cards and nobody else's view holds any card. The deal then completes: 36 cards each.
* Eldest leads; clockwise; follow suit if able, else anything; highest trump, else highest
  of the led suit; among identical cards the copy played first wins.
* All 36 tricks are played; more tricks wins the deal, 18–18 is a drawn deal.
* Match rule (section 7), with its ``holder``/``ref`` state; next dealer (section 8): the
  first seat clockwise after the dealer on the losing side, the same dealer after a draw.
* Signals: only the leader, only with the lead, at most one token (``strong``/``weak`` and
  any ``extra_signals``); public.

Choices where the rule file is silent (a careful referee's):

* A record that carries more deals after the match was decided is invalid (the file says a
  *new* match starts; a record holds one match).
* ``draw_for_partners`` is a seating option: :func:`draw_for_partners` performs the draw
  (one card each from a shuffled pack, ties redrawn) and the table service applies it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Deal, GameInfo, Match
from games.cards import RANKS_36, deck, shuffled
from games.errors import RecordError
from games.event_types import DealSummary, MatchExtras
from games.options import GameOptions, option
from games.plain_tricks import (
    TEAMS_4,
    PlainPhase,
    PlainTrickDeal,
    deal_hands,
    playout_tricks,
    signal_tokens,
    team_of,
)


@dataclass(frozen=True)
class ArbaaTurubOptions(GameOptions):
    draw_breaks_streak: bool = option(
        False, "A drawn (18–18) deal clears a side's first win (default: a first win survives "
        "a draw).")
    signals_enabled: bool = option(
        True, "Leader-only signals (strong / weak) are allowed with the lead.")
    extra_signals: tuple[str, ...] = option(
        (), "Extra signal tokens the group has agreed (lowercase words); the engine only "
            "shows them.")
    draw_for_partners: bool = option(
        False, "Partnerships and the first dealer are drawn by cards instead of seating "
               "players as they join.")


class ArbaaTurubDeal(PlainTrickDeal):
    """One deal of Arba'a Turub: 36 tricks, always all played."""

    game = "arbaa_turub"
    direction = 1
    hand_size = 36
    deck_copies = 4

    def result(self) -> int | None:
        """Winning team of a finished deal, or ``None`` for an 18–18 draw."""
        a, b = self.tricks_by_team()
        return None if a == b else (0 if a > b else 1)



class ArbaaTurubMatch(Match):
    """Deals until a side wins two deals with no deal lost in between, the second with
    more tricks than the first (section 7)."""

    game = "arbaa_turub"
    options_type = ArbaaTurubOptions
    options: ArbaaTurubOptions

    def _setup(self) -> None:
        self.holder: int | None = None
        self.ref: int | None = None

    def deal_cards(self, dealer: int, rng: random.Random) -> list[list[int]]:
        return deal_hands(dealer, 1, 36, 4, rng)

    def build_deal(self, dealer: int, hands: list[list[int]], *, trusted: bool) -> Deal:
        opts = self.options
        return ArbaaTurubDeal(dealer, hands, trusted=trusted,
                              signals=signal_tokens(opts.signals_enabled, opts.extra_signals))

    def _score(self, summary: DealSummary) -> None:
        a, b = summary["tricks_by_team"]
        d = self.next_dealer
        if a == b:
            if self.options.draw_breaks_streak:
                self.holder = self.ref = None
            return  # drawn deal: the same dealer deals again
        w = 0 if a > b else 1
        t = max(a, b)
        self.scores[w] += 1
        if self.holder == w and self.ref is not None and t > self.ref:
            self.over, self.winner = True, w
            self.holder = self.ref = None  # the match ends; a new one starts afresh
        elif self.holder != w:
            self.holder, self.ref = w, t
        loser = 1 - w
        self.next_dealer = next((d + i) % 4 for i in (1, 2, 3) if team_of((d + i) % 4) == loser)

    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        tricks = _team_tricks(given, 36, ("tricks_by_team",))
        return {"dealer": dealer, "trump": None, "tricks_by_team": tricks, "hand_over": True}

    def match_extras(self) -> MatchExtras:
        return {"holder": self.holder, "ref": self.ref}


def _team_tricks(given: Mapping[str, Any], total: int, allowed: tuple[str, ...]) -> list[int]:
    """Validate a score-only ``tricks_by_team`` that must add up to ``total``."""
    bad = sorted(set(given) - set(allowed))
    if bad:
        raise RecordError(f"field 'summary.{bad[0]}': not a score-only field of this game "
                          f"({', '.join(allowed)})")
    tricks = given.get("tricks_by_team")
    if (not isinstance(tricks, list) or len(tricks) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                       for x in tricks)):
        raise RecordError("field 'summary.tricks_by_team': must be two trick counts [A, B]")
    if sum(tricks) != total:
        raise RecordError(f"field 'summary.tricks_by_team': {tricks[0]} + {tricks[1]} tricks "
                          f"do not add up to {total}")
    return list(tricks)


def draw_for_partners(rng: random.Random) -> tuple[list[int], int]:
    """Draw for partnerships (section 2): each of the four players (in join order 0..3)
    takes one card; the two highest play against the two lowest, ties among equal cards
    are redrawn by the tied players. Returns ``(seat_of_player, first_dealer_seat)``: the
    highest card deals first and sits at seat 0, his partner (second highest) at seat 2.
    """
    pack = shuffled(deck(RANKS_36), rng)
    ranks = {p: pack.pop() % 13 for p in range(4)}
    order = sorted(range(4), key=lambda p: -ranks[p])
    # Redraw ties, only among the players who tie, until every position is decided.
    while True:
        groups: dict[int, list[int]] = {}
        for p in order:
            groups.setdefault(ranks[p], []).append(p)
        tied = [g for g in groups.values() if len(g) > 1]
        if not tied:
            break
        for g in tied:
            for p in g:
                if not pack:
                    pack = shuffled(deck(RANKS_36), rng)
                ranks[p] = ranks[p] * 100 + pack.pop() % 13
        order = sorted(range(4), key=lambda p: -ranks[p])
    seat_of = [0] * 4
    for seat, player in zip((0, 2, 1, 3), order, strict=True):
        seat_of[player] = seat
    return seat_of, 0


def random_playout(deal: Deal, rng: random.Random) -> list[int]:
    """Finish ``deal`` (consumed) with uniformly random legal play; return tricks by team.

    Eldest's trump call, when still pending, is a uniformly random suit.
    """
    assert isinstance(deal, ArbaaTurubDeal)
    if deal.phase == PlainPhase.TRUMP:
        deal.set_trump(rng.randrange(4))
    while deal.trick:  # finish the trick in progress on the readable core
        deal.fast_play(rng.choice(deal.fast_legal(deal.turn)))
    t = list(deal.tricks_by_seat)
    playout_tricks(deal.hands, deal.trump, deal.leader, 1, rng.random, t, (99, 99))
    return [t[0] + t[2], t[1] + t[3]]


INFO = GameInfo(
    name="arbaa_turub",
    title="Arba'a Turub",
    match_type=ArbaaTurubMatch,
    options_type=ArbaaTurubOptions,
    player_counts=(4,),
    teams=lambda players, options: list(TEAMS_4),
    rules_file="arbaa-turub.md",
    random_playout=random_playout,
    summary_line="Somalia · 4 players in partnerships · 144 cards, 36 tricks · win two deals "
                 "in a row, the second with more tricks",
)

