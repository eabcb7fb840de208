"""Turup, exactly as ``docs/rules/turup.md``.

* 36 cards, four players, partners opposite; everything runs **counter-clockwise**: eldest
  is the dealer's right (``d - 1``), the next player is ``s - 1``.
* Eldest names trump after his first packet of three (his view then holds exactly those
  three cards, nobody else's any); the deal completes to nine cards each.
* Play as Arba'a Turub: follow suit if able, else anything; leader-only signals.
* The deal ends as soon as a side has five tricks: that side scores 1 game point.
* At 5–0 the winner of trick five decides (phase ``"kort"``): optionally ``ask_partner``
  (the partner then gives a public, non-binding ``answer`` of 0–4), then ``kort`` with
  ``continue: false`` (1 point) or ``continue: true``: all nine tricks score 3, the first
  trick lost ends the deal with 3 points to the opponents.
* ``kort_declared_before_play``: before the first card is led any player may
  ``declare_kort`` for his side; the five-trick finish is then suspended for that side,
  which scores 3 for all nine tricks, and the opponents score 3 at the first trick it loses.
  With the option on but no declaration made, the 5–0 decision is offered as without it.
* Game to ``target`` game points (5); the deal passes to the dealer's right (option
  ``dealer_rotation: "clockwise"``).

Choices where the rule file is silent (a careful referee's):

* Only one ``declare_kort`` per deal: once a side has declared, nobody else may.
* ``declare_kort`` is an optional action: ``to_act`` stays the player to lead, while
  ``legal_actions`` offers ``declare_kort`` to every seat until the first card is led.
* The partner is asked at most once per deal.
* A score-only failed kort names the side that broke it by its single trick; ``[1, 1]``
  (possible only with ``kort_declared_before_play``) is ambiguous and refused.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.actions import Action
from games.base import Deal, Event, GameInfo, Match, public
from games.errors import N_, IllegalAction, RecordError
from games.event_types import DealSummary
from games.options import GameOptions, option
from games.plain_tricks import (
    ANSWER_PHASE,
    KORT_PHASE,
    OVER_PHASE,
    PLAY_PHASE,
    SEAT_TUPLES,
    TEAMS_4,
    TRUMP_PHASE,
    PlainTrickDeal,
    deal_hands,
    playout_tricks,
    signal_tokens,
    team_of,
)
from games.view_types import TurupView

KORT_CHOICES = (Action("ask_partner"), Action.kort(False), Action.kort(True))
"""The 5–0 decider's choices (asking the partner only once)."""
ANSWERS = tuple(Action.answer(n) for n in range(5))
DECLARE_KORT = Action("declare_kort")


@dataclass(frozen=True)
class TurupOptions(GameOptions):
    target: int = option(5, "The first side to reach this many game points wins.", min=1,
                         max=1000)
    kort_declared_before_play: bool = option(
        False, "A side that thinks it can take all nine tricks declares kort before the "
               "first lead; the five-trick finish is then suspended for it.")
    dealer_rotation: str = option(
        "counterclockwise", "Which way the deal passes after each hand.",
        choices=("counterclockwise", "clockwise"))
    signals_enabled: bool = option(
        True, "Leader-only signals (strong / weak) are allowed with the lead.")
    extra_signals: tuple[str, ...] = option(
        (), "Extra signal tokens the group has agreed (lowercase words).")


class TurupDeal(PlainTrickDeal):
    """One deal of Turup: up to nine tricks, ending early at five."""

    game = "turup"
    direction = -1
    hand_size = 9
    deck_copies = 1

    def __init__(self, dealer: int, hands: list[list[int]], *,
                 signals: tuple[str, ...] | None, declare_allowed: bool,
                 trusted: bool = False) -> None:
        super().__init__(dealer, hands, signals=signals, trusted=trusted)
        self.declare_allowed = declare_allowed
        self.kort_side: int | None = None  # side playing for all nine tricks
        self.kort_declared = False
        self.decider: int | None = None  # trick-5 winner at 5-0
        self.asked = False
        self.partner_answer: int | None = None
        self.game_points = [0, 0]
        self.kort_result: str | None = None

    # -- deal end ---------------------------------------------------------------------------
    def _after_trick(self, winner: int) -> None:
        t = self.tricks_by_seat
        ta = [t[0] + t[2], t[1] + t[3]]
        side = winner & 1
        if self.kort_side is not None:
            if side != self.kort_side:
                self._end(side, 3, "failed")
            elif ta[side] == 9:
                self._end(side, 3, "made")
            return
        if len(self.completed) == 5 and ta[side] == 5 and ta[1 - side] == 0:
            self.phase, self.decider = KORT_PHASE, winner
            return
        if ta[side] == 5:
            self._end(side, 1, None)

    def _end(self, side: int, points: int, kort: str | None) -> None:
        self.game_points[side] = points
        self.kort_result = kort
        self.phase = OVER_PHASE

    # -- actions ----------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == PLAY_PHASE:
            return SEAT_TUPLES[self.turn]
        if self.phase == ANSWER_PHASE:
            assert self.decider is not None
            return ((self.decider + 2) % 4,)
        if self.phase == KORT_PHASE:
            assert self.decider is not None
            return (self.decider,)
        return super().to_act

    def _may_declare(self) -> bool:
        return (self.declare_allowed and self.phase == PLAY_PHASE and not self.completed
                and not self.trick and not self.kort_declared)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == PLAY_PHASE and not self.declare_allowed:
            return PlainTrickDeal.legal_actions(self, seat)  # the common case, no super()
        if self.phase == KORT_PHASE:
            if seat != self.decider:
                return []
            return list(KORT_CHOICES[1:] if self.asked else KORT_CHOICES)
        if self.phase == ANSWER_PHASE:
            return list(ANSWERS) if seat in self.to_act else []
        out = super().legal_actions(seat)
        if self._may_declare():
            out.append(DECLARE_KORT)
        return out

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.type
        if kind == "play" and self.phase == PLAY_PHASE:
            return self._play(seat, action)
        if kind == "play" and self.phase in (KORT_PHASE, ANSWER_PHASE):
            raise IllegalAction("the winner of the fifth trick must first decide on kort "
                                "(continue or stop)")
        if kind == "ask_partner":
            return self._ask(seat)
        if kind == "answer":
            return self._answer(seat, action)
        if kind == "kort":
            return self._kort(seat, action)
        if kind == "declare_kort":
            return self._declare(seat)
        return super()._apply(seat, action)

    def _check_decider(self, seat: int, too_early: str) -> None:
        """Refuse unless it is the kort decision and ``seat`` makes it (``too_early``: the
        refusal's template outside the decision)."""
        if self.phase != KORT_PHASE:
            raise IllegalAction(too_early)
        if seat != self.decider:
            raise IllegalAction("only {seat}, who won the fifth trick, decides",
                                seat=self.decider)

    def _ask(self, seat: int) -> list[Event]:
        self._check_decider(seat, N_("asking the partner is only possible at 5–0, after the "
                                     "fifth trick"))
        if self.asked:
            raise IllegalAction("you have already asked your partner")
        self.asked = True
        self.phase = ANSWER_PHASE
        return [public("ask_partner", {"seat": seat, "partner": (seat + 2) % 4})]

    def _answer(self, seat: int, action: Action) -> list[Event]:
        if self.phase != ANSWER_PHASE:
            raise IllegalAction("nobody has asked for an answer")
        if seat not in self.to_act:
            raise IllegalAction("only the partner who was asked answers")
        assert action.tricks is not None
        if not 0 <= action.tricks <= 4:
            raise IllegalAction("answer with a number of tricks from 0 to 4")
        self.partner_answer = action.tricks
        self.phase = KORT_PHASE
        return [public("answer", {"seat": seat, "tricks": action.tricks})]

    def _kort(self, seat: int, action: Action) -> list[Event]:
        self._check_decider(seat, N_("the kort decision is only possible at 5–0, after the "
                                     "fifth trick"))
        side = team_of(seat)
        if action.cont:
            self.kort_side = side
            self.phase = PLAY_PHASE
            return [public("kort", {"seat": seat, "continue": True})]
        self._end(side, 1, None)
        return [public("kort", {"seat": seat, "continue": False}),
                public("deal_over", {"summary": self.summary()})]

    def _declare(self, seat: int) -> list[Event]:
        if not self.declare_allowed:
            raise IllegalAction("kort is not declared before play at this table")
        if not self._may_declare():
            if self.kort_declared:
                raise IllegalAction("kort has already been declared this deal")
            raise IllegalAction("kort can only be declared before the first card is led")
        self.kort_declared = True
        self.kort_side = team_of(seat)
        return [public("declare_kort", {"seat": seat, "side": self.kort_side})]

    # -- views ------------------------------------------------------------------------------
    def view(self, seat: int | None) -> TurupView:
        out: TurupView = {
            **super().view(seat),
            "game_points": list(self.game_points),
            "kort_side": self.kort_side,
            "kort_declared": self.kort_declared,
            "decider": self.decider,
            "partner_answer": self.partner_answer,
        }
        if self.kort_side is not None:
            out["facts"].append(["Kort", f"team {'AB'[self.kort_side]} plays for all nine"])
        if self.partner_answer is not None:
            out["facts"].append(["Partner expects", f"{self.partner_answer} more tricks"])
        return out

    def summary(self) -> DealSummary:
        out = super().summary()
        out["game_points"] = list(self.game_points)
        out["kort"] = self.kort_result
        return out


class TurupMatch(Match):
    """Deals until a side reaches ``target`` game points."""

    game = "turup"
    options_type = TurupOptions
    options: TurupOptions

    def deal_cards(self, dealer: int, rng: random.Random) -> list[list[int]]:
        return deal_hands(dealer, -1, 9, 1, rng)

    def build_deal(self, dealer: int, hands: list[list[int]], *, trusted: bool) -> Deal:
        opts = self.options
        return TurupDeal(dealer, hands,
                         signals=signal_tokens(opts.signals_enabled, opts.extra_signals),
                         declare_allowed=self.options.kort_declared_before_play,
                         trusted=trusted)

    def _score(self, summary: DealSummary) -> None:
        self.add_scores(summary["game_points"])
        step = 1 if self.options.dealer_rotation == "clockwise" else -1
        self.next_dealer = (self.next_dealer + step) % 4
        leaders = [s for s in (0, 1) if self.scores[s] >= self.options.target]
        if leaders:
            self.over = True
            self.winner = max(leaders, key=lambda s: self.scores[s])

    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        bad = sorted(set(given) - {"tricks_by_team", "kort"})
        if bad:
            raise RecordError(f"field 'summary.{bad[0]}': not a score-only field of turup "
                              "(tricks_by_team, kort)")
        tricks = given.get("tricks_by_team")
        if (not isinstance(tricks, list) or len(tricks) != 2 or not all(
                isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 9 for x in tricks)):
            raise RecordError("field 'summary.tricks_by_team': must be two trick counts [A, B]")
        kort = given.get("kort")
        a, b = tricks
        points = [0, 0]
        declared = self.options.kort_declared_before_play
        if kort is None:
            if not ((a == 5 and b < 5) or (b == 5 and a < 5)):
                raise RecordError("field 'summary.tricks_by_team': without kort the deal ends "
                                  "when one side has 5 tricks and the other fewer")
            points[0 if a == 5 else 1] = 1
        elif kort == "made":
            if sorted(tricks) != [0, 9]:
                raise RecordError("field 'summary.tricks_by_team': a made kort is 9 tricks "
                                  "to 0")
            points[0 if a == 9 else 1] = 3
        elif kort == "failed":
            breakers = [s for s in (0, 1) if tricks[s] == 1]
            if len(breakers) != 1:
                raise RecordError("field 'summary.tricks_by_team': a failed kort ends when "
                                  "the opponents win one trick; the counts do not say who")
            kort_side = 1 - breakers[0]
            low = 0 if declared else 5
            if not low <= tricks[kort_side] <= 8:
                raise RecordError(f"field 'summary.tricks_by_team': a failed kort side has "
                                  f"{low} to 8 tricks")
            points[breakers[0]] = 3
        else:
            raise RecordError("field 'summary.kort': must be \"made\", \"failed\" or absent")
        return {"dealer": dealer, "trump": None, "tricks_by_team": list(tricks),
                "hand_over": True, "game_points": points, "kort": kort}


def random_playout(deal: Deal, rng: random.Random) -> list[int]:
    """Finish ``deal`` (consumed) with uniformly random legal decisions; return the game
    points by team. Random policy: uniform suit for trump, uniform legal card, and at 5–0
    continue or stop with equal chance (asking the partner changes nothing, so it is
    skipped); it never declares kort."""
    assert isinstance(deal, TurupDeal)
    if deal.phase == TRUMP_PHASE:
        deal.set_trump(rng.randrange(4))
    while deal.trick and deal.phase == PLAY_PHASE:
        deal.fast_play(rng.choice(deal.fast_legal(deal.turn)))
    rnd = rng.random
    t = deal.tricks_by_seat
    while deal.phase != OVER_PHASE:
        if deal.phase in (KORT_PHASE, ANSWER_PHASE):
            assert deal.decider is not None
            if rnd() < 0.5:
                deal._end(team_of(deal.decider), 1, None)
                break
            deal.kort_side, deal.phase = team_of(deal.decider), PLAY_PHASE
        k = deal.kort_side
        stop = (5, 5) if k is None else ((9, 1) if k == 0 else (1, 9))
        before = len(deal.completed), sum(t)
        deal.leader = playout_tricks(deal.hands, deal.trump, deal.leader, -1, rnd, t, stop)
        played = sum(t) - before[1]
        deal.completed.extend([(-1, [], -1)] * played)  # placeholders: results only
        winner = deal.leader
        deal.turn = winner
        ta = deal.tricks_by_team()
        if k is not None:
            side = 0 if ta[0] == 9 or (k == 1 and ta[0] > 0) else 1
            deal._end(side, 3, "made" if side == k else "failed")
        elif len(deal.completed) == 5 and max(ta) == 5 and min(ta) == 0:
            deal.phase, deal.decider = KORT_PHASE, winner
        else:
            deal._end(0 if ta[0] == 5 else 1, 1, None)
    return list(deal.game_points)


INFO = GameInfo(
    name="turup",
    title="Turup",
    match_type=TurupMatch,
    options_type=TurupOptions,
    player_counts=(4,),
    teams=lambda players, options: list(TEAMS_4),
    rules_file="turup.md",
    random_playout=random_playout,
    summary_line="Somalia, 1912 · 4 players in partnerships · 36 cards counter-clockwise · "
                 "first side to 5 tricks; kort = all nine",
)
