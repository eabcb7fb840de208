"""Writes pictures of what a player sees in Discord to ``docs/gallery/``: the hand panel
(DM) at a lead, with its signal menu, and a page of a deal review.

    python bench/discord_gallery.py [--out docs/gallery]

The real bot runs against the project's fake Discord (``tests/bot/fakediscord``); a seeded
Turup table (one human, three AI players) is played until the human leads, then until the
first deal's result, whose **Review** button is pressed. The messages the bot sent are
drawn as Discord shows them, roughly: the text (markdown marks removed), the select menus
and buttons as boxes, and the hand picture when pictures are on. It is a sketch of the
message, not a screenshot of the Discord client.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "bot"))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT))

from app_fixture import start_app  # noqa: E402
from discord_helpers import controls, my_hand, open_table, play_until  # noqa: E402
from fakediscord import FakeDiscord, Harness, pointed_at  # noqa: E402
from fakediscord.models import StoredMessage  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

from bot.render.theme import encode_png, font  # noqa: E402

WIDTH = 760
BG = (49, 51, 56)
TEXT = (219, 222, 225)
BOX = (30, 31, 34)
BUTTON = (78, 80, 88)
PRIMARY = (88, 101, 242)
_MARKS = re.compile(r"\*\*|`|\\(?=[*_`~|>#-])")


def _wrap(text: str, px: int, width: int) -> list[str]:
    f = font(px)
    out: list[str] = []
    for raw in text.split("\n"):
        line = ""
        for word in raw.split(" "):
            probe = f"{line} {word}".strip()
            if f.getlength(probe) > width and line:
                out.append(line)
                line = word
            else:
                line = probe
        out.append(line)
    return out


def draw_message(msg: StoredMessage, picture: bytes | None = None) -> bytes:
    """A Discord message as a picture: text, attachment, components."""
    px, pad = 17, 16
    lines = _wrap(_MARKS.sub("", msg.content), px, WIDTH - 2 * pad)
    hand = Image.open(io.BytesIO(picture)).convert("RGB") if picture else None
    rows = [c for c in msg.components if c.get("type") == 1]
    height = pad + len(lines) * (px + 6) + pad + len(rows) * 52 + pad
    if hand is not None:
        scale = min(1.0, (WIDTH - 2 * pad) / hand.width)
        hand = hand.resize((int(hand.width * scale), int(hand.height * scale)))
        height += hand.height + pad
    im = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(im)
    y = pad
    for line in lines:
        d.text((pad, y), line, font=font(px), fill=TEXT)
        y += px + 6
    y += pad // 2
    if hand is not None:
        im.paste(hand, (pad, y))
        y += hand.height + pad
    for row in rows:
        x = pad
        for c in row.get("components", []):
            if c["type"] == 3:
                chosen = [o["label"] for o in c.get("options", []) if o.get("default")]
                label = chosen[0] if chosen else c.get("placeholder") or "Choose"
                d.rounded_rectangle((x, y, WIDTH - pad, y + 40), 6, fill=BOX)
                d.text((x + 12, y + 10), f"{label}   ▾", font=font(15), fill=TEXT)
                x = WIDTH - pad
            else:
                label = c.get("label") or c.get("emoji", {}).get("name") or ""
                w = int(font(15).getlength(label)) + 28
                fill = PRIMARY if c.get("style") == 1 else BUTTON
                d.rounded_rectangle((x, y, x + w, y + 40), 6, fill=fill)
                d.text((x + 14, y + 10), label, font=font(15), fill=TEXT)
                x += w + 8
        y += 52
    return encode_png(im)


async def make(out: Path) -> None:
    server = FakeDiscord()
    await server.start()
    try:
        with pointed_at(server), tempfile.TemporaryDirectory() as tmp:
            harness = Harness(server)
            try:
                await _play(harness, Path(tmp), out)
            finally:
                await harness.close()
    finally:
        await server.close()


async def _play(harness: Harness, tmp: Path, out: Path) -> None:
    app = await start_app(harness, tmp, guild_settings={"images": True, "ai_pace": 0.0})
    ann = harness.user("ann")
    table_id, public = await open_table(app, ann, "turup", ais=3)
    rng = random.Random(5)
    panel: StoredMessage | None = None
    for _ in range(300):
        await app.service.settle()
        await harness.settle()
        if 0 in app.service.info(table_id).to_act:
            panel = await my_hand(ann, public, table_id)
            big = len(app.service.view(table_id, 0)["hand"]) >= 5
            if big and any(c.startswith("tt:g:") for c in panel.custom_ids()):
                break
            select = next(c for c in controls(panel) if c["type"] == 3)
            await ann.select(panel, select["custom_id"], [rng.choice(select["options"])["value"]])
    assert panel is not None
    (out / "discord-hand-panel.png").write_bytes(draw_message(panel, _picture(panel)))

    def result() -> StoredMessage | None:
        return next((m for m in harness.server.messages(harness.channel)
                     if f"Deal 1 of table {table_id} is over" in m.content), None)

    await play_until(app, table_id, public, {ann: 0}, lambda: result() is not None, rng=rng)
    posted = result()
    assert posted is not None
    (out / "discord-deal-result.png").write_bytes(draw_message(posted))
    r = await ann.click(posted, f"tt:r:{table_id}:0:0")
    assert r.message is not None
    nxt = next(c["custom_id"] for c in r.message.walk_components()
               if str(c.get("custom_id", "")).endswith("n"))
    page = await ann.click(r.message, nxt)
    assert page.message is not None
    (out / "discord-review.png").write_bytes(draw_message(page.message))
    await harness.stop_bot(app.bot)


def _picture(msg: StoredMessage) -> bytes | None:
    files: dict[int, Any] = msg.files
    for attachment in files.values():
        data = getattr(attachment, "data", None)
        if isinstance(data, bytes):
            return data
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "gallery")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(make(args.out))
    print(f"wrote discord-hand-panel.png, discord-deal-result.png, discord-review.png "
          f"to {args.out}")


if __name__ == "__main__":
    main()
