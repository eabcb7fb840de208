"""The club commands' setup (``bot.discord_bot.club.cogs.setup``, helpers in
``tests/helpers/club_app.py``): the commands and persistent items it adds, and the real app
running them and stopping the reminders."""

from __future__ import annotations

from pathlib import Path

from club_app import MONDAY, start_club, stop_club
from fakediscord import Harness

from bot.service import FakeClock


async def test_setup_adds_the_commands_and_persistent_items(fake_discord: Harness,
                                                            tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    try:
        names = {c.name for c in app.bot.tree.get_commands()}
        assert {"leaderboard", "stats", "history", "league"} <= names
        league = app.bot.tree.get_command("league")
        assert league is not None
        subcommands = {c.name for c in league.commands}  # type: ignore[union-attr]
        assert {"create", "team", "join", "withdraw", "schedule", "fixtures", "standings",
                "report", "confirm", "reject", "close", "list"} <= subcommands
        await app.bot.tree.sync()  # the fake checks Discord's limits on command schemas
        assert {c["name"] for c in fake_discord.server.global_commands} >= names
    finally:
        await stop_club(fake_discord, app)


async def test_the_real_app_runs_the_club_commands_and_stops_the_reminders(
        fake_discord: Harness, tmp_path: Path) -> None:
    from app_fixture import start_app

    app = await start_app(fake_discord, tmp_path, clock=FakeClock(MONDAY))
    leagues = app.bot.get_cog("ClubLeagues")
    assert leagues is not None and leagues.clock is app.service.clock
    task = leagues._task
    assert task is not None and not task.done()
    await app.bot.tree.sync()  # core and club commands together, within Discord's limits
    names = {c["name"] for c in fake_discord.server.global_commands}
    assert {"leaderboard", "stats", "history", "league"} <= names
    listed = await fake_discord.user("alice").slash("league", "list")
    assert "No leagues yet" in listed.content
    await fake_discord.stop_bot(app.bot)
    assert task.done()
