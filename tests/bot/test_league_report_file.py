"""``/league report … sheet:<file>`` against the fake Discord, and the pure helpers behind it.

A file holds what the ``result`` option holds (a scoresheet, text or JSON) or a full game
record (``docs/records.md``) such as ``tricktable simulate --matches 1 --records DIR``
writes; the records here are made by that very code (:func:`bot.simulate.run`).
Every refusal is ephemeral and leaves the fixture ``scheduled`` without a result.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from club_app import start_club, stop_club
from fakediscord import (
    CommandFile,
    CommandUnavailable,
    Harness,
    InteractionResult,
    SimulatedUser,
    StoredMessage,
)
from league_report import assert_untouched, played_record, running_league

from bot.discord_bot.club.club_texts import (
    SHEET_MAX_BYTES,
    ReportSheet,
    ScoresheetError,
    read_report,
    sheet_size_problem,
    sheet_text,
)
from games.records import replay
from storage.models import Fixture

SHEET = "20-16 22-14"
"""Arba'a Turub: two deals won by the home side decide the match 2–0."""


def as_file(record: dict[str, Any], name: str = "table-7.json") -> CommandFile:
    """A record as ``/table export`` hands it out (indented JSON, UTF-8)."""
    return CommandFile(name, json.dumps(record, indent=1, ensure_ascii=False).encode())


def refused(answer: InteractionResult, *words: str) -> None:
    assert answer.ephemeral, answer.content
    for word in words:
        assert word in answer.content, answer.content


def message_of(answer: InteractionResult) -> StoredMessage:
    assert answer.message is not None, answer
    return answer.message


async def confirm_under(harness: Harness, user: SimulatedUser, report: StoredMessage,
                        fixture: Fixture) -> None:
    """``user`` presses Confirm under the report; returns once the report says so."""
    await user.click(report, f"club:fx:{fixture.id}:confirm")

    def confirmed(message: StoredMessage) -> bool:
        return message.id == report.id and "✅" in message.content
    await harness.server.wait_for_message(harness.channel, confirmed)


def standings_rows(answer: InteractionResult) -> list[str]:
    description = str(message_of(answer).embeds[0]["description"])
    return description.split("\n\n", 1)[1].split("\n")


# ------------------------------------------------------------------------ Discord


async def test_sheet_file_counts_exactly_like_the_same_text(fake_discord: Harness,
                                                            tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    await app.bot.tree.sync()  # the fake checks the schema (attachment option, lengths)
    alice, bob, carol, dave = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dave"))
    by_text = await running_league(app, fake_discord, "Text Cup", "arbaa_turub",
                                   (alice.id, carol.id), (bob.id, dave.id))
    by_file = await running_league(app, fake_discord, "File Cup", "arbaa_turub",
                                   (alice.id, carol.id), (bob.id, dave.id))

    text = await alice.slash("league", "report", fixture=by_text.id, result=SHEET)
    # A spreadsheet export: one deal per line, a byte order mark, Windows line ends.
    sheet = CommandFile("cup.txt", "\ufeff20-16\r\n22-14\r\n".encode())
    file = await alice.slash("league", "report", fixture=by_file.id, sheet=sheet)
    [upload] = fake_discord.server.uploads.values()
    assert upload.downloads == 1  # read once, from the URL Discord gave
    option = file.interaction["data"]["options"][0]["options"]
    assert {"type": 11, "name": "sheet", "value": str(upload.id)} in option

    for answer, fixture in ((text, by_text), (file, by_file)):
        assert not answer.ephemeral
        assert f"fixture #{fixture.id}" in answer.content
        assert "reports Aces 2–0 Kings (home win) over 2 deals." in answer.content
        posted = message_of(answer)
        assert {int(u["id"]) for u in posted.payload["mentions"]} == {bob.id, dave.id}
        await confirm_under(fake_discord, dave, posted, fixture)

    stored_text = await app.store.get_fixture(by_text.id)
    stored_file = await app.store.get_fixture(by_file.id)
    assert stored_text is not None and stored_file is not None
    assert stored_text.status == stored_file.status == "played"
    assert stored_text.result == stored_file.result
    assert stored_file.result is not None and stored_file.result["record"]["deals"] == [
        {"dealer": 0, "summary": {"tricks_by_team": [20, 16]}},
        {"summary": {"tricks_by_team": [22, 14]}}]
    text_table = await alice.slash("league", "standings", league="Text Cup")
    file_table = await alice.slash("league", "standings", league="File Cup")
    assert standings_rows(text_table) == standings_rows(file_table) == [
        "`1.` **Aces** — **2 pts** · P1 W1 D0 L0 · 2:0 (+2)",
        "`2.` **Kings** — **0 pts** · P1 W0 D0 L1 · 0:2 (-2)"]
    await stop_club(fake_discord, app)


async def test_played_match_record_is_accepted_and_its_deals_stored(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    alice, bob, carol, dave = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dave"))
    fixture = await running_league(app, fake_discord, "Cup", "arbaa_turub",
                                   (alice.id, carol.id), (bob.id, dave.id))
    record = played_record(tmp_path, "arbaa_turub")
    out, status = replay(record)
    assert status == 0 and out["match"]["over"]
    home, away = out["match"]["totals"]
    outcome = "home win" if out["match"]["winner"] == 0 else "away win"
    deals = len(record["deals"])
    assert "hands" in record["deals"][0] and "actions" in record["deals"][0]

    sent = await bob.slash("league", "report", fixture=fixture.id, sheet=as_file(record),
                           first_dealer=record["deals"][0]["dealer"])
    assert not sent.ephemeral, sent.content
    assert (f"<@{bob.id}> reports Aces {home}–{away} Kings ({outcome}) over {deals} deals "
            "of a game record.") in sent.content
    assert f"<@{alice.id}> <@{carol.id}>: confirm or reject" in sent.content
    stored = await app.store.get_fixture(fixture.id)
    assert stored is not None and stored.status == "reported" and stored.result is not None
    assert stored.result["record"] == record  # every deal, hands and actions, as sent
    assert (stored.result["home_score"], stored.result["away_score"]) == (home, away)
    assert stored.result["reporter_side"] == "away"

    partner = await dave.slash("league", "confirm", fixture=fixture.id)
    refused(partner, "only the opponents of the reporter")
    confirmed = await carol.slash("league", "confirm", fixture=fixture.id)
    assert "confirmed by" in confirmed.content
    stored = await app.store.get_fixture(fixture.id)
    assert stored is not None and stored.status == "played"
    rows = standings_rows(await alice.slash("league", "standings"))
    winner = "Aces" if outcome == "home win" else "Kings"
    assert rows[0].startswith(f"`1.` **{winner}** — **2 pts** · P1 W1 D0 L0")
    await stop_club(fake_discord, app)


async def test_refused_sheets_get_a_clear_message_and_store_nothing(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    server = fake_discord.server
    alice, bob, carol, dave = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dave"))
    fixture = await running_league(app, fake_discord, "Cup", "arbaa_turub",
                                   (alice.id, carol.id), (bob.id, dave.id))
    record = played_record(tmp_path, "arbaa_turub")

    async def report(**options: Any) -> InteractionResult:
        return await alice.slash("league", "report", fixture=fixture.id, **options)

    both = await report(result=SHEET, sheet=CommandFile("cup.txt", SHEET.encode()))
    refused(both, "either as text (the `result` option) or as a file (the `sheet` option)",
            "not both")
    assert not any(u.downloads for u in server.uploads.values())
    neither = await report()
    refused(neither, "neither was given")

    wrong_game = await report(sheet=as_file(played_record(tmp_path, "turup")))
    refused(wrong_game, "this is a record of Turup, but league 'Cup' plays Arba'a Turub")

    tampered = copy.deepcopy(record)
    hand = tampered["deals"][0]["hands"][0]
    hand[1] = hand[0]  # the same card twice: the deck no longer adds up
    corrupted = await report(sheet=as_file(tampered))
    problem, _ = replay(tampered)
    refused(corrupted, f"the game record does not replay: {problem['error']}")
    assert problem["error"].startswith("deal 0")

    cheated = copy.deepcopy(record)
    last = len(cheated["deals"]) - 1
    deal = cheated["deals"][last]  # the last: after a refused action no deal may follow
    plays = [a for a in deal["actions"] if a["type"] == "play"]
    held = set(deal["hands"][plays[0]["seat"]])
    plays[0]["card"] = next(c for hand in deal["hands"] for c in hand if c not in held)
    illegal = await report(sheet=as_file(cheated))
    out, status = replay(cheated)
    assert status == 1
    refused(illegal, f"the game record does not replay: deal {last}, action "
            f"{out['illegal']['action']} is refused: {out['illegal']['reason']}")

    unfinished = await report(sheet=as_file({**record, "deals": record["deals"][:1]}))
    refused(unfinished, "the game record's match is not finished", "after 1 deal the score")

    truncated = CommandFile("table-7.json", as_file(record).data[:5000])
    broken = await report(sheet=truncated)
    refused(broken, "the report cannot be read: not valid JSON:", "line")

    big = CommandFile("huge.txt", b"20-16 " * (SHEET_MAX_BYTES // 6 + 10))
    too_large = await report(sheet=big)
    refused(too_large, "the file is 257 KB; a scoresheet or game record may be at most 256 KB")
    [stored_big] = [u for u in server.uploads.values() if u.filename == "huge.txt"]
    assert stored_big.downloads == 0  # refused by its size, never downloaded

    latin = await report(sheet=CommandFile("cup.txt", "20-16 22-14 – Müller".encode("cp1252")))
    refused(latin, "the file is not UTF-8 text")

    pending = alice.build_slash("league", "report", fixture=fixture.id,
                                sheet=CommandFile("cup.txt", SHEET.encode()))
    server.uploads.clear()  # the CDN answers 404: the file is gone
    gone = await fake_discord.interact(pending)
    refused(gone, "the file could not be downloaded from Discord; try again")

    for answer in (both, neither, wrong_game, corrupted, illegal, unfinished, broken,
                   too_large, latin, gone):
        assert answer.type == 4 and not answer.followups
    assert all(m.ephemeral for m in server.messages(fake_discord.channel))
    await assert_untouched(app, fixture)
    await stop_club(fake_discord, app)


async def test_the_client_refuses_a_non_file_for_the_sheet_option(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    with pytest.raises(CommandUnavailable, match="takes a file"):
        alice.build_slash("league", "report", fixture=1, sheet="20-16 22-14")
    await stop_club(fake_discord, app)


# ------------------------------------------------------------------------ pure helpers


def test_read_report_tells_records_from_scoresheets() -> None:
    assert read_report("arbaa_turub", SHEET) == ReportSheet(
        [{"tricks_by_team": [20, 16]}, {"tricks_by_team": [22, 14]}])
    assert read_report("arbaa_turub", '{"first_dealer": 3, "deals": [{"tricks_by_team": '
                       '[20, 16]}]}') == ReportSheet([{"tricks_by_team": [20, 16]}], 3)
    record = {"format": "tricktable/1", "game": "turup", "deals": []}
    assert read_report("arbaa_turub", json.dumps(record)) == ReportSheet(record=record)
    only_game = {"game": "x", "dealer": 0}
    assert read_report("arbaa_turub", json.dumps(only_game)).record == only_game
    with pytest.raises(ScoresheetError, match=r"not valid JSON: .* line 1, column"):
        read_report("turup", '{"game": ')
    with pytest.raises(ScoresheetError, match="empty"):
        read_report("turup", " \n ")


def test_sheet_size_and_encoding() -> None:
    assert sheet_size_problem(SHEET_MAX_BYTES) is None
    assert str(sheet_size_problem(300 * 1024)) == (
        "the file is 300 KB; a scoresheet or game record may be at most 256 KB")
    assert str(sheet_size_problem(SHEET_MAX_BYTES + 1)) == (
        "the file is 257 KB; a scoresheet or game record may be at most 256 KB")
    assert sheet_text("\ufeff20-16 22-14".encode()) == "20-16 22-14"
    assert sheet_text("Müller 20-16".encode()) == "Müller 20-16"
    with pytest.raises(ScoresheetError, match=r"not UTF-8 text \(byte 1 cannot be read\)"):
        sheet_text("Müller".encode("latin-1"))
    with pytest.raises(ScoresheetError, match="at most 256 KB"):
        sheet_text(b" " * (SHEET_MAX_BYTES + 1))
