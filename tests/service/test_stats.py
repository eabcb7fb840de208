"""Statistics, history, match records and the rating chart."""

from __future__ import annotations

import datetime as dt
import io
import random
from typing import Any

import pytest
from league_fixtures import (
    GUILD,
    T0,
    club_backend,
    club_schemas,
    club_store,
    club_url,
    store_match,
)
from PIL import Image

from bot.i18n import translator
from bot.ratings import rate_match
from bot.render import theme
from bot.stats import (
    MAX_PNG_BYTES,
    best_partnership,
    chart_texts,
    deal_values,
    guild_history,
    history_entry,
    load_match_record,
    player_history,
    player_stats,
    rating_chart_for,
    rating_chart_png,
)
from games.records import replay
from games.registry import GAMES
from storage import Store
from storage.models import PartnerStats, RatingHistoryEntry

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]

ARBAA_HEAD = {"format": "tricktable/1", "game": "arbaa_turub", "players": 4, "options": {}}
SHEET: list[dict[str, Any]] = [{"dealer": 0, "summary": {"tricks_by_team": [20, 16]}},
         {"summary": {"tricks_by_team": [22, 14]}}]


def minutes(k: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=k)


def test_best_partnership_needs_three_matches_and_prefers_win_rate() -> None:
    partners = [PartnerStats(3, None, 5, 1), PartnerStats(5, None, 3, 3),
                PartnerStats(7, None, 2, 2), PartnerStats(9, None, 3, 3)]
    best = best_partnership(partners)
    assert best is not None and best.user_id == 5  # 9 ties on rate and count: listed later
    assert best_partnership([PartnerStats(7, None, 2, 2)]) is None


def test_deal_values_by_side_and_by_seat() -> None:
    record = {**ARBAA_HEAD, "deals": SHEET}
    assert deal_values("arbaa_turub", record, 0, 0) == [20.0, 22.0]
    assert deal_values("arbaa_turub", record, 1, 3) == [16.0, 14.0]
    assert deal_values("arbaa_turub", {**record, "game": "nope"}, 0, 0) == []


def test_deal_values_of_a_played_truf_game_are_the_seats_tricks() -> None:
    info = GAMES["truf"]
    match = info.match_type(None, 4, 0, seed=3)
    rng = random.Random(3)
    tricks: list[list[int]] = []
    while not match.over:
        deal = match.start_deal()
        while not deal.is_over:
            seat = sorted(deal.to_act)[0]
            deal.apply(seat, rng.choice(deal.legal_actions(seat)))
        tricks.append(list(match.finish_deal()["tricks_by_seat"]))
    values = deal_values("truf", match.record(), 2, 2)
    assert values == [float(t[2]) for t in tricks] and len(values) == 13


async def test_player_stats(club_store: Store) -> None:
    # Player 1: with 3 five times (one win), with 5 three times (three wins).
    results = [(3, True), (3, False), (3, False), (3, False), (3, False),
               (5, True), (5, True), (5, True)]
    for k, (partner, won) in enumerate(results, start=1):
        m = await store_match(club_store, "arbaa_turub", [[1, partner], [2, 4]],
                              winner=0 if won else 1, totals=[2, 0] if won else [0, 2],
                              finished_at=minutes(k), record_head=ARBAA_HEAD, deals=SHEET)
        await rate_match(club_store, m)
    m = await store_match(club_store, "albastini", [[1], [2]], winner=None,
                          finished_at=minutes(20))
    await rate_match(club_store, m)
    await club_store.upsert_player(1, "Ann")
    stats = await player_stats(club_store, 1, GUILD)
    assert stats.display_name == "Ann"
    assert stats.matches == 9 and stats.wins == 4 and stats.win_rate == pytest.approx(4 / 9)
    by_game = {g.game: g for g in stats.games}
    arbaa = by_game["arbaa_turub"]
    assert (arbaa.matches, arbaa.wins, arbaa.losses, arbaa.deals) == (8, 4, 4, 16)
    assert arbaa.win_rate == 0.5
    assert arbaa.average == pytest.approx(21.0) and arbaa.average_label == "tricks"
    assert by_game["albastini"].draws == 1 and by_game["albastini"].average is None
    assert stats.most_frequent_partner is not None
    assert stats.most_frequent_partner.user_id == 3
    assert stats.best_partnership is not None and stats.best_partnership.user_id == 5
    opponent = await player_stats(club_store, 2, GUILD, game="arbaa_turub")
    assert [g.game for g in opponent.games] == ["arbaa_turub"]
    assert opponent.games[0].average == pytest.approx(15.0)


async def test_history_and_record(club_store: Store) -> None:
    first = await store_match(club_store, "arbaa_turub", [[1, 3], [2, None]], winner=0,
                              totals=[2, 0], finished_at=minutes(1), record_head=ARBAA_HEAD,
                              deals=SHEET)
    second = await store_match(club_store, "arbaa_turub", [[1, 3], [2, 4]], winner=1,
                               totals=[1, 2], finished_at=minutes(2))
    for m in (first, second):
        await rate_match(club_store, m)
    entries = await player_history(club_store, 1, GUILD, "arbaa_turub")
    assert [e.match_id for e in entries] == [second, first]
    assert entries[1].sides == [[1, 3], [2, None]] and entries[1].winners == [0]
    assert entries[1].result_text() == "**<@1> & <@3>** 2 – 0 <@2> & AI"
    assert entries[0].result_text() == "<@1> & <@3> 1 – 2 **<@2> & <@4>**"
    record = await load_match_record(club_store, first)
    assert record == {**ARBAA_HEAD, "deals": SHEET}
    out, status = replay(record)
    assert status == 0 and out["match"]["totals"] == [2, 0]
    assert await load_match_record(club_store, 999_999) is None
    assert [e.match_id for e in await guild_history(club_store, GUILD)] == [second, first]
    assert [e.match_id for e in await guild_history(club_store, GUILD, before_id=second)] == [
        first]
    assert await guild_history(club_store, GUILD, game="truf") == []
    assert await guild_history(club_store, GUILD + 1) == []


async def test_guild_history_lists_the_guilds_matches_with_their_results(
        club_store: Store) -> None:
    m = await store_match(club_store, "truf", [[1], [2], [3], [4]], winner=None,
                          winners=[1, 3], totals=[-4, 20, 3, 20])
    other = await store_match(club_store, "arbaa_turub", [[1, 3], [2, 4]], winner=0,
                              totals=[2, 0], finished_at=minutes(3))
    entries = await guild_history(club_store, GUILD, game="truf", limit=5)
    assert [e.match_id for e in entries] == [m]
    assert entries[0].winners == [1, 3]
    assert entries[0].result_text() == "<@1> · **<@2>** · <@3> · **<@4>** (-4 – 20 – 3 – 20)"
    assert [e.match_id for e in await guild_history(club_store, GUILD, limit=1)] == [other]
    assert [x.id for x in await club_store.list_matches(GUILD, user_id=4)] == [other, m]
    assert await club_store.list_matches(GUILD, user_id=5) == []
    listed = await club_store.list_matches(GUILD, game="arbaa_turub")
    assert [p.user_id for p in listed[0].participants] == [1, 2, 3, 4]
    found = await club_store.get_match(m)
    assert found is not None and history_entry(found).deals == 0


def _gold_rows(im: Image.Image, x: int) -> list[int]:
    rgb = im.convert("RGB")
    return [y for y in range(im.height) if rgb.getpixel((x, y)) == theme.GOLD]


def _entries(values: list[float]) -> list[RatingHistoryEntry]:
    """Newest first, as the store returns them."""
    out = [RatingHistoryEntry(i + 1, v + 6.0, 2.0, v, minutes(i)) for i, v in enumerate(values)]
    return out[::-1]


def test_chart_is_a_small_png_that_rises_with_the_rating() -> None:
    png = rating_chart_png(_entries([0.0, 2.0, 5.0, 9.0, 14.0]), "Ann — Turup")
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG_BYTES
    im = Image.open(io.BytesIO(png))
    assert im.size == (800, 400)
    left, right = _gold_rows(im, 70), _gold_rows(im, 800 - 24 - 1)
    assert left and right and min(right) < min(left)  # a higher rating is drawn higher


def test_chart_extremes_stay_small() -> None:
    wobbly = [((i * 37) % 23) - 11.0 for i in range(200)]
    for history in (_entries(wobbly), _entries([3.0]), []):
        png = rating_chart_png(history, "X" * 300)
        assert len(png) <= MAX_PNG_BYTES
        assert Image.open(io.BytesIO(png)).size == (800, 400)


async def test_chart_from_the_store(club_store: Store) -> None:
    for k in range(3):
        m = await store_match(club_store, "turup", [[1, 3], [2, 4]], winner=0,
                              finished_at=minutes(k))
        await rate_match(club_store, m)
    png = await rating_chart_for(club_store, 1, GUILD, "turup", title="Ann")
    im = Image.open(io.BytesIO(png))
    assert len(_gold_rows(im, 70)) > 0 and len(png) <= MAX_PNG_BYTES


def test_chart_words_speak_the_readers_language() -> None:
    history = _entries([0.0, 2.0, 5.0])
    english = chart_texts(history)
    assert english.legend == "gold: rating (mu − 3σ)   grey: mu"
    assert english.count.startswith("3 rated matches since ")
    assert english.empty == "no rated matches yet"
    for code in ("so", "id", "sw"):
        words = chart_texts(history, translator(code))
        assert words.legend != english.legend and "3σ" in words.legend, code
        assert "since" not in words.count and "3" in words.count.split(), code
        assert words.empty != english.empty, code
    assert chart_texts(history, translator("sw")).legend.startswith("dhahabu")
    png = rating_chart_png(history, "Ann — Turup", translator("so"))
    assert png.startswith(b"\x89PNG") and len(png) <= MAX_PNG_BYTES
