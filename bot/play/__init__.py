"""``tricktable play``: the local play mode, one human against AI players on this
computer, drawn by the terminal (:mod:`bot.terminal`) or, with ``--web``, by the web page
(:mod:`bot.play.web`, served by :mod:`bot.web.server`).

Like :mod:`bot.app` for the Discord bot, this package is a composition root, not a front
end: it puts the terminal's session (store, match, record) and the web server together, so
that neither front end imports the other (``docs/architecture.md``, "The layers").

* :mod:`bot.play.cli` — ``play``'s ``--web``, ``--port`` and ``--host`` arguments and its
  handler (the terminal table, else the page).
* :mod:`bot.play.web` — ``tricktable play GAME --web``: the terminal's match served as a
  web page.
"""
