"""``/duplicate …`` against the fake Discord with the whole bot: a director's event, pairs
entering and confirming, boards played at tables in private threads (human seats played
through the table service, AI in the rest), the reveal by DM after each board and nothing
of a board before it, a restart mid-board, a second play of a board refused, the close
posting the results thread and score cards once (also across a restart), and the CLI's
scoring of the posted records equal to the bot's."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from app_fixture import App, start_app
from fakediscord import Harness
from fakediscord.client import SimulatedUser
from table_play import play_humans

from bot.cli import main
from bot.duplicate.records import Tag, board_result
from bot.duplicate.service import DuplicateError

NOW = dt.datetime(2026, 11, 27, 19, 0, tzinfo=dt.UTC)


async def _human_moves(app: App, table_id: int, users: list[int]) -> None:
    """Play the humans' turns (first legal action) until the table closes; a stale turn
    while an AI moved is looked at again."""
    await play_humans(app.service, table_id, users, rounds=20000, pause=0.005,
                      stale=(Exception,))


def _seen(h: Harness, user: SimulatedUser) -> list[str]:
    """Every text this member can see: the event channel (with their own ephemerals), the
    threads they were added to, their DMs."""
    server = h.server
    texts = [_text(m) for m in user.visible()]
    for thread_id, members in server.thread_members.items():
        if user.user.id in members:
            texts += [_text(m) for m in server.messages(thread_id)]
    texts += [_text(m) for m in user.dms]
    return texts


def _text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
    return "\n".join(parts)


async def _run_event(h: Harness, tmp_path: Path, game: str, scoring: str,
                     capsys: pytest.CaptureFixture[str]) -> None:
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona = h.user("mona", manager=True)
    players = [h.user(f"p{i}") for i in range(8)]
    pairs = [(players[2 * i], players[2 * i + 1]) for i in range(4)]

    refused = await players[0].slash("duplicate", "create", name="Night", game=game, boards=4,
                                     closes="2030-01-01 20:00")
    assert refused.ephemeral and "Manage Server" in refused.content
    created = await mona.slash("duplicate", "create", name="Night", game=game, boards=4,
                               closes="2030-01-01 20:00", timezone="Europe/Oslo",
                               scoring=scoring)
    assert not created.ephemeral, created.content
    [event] = await app.store.list_duplicate_events(h.guild.id)

    for a, b in pairs:
        entered = await a.slash("duplicate", "enter", partner=b)
        assert not entered.ephemeral, entered.content
        early = await a.slash("duplicate", "play")
        assert early.ephemeral and "not confirmed" in early.content
        assert not (await b.slash("duplicate", "confirm")).ephemeral
    not_director = await players[0].slash("duplicate", "close")
    assert not_director.ephemeral and "Manage Server" in not_director.content

    finished: dict[int, set[int]] = {u.user.id: set() for u in players}

    def check_no_leak() -> None:
        entrants = {a.user.id: {a.user.id, b.user.id} for a, b in pairs}
        entrants.update({b.user.id: {a.user.id, b.user.id} for a, b in pairs})
        for members in h.server.thread_members.values():  # a table thread: one entrant's
            assert not members or any(members <= team for team in entrants.values())
        for user in players:
            for text in _seen(h, user):
                for board in range(1, 5):
                    if board in finished[user.user.id]:
                        continue
                    head = f"Night: board {board}**"
                    assert head not in text, (user.user.username, board, text)
                    # a board's end at its table (its result) is in its own thread only
                    assert f"board {board} is over.**" not in text, (user.user.username,
                                                                      board, text)
                    assert not (f"Board {board}\n" in text and "matchpoints" in text), text

    for board in range(1, 5):
        for n, (a, b) in enumerate(pairs):
            started = await a.slash("duplicate", "play")
            assert started.ephemeral and f"Board {board} is dealt" in started.content
            entrant = await app.store.duplicate_entrant_of(event.id, a.user.id)
            assert entrant is not None
            play = await app.store.get_duplicate_play(entrant.id, board)
            assert play is not None and play.table_id is not None
            if board == 2 and n == 0:  # a restart in the middle of the board
                await _human_moves_some(app, play.table_id, [a.user.id, b.user.id])
                await app.restart()
                again = await b.slash("duplicate", "play")
                assert again.ephemeral and f"Board {board} is under way" in again.content
            seats = app.service.info(play.table_id).seats
            humans = {s.name for s in seats if s is not None and not s.is_ai}
            assert humans == {a.user.username.title(), b.user.username.title()}
            await _human_moves(app, play.table_id, [a.user.id, b.user.id])
            await h.wait_until(lambda a=a, board=board: next(
                (m for m in a.dms if f"Night: board {board}**" in m.content), None),
                what="the reveal")
            finished[a.user.id].add(board)
            finished[b.user.id].add(board)
            check_no_leak()
    # The board's Review under the reveal: for the entrant's members; a forged click by
    # another entrant's member is refused privately.
    first, second = pairs[0][0], pairs[1][0]
    own = await app.store.duplicate_entrant_of(event.id, first.user.id)
    theirs = await app.store.duplicate_entrant_of(event.id, second.user.id)
    assert own is not None and theirs is not None
    mine_id = f"dup:rv:{event.id}:1:{own.id}:0"
    shown = next(m for m in first.dms if "Night: board 1**" in m.content)
    review = await first.in_dm().click(shown, mine_id)
    assert review.ephemeral and "once you have finished" not in review.content
    assert any(suit in review.content for suit in "♠♥♦♣"), review.content
    other = next(m for m in second.dms if "Night: board 1**" in m.content)
    other.component(f"dup:rv:{event.id}:1:{theirs.id}:0")["custom_id"] = mine_id
    refused = await second.in_dm().click(other, mine_id)
    assert refused.ephemeral and "once you have finished it" in refused.content

    cog = app.bot.get_cog("ClubDuplicate")
    with pytest.raises(DuplicateError, match="already played board 1"):
        await cog.service.play_board(event.id, h.guild.id, pairs[0][0].user.id, 1, {},
                                     _nowhere)
    done = await players[0].slash("duplicate", "play")
    assert done.ephemeral and "every board" in done.content

    # Both directions of every board were played, two and two.
    for board in range(1, 5):
        plays = await app.store.list_duplicate_plays(event.id, board=board)
        assert sorted(p.direction for p in plays) == [0, 0, 1, 1]
    names = {e.id: e.name for e in await app.store.list_duplicate_entrants(event.id)}
    expected_mp = _matchpoints_by_hand(await app.store.list_duplicate_plays(event.id), names)

    closed = await mona.slash("duplicate", "close")
    assert not closed.ephemeral, closed.content
    thread = await h.wait_until(lambda: next(
        (c for c in h.server.channels.values() if c.name == "Results: Night"), None),
        what="the results thread")
    await h.wait_until(lambda: len(h.server.messages(thread)) >= 6 or None,
                       what="the results")
    await h.wait_until(lambda: all(any("your score card" in m.content for m in u.dms)
                                   for u in players) or None, what="the score cards")
    posted = h.server.messages(thread)
    ranking = posted[0].content
    assert all(name in ranking for name in names.values())
    for board in range(1, 5):
        text = next(m.content for m in posted if m.content.startswith(f"Board {board}\n"))
        assert "The hands as dealt:" in text
        for name, (mp, top, imps) in expected_mp[board].items():
            line = text.split(f"{name}: ", 1)[1].split("\n", 1)[0]
            assert f"; {mp} of {top} matchpoints" in line, (board, name, text)
            if scoring == "imps":
                sign = "+" if imps > 0 else "−" if imps < 0 else ""
                assert line.endswith(f", {sign}{abs(imps)} IMPs"), (board, name, text)
    [archive] = [m for m in posted if m.files]
    cards = {u.user.id: sum("your score card" in m.content for m in u.dms) for u in players}
    assert set(cards.values()) == {1}

    # Closing again (and a restart) posts nothing more.
    before = (len(h.server.messages(thread)), sum(len(u.dms) for u in players))
    await app.restart()
    cog = app.bot.get_cog("ClubDuplicate")
    await cog.service.close(event.id, h.guild.id)
    await h.settle()
    assert (len(h.server.messages(thread)), sum(len(u.dms) for u in players)) == before
    again = await mona.slash("duplicate", "play", event=event.id)
    assert again.ephemeral and "closed" in again.content

    # The CLI scores the posted records exactly as the bot did.
    folder = tmp_path / "records"
    folder.mkdir()
    [data] = [f.data for f in archive.files.values()]
    results = await cog.service.results(event)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        z.extractall(folder)
    assert len(list(folder.iterdir())) == 16
    assert main(["duplicate", "score", str(folder), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["rank"], r["entrant"], r["total"]) for r in out["ranking"]] == [
        (r.rank, r.entrant, float(r.total)) for r in results.score.ranking]


STEPS = (10, 20, 30, 40, 60, 80, 100, 130, 160, 200, 250, 300)  # docs/duplicate.md


def _matchpoints_by_hand(plays: list[Any], names: dict[int, str]
                         ) -> dict[int, dict[str, tuple[int, int, int]]]:
    """Matchpoints and IMPs worked out here from each play's net score: per board and
    direction, 2 for every other result beaten and 1 for every tie, out of 2 × (n − 1);
    IMPs from the difference to the mean by the table of docs/duplicate.md."""
    out: dict[int, dict[str, tuple[int, int, int]]] = {}
    for play in plays:
        tag = Tag.from_json(play.record["duplicate"])
        mine = board_result(play.record, tag)
        rivals = [board_result(p.record, Tag.from_json(p.record["duplicate"])) for p in plays
                  if p.board == play.board and p.direction == play.direction and p is not play]
        key = (mine.score, mine.tiebreak)
        mp = sum(2 if key > (o.score, o.tiebreak) else 1 if key == (o.score, o.tiebreak)
                 else 0 for o in rivals)
        datum = (mine.score + sum(o.score for o in rivals)) / (1 + len(rivals))
        diff = mine.score - datum
        imps = sum(1 for step in STEPS if abs(diff) >= step) * (1 if diff >= 0 else -1)
        out.setdefault(play.board, {})[names[play.entrant_id]] = (mp, 2 * len(rivals), imps)
    return out


async def _nowhere(board: int) -> Any:
    raise AssertionError("no table may be opened")


async def _human_moves_some(app: App, table_id: int, users: list[int]) -> None:
    for _ in range(200):
        for user in users:
            seat = app.service.seat_of(table_id, user)
            state = app.service.state(table_id, seat).data
            if seat in state["to_act"] and state["legal"]:
                await app.service.act(table_id, user, state["legal"][0], state["version"])
                return
        await asyncio.sleep(0.005)


@pytest.mark.parametrize(("game", "scoring"), [("turup", "matchpoints"), ("tarabish", "imps")])
async def test_duplicate_event(fake_discord: Harness, tmp_path: Path, game: str,
                               scoring: str, capsys: pytest.CaptureFixture[str]) -> None:
    await _run_event(fake_discord, tmp_path, game, scoring, capsys)


async def test_lone_entrant_with_ai_partner_and_hand_pictures(fake_discord: Harness,
                                                              tmp_path: Path) -> None:
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3, guild_settings={"images": True})
    mona, ann = h.user("mona", manager=True), h.user("ann")
    await mona.slash("duplicate", "create", name="Solo", game="turup", boards=1,
                     closes="2030-01-01 20:00", leaderboard=True)
    [event] = await app.store.list_duplicate_events(h.guild.id)
    assert not (await ann.slash("duplicate", "enter")).ephemeral
    started = await ann.slash("duplicate", "play")
    assert "Board 1 is dealt" in started.content
    [play] = await app.store.list_duplicate_plays(event.id)
    assert play.table_id is not None
    seats = app.service.info(play.table_id).seats
    assert sum(1 for s in seats if s is not None and not s.is_ai) == 1  # an AI partner
    ann.dms_open = False  # the reveal comes in her private thread instead
    location = app.service.info(play.table_id).location
    await _human_moves(app, play.table_id, [ann.user.id])
    reveal = await h.wait_until(lambda: next(
        (m for m in h.server.messages(location.channel_id)  # type: ignore[union-attr]
         if "Solo: board 1**" in m.content), None), what="the reveal in the thread")
    [diagram] = reveal.files.values()  # the hand diagram beside the hand record
    assert diagram.filename == "board-1.png" and diagram.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert h.server.thread_members[location.channel_id] == {ann.user.id}  # type: ignore
    await mona.slash("duplicate", "close")
    thread = await h.wait_until(lambda: next(
        (c for c in h.server.channels.values() if c.name == "Results: Solo"), None),
        what="the results thread")
    board = await h.wait_until(lambda: next(
        (m for m in h.server.messages(thread) if m.content.startswith("Board 1\n")), None),
        what="the board's message")
    [picture] = board.files.values()
    assert picture.filename == "board-1.png" and picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    # The event counts for the duplicate leaderboard: Ann alone in her direction, 50%.
    ranked = await ann.slash("duplicate", "leaderboard")
    assert f"1. <@{ann.user.id}>: 50.00% · boards: 1 · events: 1" in ranked.content
    assert ranked.callback.json["data"]["allowed_mentions"].get("users", []) == []


async def test_two_pairs_meet_at_one_table(fake_discord: Harness, tmp_path: Path) -> None:
    """``/duplicate play against:`` — one pair asks, the other asks back (also across a
    restart), and the four play the board at one table from its two directions; each pair
    gets the board as its result; refusals are private sentences and change nothing."""
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona = h.user("mona", manager=True)
    ann, bo, cy, di, ed = (h.user(n) for n in ("ann", "bo", "cy", "di", "ed"))
    await mona.slash("duplicate", "create", name="Meet", game="turup", boards=2,
                     closes="2030-01-01 20:00")
    [event] = await app.store.list_duplicate_events(h.guild.id)
    for a, b in ((ann, bo), (cy, di)):
        await a.slash("duplicate", "enter", partner=b)
        await b.slash("duplicate", "confirm")
    await ed.slash("duplicate", "enter")

    own = await bo.slash("duplicate", "play", against=ann)
    assert own.ephemeral and "another pair, not your own" in own.content
    asked = await ann.slash("duplicate", "play", against=cy, board=2)
    assert asked.ephemeral and "You asked Cy & Di to meet" in asked.content, asked.content
    assert await app.store.list_duplicate_plays(event.id) == []  # nothing dealt yet
    for member in (cy, di):
        assert any("Ann & Bo ask your pair to meet" in m.content for m in member.dms)
    await app.restart()  # the invitation is stored: Di still accepts it after a restart
    accepted = await di.slash("duplicate", "play", against=bo)
    assert accepted.ephemeral and "Board 2 is dealt" in accepted.content, accepted.content

    plays = await app.store.list_duplicate_plays(event.id)
    assert len(plays) == 2 and {p.board for p in plays} == {2}
    assert {p.direction for p in plays} == {0, 1}
    [table_id] = {p.table_id for p in plays}
    assert table_id is not None
    seats = app.service.info(table_id).seats
    assert all(s is not None and not s.is_ai for s in seats)  # four humans, no AI
    location = app.service.info(table_id).location
    members = {u.user.id for u in (ann, bo, cy, di)}
    assert h.server.thread_members[location.channel_id] == members  # type: ignore[union-attr]
    await _human_moves_some(app, table_id, sorted(members))
    await app.restart()  # the meeting's table survives a restart, for both pairs
    again = await cy.slash("duplicate", "play")
    assert again.ephemeral and "Board 2 is under way" in again.content
    mine = await ann.slash("duplicate", "play")
    assert mine.ephemeral and "Board 2 is under way" in mine.content
    busy = await ed.slash("duplicate", "play", against=ann)
    assert busy.ephemeral and "has a board under way" in busy.content
    await _human_moves(app, table_id, sorted(members))
    for user in (ann, bo, cy, di):
        await h.wait_until(lambda user=user: next(
            (m for m in user.dms if "Meet: board 2**" in m.content), None), what="the reveal")
    plays = await app.store.list_duplicate_plays(event.id)
    assert all(p.status == "finished" for p in plays)
    # Ed (who played no board) sees nothing of it: not the thread, not the reveal.
    assert not any("Meet: board 2**" in text for text in _seen(h, ed))
    assert ed.user.id not in h.server.thread_members[location.channel_id]  # type: ignore
    cog = app.bot.get_cog("ClubDuplicate")
    results = await cog.service.results(event, boards=[2])
    travel = results.score.travellers[1]
    assert sorted(r.result.entrant for r in travel.rows) == ["Ann & Bo", "Cy & Di"]
    # Each pair's result is the one deal, seen from its direction.
    record = plays[0].record
    assert record is not None and plays[1].record is not None
    assert record["deals"] == plays[1].record["deals"]

    # Refused: a board either pair has played, and meeting in a game of individuals.
    replayed = await ann.slash("duplicate", "play", against=cy, board=2)
    assert replayed.ephemeral and "has already played board 2" in replayed.content
    solo_played = await ed.slash("duplicate", "play", against=ann, board=2)
    assert solo_played.ephemeral and "Ann & Bo has already played board 2" in \
        solo_played.content
    assert len(await app.store.list_duplicate_plays(event.id)) == 2
    await mona.slash("duplicate", "create", name="Truf", game="truf", boards=1,
                     closes="2030-01-01 20:00")
    truf = next(e for e in await app.store.list_duplicate_events(h.guild.id)
                if e.game == "truf")
    await ann.slash("duplicate", "enter", event=truf.id)
    await cy.slash("duplicate", "enter", event=truf.id)
    refused = await ann.slash("duplicate", "play", event=truf.id, against=cy)
    assert refused.ephemeral and "only two sides can meet" in refused.content, \
        refused.content


async def test_an_event_as_a_round_of_a_league(fake_discord: Harness, tmp_path: Path) -> None:
    """``/duplicate create league:`` — the event is a round of a running league: its teams
    are entered (nobody else may enter), and at the close the league's standings count it
    as one match of each team against the field (docs/leagues.md)."""
    h = fake_discord
    app = await start_app(h, tmp_path, ai_budget_ms=3)
    mona = h.user("mona", manager=True)
    users = [h.user(n) for n in ("ann", "bo", "cy", "di", "ed", "flo")]
    outsider = h.user("gus")
    await mona.slash("league", "create", name="Cup", game="turup")
    teams = {}
    for n, team in enumerate(("Aces", "Kings", "Jacks")):
        a, b = users[2 * n], users[2 * n + 1]
        await a.slash("league", "team", "add", name=team, member1=a, member2=b)
        teams[team] = (a, b)
    early = await mona.slash("duplicate", "create", name="Round", game="turup", boards=2,
                             closes="2030-01-01 20:00", league="Cup")
    assert early.ephemeral and "is not running" in early.content, early.content
    assert not (await mona.slash("league", "schedule", league="Cup")).ephemeral
    other = await mona.slash("duplicate", "create", name="Round", game="tarabish", boards=2,
                             closes="2030-01-01 20:00", league="Cup")
    assert other.ephemeral and "plays Turup" in other.content, other.content
    assert await app.store.list_duplicate_events(h.guild.id) == []
    created = await mona.slash("duplicate", "create", name="Round", game="turup", boards=2,
                               closes="2030-01-01 20:00", league="Cup")
    assert not created.ephemeral and "round of the league Cup" in created.content
    [event] = await app.store.list_duplicate_events(h.guild.id)
    entrants = await app.store.list_duplicate_entrants(event.id)
    assert sorted((e.name, e.ready) for e in entrants) == [
        ("Aces", True), ("Jacks", True), ("Kings", True)]
    refused = await outsider.slash("duplicate", "enter")
    assert refused.ephemeral and "round of a league" in refused.content
    assert len(await app.store.list_duplicate_entrants(event.id)) == 3

    # Aces and Kings play both boards, Jacks only the first.
    for team, boards in (("Aces", 2), ("Kings", 2), ("Jacks", 1)):
        a, b = teams[team]
        for _ in range(boards):
            started = await a.slash("duplicate", "play")
            assert "is dealt" in started.content, started.content
            entrant = await app.store.duplicate_entrant_of(event.id, a.user.id)
            assert entrant is not None
            play = next(p for p in await app.store.list_duplicate_plays(event.id)
                        if p.entrant_id == entrant.id and p.status == "playing")
            assert play.table_id is not None
            await _human_moves(app, play.table_id, [a.user.id, b.user.id])
            await h.wait_until(lambda a=a, n=play.board: next(
                (m for m in a.dms if f"Round: board {n}**" in m.content), None),
                what="the reveal")
    await mona.slash("duplicate", "close")
    cog = app.bot.get_cog("ClubDuplicate")
    results = await cog.service.results(event)
    # By hand: a team wins the round when it is ranked above more teams than above it.
    ranks = {row.entrant: row.rank for row in results.score.ranking}
    expected = {}
    for team, rank in ranks.items():
        assert rank is not None
        above = sum(1 for r in ranks.values() if r is not None and r < rank)
        below = sum(1 for r in ranks.values() if r is not None and r > rank)
        expected[team] = (2, "W1 D0 L0") if below > above else (
            (0, "W0 D0 L1") if above > below else (1, "W0 D1 L0"))
    table = (await users[0].slash("league", "standings", league="Cup")).message.text()
    for team, (points, line) in expected.items():
        row = next(x for x in table.split("\n") if f"**{team}**" in x)
        assert f"**{points} pts** · P1 {line}" in row, (team, table)
    # A second close (and a restart) counts the round once.
    await app.restart()
    await app.bot.get_cog("ClubDuplicate").service.close(event.id, h.guild.id)
    again = await users[0].slash("league", "standings", league="Cup")
    assert again.message.text() == table
