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

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bot.discord_bot.drawing.safe import clean_text, safe_name
from bot.i18n import N_, Translator
from bot.i18n.said import SaidError
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

WEEKDAYS: Final = (N_("Mondays"), N_("Tuesdays"), N_("Wednesdays"), N_("Thursdays"),
                   N_("Fridays"), N_("Saturdays"), N_("Sundays"))
"""A league's weekday as "every …" (``league_summary``)."""

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
    """Discord timestamp markup, shown in each reader's own time zone and language."""
    return f"<t:{int(when.timestamp())}:{style}>"


# -- leaderboard, stats, history ------------------------------------------------------


def leaderboard_title(board: Leaderboard, season_name: str | None, t: Translator) -> str:
    game = game_title(board.game)
    if season_name:
        return clip(t.gettext("{game} leaderboard — {season}").format(
            game=game, season=safe_name(season_name)), 256)
    return clip(t.gettext("{game} leaderboard — all time").format(game=game), 256)


def leaderboard_lines(board: Leaderboard, t: Translator) -> list[str]:
    """One line per row: rank, player (the name shown literally; the mention without a
    visible name), conservative rating (and mu, sigma), matches played, wins and win
    rate."""
    out = []
    for row in board.rows:
        name = safe_name(clip(row.display_name or "", 40)) or f"<@{row.user_id}>"
        out.append(t.gettext(
            "`#{rank}` **{player}** — **{rating}** (μ {mu}, σ {sigma}) · {played} played · "
            "{won} won · {rate}").format(
                rank=row.rank, player=name, rating=t.number(row.rating, decimals=1),
                mu=t.number(row.mu, decimals=1), sigma=t.number(row.sigma, decimals=1),
                played=t.number(row.matches), won=t.number(row.wins),
                rate=t.percent(row.win_rate)))
    return out


def leaderboard_footer(board: Leaderboard, t: Translator) -> str:
    return t.gettext("Page {page}/{pages} · {count} rated players · rating = μ − 3σ").format(
        page=board.page + 1, pages=board.pages, count=t.number(board.total))


def stats_lines(view: StatsView, t: Translator) -> list[tuple[str, str]]:
    """(field name, field value) per game of a player's statistics, then partners."""
    fields = []
    for line in view.games:
        value = t.gettext("{matches} matches · {won} won · {drawn} drawn · {lost} lost · "
                          "win rate {rate}").format(
            matches=t.number(line.matches), won=t.number(line.wins),
            drawn=t.number(line.draws), lost=t.number(line.losses),
            rate=t.percent(line.win_rate))
        deals = t.ngettext("{count} deal", "{count} deals", line.deals).format(
            count=t.number(line.deals))
        if line.average is not None:
            deals = t.gettext("{deals} · average {average} {label} per deal").format(
                deals=deals, average=t.number(line.average, decimals=1),
                label=t.gettext(line.average_label))
        fields.append((game_title(line.game), clip(f"{value}\n{deals}", FIELD_LIMIT)))
    if view.most_frequent_partner is not None:
        p = view.most_frequent_partner
        fields.append((t.gettext("Most frequent partner"),
                       t.gettext("{partner} — {matches} matches, {won} won").format(
                           partner=f"<@{p.user_id}>", matches=t.number(p.matches),
                           won=t.number(p.wins))))
    if view.best_partnership is not None:
        p = view.best_partnership
        rate = p.wins / p.matches if p.matches else 0.0
        fields.append((t.gettext("Best partnership"),
                       t.gettext("{partner} — win rate {rate} over {matches} matches").format(
                           partner=f"<@{p.user_id}>", rate=t.percent(rate),
                           matches=t.number(p.matches))))
    return fields


def history_title(game: str | None, player: str | None, t: Translator) -> str:
    """The ``/history`` embed title: the server's matches (of ``game``), or with ``player``
    (a display name; ``game`` then required) that player's rated matches of ``game``."""
    if player is not None and game is not None:
        return clip(t.gettext("Recent rated {game} matches of {player}").format(
            game=game_title(game), player=player), 256)
    if game:
        return clip(t.gettext("Recent matches of {game}").format(game=game_title(game)), 256)
    return t.gettext("Recent matches")


def history_footer(page: HistoryPage, t: Translator) -> str:
    """``Page 2 · matches 11–20 (newest first) · pick a match below for its record``."""
    return t.gettext("Page {page} · matches {first}–{last} (newest first) · pick a match "
                     "below for its record (JSON)").format(
        page=page.page + 1, first=page.first, last=page.last)


def history_line(entry: HistoryEntry, t: Translator) -> str:
    deals = t.ngettext("{count} deal", "{count} deals", entry.deals).format(
        count=t.number(entry.deals))
    line = t.gettext("`#{match}` {game} · {date} · {result} · {deals}").format(
        match=entry.match_id, game=game_title(entry.game),
        date=stamp(entry.finished_at, "d"), result=entry.result_text(), deals=deals)
    if not entry.rated:
        line = t.gettext("{line} · unrated").format(line=line)
    return clip(line, 300)


# -- leagues ----------------------------------------------------------------------------


STATUS_TEXT: Final[dict[str, str]] = {
    "scheduled": N_("scheduled"),
    "reported": N_("reported, awaiting confirmation"),
    "played": N_("played"),
    "forfeit": N_("forfeit"),
    "bye": N_("bye"),
    "void": N_("void"),
}
LEAGUE_STATUS: Final[dict[str, str]] = {
    "open": N_("open for entries"),
    "running": N_("running"),
    "finished": N_("finished"),
    "closed": N_("closed"),
}


def status_text(status: str, t: Translator) -> str:
    return t.gettext(STATUS_TEXT[status]) if status in STATUS_TEXT else status


def entrant_label(view: LeagueView, entrant_id: int | None, t: Translator) -> str:
    """A team's name (escaped: :meth:`LeagueView.label`), a single player's mention,
    ``bye`` for none."""
    if entrant_id is None:
        return t.gettext("bye")
    return view.label(entrant_id)


def fixture_line(view: LeagueView, fixture: Fixture, t: Translator) -> str:
    """``#12 · R1 · Aces vs Kings · <t:…:F> · scheduled`` (a bye: ``Aces has a bye``)."""
    status = status_text(fixture.status, t)
    home = entrant_label(view, fixture.home_entrant_id, t)
    if fixture.away_entrant_id is None:
        return t.gettext("`#{fixture}` R{round} · {home} has a bye · {status}").format(
            fixture=fixture.id, round=fixture.round, home=home, status=status)
    when = (stamp(fixture.scheduled_at) if fixture.scheduled_at is not None
            else t.gettext("no date"))
    line = t.gettext("`#{fixture}` R{round} · {home} vs {away} · {when} · {status}").format(
        fixture=fixture.id, round=fixture.round, home=home,
        away=entrant_label(view, fixture.away_entrant_id, t), when=when, status=status)
    if fixture.result is not None and fixture.status in ("played", "reported", "forfeit"):
        r = fixture.result
        score = (t.gettext("forfeit") if r.get("forfeit")
                 else f"{r.get('home_score', 0)}–{r.get('away_score', 0)}")
        line = f"{line} · {score}"
    return line


def fixture_choice_name(view: LeagueView, fixture: Fixture, t: Translator) -> str:
    """An autocomplete label (≤ 100 characters, no markup: names, not mentions; a name
    cleaned to one line of visible characters, :func:`~bot.text_safety.clean_text`)."""
    def plain(entrant_id: int | None) -> str:
        if entrant_id is None:
            return t.gettext("bye")
        e = view.entrants[entrant_id]
        return clean_text(e.name or "") or t.gettext("player {ids}").format(
            ids="/".join(str(m) for m in e.members))
    return clip(t.gettext("#{fixture} R{round}: {home} vs {away} ({status})").format(
        fixture=fixture.id, round=fixture.round, home=plain(fixture.home_entrant_id),
        away=plain(fixture.away_entrant_id), status=status_text(fixture.status, t)), 100)


def standings_lines(view: LeagueView, rows: Iterable[StandingRow], t: Translator
                    ) -> list[str]:
    out = []
    for row in rows:
        name = view.label(row.entrant_id)
        if row.entrant_id in view.withdrawn:
            name = t.gettext("{team} (withdrawn)").format(team=name)
        out.append(t.gettext(
            "`{rank}.` **{team}** — **{points} pts** · P{played} W{won} D{drawn} L{lost} · "
            "{scored}:{conceded} ({difference})").format(
                rank=row.rank, team=name, points=t.number(row.points), played=row.played,
                won=row.won, drawn=row.drawn, lost=row.lost, scored=row.score_for,
                conceded=row.score_against, difference=f"{row.difference:+d}"))
    return out


ROUND_ROBINS: Final = {"single": N_("single round robin"),
                       "double": N_("double round robin")}
"""A league's ``rounds`` as the reader's words (``league_summary``): every entrant meets
every other once, or twice (home and away)."""


def league_summary(view: LeagueView, t: Translator) -> str:
    """The league in one line: game, weekly slot, kind of round robin (worded, never the
    stored ``single``/``double``), status, channel and entrants."""
    league = view.league
    at = league.start_time
    entrants = len(view.entrants) - len(view.withdrawn)
    status = t.gettext(LEAGUE_STATUS[league.status]) if league.status in LEAGUE_STATUS \
        else league.status
    schedule = ROUND_ROBINS.get(league.rounds)
    # Translators: {weekday} is a plural day ("Mondays": every Monday), {time} e.g. 19:00, {zone} a
    # time zone such as Africa/Nairobi, {schedule} "single round robin" or "double round
    # robin", {status} e.g. "open for entries", {channel} a Discord channel link.
    return t.ngettext(
        "{game} · {weekday} at {time} ({zone}) · {schedule} · {status} · in "
        "{channel} · {count} entrant",
        "{game} · {weekday} at {time} ({zone}) · {schedule} · {status} · in "
        "{channel} · {count} entrants", entrants).format(
            game=game_title(league.game), weekday=t.gettext(WEEKDAYS[league.weekday]),
            time=f"{at.hour:02d}:{at.minute:02d}", zone=league.time_zone,
            schedule=t.gettext(schedule) if schedule else league.rounds, status=status,
            channel=f"<#{league.channel_id}>", count=t.number(entrants))


def result_sentence(view: LeagueView, fixture: Fixture, t: Translator) -> str:
    """``Aces 2–0 Kings (home win)`` for a reported or played fixture."""
    r = fixture.result or {}
    outcome = {"home": N_("home win"), "away": N_("away win"), "draw": N_("draw")}.get(
        str(r.get("outcome")))
    return t.gettext("{home} {home_score}–{away_score} {away} ({outcome})").format(
        home=view.label(fixture.home_entrant_id), home_score=r.get("home_score", 0),
        away_score=r.get("away_score", 0), away=view.label(fixture.away_entrant_id),
        outcome=t.gettext(outcome) if outcome else "?")


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
        raise ScoresheetError(N_("the scoresheet is empty"))
    if text[0] in "[{":
        try:
            data = load_json(text)
        except RecordError as exc:
            raise ScoresheetError(N_("the report cannot be read: {problem}"),
                                  problem=str(exc)) from None
        if isinstance(data, Mapping) and RECORD_FIELDS & data.keys():
            return ReportSheet(record=dict(data))
        return ReportSheet(*_json_deals(data))
    return ReportSheet(_compact_deals(game, text))


def _compact_deals(game: str, text: str) -> list[dict[str, Any]]:
    key = COMPACT_KEYS.get(game)
    if key is None:
        raise ScoresheetError(N_("{game} reports need the JSON form: a list of score-only "
                                 "deal summaries (see docs/records.md)"), game=game_title(game))
    deals: list[dict[str, Any]] = []
    for token in re.split(r"[\s,;]+", text):
        m = _TOKEN.match(token)
        if m is None or (m[3] and game != "turup"):
            if game == "turup":
                raise ScoresheetError(N_("cannot read {token}: write each deal as HOME-AWAY, "
                                         "e.g. 20-16 22-14 (a kort deal: 9-0:made or "
                                         "1-0:failed)"), token=safe_name(quote(token)))
            raise ScoresheetError(N_("cannot read {token}: write each deal as HOME-AWAY, "
                                     "e.g. 20-16 22-14"), token=safe_name(quote(token)))
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
        raise ScoresheetError(N_("this is a game record, not a scoresheet"))
    return sheet.deals, sheet.first_dealer


def sheet_size_problem(size: int) -> ScoresheetError | None:
    """Why a ``sheet`` file of ``size`` bytes is refused before it is downloaded, or None."""
    if size > SHEET_MAX_BYTES:
        return ScoresheetError(N_("the file is {size} KB; a scoresheet or game record may be "
                                  "at most {limit} KB"), size=-(-size // 1024),
                               limit=SHEET_MAX_BYTES // 1024)
    return None


def sheet_text(data: bytes) -> str:
    """The text of a downloaded ``sheet`` file: UTF-8 (a leading byte order mark, as some
    spreadsheet and Windows editors write, is dropped). Raises :class:`ScoresheetError` for
    a file over :data:`SHEET_MAX_BYTES` or one that is not UTF-8 text."""
    problem = sheet_size_problem(len(data))
    if problem is not None:
        raise problem
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScoresheetError(N_("the file is not UTF-8 text (byte {byte} cannot be read): "
                                 "save the scoresheet as plain text or JSON in UTF-8, e.g. "
                                 "{example} or a tricktable game record"),
                              byte=exc.start, example='"20-16 22-14"') from None


def _json_deals(data: Any) -> tuple[list[dict[str, Any]], int | None]:
    first_dealer: int | None = None
    if isinstance(data, Mapping):
        raw_dealer = data.get("first_dealer")
        if raw_dealer is not None:
            if not isinstance(raw_dealer, int) or isinstance(raw_dealer, bool):
                raise ScoresheetError(N_("first_dealer must be a seat number"))
            first_dealer = raw_dealer
        data = data.get("deals")
    if not isinstance(data, list) or not data:
        raise ScoresheetError(N_("the JSON scoresheet must be a non-empty list of deal "
                                 "summaries, or an object with a {deals} list"),
                              deals='"deals"')
    deals = []
    for index, item in enumerate(data, start=1):
        if isinstance(item, Mapping) and isinstance(item.get("summary"), Mapping):
            item = item["summary"]
        if not isinstance(item, Mapping):
            raise ScoresheetError(N_("deal {number} is not an object"), number=index)
        deals.append(dict(item))
    return deals, first_dealer
