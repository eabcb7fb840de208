"""Child process of ``test_crash_safety``: appends actions until it is killed.

Usage: ``python crash_child.py URL TABLE_ID...``. For each table it appends the next
sequence numbers forever (concurrently across tables; single appends and batches of three)
and prints ``TABLE_ID SEQ`` on stdout after each append has returned, i.e. after its
commit: every printed line is an acknowledged, durable append.
"""

from __future__ import annotations

import asyncio
import sys

from storage import open_store


async def main(url: str, table_ids: list[int]) -> None:
    store = await open_store(url)

    async def append_forever(table_id: int) -> None:
        seq = len(await store.load_actions(table_id)) + 1
        while True:
            # Mostly single appends (the hot path), every fifth time an atomic batch of 3.
            count = 3 if seq % 5 == 0 else 1
            actions = [{"seq": n, "pad": "x" * (n % 64)} for n in range(seq, seq + count)]
            if count == 1:
                await store.append_action(table_id, seq, actions[0])
            else:
                await store.append_actions(table_id, seq, actions)
            sys.stdout.write("".join(f"{table_id} {n}\n" for n in range(seq, seq + count)))
            sys.stdout.flush()
            seq += count

    await asyncio.gather(*(append_forever(table_id) for table_id in table_ids))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], [int(arg) for arg in sys.argv[2:]]))
