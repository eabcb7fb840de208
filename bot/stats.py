"""Player statistics, match history and the rating-history chart (no Discord).

* :func:`player_stats` — matches, wins, draws, losses, deals, win rate per game; the most
  frequent partner and the best partnership; the average tricks or points per deal.
* :func:`rating_chart` / :func:`rating_chart_png` — the rating after each rated match as a
  PNG line chart (800×400, the shipped font, the render theme's palette: a few tens of KB,
  always under :data:`MAX_PNG_BYTES`); the words drawn into it (:func:`chart_texts`: the
  legend, the count, "no rated matches yet") in the reader's language.
* :func:`player_history`, :func:`guild_history`, :func:`match_record` — recent matches with
  their result, and the full record JSON of one (``/table export``-compatible);
  :func:`history_page` — one page of either list, as ``/history`` pages it.

Choices:

* **Average per deal** is over the player's last :data:`AVERAGE_OVER` rated matches of the
  game (the store lists a player's matches only through the rating history): each match's
  record is replayed and the player's side's value is averaged over its deals — tricks in
  Arba'a Turub, Turup and Truf (the player's own tricks in Truf), card points in Tarabish,
  points in Albastini.
* **Best partnership**: the partner with the highest win rate among those with at least
  :data:`MIN_PARTNER_MATCHES` matches together (ties: more matches, then the most frequent),
  chosen among the store's ``player_partners`` list (the 10 most frequent partners).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from bot.i18n import N_, Translator, ngettext_noop, translator
from bot.render import theme
from games.records import replay
from storage.base import Store
from storage.models import GameStats, Match, MatchChannels, PartnerStats, RatingHistoryEntry

AVERAGE_OVER: Final = 10
MIN_PARTNER_MATCHES: Final = 3
MAX_PNG_BYTES: Final = 200_000

METRICS: Final[dict[str, tuple[str, str, str]]] = {
    "arbaa_turub": (N_("tricks"), "tricks_by_team", "team"),
    "turup": (N_("tricks"), "tricks_by_team", "team"),
    "tarabish": (N_("card points"), "card_points_by_team", "team"),
    "albastini": (N_("points"), "points_by_side", "team"),
    "truf": (N_("tricks"), "tricks_by_seat", "seat"),
}
"""Per game: (label, deal summary key, indexed by "team" or "seat")."""


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game's figures for a player."""

    game: str
    matches: int
    wins: int
    draws: int
    losses: int
    deals: int
    average: float | None
    """Average tricks or points per deal (None: no replayable rated match)."""
    average_label: str

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class StatsView:
    user_id: int
    display_name: str | None
    games: list[GameLine]
    most_frequent_partner: PartnerStats | None
    best_partnership: PartnerStats | None

    @property
    def matches(self) -> int:
        return sum(g.matches for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)

    @property
    def deals(self) -> int:
        return sum(g.deals for g in self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


def best_partnership(partners: Sequence[PartnerStats]) -> PartnerStats | None:
    """See the module docstring; ``partners`` most frequent first."""
    eligible = [p for p in partners if p.matches >= MIN_PARTNER_MATCHES]
    if not eligible:
        return None
    return max(eligible, key=lambda p: (p.wins / p.matches, p.matches,
                                        -partners.index(p)))


def match_record(match: Match, deals: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The full record JSON (``docs/records.md``) of a stored table match."""
    head = match.result.get("record_head")
    if not isinstance(head, Mapping):
        raise ValueError(f"match {match.id} has no stored record")
    return {**head, "deals": [dict(d) for d in deals]}


async def load_match_record(store: Store, match_id: int) -> dict[str, Any] | None:
    """The record JSON of a match, or None if there is no such match (or no record)."""
    match = await store.get_match(match_id)
    if match is None:
        return None
    deals = [d.record for d in await store.load_deals(match_id)]
    try:
        return match_record(match, deals)
    except ValueError:
        return None


def deal_values(game: str, record: Mapping[str, Any], side: int, seat: int) -> list[float]:
    """The player's tricks or points in each deal of a record (empty if it does not
    replay)."""
    metric = METRICS.get(game)
    if metric is None:
        return []
    _, key, by = metric
    out, status = replay(record)
    if status != 0:
        return []
    index = side if by == "team" else seat
    values: list[float] = []
    for deal in out["deals"]:
        series = deal.get(key)
        if isinstance(series, list) and index < len(series):
            values.append(float(series[index]))
    return values


async def _average(store: Store, user_id: int, guild_id: int, game: str) -> float | None:
    history = await store.rating_history(user_id, guild_id, game, limit=AVERAGE_OVER)
    values: list[float] = []
    for entry in history:
        match = await store.get_match(entry.match_id)
        if match is None:
            continue
        me = next((p for p in match.participants if p.user_id == user_id), None)
        record = await load_match_record(store, entry.match_id)
        if me is None or record is None:
            continue
        values += await asyncio.to_thread(deal_values, game, record, me.team, me.seat)
    return sum(values) / len(values) if values else None


async def player_stats(
    store: Store, user_id: int, guild_id: int, *, game: str | None = None
) -> StatsView:
    """A player's statistics in a guild (one game, or every game they played)."""
    raw = await store.player_stats(user_id, guild_id=guild_id)
    rows: list[GameStats] = [g for g in raw.games if game is None or g.game == game]
    lines = []
    for g in rows:
        average = await _average(store, user_id, guild_id, g.game)
        label = METRICS.get(g.game, (N_("points"), "", ""))[0]
        lines.append(GameLine(g.game, g.matches, g.wins, g.draws, g.losses, g.deals,
                              average, label))
    partners = await store.player_partners(user_id, guild_id=guild_id, game=game)
    return StatsView(user_id, raw.display_name, lines, partners[0] if partners else None,
                     best_partnership(partners))


# -- history ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    match_id: int
    """Pass to :func:`load_match_record` for the record (``/history`` "record" button)."""
    game: str
    finished_at: dt.datetime
    deals: int
    rated: bool
    sides: list[list[int | None]]
    """User ids per side (team index order); None is an AI seat."""
    totals: list[Any]
    winners: list[int]
    """Winning side indexes (empty: a draw)."""
    channel_id: int | None = None
    """Where it was played (:attr:`storage.models.Match.channel_id`; None: unknown)."""

    def result_text(self) -> str:
        """e.g. ``<@1> & <@3> 2 – 0 <@2> & AI`` with the winners in bold."""
        parts = []
        for index, side in enumerate(self.sides):
            names = " & ".join("AI" if u is None else f"<@{u}>" for u in side)
            parts.append(f"**{names}**" if index in self.winners else names)
        score = " – ".join(str(t) for t in self.totals)
        if len(parts) == 2:
            return f"{parts[0]} {score} {parts[1]}"
        return " · ".join(parts) + (f" ({score})" if score else "")


def history_entry(match: Match) -> HistoryEntry:
    summary = match.result.get("summary", match.result)
    sides: dict[int, list[int | None]] = {}
    for p in sorted(match.participants, key=lambda p: p.seat):
        sides.setdefault(p.team, []).append(p.user_id)
    winners_raw = summary.get("winners")
    if isinstance(winners_raw, list):
        winners = [int(w) for w in winners_raw]
    elif summary.get("winner") is not None:
        winners = [int(summary["winner"])]
    else:
        winners = []
    totals = summary.get("totals")
    return HistoryEntry(match.id, match.game, match.finished_at, match.deal_count, match.rated,
                        [sides[t] for t in sorted(sides)],
                        list(totals) if isinstance(totals, list) else [], winners,
                        match.channel_id)


async def player_history(
    store: Store, user_id: int, guild_id: int, game: str, *, limit: int = 10,
    offset: int = 0, channels: MatchChannels | None = None,
) -> list[HistoryEntry]:
    """The player's last rated matches of ``game`` in the guild, newest first (by finish
    time), with ``channels`` only those it admits; ``offset`` skips that many of the newest
    first."""
    out = []
    for entry in await store.rating_history(user_id, guild_id, game, limit=limit,
                                            offset=offset, channels=channels):
        match = await store.get_match(entry.match_id)
        if match is not None:
            out.append(history_entry(match))
    return out


async def guild_history(
    store: Store, guild_id: int, *, game: str | None = None, limit: int = 10,
    before_id: int | None = None, offset: int = 0, channels: MatchChannels | None = None,
) -> list[HistoryEntry]:
    """The guild's recent matches, newest first (by id), with ``channels`` only those it
    admits; ``before_id`` pages back by keyset (ids below it), ``offset`` by skipping that
    many of the newest first."""
    matches = await store.list_matches(guild_id, game=game, limit=limit, before_id=before_id,
                                       offset=offset, channels=channels)
    return [history_entry(m) for m in matches]


HISTORY_PAGE_SIZE: Final = 10
MAX_HISTORY_PAGE: Final = 9999
"""The last page :func:`history_page` reads (0-based): 100,000 matches back."""


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a ``/history`` list: ``entries`` are matches number
    ``first`` … ``first + len(entries) - 1`` counted from the newest (1-based)."""

    entries: list[HistoryEntry]
    page: int
    """0-based; page 0 holds the newest matches."""
    per_page: int
    has_older: bool
    """Whether at least one match follows this page (its **Older** button is enabled)."""

    @property
    def has_newer(self) -> bool:
        """Whether a page precedes this one (its **Newer** button is enabled)."""
        return self.page > 0

    @property
    def first(self) -> int:
        return self.page * self.per_page + 1

    @property
    def last(self) -> int:
        return self.page * self.per_page + len(self.entries)


async def history_page(
    store: Store, guild_id: int, *, game: str | None = None, user_id: int | None = None,
    page: int = 0, per_page: int = HISTORY_PAGE_SIZE, channels: MatchChannels | None = None,
) -> HistoryPage:
    """Page ``page`` (0-based, at most :data:`MAX_HISTORY_PAGE`) of the guild's matches
    (:func:`guild_history`, optionally of one ``game``) or, with ``user_id``, of that
    player's rated matches of ``game`` (:func:`player_history`; ``game`` is then required),
    newest first, ``per_page`` (1–99) a page; with ``channels`` (the reader's, see
    :class:`~storage.models.MatchChannels`) only the matches it admits, filtered in the
    query so that every page is full and ``has_older`` is right.

    Offset paging: page ``p`` skips the ``p * per_page`` newest matches, so a match that
    finishes between two reads shifts the later pages by one (an entry may show twice).
    An empty page past the end has ``entries == []`` and ``has_older`` False. Raises
    ValueError for a page or page size out of range, or ``user_id`` without ``game``."""
    if not 0 <= page <= MAX_HISTORY_PAGE:
        raise ValueError(f"history page must be 0–{MAX_HISTORY_PAGE}, not {page}")
    if not 1 <= per_page <= 99:
        raise ValueError(f"history page size must be 1–99, not {per_page}")
    offset = page * per_page
    if user_id is not None:
        if game is None:
            raise ValueError("a player's history needs a game")
        entries = await player_history(store, user_id, guild_id, game, limit=per_page + 1,
                                       offset=offset, channels=channels)
    else:
        entries = await guild_history(store, guild_id, game=game, limit=per_page + 1,
                                      offset=offset, channels=channels)
    return HistoryPage(entries[:per_page], page, per_page, len(entries) > per_page)


# -- the rating chart ------------------------------------------------------------------

WIDTH, HEIGHT = 800, 400
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 24, 56, 48


NO_RATED_MATCHES: Final = N_("no rated matches yet")
RATED_SINCE: Final = ngettext_noop("{count} rated match since {date}",
                                   "{count} rated matches since {date}")
# Translators: the legend under the rating chart: the gold line is the rating shown on the
# leaderboard (mu − 3σ), the grey line is mu (the estimated skill). Keep "mu" and "3σ".
LEGEND: Final = N_("gold: rating (mu − 3σ)   grey: mu")


@dataclass(frozen=True, slots=True)
class ChartTexts:
    """The words drawn into the rating chart, in the reader's language."""

    empty: str
    """Shown instead of the lines when there is no rated match."""
    count: str
    """Under the chart, on the left: ``5 rated matches since 2026-01-31``."""
    legend: str
    """Under the chart, on the right: which line is which."""


def chart_texts(history: Sequence[RatingHistoryEntry], t: Translator | None = None
                ) -> ChartTexts:
    """The chart's words for ``history`` in ``t``'s language (English without one)."""
    t = t or translator("en")
    points = sorted(history, key=lambda e: (e.finished_at, e.match_id))
    count = ""
    if points:
        count = t.ngettext(*RATED_SINCE, len(points)).format(
            count=t.number(len(points)), date=f"{points[0].finished_at:%Y-%m-%d}")
    return ChartTexts(t.gettext(NO_RATED_MATCHES), count, t.gettext(LEGEND))


def rating_chart(history: Sequence[RatingHistoryEntry], title: str,
                 t: Translator | None = None) -> Image.Image:
    """The chart: the conservative rating (gold, the leaderboard value) and mu (grey) after
    each rated match, oldest on the left. ``history`` as the store gives it (newest first);
    its words (:func:`chart_texts`) in ``t``'s language, English without one.
    """
    points = sorted(history, key=lambda e: (e.finished_at, e.match_id))
    words = chart_texts(points, t)
    im = Image.new("RGB", (WIDTH, HEIGHT), theme.BACKGROUND)
    draw = ImageDraw.Draw(im)
    draw.text((_LEFT, 14), theme.fit_text(title, 24, WIDTH - _LEFT - _RIGHT),
              font=theme.font(24), fill=theme.TEXT)
    x0, x1, y0, y1 = _LEFT, WIDTH - _RIGHT, _TOP, HEIGHT - _BOTTOM
    if not points:
        draw.text((x0, (y0 + y1) // 2), words.empty, font=theme.font(22),
                  fill=theme.MUTED)
        return im
    values = [e.conservative for e in points] + [e.mu for e in points]
    low, high = min(values), max(values)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad

    def y_of(v: float) -> float:
        return y1 - (v - low) / (high - low) * (y1 - y0)

    def x_of(i: int) -> float:
        return x0 + (x1 - x0) * (i / (len(points) - 1) if len(points) > 1 else 0.5)

    small = theme.font(16)
    for k in range(5):
        v = low + (high - low) * k / 4
        y = y_of(v)
        draw.line([(x0, y), (x1, y)], fill=theme.PLATE_EDGE, width=1)
        draw.text((8, y - 9), f"{v:.1f}", font=small, fill=theme.MUTED)
    half = (x1 - x0) // 2 - 8
    draw.text((x0, y1 + 12), theme.fit_text(words.count, 16, half), font=small,
              fill=theme.MUTED)
    legend = theme.fit_text(words.legend, 16, half)
    draw.text((x1 - small.getlength(legend), y1 + 12), legend, font=small, fill=theme.MUTED)
    for series, colour in (([e.mu for e in points], theme.MUTED),
                           ([e.conservative for e in points], theme.GOLD)):
        xy = [(x_of(i), y_of(v)) for i, v in enumerate(series)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=4, joint="curve")
        if len(xy) <= 40:
            for x, y in xy:
                draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=colour)
    return im


def rating_chart_png(history: Sequence[RatingHistoryEntry], title: str,
                     t: Translator | None = None) -> bytes:
    """:func:`rating_chart` as PNG bytes (≤ :data:`MAX_PNG_BYTES`)."""
    return theme.encode_png(rating_chart(history, title, t))


async def rating_chart_for(
    store: Store, user_id: int, guild_id: int, game: str, *, title: str,
    season_id: int | None = None, limit: int = 100, t: Translator | None = None,
) -> bytes:
    """Read the player's rating history and draw it (``/stats`` chart), its words in
    ``t``'s language."""
    history = await store.rating_history(user_id, guild_id, game, season_id=season_id,
                                         limit=limit)
    return await asyncio.to_thread(rating_chart_png, history, title, t)
