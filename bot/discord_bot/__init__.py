"""The Discord adapter: the only package (with :mod:`bot.app`) that imports ``discord``.

Grouped by what the modules serve (``docs/architecture.md``, ``docs/discord-adapter.md``):

* this package — the process-level pieces every group uses:
  :mod:`~bot.discord_bot.table_hub` (``TableHub``: the event pump, recovery, resync),
  :mod:`~bot.discord_bot.router` (one ``DynamicItem`` class per intent),
  :mod:`~bot.discord_bot.ids` (the ``custom_id`` kinds), :mod:`~bot.discord_bot.answer`
  (one defer policy, one error path for every interaction), :mod:`~bot.discord_bot.languages`
  (``Languages``: each server's public language and each player's private one, ``/language``,
  the slash command translator), :mod:`~bot.discord_bot.ranges` (slash-command options
  checked), :mod:`~bot.discord_bot.sharding` (this process's shards),
  :mod:`~bot.discord_bot.command_ids` (the application commands' ids);
* :mod:`bot.discord_bot.tables` — a table in play: the ``/table`` commands, clicks (here and
  forwarded to another process), the public message (presenter), each seat's private panel
  (drawing: :mod:`~bot.discord_bot.tables.hand_panel`; the DMs and ephemeral panels of a
  table: :mod:`~bot.discord_bot.tables.seat_panels`), delivery and the REST gate, the lobby's
  Options, the deal review, the card select and signal control, forced plays, the web table
  and lobby links;
* :mod:`bot.discord_bot.club` — the server's club: ratings, stats and history, leagues,
  duplicate nights, ``/settings`` and ``/admin``; set up by :mod:`~bot.discord_bot.club.cogs`;
* :mod:`bot.discord_bot.drawing` — pure words and pictures for Discord: names made safe,
  seat and lobby texts, ``/rules`` embeds, card and hand-record pictures (Pillow in a thread,
  cached).

Every text is worded at drawing time with the reader's translator.
"""
