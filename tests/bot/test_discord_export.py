"""``/table export`` hands out a record ``tricktable replay`` accepts, or says why not
(security review L6: during the first deal it gave a record without deals)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app_fixture import start_app
from discord_helpers import open_table, play_until
from fakediscord import Harness

from games.records import replay


async def test_export_during_the_first_deal_says_there_is_nothing_yet_then_replays(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    early = await alice.slash("table", "export")
    early_text = (await early.wait_filled()).content
    assert early.ephemeral and not early.message.attachments  # type: ignore[union-attr]
    assert f"No deal of table {table_id} is finished yet" in early_text, early_text
    await play_until(app, table_id, public, {alice: 0},
                     lambda: app.service.info(table_id).deal >= 1, rng=random.Random(3))
    later = await alice.slash("table", "export")
    message = await later.wait_filled()
    assert later.ephemeral and message.attachments, message.content
    record = json.loads(message.attachments[0].data)
    assert len(record["deals"]) == app.service.info(table_id).deal >= 1
    out, status = replay(record)  # what `tricktable replay` prints and exits with
    assert status == 0 and out["ok"], out
