"""Every game end to end through Discord: open, join, add AI, start, DM hand, play the
panel's selects and buttons, complete a deal (posted as its own message)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_fixture import start_app
from discord_helpers import channel_texts, open_table, play_until
from fakediscord import Harness

GAMES_4 = ["turup", "arbaa_turub", "tarabish", "truf", "albastini"]


@pytest.mark.parametrize("game", GAMES_4)
async def test_every_game_plays_a_deal(fake_discord: Harness, tmp_path: Path,
                                       game: str) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, public = await open_table(app, alice, game, ais=2, others=(bob,))
    info = app.service.info(table_id)
    seats = {alice: app.service.seat_of(table_id, alice.id),
             bob: app.service.seat_of(table_id, bob.id)}
    # Both humans got their hand by DM, with the table's words and a card list.
    for user in (alice, bob):
        dm = await user.wait_for_dm(lambda m: "Your hand" in m.content)
        assert f"table {table_id}" in dm.content
    assert info.status == "playing"

    def deal_over() -> bool:
        return any(f"Deal 1 of table {table_id} is over" in t for t in channel_texts(app))

    made = await play_until(app, table_id, public, seats, deal_over, rng=random.Random(3))
    assert made > 0


async def test_a_whole_match_ends_with_its_result(fake_discord: Harness,
                                                  tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3,
                                        options='{"target": 1}')

    def over() -> bool:
        return any(f"The match at table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, {alice: 0}, over)
    row = await app.store.get_table(table_id)
    assert row is not None and row.status == "finished"
    result = next(t for t in channel_texts(app) if "The match at table" in t)
    assert "win the match" in result or "wins the match" in result
    await fake_discord.wait_until(
        lambda: "The match is over" in fake_discord.server.message(public.id).content or None,
        what="the final table message")
    assert fake_discord.server.message(public.id).custom_ids() == []
    r = await alice.slash("table", "export")  # the finished match's record
    done = await r.wait_filled()
    assert done.attachments and b'"turup"' in done.attachments[0].data
