"""Turn timer through Discord: the half-time reminder mentions the player, an AI plays on
timeout and says so, an absent player's seat returns with **I'm back**."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from discord_helpers import channel_texts, open_table
from fakediscord import Harness

from bot.service import AWAY_AFTER, FakeClock


async def test_reminder_timeout_away_and_back(fake_discord: Harness, tmp_path: Path) -> None:
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock,
                          guild_settings={"turn_timeout": 10, "ai_pace": 1.0})
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None

    async def until_alice() -> None:
        """Let the AI players (1 s pace on the fake clock) play up to alice's turn."""
        for _ in range(50):
            await app.service.settle()
            await fake_discord.settle()
            if seat in app.service.info(table_id).to_act:
                return
            await clock.advance(1)
        raise AssertionError("alice never got the turn")

    def count(text: str) -> int:
        return sum(text in t for t in channel_texts(app))

    await until_alice()
    await clock.advance(5)
    await fake_discord.wait_until(lambda: count("it is your turn") or None, what="reminder")
    reminder = next(m for m in fake_discord.server.messages(fake_discord.channel)
                    if "it is your turn" in m.content)
    assert alice.id in [int(u["id"]) for u in reminder.payload["mentions"]]
    assert "5 seconds" in reminder.content
    for n in range(1, AWAY_AFTER + 1):
        before = app.service.info(table_id).version
        await clock.advance(5)
        await fake_discord.wait_until(lambda n=n: count("Time ran out") >= n or None,
                                      what=f"timeout {n}")
        assert app.service.info(table_id).version > before  # the AI played for alice
        if n < AWAY_AFTER:
            await until_alice()
            await clock.advance(5)
    await fake_discord.wait_until(lambda: count("seems to be away") or None, what="away")
    await app.service.settle()
    await fake_discord.wait_until(
        lambda: any(c.startswith("tt:b:") for c in
                    fake_discord.server.message(public.id).custom_ids()) or None,
        what="the I'm back button")
    assert app.service.info(table_id).seats[seat].away  # type: ignore[union-attr]
    r = await alice.click(public, f"tt:b:{table_id}:0:")
    assert r.ephemeral and "Welcome back" in r.content
    assert not app.service.info(table_id).seats[seat].away  # type: ignore[union-attr]
