"""``/duplicate create options:`` — the rule options of an event, read and checked as
``/table new`` reads them, dealt at every board's table and shown in the event's status
and results; bad options are refused privately and create nothing."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from fakediscord import Harness
from table_play import play_humans


async def test_an_event_with_rule_options(fake_discord: Harness, tmp_path: Path) -> None:
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona, ann = h.user("mona", manager=True), h.user("ann")
    bad = await mona.slash("duplicate", "create", name="Night", game="tarabish", boards=1,
                           closes="2030-01-01 20:00", options='{"run_tie": "nobody"}')
    assert bad.ephemeral and "Those options do not work" in bad.content, bad.content
    unread = await mona.slash("duplicate", "create", name="Night", game="tarabish", boards=1,
                              closes="2030-01-01 20:00", options="{dealer")
    assert unread.ephemeral and "cannot be read" in unread.content, unread.content
    assert await app.store.list_duplicate_events(h.guild.id) == []

    created = await mona.slash("duplicate", "create", name="Night", game="tarabish",
                               boards=1, closes="2030-01-01 20:00",
                               options='{"dealer_may_pass": true, "auto_declare_runs": true}')
    assert not created.ephemeral, created.content
    assert "Rule options: " in created.content and "the game's defaults" not in \
        created.content, created.content
    [event] = await app.store.list_duplicate_events(h.guild.id)
    assert event.options == {"dealer_may_pass": True, "auto_declare_runs": True}
    await ann.slash("duplicate", "enter")
    status = await ann.slash("duplicate", "status")
    rules = next(line for line in status.content.split("\n")
                 if line.startswith("Rule options: "))
    assert rules == created.content.split("\n")[1]
    await ann.slash("duplicate", "play")
    [play] = await app.store.list_duplicate_plays(event.id)
    assert play.table_id is not None
    assert app.service.info(play.table_id).options["dealer_may_pass"] is True
    await play_humans(app.service, play.table_id, [ann.user.id], pause=0.005,
                      stale=(Exception,))
    await mona.slash("duplicate", "close")
    thread = await h.wait_until(lambda: next(
        (c for c in h.server.channels.values() if c.name == "Results: Night"), None),
        what="the results thread")
    ranking = await h.wait_until(lambda: next(iter(h.server.messages(thread)), None),
                                 what="the ranking")
    assert rules in ranking.content

    plain = await mona.slash("duplicate", "create", name="Plain", game="turup", boards=1,
                             closes="2030-01-01 20:00")
    assert "Rule options: the game's defaults" in plain.content
