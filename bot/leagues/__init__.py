"""Club leagues: round-robin schedules, standings, reminders, reported results.

Modules: :mod:`~bot.leagues.schedule` (pure pairings and kick-off times),
:mod:`~bot.leagues.standings` (pure league table), :mod:`~bot.leagues.service` (league
operations on the Store), :mod:`~bot.leagues.reports` (results from tables and from
physical tables), :mod:`~bot.leagues.reminders` (the reminder scheduler). See
``docs/leagues.md``.
"""
