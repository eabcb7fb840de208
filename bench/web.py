"""Benchmark of the web table: many tables in one process, every seat and two spectators on
a WebSocket each.

    python bench/web.py [--tables 1000] [--actions 40] [--seconds 120] [--think 4]
                        [--client-nice 10] [--hog] [--synchronous full]

``--tables`` Turup tables on one table service (a fresh SQLite file), each with four human
seats played through their sockets (a socket plays its first choice ``--think`` seconds,
0.5-1.5 times at random, after its table frame says it is its turn; 0: at once) and two
spectator sockets: six sockets per table, all through
the real aiohttp application (:mod:`bot.web.server`) on a local port. The clients (aiohttp's
client) run in a child process, so the server's figures are its own; that process runs
at a lower priority (``--client-nice``, default 10: the clients stand for browsers on other
machines, and must not take the server's CPU on a shared one). ``--hog`` starts one more
process that spins on a core for the whole run (a CPU-bound neighbour).

Measured, for every action a socket sent: the time from sending it until **every** socket of
its table received a table frame of a newer version (p50/p95/p99, as the clients see it);
where that time goes on the server (from the action's frame read by the server: the table
service's work until ``act`` returned, then the fan-out until the last of the table's
sockets was handed its frame; p50/p95 of each); the bytes per update
(frame bytes received per socket, per table frame); the server's memory per socket (growth
of the server process's resident set from before the sockets joined to after, divided by
the sockets); Discord REST calls per card: 0 (no
Discord here). Stops when every table made ``--actions`` actions or after ``--seconds``.
Prints a markdown table and the machine's load average at the start and the end (the
figures depend on what else runs: note it with them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from bot.service import Seat, TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.web.viewer import Viewer
from storage import TerminalLocation, open_store

SECRET = b"w" * 32
TABLE = '{"v":1,"type":"table","version":'
"""How every table frame begins (:func:`bot.web.fanout.encode`, the keys in order)."""
HELLO = '{"v":1,"type":"hello"'
YOUR_TURN = '"your_turn":true'
"""In a table frame on the seat's turn (no sentence carries quotes and this key)."""


def cpu_seconds() -> float:
    """The CPU time this process used so far (user and system, every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss() -> int:
    """The resident set of this process, in bytes."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096


class Table:
    def __init__(self, table: int) -> None:
        self.id = table
        self.pending: dict[int, tuple[float, set[int]]] = {}
        self.actions = 0
        self.sockets = 0


class Bench:
    def __init__(self, actions: int, think: float) -> None:
        self.limit = actions
        self.think = think
        self.latencies: list[float] = []
        self.frames = 0
        self.bytes = 0
        self.done = asyncio.Event()
        self.tables: list[Table] = []

    def finished(self) -> bool:
        return all(t.actions >= self.limit for t in self.tables)

    async def socket(self, http: aiohttp.ClientSession, base: str, table: Table, n: int,
                     key: str, joined: asyncio.Event, ready: asyncio.Event,
                     gate: asyncio.Semaphore) -> None:
        async with gate:  # a few connections at a time: the listen backlog is short
            ws = await http.ws_connect(base + "/ws", headers={"Origin": base},
                                       max_msg_size=0)
        async with ws:
            await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key}))
            acted = -1
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                data: str = msg.data
                if not data.startswith(TABLE):  # the server writes "v", "type" first
                    if data.startswith(HELLO):
                        joined.set()
                    continue
                self.frames += 1
                self.bytes += len(data.encode())
                now = time.perf_counter()
                # parsed only as far as needed: its version, and the rest on the seat's turn
                version = int(data[len(TABLE):data.index(",", len(TABLE))])
                mine = YOUR_TURN in data
                for v, (t0, waiting) in list(table.pending.items()):
                    if v < version and n in waiting:
                        waiting.discard(n)
                        if not waiting:
                            self.latencies.append(now - t0)
                            del table.pending[v]
                if self.done.is_set() or table.actions >= self.limit:
                    if self.finished():
                        self.done.set()
                    continue
                if mine and version > acted and ready.is_set():
                    frame = json.loads(data)
                    acted = version
                    if self.think:
                        await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
                    table.actions += 1
                    table.pending[version] = (time.perf_counter(), set(range(table.sockets)))
                    await ws.send_str(json.dumps({"v": 1, "type": "act", "version": version,
                                                  "action": frame["choices"][0]["action"]}))
                if self.done.is_set():
                    break


async def clients(base: str, keys: list[tuple[int, list[str]]], args: argparse.Namespace,
                  pipe: Connection) -> None:
    """The child process: every socket; tells the server when all joined (``joined``),
    waits for ``go``, plays, and sends back the figures."""
    bench = Bench(args.actions, args.think)
    ready = asyncio.Event()
    gate = asyncio.Semaphore(50)
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        tasks, joins = [], []
        for tid, table_keys in keys:
            table = Table(tid)
            table.sockets = len(table_keys)
            bench.tables.append(table)
            for n, key in enumerate(table_keys):
                joined = asyncio.Event()
                joins.append(joined)
                tasks.append(asyncio.create_task(
                    bench.socket(http, base, table, n, key, joined, ready, gate)))
        await asyncio.wait_for(asyncio.gather(*(j.wait() for j in joins)), 600)
        bench.frames = bench.bytes = 0
        ready.set()
        pipe.send("joined")
        await loop.run_in_executor(None, pipe.recv)  # "go": the server woke every seat
        started = time.perf_counter()
        cpu = cpu_seconds()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(bench.done.wait(), args.seconds)
        played = time.perf_counter() - started
        cpu = cpu_seconds() - cpu
        bench.done.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send({"latencies": bench.latencies, "frames": bench.frames, "bytes": bench.bytes,
               "actions": sum(t.actions for t in bench.tables), "played": played,
               "sockets": len(tasks), "cpu": cpu})


def client_process(base: str, keys: list[tuple[int, list[str]]], args: argparse.Namespace,
                   pipe: Connection) -> None:
    if args.client_nice:
        os.nice(args.client_nice)
    asyncio.run(clients(base, keys, args, pipe))


def hog() -> None:
    """A CPU-bound neighbour: spins until killed."""
    n = 0
    while True:
        n = (n * 7 + 1) % 1_000_003


class ServerClock:
    """Where an action's time goes in the server (``bench`` only: it wraps the viewer's
    act and send): per (table, version), when its frame was read, when the table service
    returned, and when each newer table frame went to a socket."""

    def __init__(self) -> None:
        self.read: dict[tuple[int, int], float] = {}
        self.acted: dict[tuple[int, int], float] = {}
        self.sent: dict[tuple[int, int], list[float]] = {}

    def install(self) -> None:
        clock = self
        act, send = Viewer._act, Viewer._send_text

        async def timed_act(viewer: Viewer, frame: Any) -> None:
            key = (viewer.pass_.table if viewer.pass_ else 0, frame.get("version"))
            clock.read[key] = time.perf_counter()
            await act(viewer, frame)
            clock.acted[key] = time.perf_counter()

        async def timed_send(viewer: Viewer, text: str | None) -> None:
            await send(viewer, text)
            if text is not None and text.startswith(TABLE) and viewer.pass_ is not None:
                version = int(text[len(TABLE):text.index(",", len(TABLE))])
                clock.sent.setdefault((viewer.pass_.table, version), []).append(
                    time.perf_counter())

        setattr(Viewer, "_act", timed_act)  # noqa: B010 (the benchmark's own wrapping)
        setattr(Viewer, "_send_text", timed_send)  # noqa: B010

    def split(self, sockets: int) -> tuple[list[float], list[float]]:
        """The service's and the fan-out's time of every action every socket saw."""
        service, fanout = [], []
        for (table, version), t0 in self.read.items():
            done = self.acted.get((table, version))
            sent = self.sent.get((table, version + 1), [])
            if done is None or len(sent) < sockets:
                continue
            service.append(done - t0)
            fanout.append(max(sent[:sockets]) - done)
        return sorted(service), sorted(fanout)


async def main(args: argparse.Namespace) -> None:
    start_load = os.getloadavg()
    clock = ServerClock()
    clock.install()
    neighbour = None
    if args.hog:
        neighbour = multiprocessing.get_context("spawn").Process(target=hog, daemon=True)
        neighbour.start()
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite:///{tmp}/web.db?synchronous={args.synchronous}")
        service = TableService(store)
        await service.start()
        server = WebServer(service, WebConfig(secret=SECRET, burst=64, rate=64.0), port=0)
        base = await server.start()
        now = time.time()
        keys: list[tuple[int, list[str]]] = []
        for i in range(args.tables):
            seats: list[Seat | None] = [Seat.human(100 * i + s, f"P{s}") for s in range(4)]
            tid = await service.create_table(TerminalLocation(f"bench:{i}"), "turup",
                                             seats=seats, seed=i, ai_pace=0,
                                             turn_timeout=0, start=True)
            keys.append((tid, [links.issue(SECRET, tid, 100 * i + s, "seat", now)
                               for s in range(4)]
                         + [links.issue(SECRET, tid, 9_000_000 + 2 * i + k, "watch", now)
                            for k in range(2)]))
        before = rss()
        mine, theirs = multiprocessing.Pipe()
        child = multiprocessing.get_context("spawn").Process(
            target=client_process, args=(base, keys, args, theirs))
        child.start()
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, mine.recv) == "joined"
        after = rss()
        # wake every seat whose turn it is: a fresh table frame per subscription
        for tid, _ in keys:
            for sub in service.subscriptions(tid):
                sub.deliver(service.state(tid, sub.seat))
        mine.send("go")
        cpu = cpu_seconds()
        result: dict[str, Any] = await loop.run_in_executor(None, mine.recv)
        cpu = cpu_seconds() - cpu
        child.join()
        if neighbour is not None:
            neighbour.terminate()
        await server.stop()
        await service.close()
        await store.close()
    lat = sorted(result["latencies"])

    def pct(p: float) -> str:
        return f"{lat[min(len(lat) - 1, int(p * len(lat)))] * 1000:.1f} ms" if lat else "-"

    def ms(values: list[float], p: float) -> str:
        return f"{values[min(len(values) - 1, int(p * len(values)))] * 1000:.1f}" if values \
            else "-"

    sockets, actions, played = result["sockets"], result["actions"], result["played"]
    served, fanout = clock.split(sockets // max(1, args.tables))
    print("| tables | sockets | think | actions | actions/s | action → every socket p50 / p95 "
          "/ p99 | server: service p50 / p95 | server: fan-out p50 / p95 | bytes per update "
          "| server memory per socket |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.tables} | {sockets} | {args.think:g} s | {actions} | "
          f"{actions / played:.0f} | {pct(.5)} / {pct(.95)} / {pct(.99)} | "
          f"{ms(served, .5)} / {ms(served, .95)} ms | {ms(fanout, .5)} / {ms(fanout, .95)} ms"
          f" | {result['bytes'] / max(1, result['frames']):.0f} B "
          f"| {(after - before) / sockets / 1024:.1f} kB |")
    per = max(1, actions)
    print(f"\nCPU per action (every socket of its table updated): server "
          f"{cpu / per * 1000:.2f} ms, clients {result['cpu'] / per * 1000:.2f} ms")
    print(f"\nclients at nice {args.client_nice}; "
          f"{'one CPU-bound neighbour; ' if args.hog else ''}load average (1, 5, 15 min) "
          f"at the start: {', '.join(f'{x:.2f}' for x in start_load)}; at the end: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=float, default=4.0,
                        help="seconds a seat waits before acting (0.5-1.5x at random)")
    parser.add_argument("--client-nice", type=int, default=10,
                        help="the clients' process's niceness (0: as the server)")
    parser.add_argument("--synchronous", choices=("full", "normal"), default="full",
                        help="SQLite's synchronous setting (full: the bot's default)")
    parser.add_argument("--hog", action="store_true",
                        help="run one CPU-bound process beside the benchmark")
    asyncio.run(main(parser.parse_args()))
