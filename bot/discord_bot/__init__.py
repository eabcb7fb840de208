"""The Discord adapter: the only package (with :mod:`bot.app`) that imports ``discord``.

Core: :mod:`~bot.discord_bot.tables` (the table cog and event pump),
:mod:`~bot.discord_bot.panel` (private panels), :mod:`~bot.discord_bot.components`
(persistent dynamic components), :mod:`~bot.discord_bot.table_message` (the coalescing
editor), :mod:`~bot.discord_bot.admin` (``/settings``, ``/admin sync``),
:mod:`~bot.discord_bot.texts` (words). The club feature lives in ``club.py`` and friends.
"""
