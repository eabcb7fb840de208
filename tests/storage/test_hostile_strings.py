"""Hostile strings through every write path that takes text, read back intact.

Every query is parameterised, so none of these can change a statement: each one must come
back byte for byte, and the schema must still be there afterwards. Free-text fields take
any NUL-free string (also 4,000 characters); key fields (game, terminal location, status,
reminder kind) take up to MAX_KEY_LENGTH characters and refuse longer ones the same way on
both backends.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from storage import (
    MAX_KEY_LENGTH,
    ChannelLocation,
    DealRecord,
    MatchRecord,
    NewFixture,
    Participant,
    SqlStore,
    TerminalLocation,
)

HOSTILE = [
    "'",
    '"',
    "''",
    "'; DROP TABLE players; --",
    "Robert'); DROP TABLE game_tables;--",
    '"; DELETE FROM table_actions WHERE "1"="1',
    "1 OR 1=1",
    "\\",
    "back\\slash\\' \\\" \\n \\x00",
    "%s %d %% %(name)s {0} {}",
    "$1 $2 $$ $tag$ ?1 ? :name ::text",
    "-- comment /* block */",
    "🂡🃏🀄 👩‍👩‍👧‍👦 🇷🇸",
    "日本語 ünïcødé العربية",
    "\u202eright-to-left\u202c",
    "\t\r\n\x0b\x0c\x1b[31m",
    "\ufeffBOM",
    "null",
    "{}",
]
KEYS = [s for s in HOSTILE if len(s) <= MAX_KEY_LENGTH]
LONG = ("x'😀\\\"%s$1" * 500)[:4000]
TEXTS = [*HOSTILE, LONG, ""]
assert len(LONG) == 4000 and "\x00" not in "".join(TEXTS)


def json_with(texts: list[str]) -> dict[str, Any]:
    """A JSON object carrying the strings as keys and as values."""
    return {"values": texts, **{f"{i}:{t}": t for i, t in enumerate(texts)}, "": texts[:3]}


def same_json(got: object, expected: object) -> bool:
    return json.dumps(got) == json.dumps(expected)


async def test_hostile_strings_round_trip_everywhere(store: SqlStore) -> None:
    blob = json_with(TEXTS)

    # Players: the display name.
    for i, name in enumerate(TEXTS):
        await store.upsert_player(i + 1, name)
    for i, name in enumerate(TEXTS):
        player = await store.get_player(i + 1)
        assert player is not None and player.display_name == name

    # Tables: terminal location, game, options, seats, meta; then their updates.
    tables = []
    for i, key in enumerate(KEYS):
        table = await store.create_table(
            TerminalLocation(key), key, options=blob, seats=[blob, key], meta={key: LONG}
        )
        tables.append(table)
        got = await store.get_table(table.id)
        assert got is not None
        assert got.location == TerminalLocation(key) and got.game == key
        assert same_json(got.options, blob) and same_json(got.seats, [blob, key])
        assert got.meta == {key: LONG}
        assert await store.find_open_table(TerminalLocation(key)) == got
        updated = await store.update_table(table.id, options={key: i}, seats=[LONG], meta=blob)
        assert updated.options == {key: i} and updated.seats == [LONG]
        assert same_json(updated.meta, blob)

    # The action log.
    table = tables[0]
    await store.append_action(table.id, 1, blob)
    await store.append_actions(table.id, 2, [{"text": t} for t in TEXTS])
    log = await store.load_actions(table.id)
    assert same_json(log[0].action, blob)
    assert [e.action["text"] for e in log[1:]] == TEXTS
    (recovered,) = [r for r in await store.load_unfinished_tables() if r.table.id == table.id]
    assert same_json([e.action for e in recovered.actions], [e.action for e in log])

    # Matches: game, result JSON, deal records.
    match_ids = []
    for i, key in enumerate(KEYS[:5]):
        done = await store.create_table(ChannelLocation(1, i), key)
        record = MatchRecord(
            table_id=done.id,
            game=key,
            guild_id=1,
            finished_at=dt.datetime(2025, 1, 1, tzinfo=dt.UTC),
            result=blob,
            participants=(Participant(0, 1, 0, "win"), Participant(1, 2, 1, "loss")),
            deals=(DealRecord(1, blob), DealRecord(2, {"note": LONG})),
        )
        assert await store.record_match(record)
        match = await store.get_match_for_table(done.id)
        assert match is not None and match.game == key and same_json(match.result, blob)
        deals = await store.load_deals(match.id)
        assert same_json(deals[0].record, blob) and deals[1].record == {"note": LONG}
        match_ids.append(match.id)
    stats = await store.player_stats(1)
    assert sorted(g.game for g in stats.games) == sorted(KEYS[:5])

    # Leagues: name, game, options, time zone, status; and their updates.
    for text, key in zip(TEXTS, KEYS * 2, strict=False):
        league = await store.create_league(
            7,
            8,
            text,
            key,
            weekday=2,
            start_time=dt.time(18),
            time_zone=text,
            options=blob,
            status=key,
        )
        got_league = await store.get_league(league.id)
        assert got_league is not None
        assert (got_league.name, got_league.game, got_league.time_zone, got_league.status) == (
            text,
            key,
            text,
            key,
        )
        assert same_json(got_league.options, blob)
        changed = await store.update_league(
            league.id, name=LONG, game=key, time_zone=key, status=key, options={text: text}
        )
        assert (changed.name, changed.time_zone, changed.options) == (LONG, key, {text: text})

    # Seasons, entrants, fixtures, reminders.
    for text, key in zip(TEXTS, KEYS * 2, strict=False):
        season = await store.create_season(7, text, status=key)
        assert (await store.get_season(season.id)) == season
        assert (season.name, season.status) == (text, key)
        season = await store.update_season(season.id, name=LONG, status=key)
        assert season.name == LONG
        entrant = await store.add_entrant(season.id, [1, 2], name=text)
        assert (await store.get_entrant(entrant.id)) == entrant and entrant.name == text
        renamed = await store.update_entrant(entrant.id, name=LONG)
        assert renamed.name == LONG
        (fixture,) = await store.create_fixtures(
            season.id, [NewFixture(1, entrant.id, None, None, status=key)]
        )
        assert fixture.status == key
        fixture = await store.update_fixture(fixture.id, status=key, result=blob)
        got_fixture = await store.get_fixture(fixture.id)
        assert got_fixture is not None and got_fixture.status == key
        assert same_json(got_fixture.result, blob)
        assert await store.mark_reminder_sent(fixture.id, key)
        assert not await store.mark_reminder_sent(fixture.id, key)
        assert list(await store.reminders_sent(fixture.id)) == [key]

    # Nothing was dropped or emptied along the way.
    assert len(await store.load_unfinished_tables()) == len(KEYS) + len(match_ids)
    assert (await store.get_player(1)) is not None


@pytest.mark.parametrize("bad", ["nul\x00byte", "x" * (MAX_KEY_LENGTH + 1), ""])
async def test_bad_keys_are_refused_alike(store: SqlStore, bad: str) -> None:
    with pytest.raises(ValueError):
        await store.create_table(TerminalLocation(bad), "truf")
    with pytest.raises(ValueError):
        await store.create_table(ChannelLocation(1, 1), bad)
    assert await store.load_unfinished_tables() == []


async def test_nul_in_free_text_is_refused_alike(store: SqlStore) -> None:
    with pytest.raises(ValueError, match="NUL"):
        await store.upsert_player(1, "a\x00b")
    with pytest.raises(ValueError, match="NUL"):
        await store.create_season(1, "a\x00b")
    assert await store.get_player(1) is None
    # Inside JSON a NUL is just an escape sequence, and reads back.
    table = await store.create_table(ChannelLocation(1, 1), "truf", meta={"nul": "\x00"})
    got = await store.get_table(table.id)
    assert got is not None and got.meta == {"nul": "\x00"}
