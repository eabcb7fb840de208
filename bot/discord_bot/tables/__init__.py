"""A table in play on Discord: commands, clicks, the public message and each seat's panels.

:mod:`~.table_commands` (``/table``, ``/hand``, ``/rules``), :mod:`~.clicks` (what a click
does) and :mod:`~.forwarded` (clicks for a table another process owns);
:mod:`~.presenter` (the public message, trick log, results) with :mod:`~.table_words`;
:mod:`~.hand_panel` (one seat's private panel, drawn from its ``state`` event: pure),
:mod:`~.card_select` (the card select's options and the leader's signal control),
:mod:`~.seat_panels` (each seat's DM and ephemeral panel of one table, reminders),
:mod:`~.single_panel` (one **My hand** panel per player); :mod:`~.delivery` (every edit
lands or is superseded) and :mod:`~.gate` (the most urgent message first);
:mod:`~.options_panel` (the lobby's Options), :mod:`~.review` (the deal review),
:mod:`~.preferences` (forced plays), :mod:`~.web_table` and :mod:`~.web_lobby` (the web
table and the Activity), :mod:`~.web_play` (a table played on the web costs Discord almost
nothing), :mod:`~.token_route` (a DM edited through a click's interaction token).
"""
