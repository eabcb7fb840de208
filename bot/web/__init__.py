"""The web table: one aiohttp application in the bot's process serving the page and one
WebSocket per viewer (a seat or a spectator), a front end of the table service like the
Discord adapter and the terminal (``docs/web.md``). It imports no other front end and no
feature above the service (duplicate nights reach it through ``WebConfig.reveals``); the
composition roots use it: :mod:`bot.app` (the bot's process) and :mod:`bot.play.web`
(``tricktable play GAME --web``).

* :mod:`bot.web.protocol` — the frames on the wire (TypedDicts; the JSON Schema and the
  page's TypeScript types are generated from them: ``python -m bot.contract``).
* :mod:`bot.web.links` — signed, expiring links bound to a user and a table.
* :mod:`bot.web.frames` — the service's events and state as frames, in the viewer's words.
* :mod:`bot.web.viewer` — one admitted socket ↔ its subscription: relay events as
  frames, take the page's requests to the service; :mod:`bot.web.admission` — who a socket
  is for (a link, a relay pass, the Activity); :mod:`bot.web.inbound` — frames read once
  into typed requests; :mod:`bot.web.lobby` — the lobby's buttons; :mod:`bot.web.config`
  — what every socket shares.
* :mod:`bot.web.registry`, :mod:`bot.web.limits` — the caps, budgets and log throttle
  (``docs/web.md``, "Limits").
* :mod:`bot.web.server` — the application: static page, security headers, ``/ws``.
* :mod:`bot.web.run` — ``tricktable run`` with ``TRICKTABLE_WEB_PORT``.
* :mod:`bot.web.activity` — the same table as a Discord Activity.
"""
