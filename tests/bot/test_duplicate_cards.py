"""Every member gets a score card, also with closed DMs: the results thread's ranking has a
**My results** button, a member whose DMs are closed is named in the thread with it, and a
click shows the clicker's own card privately; anyone else is refused privately
(docs/duplicate.md, "On Discord")."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from fakediscord import Harness
from table_play import play_humans


async def test_closed_dms_get_the_score_card_in_the_thread(fake_discord: Harness,
                                                          tmp_path: Path) -> None:
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona, hal, ann, ed = (h.user(n, manager=n == "mona") for n in ("mona", "hal", "ann", "ed"))
    await mona.slash("duplicate", "create", name="Night", game="turup", boards=1,
                     closes="2030-01-01 20:00")
    [event] = await app.store.list_duplicate_events(h.guild.id)
    cog = app.bot.get_cog("ClubDuplicate")
    cog.posts.event_link = lambda e, u, lang: f"https://tt.example/duplicate?k={e}.{u}.{lang}"
    hal.dms_open = False
    for user in (hal, ann):
        assert not (await user.slash("duplicate", "enter")).ephemeral
        started = await user.slash("duplicate", "play")
        assert "Board 1 is dealt" in started.content, started.content
        entrant = await app.store.duplicate_entrant_of(event.id, user.user.id)
        assert entrant is not None
        play = await app.store.get_duplicate_play(entrant.id, 1)
        assert play is not None and play.table_id is not None
        await play_humans(app.service, play.table_id, [user.user.id], pause=0.005,
                          stale=(Exception,))
    reveal = await h.wait_until(lambda: next(
        (m for m in ann.dms if "Night: board 1**" in m.content), None), what="ann's reveal")
    urls = [c.get("url") for c in reveal.walk_components() if c.get("url")]
    assert urls == [f"https://tt.example/duplicate?k={event.id}.{ann.user.id}.en"]
    await mona.slash("duplicate", "close")
    thread = await h.wait_until(lambda: next(
        (c for c in h.server.channels.values() if c.name == "Results: Night"), None),
        what="the results thread")
    notice = await h.wait_until(lambda: next(
        (m for m in h.server.messages(thread) if f"<@{hal.user.id}>, I cannot send you"
         in m.content), None), what="hal's notice")
    await h.wait_until(lambda: next((m for m in ann.dms if "your score card" in m.content),
                                    None), what="ann's card by DM")
    button = f"dup:mr:{event.id}"
    assert button in notice.custom_ids()
    ranking = h.server.messages(thread)[0]
    assert button in ranking.custom_ids()  # everyone may ask for theirs privately
    assert [c.get("url") for c in ranking.walk_components() if c.get("url")] == [
        f"https://tt.example/duplicate?k={event.id}.0.en"]  # the public event page

    mine = await hal.at(h.server.channels[thread.id]).click(notice, button)
    assert mine.ephemeral, mine.content
    assert "Night: your score card (place" in mine.content
    assert "Board 1: ♦" in mine.content or "Board 1: " in mine.content
    assert "you: net " in mine.content and "AI in your seat: " in mine.content
    ann_card = next(m.content for m in ann.dms if "your score card" in m.content)
    theirs = await ann.at(h.server.channels[thread.id]).click(ranking, button)
    assert theirs.ephemeral and theirs.content == ann_card
    refused = await ed.at(h.server.channels[thread.id]).click(ranking, button)
    assert refused.ephemeral and "no score card in this event" in refused.content
