"""``python -m bot.contract [write|check]``: write the published schemas and TypeScript
types, or check that the committed ones are current (exit 1 naming the stale files)."""

from __future__ import annotations

import sys

from bot.contract.publish import stale, write


def main(argv: list[str]) -> int:
    if argv[:1] == ["check"]:
        old = stale()
        for path in old:
            print(f"stale: {path} (run `python -m bot.contract` and commit it)",
                  file=sys.stderr)
        return 1 if old else 0
    for path in write():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
