"""``tricktable duplicate score DIR`` reads an event's tagged records and scores them with
the same code as the bot (bot.duplicate.scoring)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from bot.duplicate.boards import Board, play_with_ai
from bot.duplicate.records import Tag, board_result, tagged, write_record
from bot.duplicate.scoring import score_event
from games.records import replay

BOARDS = [Board("tarabish", n, f"night:{n}", (n - 1) % 4, 4) for n in (1, 2)]


def _event(folder: Path) -> list[dict[str, object]]:
    """Three entrants per board (directions 0, 1, 0), random AI players."""
    records = []
    for board in BOARDS:
        for i, entrant in enumerate(["Ann & Bo", "Cy & Di", "Ed & Flo"]):
            tag = Tag("7", board.number, len(BOARDS), entrant, i % 2, "imps")
            record = tagged(play_with_ai(board, "random", seed=entrant), tag)
            write_record(str(folder / f"b{board.number}-{i}.json"), record)
            records.append(record)
    return records


def test_tagged_record_replays_and_scores_like_the_summaries(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    records = _event(tmp_path)
    assert all(replay(rec)[1] == 0 for rec in records)  # the tag is ignored by replay
    expected = score_event([board_result(rec, Tag.from_json(rec["duplicate"]))
                            for rec in records], 2, "imps")
    assert main(["duplicate", "score", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "tarabish" and out["method"] == "imps"
    assert [(row["rank"], row["entrant"], row["total"]) for row in out["ranking"]] == [
        (row.rank, row.entrant, float(row.total)) for row in expected.ranking]
    assert main(["duplicate", "score", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Tarabish, IMPs; boards: 2" in text and "Board 2" in text and "Cy & Di" in text


def test_same_cards_for_every_entrant(tmp_path: Path) -> None:
    records = _event(tmp_path)
    hands = {rec["duplicate"]["board"]: [] for rec in records}  # type: ignore[index]
    for rec in records:
        hands[rec["duplicate"]["board"]].append(rec["deals"][0]["hands"])  # type: ignore[index]
    assert all(all(h == hs[0] for h in hs) for hs in hands.values())


def test_bad_folder_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _event(tmp_path)
    (tmp_path / "zz.json").write_text('{"format": "tricktable/1", "game": "turup"}')
    assert main(["duplicate", "score", str(tmp_path)]) == 2
    assert "zz.json" in capsys.readouterr().err
    (tmp_path / "zz.json").unlink()
    rec = json.loads((tmp_path / "b1-0.json").read_text())
    (tmp_path / "zz.json").write_text(json.dumps(rec))
    assert main(["duplicate", "score", str(tmp_path)]) == 2
    assert "second record of Ann & Bo on board 1" in capsys.readouterr().err
    assert main(["duplicate", "score", str(tmp_path / "none")]) == 2
