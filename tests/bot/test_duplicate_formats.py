"""Every format of a duplicate night through the fake Discord: individual events of Truf
(3 players) and Albastini (2, 3 and 5), pairs of six-player Albastini, each played by two
entrants and closed, with a traveller of both and a score card each; then
``/duplicate leaderboard`` counts every event (docs/duplicate.md)."""

from __future__ import annotations

from pathlib import Path

from app_fixture import start_app
from fakediscord import Harness
from table_play import play_humans

FORMATS = [("truf", 3), ("albastini", 2), ("albastini", 3), ("albastini", 5),
           ("albastini", 6)]


async def test_every_format_and_the_leaderboard_across_events(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona = h.user("mona", manager=True)
    ann, bo, cy, di = (h.user(n) for n in ("ann", "bo", "cy", "di"))
    for n, (game, players) in enumerate(FORMATS):
        name = f"Night {n}"
        created = await mona.slash("duplicate", "create", name=name, game=game, boards=1,
                                   closes="2030-01-01 20:00", players=players,
                                   leaderboard=True)
        assert not created.ephemeral, created.content
        event = next(e for e in await app.store.list_duplicate_events(h.guild.id)
                     if e.name == name)
        pairs = players == 6
        assert event.format == ("pairs" if pairs else "individual")
        entrants = [(ann, bo), (cy, di)] if pairs else [(ann,), (cy,)]
        for members in entrants:
            if pairs:
                await members[0].slash("duplicate", "enter", event=event.id,
                                       partner=members[1])
                await members[1].slash("duplicate", "confirm", event=event.id)
            else:
                entered = await members[0].slash("duplicate", "enter", event=event.id)
                assert not entered.ephemeral, entered.content
            started = await members[0].slash("duplicate", "play", event=event.id)
            assert "Board 1 is dealt" in started.content, (game, players, started.content)
            entrant = await app.store.duplicate_entrant_of(event.id, members[0].user.id)
            assert entrant is not None
            play = await app.store.get_duplicate_play(entrant.id, 1)
            assert play is not None and play.table_id is not None
            info = app.service.info(play.table_id)
            assert info.players == players
            humans = sorted(s.user_id for s in info.seats
                            if s is not None and not s.is_ai and s.user_id is not None)
            assert humans == sorted(m.user.id for m in members)
            await play_humans(app.service, play.table_id, humans, pause=0.005,
                              stale=(Exception,))
            head = f"{name}: board 1**"
            await h.wait_until(lambda m=members[0], head=head: next(
                (x for x in m.dms if head in x.content), None), what="the reveal")
        # The two entrants sat in different directions; both are on the traveller.
        plays = await app.store.list_duplicate_plays(event.id)
        assert len({p.direction for p in plays}) == 2, (game, players)
        await mona.slash("duplicate", "close", event=event.id)
        thread = await h.wait_until(lambda name=name: next(
            (c for c in h.server.channels.values() if c.name == f"Results: {name}"), None),
            what="the results thread")
        board = await h.wait_until(lambda thread=thread: next(
            (m for m in h.server.messages(thread) if m.content.startswith("Board 1\n")),
            None), what="the traveller")
        for members in entrants:
            shown = " & ".join(m.user.username.title() for m in members)
            assert f"  {shown}: " in board.content, (game, board.content)
        assert "Direction 1, North" in board.content and "alone in its direction" in \
            board.content
        for user in (ann, cy):
            await h.wait_until(lambda user=user, name=name: next(
                (m for m in user.dms if f"{name}: your score card" in m.content), None),
                what="the score card")
    ranked = await ann.slash("duplicate", "leaderboard")
    line = next(x for x in ranked.content.split("\n") if f"<@{ann.user.id}>" in x)
    assert f"· boards: {len(FORMATS)} · events: {len(FORMATS)}" in line, ranked.content
