"""``python -m bot.terminal GAME …``: the line mode of ``tricktable play``."""

import sys

from bot.terminal import main

raise SystemExit(main(sys.argv[1:]))
