"""The controller both terminal front ends share: it opens the store and the table
service, creates or resumes the terminal's table, follows the human seat's events into a
:class:`TableModel`, and submits the human's choices.

A front end (the Textual app, the ``--plain`` line mode) implements :class:`Front`: it is
told when the model changed, when it is the human's turn (with the choices folded per
card), when a deal or the match is over, and about refusals and notices. It answers by
calling :meth:`Session.act`, which returns ``None`` when the action was accepted (or had
become stale: a newer turn follows) and the engine's reason, in players' words, when it
was refused — nothing changes then.

A forced move (exactly one legal action) is played by the session after the configured
pause (``--forced-pause``; ``off`` asks as usual). Everything is stored by the service as
it happens: a front end may stop at any moment and ``--resume`` continues.
"""

from __future__ import annotations

import asyncio
import getpass
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from bot.i18n import translator
from bot.service import LobbyError, Rejected, RuleRefusal, Seat, StaleAction, TableService
from bot.service.errors import REPLACED, abandon_reason
from bot.service.events import RESYNC, TableEvent, data_of, game_data
from bot.terminal.config import DEFAULT_AI, DEFAULT_FORCED_PAUSE, DEFAULT_PACE, PlayConfig
from bot.words.actions import action_text
from bot.words.choices import Choices
from bot.words.events import event_line
from bot.words.results import deal_result, match_result
from bot.words.seating import Seating, join_names
from bot.words.table_state import reason_text
from games.actions import Action
from games.event_types import MatchSummary, TrickData
from games.registry import GAMES
from games.trick import TrickJSON
from games.view_types import GameView, TarabishView
from storage import TerminalLocation, open_store
from storage.base import Store
from storage.factory import redact

TERMINAL_USER = 1
"""The user id of the human at a terminal table."""

SIGNAL = "signal"
"""The log kind of a play with a signal or bella (kept where plain plays are left out)."""

AI_NAMES = ("Amina", "Bilal", "Chausiku", "Dewi", "Ekon", "Farah")
"""Names of the AI players, by seat (the human's seat skips its name)."""


@dataclass
class TableModel:
    """What the human's seat knows of the table now (drawn by the front ends)."""

    game: str
    title: str
    seating: Seating
    me: int
    levels: list[str | None]
    table_id: int
    view: GameView | None = None
    version: int = -1
    to_act: list[int] = field(default_factory=list)
    legal: list[Action] = field(default_factory=list)
    match: MatchSummary = field(default_factory=lambda: MatchSummary())
    deal: int = 0
    log: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=200))
    """``(event type, sentence)``: what happened, newest last."""
    logged: int = 0
    """How many lines were ever added to ``log`` (a front end prints the new ones)."""
    over: bool = False

    def add_log(self, line: str, kind: str = "") -> None:
        self.log.append((kind, line))
        self.logged += 1

    @property
    def hand(self) -> list[str]:
        return list(self.view.get("hand") or []) if self.view else []

    @property
    def choices(self) -> Choices:
        return Choices.of(self.legal, self.hand)

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    def last_trick(self) -> TrickJSON | None:
        """The last completed trick of the deal (every card face up), if any (with its
        ``number`` when the view lists the deal's tricks: a :class:`TrickData`)."""
        view = self.view
        tricks = view.get("tricks") or [] if view else []
        if tricks:
            last = tricks[-1]
            numbered: TrickData = {"leader": last["leader"], "cards": last["cards"],
                                   "winner": last["winner"], "number": len(tricks)}
            return numbered
        # Tarabish's view alone has the ``last_trick`` key
        last_trick = cast(TarabishView, view).get("last_trick") if view else None
        return last_trick.copy() if isinstance(last_trick, dict) else None


class Front(Protocol):
    """What a terminal front end does for the session (module docstring)."""

    def changed(self, model: TableModel) -> None: ...

    def notice(self, text: str) -> None: ...

    async def your_turn(self, model: TableModel, choices: Choices) -> bool:
        """Offer the choices; return ``False`` to stop (the game is saved)."""
        ...

    async def deal_over(self, model: TableModel, lines: list[str]) -> None: ...

    async def match_over(self, model: TableModel, lines: list[str]) -> None: ...


class Session:
    """One terminal match (module docstring). :meth:`run` returns the exit status."""

    def __init__(self, cfg: PlayConfig, front: Front) -> None:
        self.cfg = cfg
        self.t = translator(cfg.language)
        """The language of everything the table says (the front ends use it too)."""
        self.front = front
        self.service: TableService | None = None
        self.model: TableModel | None = None
        self.forced_pause = DEFAULT_FORCED_PAUSE
        self.prompted = -1
        self.stopped = False
        self.record_path: Path | None = None
        self.store: Store | None = None
        self._closing: asyncio.Future[None] | None = None

    # -- opening --------------------------------------------------------------------
    async def run(self) -> int:
        cfg = self.cfg
        url = cfg.database_url
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).expanduser().parent.mkdir(
                parents=True, exist_ok=True)
        try:
            store = await open_store(url)
        except Exception as exc:
            self.front.notice(self.t.gettext("Cannot open the database {url}: {error}")
                              .format(url=redact(url), error=exc))
            return 2
        self.store = store
        try:
            return await self._run(store)
        finally:
            await self.close()

    async def close(self) -> None:
        """Stop following the table and close the service and the store (everything was
        stored as it happened). Every caller waits for the one closing, which a
        cancelled caller does not interrupt: a store left open would keep its thread
        alive after the front end is gone."""
        self.stopped = True
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        try:
            if self.service is not None:
                await self.service.close()
        finally:
            if self.store is not None:
                await self.store.close()

    async def _run(self, store: Store) -> int:
        cfg = self.cfg
        title = GAMES[cfg.game].title
        location = TerminalLocation(f"play:{cfg.game}")
        row = await store.find_open_table(location)
        if cfg.resume:
            if row is None:
                self.front.notice(self.t.gettext(
                    "There is no interrupted {game} match to resume.").format(game=title))
                return 2
            await self._apply_overrides(store, row)
        elif row is not None and not cfg.new:
            self.front.notice(self.t.gettext(
                "An interrupted {game} match is waiting. Continue it with `{command}`, or "
                "start over with --new.").format(game=title, command=self.resume_command()))
            return 2
        service = self.service = TableService(store)
        await service.start(owns=lambda loc: loc == location)
        table_id = service.find(location)
        if not cfg.resume:
            if table_id is not None:
                await service.abandon(table_id, REPLACED)
            try:
                table_id = await self._create(service, location)
            except LobbyError as exc:
                self.front.notice(self.t.gettext("Cannot start the match: {error}").format(
                    error=exc.said.text(self.t)))
                return 2
        assert table_id is not None
        if not self._adopt(service, table_id):
            self.front.notice(self.t.gettext("The interrupted match has no seat for you."))
            return 2
        if service.info(table_id).status == "lobby":  # a start interrupted after the create
            await self._start(service, table_id)
        return await self._loop(service, table_id)

    def _adopt(self, service: TableService, table_id: int) -> bool:
        """Follow ``table_id`` from now on (its model, its forced-move pause); False when
        it has no seat for the human."""
        cfg = self.cfg
        title = GAMES[cfg.game].title
        seat = service.seat_of(table_id, TERMINAL_USER)
        if seat is None:
            return False
        info = service.info(table_id)
        names = [s.name if s is not None else self.t.gettext("empty") for s in info.seats]
        self.model = TableModel(
            game=cfg.game, title=title, seating=Seating.of(cfg.game, names, info.options, t=self.t),
            me=seat, levels=[s.level if s is not None else None for s in info.seats],
            table_id=table_id)
        meta = service.meta(table_id) or {}
        stored = (meta.get("terminal") or {}).get("forced_pause", DEFAULT_FORCED_PAUSE)
        self.forced_pause = float(stored)
        self.prompted = -1
        return True

    async def _start(self, service: TableService, table_id: int) -> None:
        """Start the match of a new table (the web table waits for its page first)."""
        await service.start_match(table_id)

    def _first_dealer(self, players: int, seat: int) -> int:
        """Who deals the first deal of a new match (seat 0 at the terminal)."""
        return 0

    async def _apply_overrides(self, store: Store, row: Any) -> None:
        """Store the flags given with ``--resume`` and say what is used."""
        cfg = self.cfg
        meta = dict(row.meta)
        term = dict(meta.get("terminal") or {})
        changed: list[str] = []
        if cfg.pace is not None and cfg.pace != meta.get("ai_pace"):
            meta["ai_pace"] = cfg.pace
            changed.append(self.t.gettext("AI pace {seconds} s (--pace)").format(
                seconds=self.t.number(cfg.pace)))
        if cfg.forced_pause is not None and cfg.forced_pause != term.get("forced_pause"):
            term["forced_pause"] = cfg.forced_pause
            changed.append(self.t.gettext("forced-move pause {pause} (--forced-pause)")
                           .format(pause=self._pause_text(cfg.forced_pause)))
        meta["terminal"] = term
        seats = list(row.seats)
        if cfg.ai is not None:
            new = []
            for s in seats:
                if isinstance(s, dict) and s.get("kind") == "ai" and s.get("level") != cfg.ai:
                    s = {**s, "level": cfg.ai}
                new.append(s)
            if new != seats:
                seats = new
                changed.append(self.t.gettext("AI level {level} (--ai)").format(level=cfg.ai))
        await store.update_table(row.id, meta=meta, seats=seats)
        levels = sorted({str(s.get("level")) for s in seats if isinstance(s, dict)
                         and s.get("kind") == "ai" and s.get("level")})
        t = self.t
        kept = [t.gettext("AI {levels}").format(levels=", ".join(levels) or "-"),
                t.gettext("pace {seconds} s").format(
                    seconds=t.number(float(meta.get("ai_pace", 0)))),
                t.gettext("forced-move pause {pause}").format(pause=self._pause_text(
                    float(term.get("forced_pause", DEFAULT_FORCED_PAUSE))))]
        title = GAMES[cfg.game].title
        if changed:
            text = t.gettext("Resuming {game} with its stored settings ({kept}); changed: "
                             "{changed}.").format(game=title, kept=", ".join(kept),
                                                  changed=", ".join(changed))
        else:
            text = t.gettext("Resuming {game} with its stored settings ({kept}).").format(
                game=title, kept=", ".join(kept))
        self.front.notice(text)

    async def _create(self, service: TableService, location: TerminalLocation) -> int:
        cfg = self.cfg
        info = GAMES[cfg.game]
        players = cfg.players if cfg.players is not None else info.player_counts[0]
        seat = cfg.seat or 0
        if not 0 <= seat < players:
            raise LobbyError(self.t.gettext("--seat must be 0-{last} for {count} players")
                             .format(last=players - 1, count=players))
        level = cfg.ai or DEFAULT_AI
        seats = [Seat.human(TERMINAL_USER, cfg.name or _login_name()) if i == seat
                 else Seat.ai(level, AI_NAMES[i]) for i in range(players)]
        pace = DEFAULT_PACE if cfg.pace is None else cfg.pace
        table_id: int = await service.create_table(
            location, cfg.game, options=cfg.options or {}, players=players, seed=cfg.seed,
            seats=seats, ai_pace=pace, turn_timeout=0, start=False,
            first_dealer=self._first_dealer(players, seat))
        pause = DEFAULT_FORCED_PAUSE if cfg.forced_pause is None else cfg.forced_pause
        await service.update_meta(table_id, terminal={"forced_pause": pause})
        await self._start(service, table_id)
        return table_id

    # -- following the table ----------------------------------------------------------
    async def _loop(self, service: TableService, table_id: int) -> int:
        model = self.model
        assert model is not None
        sub = service.subscribe(table_id, model.me)
        self._intro(service, table_id)
        try:
            while not self.stopped:
                event = await sub.get()
                if event is None:
                    return 0
                if event.type == RESYNC:
                    if table_id not in service.table_ids():
                        continue
                    model.add_log("(the display fell behind; this is the table now)",
                                  RESYNC)
                    event = service.state(table_id, model.me)
                status = await self._handle(service, table_id, event)
                if status is not None:
                    return status
            return 0
        finally:
            sub.close()

    def _intro(self, service: TableService, table_id: int) -> None:
        model = self.model
        assert model is not None
        seating = model.seating
        mine = seating.side_of(model.me)
        if seating.partnerships:
            partners = [seating.name(s) for s in seating.sides[mine] if s != model.me]
            others = [seating.side_name(i) for i in range(len(seating.sides)) if i != mine]
            text = self.t.gettext("{game}: you play with {partners} against {others}.").format(
                game=model.title, partners=join_names(partners, self.t),
                others=join_names(others, self.t))
        else:
            others = [seating.name(s) for s in range(seating.players) if s != model.me]
            text = self.t.gettext("{game}: you play against {others}.").format(
                game=model.title, others=join_names(others, self.t))
        model.add_log(text, "intro")
        if service.info(table_id).status == "playing":
            view = service.view(table_id, model.me)
            model.add_log(self._deal_line(model.deal, seating.name(view.get("dealer"))),
                          "deal_started")

    async def _handle(self, service: TableService, table_id: int, event: TableEvent
                      ) -> int | None:
        model = self.model
        assert model is not None
        kind = event.type
        if kind == "state":
            self._take_state(event)
            self.front.changed(model)
            if model.legal and self._current(service, table_id, event):
                return await self._turn(event)
            return None
        if kind == "deal_started":
            started = data_of(event, "deal_started")
            model.deal = started["deal"]
            dealer = model.seating.name(started["dealer"])
            model.add_log(self._deal_line(model.deal, dealer))
        elif kind == "deal_scored":
            scored = data_of(event, "deal_scored")
            model.match = scored["match"].copy()
            self.front.changed(model)
            text = deal_result(model.seating, scored["summary"], number=scored["deal"],
                               match=model.match)
            await self.front.deal_over(model, [text.title, *text.lines])
        elif kind == "match_over":
            model.over = True
            model.match = data_of(event, "match_over")["summary"].copy()
            text = match_result(model.seating, model.match)
            lines = [text.title, *text.lines]
            lines.append(await self._write_record(service, table_id))
            await self.front.match_over(model, lines)
            return 0
        elif kind == "abandoned":
            self.front.notice(self.t.gettext("The table was closed: {reason}.").format(
                reason=abandon_reason(data_of(event, "abandoned"), self.t)))
            return 0
        else:
            data = game_data(event)
            line = event_line(model.seating, kind, data)
            if line:
                signalled = kind == "play" and (data.get("signal") or data.get("bella"))
                model.add_log(line, SIGNAL if signalled else kind)
                self.front.changed(model)
        return None

    def _take_state(self, event: TableEvent) -> None:
        model = self.model
        assert model is not None
        data = data_of(event, "state")
        model.version = event.version
        model.view = data.get("view")
        model.to_act = list(data.get("to_act") or [])
        model.deal = data.get("deal", model.deal)
        if match := data.get("match"):
            model.match = match.copy()
        model.legal = list(data.get("legal") or [])

    def _current(self, service: TableService, table_id: int, event: TableEvent) -> bool:
        if table_id not in service.table_ids():
            return False
        if event.version != service.info(table_id).version:
            return False  # a later state is queued
        if event.version == self.prompted:
            return False
        self.prompted = event.version
        return True

    async def _turn(self, event: TableEvent) -> int | None:
        model = self.model
        assert model is not None
        choices = model.choices
        forced = choices.forced
        if forced is not None and self.forced_pause >= 0:
            self.front.notice(self.t.gettext("Your only choice: {action}.").format(
                action=action_text(forced, model.game, t=self.t)))
            await asyncio.sleep(self.forced_pause)
            await self.act(forced)
            return None
        if not await self.front.your_turn(model, choices):
            self.stopped = True
            return 0
        return None

    # -- acting -------------------------------------------------------------------------
    async def act(self, action: Action) -> str | None:
        """Submit the human's action at the model's version: ``None`` when accepted (or
        stale: a newer turn follows), else the refusal in players' words."""
        model, service = self.model, self.service
        if model is None or service is None:
            return self.t.gettext("The table is not open yet.")
        try:
            await service.act(model.table_id, TERMINAL_USER, action, model.version)
        except StaleAction:
            return None
        except RuleRefusal as exc:  # the rules' reason, worded with the table's names
            return reason_text(exc, model.seating)
        except Rejected as exc:
            return reason_text(exc.said.text(self.t))
        return None

    async def _write_record(self, service: TableService, table_id: int) -> str:
        record = await service.record(table_id)
        path = self.cfg.record_path(table_id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(record, fh, indent=1, ensure_ascii=False)
                fh.write("\n")
        except OSError as exc:
            return self.t.gettext("The record could not be written to {path}: {error}.").format(
                path=path, error=exc.strerror)
        self.record_path = path
        return self.t.gettext("Record saved: {path}").format(path=path.resolve())

    def resume_command(self) -> str:
        """The command that continues this front end's interrupted match."""
        return f"tricktable play {self.cfg.game} --resume"

    def saved_text(self) -> str:
        """Where the player stands after stopping: the game is saved and how to go on."""
        return self.t.gettext("Game saved. Continue it with `{command}`.").format(
            command=self.resume_command())

    def _deal_line(self, deal: int, dealer: str) -> str:
        return self.t.gettext("Deal {n}: {player} deals.").format(
            n=self.t.number(deal + 1), player=dealer)

    def _pause_text(self, pause: float) -> str:
        if pause < 0:
            return self.t.gettext("off")
        return self.t.gettext("{seconds} s").format(seconds=self.t.number(pause))


def _login_name() -> str:
    try:
        return getpass.getuser()[:32] or "You"
    except Exception:  # no user name in this environment
        return "You"
