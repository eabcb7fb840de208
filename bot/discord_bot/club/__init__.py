"""The server's club on Discord: :mod:`~.leaderboard` (``/leaderboard``, ``/stats``,
``/history``, with :mod:`~.match_access`), :mod:`~.league_commands` (``/league …``, with
:mod:`~.league_lookups` and :mod:`~.league_support`), :mod:`~.duplicate_commands`
(``/duplicate …``: :mod:`~.duplicate_director`, :mod:`~.duplicate_member` and
:mod:`~.duplicate_base`, with :mod:`~.duplicate_posts` and :mod:`~.duplicate_review`),
:mod:`~.admin` (``/settings``, ``/admin sync``); their shared refusal and admin check
(:mod:`~.club_common`) and texts (:mod:`~.club_texts`). :func:`~.cogs.setup` adds the club cogs.
"""
