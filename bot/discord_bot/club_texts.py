"""Texts of the club commands (leaderboard, stats, history, leagues), kept free of discord
so they can be tested alone, and the compact scoresheet form of ``/league report``.

Discord's limits these helpers respect (the callers page with :func:`pages_of`):
message content 2,000 characters; an embed description 4,096, a field value 1,024, an
embed's title 256 and all of a message's embeds 6,000 together.

**The scoresheet of ``/league report``** (the ``result`` option, or the ``sheet`` file):

* the compact form, one deal per token, separated by spaces, commas or semicolons:
  ``HOME-AWAY`` — the home side's (team 0: seats 0 and 2, or seat 0) and the away side's
  figure of the deal, i.e. tricks in Arba'a Turub and Turup (``tricks_by_team``), points
  in Albastini (``points_by_side``). A Turup deal decided by a kort adds ``:made`` or
  ``:failed`` (``9-0:made``, ``1-0:failed``). Example: ``20-16 22-14``.
* the JSON form, for every game (Tarabish needs it: its deals carry the caller, runs and
  bella): a list of score-only deal summaries as in ``docs/records.md``
  (``[{"tricks_by_team": [20, 16]}, {"tricks_by_team": [22, 14]}]``), or an object
  ``{"first_dealer": 1, "deals": [...]}`` whose deals are summaries or ``{"summary": …}``.
* a full game record (``docs/records.md``: a JSON object with a ``format`` or ``game``
  field, as ``/history`` and ``/table export`` hand out), validated by the report itself
  (:func:`bot.leagues.reports.report_record`).

:func:`read_report` reads any of these; the same text may come from the ``sheet`` file
(:func:`sheet_size_problem` before the download, :func:`sheet_text` after it: at most
:data:`SHEET_MAX_BYTES`, UTF-8).
"""

from __future__ import annotations

from bot.i18n.said import SaidError

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bot.discord_bot.safe import safe_name
from bot.leagues.service import LeagueView
from bot.leagues.standings import StandingRow
from bot.ratings import Leaderboard
from bot.stats import HistoryEntry, HistoryPage, StatsView
from games.errors import RecordError, quote
from games.records import load_json
from games.registry import GAMES
from storage.models import Fixture

CONTENT_LIMIT: Final = 2000
DESCRIPTION_LIMIT: Final = 4096
FIELD_LIMIT: Final = 1024
PAGE_CHARS: Final = 3800
"""Characters of list lines per embed page (under the description limit, with room for
the rest of the embed inside the 6,000 total)."""

WEEKDAYS: Final = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                   "Sunday")

COMPACT_KEYS: Final[dict[str, str]] = {
    "arbaa_turub": "tricks_by_team",
    "turup": "tricks_by_team",
    "albastini": "points_by_side",
}
"""Games with a compact scoresheet form → the deal summary key of its ``HOME-AWAY`` pair."""

_TOKEN = re.compile(r"^(\d{1,9})-(\d{1,9})(?::(made|failed))?$")
"""A deal of the compact form; a figure has at most nine digits (a longer one is no
score, and ``int`` refuses thousands of digits)."""


class ScoresheetError(SaidError, ValueError):
    """The ``result`` text of a report cannot be read (message for the user)."""


def game_title(game: str) -> str:
    info = GAMES.get(game)
    return info.title if info is not None else game


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pages_of(lines: Sequence[str], max_chars: int = PAGE_CHARS) -> list[list[str]]:
    """Split lines into pages of at most ``max_chars`` characters (newlines counted); a
    longer line is clipped. Always at least one (possibly empty) page."""
    pages: list[list[str]] = [[]]
    size = 0
    for raw in lines:
        line = clip(raw, max_chars)
        extra = len(line) + (1 if pages[-1] else 0)
        if pages[-1] and size + extra > max_chars:
            pages.append([])
            size, extra = 0, len(line)
        pages[-1].append(line)
        size += extra
    return pages


def stamp(when: dt.datetime, style: str = "F") -> str:
    """Discord timestamp markup, shown in each reader's own time zone."""
    return f"<t:{int(when.timestamp())}:{style}>"


def percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


# -- leaderboard, stats, history ------------------------------------------------------


def leaderboard_title(board: Leaderboard, season_name: str | None) -> str:
    where = f" — {season_name}" if season_name else " — all time"
    return clip(f"{game_title(board.game)} leaderboard{where}", 256)


def leaderboard_lines(board: Leaderboard) -> list[str]:
    """One line per row: rank, player, conservative rating (and mu, sigma), matches played,
    wins and win rate."""
    out = []
    for row in board.rows:
        name = safe_name(clip(row.display_name, 40)) if row.display_name else f"<@{row.user_id}>"
        out.append(f"`#{row.rank}` **{name}** — **{row.rating:.1f}** "
                   f"(μ {row.mu:.1f}, σ {row.sigma:.1f}) · {row.matches} played · "
                   f"{row.wins} won · {percent(row.win_rate)}")
    return out


def leaderboard_footer(board: Leaderboard) -> str:
    return (f"Page {board.page + 1}/{board.pages} · {board.total} rated players · "
            "rating = μ − 3σ")


def stats_lines(view: StatsView) -> list[tuple[str, str]]:
    """(field name, field value) per game of a player's statistics, then partners."""
    fields = []
    for line in view.games:
        value = (f"{line.matches} matches · {line.wins} won · {line.draws} drawn · "
                 f"{line.losses} lost · win rate {percent(line.win_rate)}\n"
                 f"{line.deals} deals")
        if line.average is not None:
            value += f" · average {line.average:.1f} {line.average_label} per deal"
        fields.append((game_title(line.game), clip(value, FIELD_LIMIT)))
    if view.most_frequent_partner is not None:
        p = view.most_frequent_partner
        fields.append(("Most frequent partner",
                       f"<@{p.user_id}> — {p.matches} matches, {p.wins} won"))
    if view.best_partnership is not None:
        p = view.best_partnership
        rate = p.wins / p.matches if p.matches else 0.0
        fields.append(("Best partnership",
                       f"<@{p.user_id}> — win rate {percent(rate)} over {p.matches} "
                       "matches"))
    return fields


def history_title(game: str | None, player: str | None = None) -> str:
    """The ``/history`` embed title: the server's matches (of ``game``), or with ``player``
    (a display name; ``game`` then required) that player's rated matches of ``game``."""
    if player is not None and game is not None:
        return clip(f"Recent rated {game_title(game)} matches of {player}", 256)
    return clip("Recent matches" + (f" of {game_title(game)}" if game else ""), 256)


def history_footer(page: HistoryPage) -> str:
    """``Page 2 · matches 11–20 (newest first) · pick a match below for its record``."""
    return (f"Page {page.page + 1} · matches {page.first}–{page.last} (newest first) · "
            "pick a match below for its record (JSON)")


def history_line(entry: HistoryEntry) -> str:
    rated = "" if entry.rated else " · unrated"
    return clip(f"`#{entry.match_id}` {game_title(entry.game)} · "
                f"{stamp(entry.finished_at, 'd')} · {entry.result_text()} · "
                f"{entry.deals} deal{'s' if entry.deals != 1 else ''}{rated}", 300)


# -- leagues ----------------------------------------------------------------------------


STATUS_TEXT: Final[dict[str, str]] = {
    "scheduled": "scheduled",
    "reported": "reported, awaiting confirmation",
    "played": "played",
    "forfeit": "forfeit",
    "bye": "bye",
    "void": "void",
}


def fixture_line(view: LeagueView, fixture: Fixture) -> str:
    """``#12 · R1 · Aces vs Kings · <t:…:F> · scheduled`` (a bye: ``Aces has a bye``)."""
    when = stamp(fixture.scheduled_at) if fixture.scheduled_at is not None else "no date"
    if fixture.away_entrant_id is None:
        return (f"`#{fixture.id}` R{fixture.round} · {view.label(fixture.home_entrant_id)} "
                f"has a bye · {STATUS_TEXT.get(fixture.status, fixture.status)}")
    result = ""
    if fixture.result is not None and fixture.status in ("played", "reported", "forfeit"):
        r = fixture.result
        score = f"{r.get('home_score', 0)}–{r.get('away_score', 0)}"
        result = " · forfeit" if r.get("forfeit") else f" · {score}"
    return (f"`#{fixture.id}` R{fixture.round} · {view.label(fixture.home_entrant_id)} vs "
            f"{view.label(fixture.away_entrant_id)} · {when} · "
            f"{STATUS_TEXT.get(fixture.status, fixture.status)}{result}")


def fixture_choice_name(view: LeagueView, fixture: Fixture) -> str:
    """An autocomplete label (≤ 100 characters, no markup: names, not mentions)."""
    def plain(entrant_id: int | None) -> str:
        if entrant_id is None:
            return "bye"
        e = view.entrants[entrant_id]
        return e.name or "player " + "/".join(str(m) for m in e.members)
    return clip(f"#{fixture.id} R{fixture.round}: {plain(fixture.home_entrant_id)} vs "
                f"{plain(fixture.away_entrant_id)} ({fixture.status})", 100)


def standings_lines(view: LeagueView, rows: Iterable[StandingRow]) -> list[str]:
    out = []
    for row in rows:
        gone = " (withdrawn)" if row.entrant_id in view.withdrawn else ""
        out.append(f"`{row.rank}.` **{view.label(row.entrant_id)}**{gone} — "
                   f"**{row.points} pts** · P{row.played} W{row.won} D{row.drawn} "
                   f"L{row.lost} · {row.score_for}:{row.score_against} "
                   f"({row.difference:+d})")
    return out


def league_summary(view: LeagueView) -> str:
    league = view.league
    t = league.start_time
    return (f"{game_title(league.game)} · {WEEKDAYS[league.weekday]}s at "
            f"{t.hour:02d}:{t.minute:02d} ({league.time_zone}) · {league.rounds} round "
            f"robin · {league.status} · in <#{league.channel_id}> · "
            f"{len(view.entrants) - len(view.withdrawn)} entrants")


def result_sentence(view: LeagueView, fixture: Fixture) -> str:
    """``Aces 2–0 Kings (home win)`` for a reported or played fixture."""
    r = fixture.result or {}
    outcome = {"home": "home win", "away": "away win", "draw": "draw"}.get(
        str(r.get("outcome")), "?")
    return (f"{view.label(fixture.home_entrant_id)} {r.get('home_score', 0)}–"
            f"{r.get('away_score', 0)} {view.label(fixture.away_entrant_id)} ({outcome})")


# -- the scoresheet ---------------------------------------------------------------------


SHEET_MAX_BYTES: Final = 256 * 1024
"""The largest ``sheet`` file of ``/league report`` (a long match's full record is well
under it: an Arba'a Turub deal with every card played is about 8 KB)."""

RECORD_FIELDS: Final = frozenset({"format", "game"})
"""A JSON object with one of these fields is a game record, not a scoresheet."""


@dataclass(frozen=True)
class ReportSheet:
    """What the text of a report holds: score-only ``deals`` (in order) with the
    ``first_dealer`` if the text names one, or else (``record`` not None) a full game
    record (``docs/records.md``), not yet validated."""

    deals: list[dict[str, Any]] = field(default_factory=list)
    first_dealer: int | None = None
    record: dict[str, Any] | None = None


def read_report(game: str, text: str) -> ReportSheet:
    """Read the text of a report (the ``result`` option or the ``sheet`` file): a JSON
    object with a ``format`` or ``game`` field is a game record; anything else is a
    scoresheet in one of the forms of the module docstring. JSON is read by the engine's
    one parser (:func:`games.records.load_json`: bad syntax, nesting too deep or a number
    of thousands of digits is one short message) and refused input is quoted clipped
    (:func:`games.errors.quote`). Raises :class:`ScoresheetError` for text that is
    neither."""
    text = text.strip()
    if not text:
        raise ScoresheetError("the scoresheet is empty")
    if text[0] in "[{":
        try:
            data = load_json(text)
        except RecordError as exc:
            raise ScoresheetError(f"the report cannot be read: {exc}") from None
        if isinstance(data, Mapping) and RECORD_FIELDS & data.keys():
            return ReportSheet(record=dict(data))
        return ReportSheet(*_json_deals(data))
    return ReportSheet(_compact_deals(game, text))


def _compact_deals(game: str, text: str) -> list[dict[str, Any]]:
    key = COMPACT_KEYS.get(game)
    if key is None:
        raise ScoresheetError(f"{game_title(game)} reports need the JSON form: a list of "
                              "score-only deal summaries (see docs/records.md)")
    deals: list[dict[str, Any]] = []
    for token in re.split(r"[\s,;]+", text):
        m = _TOKEN.match(token)
        if m is None or (m[3] and game != "turup"):
            raise ScoresheetError(f"cannot read {quote(token)}: write each deal as "
                                  "HOME-AWAY, e.g. 20-16 22-14"
                                  + (" (a kort deal: 9-0:made or 1-0:failed)"
                                     if game == "turup" else ""))
        deal: dict[str, Any] = {key: [int(m[1]), int(m[2])]}
        if m[3]:
            deal["kort"] = m[3]
        deals.append(deal)
    return deals


def parse_scoresheet(game: str, text: str) -> tuple[list[dict[str, Any]], int | None]:
    """The deals (score-only summaries, in order) and the first dealer if the text names
    one. See the module docstring for the forms. Raises :class:`ScoresheetError`, also
    for a game record (:func:`read_report` reads both)."""
    sheet = read_report(game, text)
    if sheet.record is not None:
        raise ScoresheetError("this is a game record, not a scoresheet")
    return sheet.deals, sheet.first_dealer


def sheet_size_problem(size: int) -> str | None:
    """Why a ``sheet`` file of ``size`` bytes is refused before it is downloaded, or None."""
    if size > SHEET_MAX_BYTES:
        return (f"the file is {-(-size // 1024)} KB; a scoresheet or game record may be at "
                f"most {SHEET_MAX_BYTES // 1024} KB")
    return None


def sheet_text(data: bytes) -> str:
    """The text of a downloaded ``sheet`` file: UTF-8 (a leading byte order mark, as some
    spreadsheet and Windows editors write, is dropped). Raises :class:`ScoresheetError` for
    a file over :data:`SHEET_MAX_BYTES` or one that is not UTF-8 text."""
    problem = sheet_size_problem(len(data))
    if problem is not None:
        raise ScoresheetError(problem)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScoresheetError(f"the file is not UTF-8 text (byte {exc.start} cannot be "
                              "read): save the scoresheet as plain text or JSON in UTF-8, "
                              "e.g. \"20-16 22-14\" or a tricktable game record") from None


def _json_deals(data: Any) -> tuple[list[dict[str, Any]], int | None]:
    first_dealer: int | None = None
    if isinstance(data, Mapping):
        raw_dealer = data.get("first_dealer")
        if raw_dealer is not None:
            if not isinstance(raw_dealer, int) or isinstance(raw_dealer, bool):
                raise ScoresheetError("first_dealer must be a seat number")
            first_dealer = raw_dealer
        data = data.get("deals")
    if not isinstance(data, list) or not data:
        raise ScoresheetError("the JSON scoresheet must be a non-empty list of deal "
                              "summaries, or an object with a \"deals\" list")
    deals = []
    for index, item in enumerate(data, start=1):
        if isinstance(item, Mapping) and isinstance(item.get("summary"), Mapping):
            item = item["summary"]
        if not isinstance(item, Mapping):
            raise ScoresheetError(f"deal {index} is not an object")
        deals.append(dict(item))
    return deals, first_dealer
