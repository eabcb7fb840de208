"""Benchmark of duplicate events: scoring from records, and the close on Discord.

    python bench/duplicate.py [--entrants 40] [--boards 12] [--game tarabish]

1. **Scoring from records.** An event of ``--entrants`` entrants × ``--boards`` boards
   (each entrant plays every board; ``random`` AI players make the plays, directions
   alternating) written as tagged records to a folder, then read and scored as
   ``tricktable duplicate score`` does (:func:`bot.duplicate.records.read_folder`, every
   record replayed, and :func:`bot.duplicate.scoring.score_event`): best of three runs.
2. **The close through the fake Discord.** The same plays stored for an event of the real
   bot (:func:`bot.app.create_bot`, a fresh SQLite file), one member per entrant, the AI's
   reference plays already stored (as after the boards' reveals), then the close: the
   results thread (ranking, one message per board, the records' zip) and a score card DM
   per member. Measured: the time until the last score card arrived, the REST calls and
   the most calls in any one second (Discord's global limit: 50 a second per bot).

Prints a markdown table (figures in ``docs/duplicate.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "bot"))
sys.path.insert(0, str(ROOT))

from fakediscord import FakeDiscord, Harness, pointed_at  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.duplicate.boards import Board, play_with_ai  # noqa: E402
from bot.duplicate.records import Tag, read_folder, tagged, write_record  # noqa: E402
from bot.duplicate.scoring import score_event  # noqa: E402
from bot.settings import Settings  # noqa: E402

GLOBAL_LIMIT = 50


def make_plays(game: str, entrants: int, boards: int, scoring: str
               ) -> tuple[list[Board], dict[tuple[int, int], dict[str, Any]]]:
    """Every entrant's record of every board (``(entrant, board)`` → untagged record)."""
    made = [Board(game, n, f"bench:{n}", (n - 1) % 4, 4) for n in range(1, boards + 1)]
    plays = {(e, b.number): play_with_ai(b, "random", seed=f"e{e}")
             for e in range(entrants) for b in made}
    return made, plays


def score_folder(game: str, entrants: int, boards: int, scoring: str,
                 plays: dict[tuple[int, int], dict[str, Any]]) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        for (e, b), record in plays.items():
            tag = Tag("bench", b, boards, f"Entrant {e:02d}", (e + b) % 2, scoring)  # type: ignore[arg-type]
            write_record(f"{folder}/e{e:02d}-b{b:02d}.json", tagged(record, tag))
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            read = read_folder(folder)
            score = score_event(read.results, read.boards, read.scoring)
            best = min(best, time.perf_counter() - t0)
        return best, len(score.ranking)


async def close_on_discord(game: str, entrants: int, boards: int, scoring: str,
                           made: list[Board], plays: dict[tuple[int, int], dict[str, Any]]
                           ) -> dict[str, float]:
    server = FakeDiscord()
    await server.start()
    with tempfile.TemporaryDirectory() as tmp, pointed_at(server):
        harness = Harness(server, timeout=120)
        harness.strict = False
        users = []
        for i in range(entrants):
            user = server.add_user(f"p{i}")
            server.join(harness.guild, user)
            users.append(user)
        settings = Settings(token=server.token, database_url=f"sqlite:///{tmp}/bench.db",
                            ai_workers=0)
        bot = create_bot(settings)
        await harness.start_bot(bot)
        cog: Any = bot.get_cog("ClubDuplicate")
        store = bot.store
        now = bot.service.clock.now()
        event = await store.create_duplicate_event(
            harness.guild.id, harness.channel.id, "Bench night", game,
            boards=[(b.seed, b.dealer) for b in made], players=4, opens_at=now,
            closes_at=now + dt.timedelta(days=1), time_zone="UTC", created_by=1,
            scoring=scoring)
        for e, user in enumerate(users):
            entrant = await store.add_duplicate_entrant(event.id, f"Entrant {e:02d}",
                                                        [user.id], confirmed=[user.id])
            for b in made:
                play = await store.start_duplicate_play(event.id, entrant.id, b.number, 2)
                tag = Tag(str(event.id), b.number, boards, entrant.name, play.direction,
                          scoring)  # type: ignore[arg-type]
                await store.finish_duplicate_play(entrant.id, b.number,
                                                  tagged(plays[(e, b.number)], tag), {})
        for b in made:
            for direction in (0, 1):
                await store.put_duplicate_ai(event.id, b.number, direction,
                                             play_with_ai(b, "random", seed=f"ai{direction}"))
        seq = server.requests[-1].seq
        t0 = time.monotonic()
        await cog.service.close(event.id, harness.guild.id)
        await harness.wait_until(
            lambda: all(any("score card" in m.content for m in server.messages(
                server.dm_channel(u))) for u in users) or None, what="the score cards")
        took = time.monotonic() - t0
        calls = [r for r in server.requests if r.seq > seq
                 and not r.path.endswith("/callback")]
        per_second: dict[int, int] = {}
        for r in calls:
            key = int(r.time - calls[0].time) if calls else 0
            per_second[key] = per_second.get(key, 0) + 1
        await harness.close()
    await server.close()
    return {"seconds": took, "calls": len(calls),
            "peak": max(per_second.values()) if per_second else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=40)
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--game", default="tarabish")
    parser.add_argument("--scoring", default="imps")
    args = parser.parse_args()
    made, plays = make_plays(args.game, args.entrants, args.boards, args.scoring)
    seconds, ranked = score_folder(args.game, args.entrants, args.boards, args.scoring, plays)
    close = asyncio.run(close_on_discord(args.game, args.entrants, args.boards, args.scoring,
                                         made, plays))
    rows = [
        ("scoring from records", f"{args.entrants} entrants × {args.boards} boards "
         f"({len(plays)} records, {ranked} ranked)", f"{seconds:.3f} s (goal ≤ 1 s)"),
        ("close on Discord", "results thread + score cards",
         f"{close['seconds']:.1f} s (goal ≤ 60 s)"),
        ("REST calls of the close", "all but interaction callbacks", f"{close['calls']:.0f}"),
        ("most calls in one second", f"Discord's limit {GLOBAL_LIMIT}", f"{close['peak']:.0f}"),
    ]
    print("| measure | what | figure |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(json.dumps({"score_seconds": seconds, **close}), file=sys.stderr)


if __name__ == "__main__":
    main()
