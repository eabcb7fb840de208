"""``tricktable play``: one human against AI players in the terminal.

The terminal is a front end of the table service like the Discord adapter: it opens a
table at its own location (``TerminalLocation("play:GAME")``) in the store named by
``--database`` / ``DATABASE_URL`` (default SQLite ``tricktable.db``), subscribes for the
human's seat, prints the events it receives, and sends the human's choices as actions.
Everything is stored as it happens, so an interrupted game (end of input, Ctrl-C, a
crash) continues with ``--resume``. At the end the match record is written to a JSON file
(``tricktable replay`` reads it).

Input: the number of a choice, or the choice itself (``AS``, ``play AS strong``,
``pass``); ``h`` shows the hand and the table again; ``q`` (or end of input) stops, saving
the game.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

TERMINAL_USER = 1
"""The user id of the human at a terminal table."""


def add_parser(sub: Any) -> None:
    """Register ``play`` on an ``argparse`` subparsers object."""
    p = sub.add_parser(
        "play", help="play a game against AI players in the terminal",
        description="Play one game (a whole match) against AI players. The game is saved "
        "as it is played; --resume continues an interrupted one.",
    )
    p.add_argument("game", help="the game: arbaa_turub, turup, tarabish, albastini or truf")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--ai", default="rules", metavar="LEVEL",
                   help="the AI players' level: random, rules or search (default rules)")
    p.add_argument("--options", default=None, metavar="JSON",
                   help='rule options as a JSON object, e.g. \'{"dealer_may_pass": true}\'')
    p.add_argument("--seed", type=int, default=None, help="the match seed (same cards)")
    p.add_argument("--players", type=int, default=None,
                   help="number of players where the game allows several")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted game of GAME")
    p.add_argument("--new", action="store_true",
                   help="abandon an interrupted game of GAME and start a new one")
    p.add_argument("--pace", type=float, default=0.6, metavar="SECONDS",
                   help="how long each AI player waits before playing (default 0.6)")
    p.add_argument("--database", default=None, metavar="URL",
                   help="database URL (default $DATABASE_URL, else sqlite:///tricktable.db)")
    p.add_argument("--record", default=None, metavar="PATH",
                   help="where to write the match record (default "
                   "tricktable-GAME-TABLE.json in the current directory)")
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    return play(args, sys.stdin, sys.stdout)


def main(argv: Sequence[str], stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """Run ``tricktable play`` with these arguments (tests pass their own streams)."""
    parser = argparse.ArgumentParser(prog="tricktable")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["play", *argv])
    return play(args, stdin or sys.stdin, stdout or sys.stdout)


def play(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    game = Terminal(args, stdin, stdout)
    try:
        return asyncio.run(game.run())
    except KeyboardInterrupt:
        stdout.write("\nInterrupted: the game is saved. Continue it with "
                     f"`tricktable play {args.game} --resume`.\n")
        return 130


class Terminal:
    """One terminal session (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> None:
        self.args = args
        self.stdin = stdin
        self.out = stdout
        self.names: list[str] = []
        self.teams: list[list[int]] = []
        self.seat = args.seat
        self.trick: list[str] = []
        self.prompted_version = -1
        self.synced_version = -1
        """The table version last redrawn after a ``resync``: the events queued behind the
        ``resync`` up to it are already in that drawing."""

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def run(self) -> int:
        from bot.service import LobbyError, TableService
        from games.registry import GAMES
        from storage import TerminalLocation, open_store
        from storage.factory import redact, resolve_url

        args = self.args
        if args.game not in GAMES:
            self.say(f"Unknown game {args.game!r}. Games: {', '.join(GAMES)}.")
            return 2
        try:
            options = json.loads(args.options) if args.options else {}
        except json.JSONDecodeError as exc:
            self.say(f"--options is not valid JSON: {exc}")
            return 2
        if not isinstance(options, dict):
            self.say("--options must be a JSON object, e.g. '{\"dealer_may_pass\": true}'")
            return 2
        url = resolve_url(args.database)
        try:
            store = await open_store(url)
        except Exception as exc:
            self.say(f"Cannot open the database {redact(url)}: {exc}")
            return 2
        location = TerminalLocation(f"play:{args.game}")
        service = TableService(store)
        try:
            await service.start(owns=lambda loc: loc == location)
            table_id = service.find(location)
            if args.resume:
                if table_id is None:
                    self.say(f"There is no interrupted {args.game} game to resume.")
                    return 2
                seat = service.seat_of(table_id, TERMINAL_USER)
                if seat is None:  # pragma: no cover - a terminal table always has its human
                    self.say("The interrupted game has no human seat.")
                    return 2
                self.seat = seat
                self.say(f"Resuming {GAMES[args.game].title} (table {table_id}).")
            else:
                if table_id is not None and not args.new:
                    self.say(f"An interrupted {args.game} game is waiting (table {table_id}). "
                             "Continue it with --resume, or start over with --new.")
                    return 2
                if table_id is not None:
                    await service.abandon(table_id, "replaced by a new terminal game")
                try:
                    table_id = await self._create(service, location, options)
                except LobbyError as exc:
                    self.say(f"Cannot start the game: {exc}")
                    return 2
            info = service.info(table_id)
            self.names = [("You" if s.user_id == TERMINAL_USER else s.name) if s else "?"
                          for s in info.seats]
            self._intro(info, GAMES[args.game].title)
            if info.status == "lobby":  # a start interrupted right after the create
                await service.start_match(table_id)
            return await self._loop(service, table_id)
        finally:
            await service.close()
            await store.close()

    async def _create(self, service: Any, location: Any, options: dict[str, Any]) -> int:
        from bot.service import Seat
        from games.registry import GAMES

        args = self.args
        info = GAMES[args.game]
        players = args.players if args.players is not None else info.player_counts[0]
        if not 0 <= args.seat < players:
            from bot.service import LobbyError

            raise LobbyError(f"--seat must be 0-{players - 1}")
        try:
            user = getpass.getuser()
        except Exception:  # no user name in this environment
            user = "you"
        seats = [Seat.human(TERMINAL_USER, user) if i == args.seat
                 else Seat.ai(args.ai, f"Seat {i} ({args.ai} AI)") for i in range(players)]
        table_id: int = await service.create_table(
            location, args.game, options=options, players=players, seed=args.seed,
            seats=seats, ai_pace=max(0.0, args.pace), turn_timeout=0, start=True,
        )
        return table_id

    def _intro(self, info: Any, title: str) -> None:
        self.teams = [list(team) for team in info.teams]
        self.say(f"{title}: you are seat {self.seat}.")
        sides = [" + ".join(self.names[s] for s in team) for team in info.teams]
        if any(len(team) > 1 for team in info.teams):
            self.say("Teams: " + "  vs  ".join(sides))
        if info.options:
            self.say("Options: " + json.dumps(info.options))

    # -- the event loop ---------------------------------------------------------------
    async def _loop(self, service: Any, table_id: int) -> int:
        """Show the seat's events and prompt when it is to act. A ``resync`` (the
        subscription fell behind and dropped events) is replaced by the seat's state now
        (``service.state``): the table is redrawn from it, and it is then handled like a
        ``state`` event (a prompt when the seat is to act)."""
        from bot.service.events import RESYNC

        sub = service.subscribe(table_id, self.seat)
        while True:
            event = await sub.get()
            if event is None:
                return 0
            if event.type == RESYNC:
                event = self._resynced(service, table_id)
                if event is None:
                    continue  # the table closed; its last events follow
            if event.type == "match_over":
                return await self._finished(service, table_id, event.data)
            self._show(event)
            if event.type != "state" or not event.data.get("legal"):
                continue
            if table_id not in service.table_ids():
                continue  # the table closed; its last events follow
            if event.version != service.info(table_id).version:
                continue  # a later state is queued
            if event.version == self.prompted_version:
                continue
            self.prompted_version = event.version
            outcome = await self._prompt(service, table_id, event)
            if outcome is not None:
                return outcome

    def _resynced(self, service: Any, table_id: int) -> Any:
        """Redraw the table from the seat's state now, after events were dropped; returns
        that ``state`` event (``None`` when the table is closed already)."""
        if table_id not in service.table_ids():
            return None
        state = service.state(table_id, self.seat)
        self.synced_version = state.version
        view = state.data.get("view")
        self.say("")
        self.say("  (the display fell behind; this is the table now)")
        if isinstance(view, dict):
            cards = (view.get("trick") or {}).get("cards") or []
            self.trick = [f"{self.names[s]} {c}" for s, c in cards]
            if not state.data.get("legal"):
                self._table(view)  # a prompt draws it otherwise
        return state

    async def _finished(self, service: Any, table_id: int, data: dict[str, Any]) -> int:
        summary = data["summary"]
        self.say("")
        self.say("=== Match over ===")
        self.say("Totals: " + self._totals(summary.get("totals", [])))
        winner = summary.get("winner")
        self.say("Winner: " + ("nobody (a draw)" if winner is None else self._side(winner)))
        record = await service.record(table_id)
        path = self.args.record or f"tricktable-{self.args.game}-{table_id}.json"
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        self.say(f"Record saved: {os.path.abspath(path)}")
        return 0

    def _side(self, index: int) -> str:
        """A team (or, in games without teams, a seat) by its players' names."""
        if 0 <= index < len(self.teams):
            return " + ".join(self.names[s] for s in self.teams[index])
        return f"side {index}"

    def _totals(self, totals: list[Any]) -> str:
        return "  ".join(f"{self._side(i)}: {t}" for i, t in enumerate(totals))

    def _show(self, event: Any) -> None:
        kind, data = event.type, event.data
        if event.version <= self.synced_version and kind not in ("deal_scored", "abandoned"):
            return  # already in the drawing made after a resync
        name = self.names[data["seat"]] if isinstance(data.get("seat"), int) and (
            0 <= data["seat"] < len(self.names)) else None
        if kind == "deal_started":
            self.trick = []
            self.say("")
            self.say(f"=== Deal {data['deal'] + 1}: {self.names[data['dealer']]} deal"
                     f"{'' if self.names[data['dealer']] == 'You' else 's'} ===")
        elif kind == "play":
            card = data.get("card", "??")
            if data.get("face_down") and event.to is None:
                card = "a card face down"
            extra = f" ({data['signal']})" if data.get("signal") else ""
            extra += " (bella)" if data.get("bella") else ""
            self.trick.append(f"{name} {card}{extra}")
            self.say(f"  Trick {data.get('trick', '')}: " + ", ".join(self.trick))
        elif kind == "trick":
            self.trick = []
            winner = self.names[data["winner"]]
            points = f" ({data['points']} points)" if "points" in data else ""
            self.say(f"  -> {winner} win{'' if winner == 'You' else 's'} trick "
                     f"{data.get('number', '')}{points}")
        elif kind == "deal_over":
            pass  # the scored summary follows
        elif kind == "deal_scored":
            self._deal_result(data)
        elif kind in ("hand", "state", "turn", "lobby", "started"):
            pass  # shown at the prompt
        elif kind == "abandoned":
            self.say(f"The table was closed: {data.get('reason')}")
        else:
            self.say("  " + self._describe(kind, name, data))

    def _describe(self, kind: str, name: str | None, data: dict[str, Any]) -> str:
        words = kind.replace("_", " ")
        rest = {k: v for k, v in data.items() if k != "seat"}
        detail = ", ".join(f"{k.replace('_', ' ')}: {self._text(v)}" for k, v in rest.items())
        who = f"{name}: " if name else ""
        return f"{who}{words}" + (f" ({detail})" if detail else "")

    @staticmethod
    def _text(value: Any) -> str:
        if isinstance(value, list):
            return " ".join(Terminal._text(v) for v in value)
        if value is None:
            return "-"
        return str(value)

    RESULT_KEYS = ("trump", "caller", "result", "mode", "bids", "final_bids",
                   "tricks_by_team", "tricks_by_seat", "game_points", "kort",
                   "card_points_by_team", "run_points", "hand_score", "points",
                   "points_by_side", "winner_side", "victory_points")

    def _deal_result(self, data: dict[str, Any]) -> None:
        summary, match = data["summary"], data["match"]
        self.say(f"--- Deal {data['deal'] + 1} result ---")
        for key in self.RESULT_KEYS:
            if key in summary and summary[key] is not None:
                self.say(f"  {key.replace('_', ' ')}: {self._text(summary[key])}")
        self.say("  match totals: " + self._totals(match.get("totals", [])))

    # -- the human's turn -------------------------------------------------------------
    def _table(self, view: dict[str, Any]) -> None:
        facts = view.get("facts") or []
        if facts:
            self.say("  " + " | ".join(f"{label}: {text}" for label, text in facts))
        trick = view.get("trick") or {}
        cards = trick.get("cards") or []
        if cards:
            self.say("  On the table: " + ", ".join(f"{self.names[s]} {c}" for s, c in cards))
        self.say("  Your hand: " + self._hand(view.get("hand") or []))

    @staticmethod
    def _hand(hand: list[str]) -> str:
        """The hand as the view sorts it (suits alternate red and black), suit by suit."""
        groups: list[list[str]] = []
        for card in hand:
            if groups and groups[-1][-1][-1] == card[-1]:
                groups[-1].append(card)
            else:
                groups.append([card])
        return "  ".join(" ".join(g) for g in groups) or "(no cards)"

    async def _prompt(self, service: Any, table_id: int, event: Any) -> int | None:
        from bot.service import Rejected, StaleAction
        from games.actions import Action, action_from_json

        view = event.data["view"]
        legal = [action_from_json({**a, "seat": self.seat}, "legal")[1]
                 for a in event.data["legal"]]
        self.say("")
        self._table(view)
        self.say("  Your choices:")
        for i, action in enumerate(legal, start=1):
            self.say(f"    {i:>2}) {action.label()}")
        while True:
            self.out.write(f"  Choose 1-{len(legal)}: ")
            self.out.flush()
            line = await self._readline()
            if not line:
                self.say("")
                return self._saved(table_id)
            text = line.strip()
            if not self.stdin.isatty():
                self.say(text)  # echo piped input, so the transcript reads well
            if text.lower() in ("q", "quit", "exit"):
                return self._saved(table_id)
            if text.lower() in ("h", "help", "?", "hand"):
                self._table(view)
                for i, action in enumerate(legal, start=1):
                    self.say(f"    {i:>2}) {action.label()}")
                continue
            chosen: Action | None = self._parse(text, legal)
            if chosen is None:
                self.say(f"  '{text}' is not one of the choices: enter a number from 1 to "
                         f"{len(legal)} (or the choice itself, e.g. "
                         f"'{legal[0].label()}'); 'h' shows them again, 'q' stops.")
                continue
            try:
                await service.act(table_id, TERMINAL_USER, chosen, event.version)
            except StaleAction:
                return None  # the state moved on; a new prompt follows
            except Rejected as exc:
                self.say(f"  Not allowed: {exc}")
                continue
            return None

    async def _readline(self) -> str:
        """One line of input, read in a daemon thread: the event loop keeps running (AI
        players bid meanwhile in Truf), and Ctrl-C never waits for a pending read."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()

        def read() -> None:
            try:
                line = self.stdin.readline()
            except Exception as exc:  # a closed or broken input stream
                loop.call_soon_threadsafe(_settle, future, "", exc)
                return
            loop.call_soon_threadsafe(_settle, future, line, None)

        threading.Thread(target=read, name="terminal-input", daemon=True).start()
        return await future

    @staticmethod
    def _parse(text: str, legal: list[Any]) -> Any:
        if text.isdigit():
            n = int(text)
            return legal[n - 1] if 1 <= n <= len(legal) else None
        wanted = " ".join(text.lower().split())
        for action in legal:
            label = action.label().lower()
            if wanted in (label, label.removeprefix("play ").removeprefix("bid ")):
                return action
        matches = [a for a in legal if a.card and a.card.lower() == wanted and not a.signal]
        return matches[0] if len(matches) == 1 else None

    def _saved(self, table_id: int) -> int:
        self.say(f"Game saved (table {table_id}). Continue it with "
                 f"`tricktable play {self.args.game} --resume`.")
        return 0


def _settle(future: asyncio.Future[str], line: str, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(line)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
