"""The Discord adapter: the only package (with :mod:`bot.app`) that imports ``discord``.

Split by lifetime (``docs/discord-adapter.md``):

* process — :mod:`~bot.discord_bot.hub` (``TableHub``: the event pump, recovery, resync),
  :mod:`~bot.discord_bot.router` (one ``DynamicItem`` class per intent),
  :mod:`~bot.discord_bot.clicks` (what a click does), the command cogs
  (:mod:`~bot.discord_bot.table_commands`, :mod:`~bot.discord_bot.admin`,
  :mod:`~bot.discord_bot.leaderboard`, :mod:`~bot.discord_bot.league_commands` (with
  :mod:`~bot.discord_bot.league_support`), set up by
  :mod:`~bot.discord_bot.club`);
* table — :mod:`~bot.discord_bot.presenter` (the public message) and
  :mod:`~bot.discord_bot.panels` (each seat's DM and private panel, reminders);
* message — :mod:`~bot.discord_bot.delivery` (every edit lands or is superseded);
* interaction — :mod:`~bot.discord_bot.answer` (one defer policy, one error path).

What the players see (issue 16): :mod:`~bot.discord_bot.safe` (names escaped, pings),
:mod:`~bot.discord_bot.table_words` (results and facts in players' words),
:mod:`~bot.discord_bot.signals` (one tap per card), :mod:`~bot.discord_bot.review`
(the deal review), :mod:`~bot.discord_bot.single_panel` (one private panel),
:mod:`~bot.discord_bot.options_panel` (the lobby's Options), :mod:`~bot.discord_bot.rules_texts`
(``/rules``, ``/table options``), :mod:`~bot.discord_bot.preferences` (forced plays).

Languages (issue 21): :mod:`~bot.discord_bot.languages` (``Languages``: each server's
public language and each player's private one, ``/language``, the slash command
translator); every text is worded at drawing time with the reader's translator.

Drawing is pure: :mod:`~bot.discord_bot.panel`, :mod:`~bot.discord_bot.texts`,
:mod:`~bot.discord_bot.pictures` (Pillow in a thread, cached), :mod:`~bot.discord_bot.ids`.
"""
