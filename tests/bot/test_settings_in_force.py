"""Security review L3, the leftover, as a server's admin reads it: a number an older
version stored out of range (``/settings ai_pace:1e308`` was stored before the command
checked its numbers) is not the one in force, so ``/settings`` shows what new tables use —
the default — and never the stored 1e+308 s."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from fakediscord import Harness


async def test_settings_shows_the_default_in_force_for_a_number_stored_out_of_range(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    await app.store.update_guild_settings(fake_discord.guild.id,
                                          {"ai_pace": 1e308, "turn_timeout": 5})
    mona = fake_discord.user("mona", manager=True)
    answer = await mona.slash("settings")
    assert answer.ephemeral, answer
    text = answer.content
    assert "AI pace: **1.5 s**" in text and "Turn timeout: **120 s**" in text, text
    assert "e+308" not in text
