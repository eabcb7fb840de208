"""Round-robin pairings (circle method) and weekly kick-off times in a league's time zone.

Pure functions: no store, no clock.

* :func:`round_robin` pairs ``n`` entrants so that each meets every other exactly once per
  leg; with an odd ``n`` a placeholder joins and whoever meets it has a bye that round
  (each entrant exactly one bye per leg). A double round robin plays the same rounds again
  with home and away swapped.
* :func:`weekly_times` gives one kick-off per round: the same local weekday and time each
  week in the league's IANA zone, converted to UTC. Across a daylight-saving change the
  local time stays put and the UTC time moves (e.g. Europe/Berlin 19:00 is 18:00 UTC in
  winter, 17:00 UTC in summer). A local time that does not exist on that day (the spring
  gap) is taken with ``fold=0``, i.e. shifted forward by the gap; an ambiguous one (the
  autumn overlap) is its first occurrence.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from zoneinfo import ZoneInfo

from storage.models import Rounds

Pairing = tuple[int, int | None]
"""(home, away); away None is a bye for home."""


def round_robin(entrants: Sequence[int], rounds: Rounds = "single") -> list[list[Pairing]]:
    """Rounds of pairings by the circle method.

    The first entrant (with an odd count, the bye placeholder) stays fixed and the others
    rotate one place per round; the fixed one's pair alternates home and away by round, the
    other pairs by position. Each entrant's home games per leg differ by at most one from
    anyone else's (none at all with an odd count). A bye is listed as ``(entrant, None)`` at
    the end of its round.
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if len(entrants) < 2:
        return []
    ids: list[int | None] = list(entrants)
    if len(ids) % 2:
        ids.insert(0, None)  # the placeholder stays fixed: home games balance exactly
    n = len(ids)
    fixed, ring = ids[0], ids[1:]
    legs: list[list[Pairing]] = []
    for r in range(n - 1):
        line = [fixed, *ring]
        pairs: list[tuple[int | None, int | None]] = []
        for i in range(n // 2):
            a, b = line[i], line[n - 1 - i]
            if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
                a, b = b, a
            pairs.append((a, b))
        played: list[Pairing] = []
        byes: list[Pairing] = []
        for a, b in pairs:
            if a is None and b is not None:
                byes.append((b, None))
            elif b is None and a is not None:
                byes.append((a, None))
            elif a is not None and b is not None:
                played.append((a, b))
        legs.append(played + byes)
        ring = ring[-1:] + ring[:-1]
    if rounds == "double":
        legs += [[(b, a) if b is not None else (a, None) for a, b in leg] for leg in legs]
    return legs


def local_kickoff(day: dt.date, start_time: dt.time, time_zone: str) -> dt.datetime:
    """The UTC instant of ``start_time`` on ``day`` in ``time_zone``."""
    zone = ZoneInfo(time_zone)
    local = dt.datetime.combine(day, start_time.replace(tzinfo=None)).replace(tzinfo=zone)
    # fold=0: a time in the spring gap is read with the offset before the gap (so it
    # lands one gap later), an ambiguous autumn time is its first occurrence.
    return local.astimezone(dt.UTC)


def first_kickoff_date(
    after: dt.datetime, weekday: int, start_time: dt.time, time_zone: str
) -> dt.date:
    """The first local date on ``weekday`` whose kick-off is strictly after ``after``."""
    if not 0 <= weekday <= 6:
        raise ValueError("weekday must be 0 (Monday) to 6 (Sunday)")
    local_now = after.astimezone(ZoneInfo(time_zone))
    day = local_now.date() + dt.timedelta(days=(weekday - local_now.weekday()) % 7)
    if local_kickoff(day, start_time, time_zone) <= after:
        day += dt.timedelta(days=7)
    return day


def weekly_times(
    first_day: dt.date, start_time: dt.time, time_zone: str, count: int
) -> list[dt.datetime]:
    """``count`` weekly kick-offs (UTC) at local ``start_time``, from ``first_day`` on."""
    return [local_kickoff(first_day + dt.timedelta(weeks=k), start_time, time_zone)
            for k in range(count)]
