"""The Discord bot: :func:`create_bot` builds it, its ``setup_hook`` wires everything.

``setup_hook`` (run once discord.py has logged in, before the gateway connects):

1. opens the store (``settings.database_url``) unless one was passed in, and fixes this
   process's shards (``bot.discord_bot.sharding``: the shard count, ``auto`` asked from
   Discord, and the shard ids the ``AutoShardedBot`` connects), taking their start locks
   (``storage.ShardBusy`` when another process runs one: ``tricktable run`` exits 1);
2. starts the AI worker pool (``settings.ai_workers``; 0: AI decisions run in a thread);
3. builds the :class:`~bot.service.TableService` with the ratings/league hook;
4. builds the Discord adapter (``docs/discord-adapter.md``): the table hub (presenters and
   seat panels per table, the event pump), the click handler behind the component router
   (every dynamic item registered once; clicks for another process's tables are
   forwarded, ``bot.discord_bot.tables.forwarded``), the command cogs; and recovers every
   unfinished table of this process's guilds: each continues from its last accepted
   action and its old messages' buttons keep working; then applies the clicks other
   processes forwarded to it (``bot.cluster``);
5. builds the :class:`~bot.duplicate.service.DuplicateService` on the table service;
6. with the ``web`` settings (``TRICKTABLE_WEB_PORT``, :mod:`bot.web.run`), starts the web
   table's server on the table service (the Activity's routes when
   ``DISCORD_CLIENT_SECRET`` is set, the duplicate boards' reveals through
   :class:`bot.web_duplicate.WebReveals`, a duplicate event's page through
   :mod:`bot.web_events`) and, when ``TRICKTABLE_WEB_URL`` gives it a public address,
   binds the table message's **Open table** links to it
   (``bot.discord_bot.tables.web_lobby.bind_web``);
7. adds the club feature on the duplicate service (``bot.discord_bot.club.cogs.setup``:
   ratings, stats, leagues, duplicate nights, whose reveals and results link the event's
   page when the web has a public address).

This is the one composition root of the bot's process: every long-lived part is built here
from the constructor's arguments and stopped again by ``close``, in reverse order; nothing
is patched onto the bot from outside and no part is fetched back out of a cog.

Before step 4 it learns the slash commands' ids from Discord, so that sentences mention
commands (``bot.discord_bot.command_ids``: ``</league join:123>``, shown in each client's
language; every later sync updates them).

Slash commands are **not** synced here: ``tricktable sync [--guild ID]`` or ``/admin sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.cluster import ClusterNode
from bot.discord_bot.command_ids import CommandTree
from bot.discord_bot.rest_budget import count_requests, start_budget
from bot.discord_bot.sharding import join_cluster, plan_shards, use_discord_api
from bot.discord_bot.tables.delivery import single_tries
from bot.i18n.commands import drop_mentions, use_mentions
from bot.logs import RedactToken, configure_logging
from bot.service import Clock, RatingsHook, TableService
from bot.settings import Settings
from storage import Store, open_store

if TYPE_CHECKING:
    from bot.discord_bot.club.duplicate_posts import EventLink
    from bot.discord_bot.languages import Languages
    from bot.discord_bot.table_hub import TableHub
    from bot.duplicate.service import DuplicateService
    from bot.web.run import WebSettings
    from bot.web.server import WebServer

log = logging.getLogger(__name__)


class NotSetUp(RuntimeError):
    """A part of the bot was asked for before ``setup_hook`` built it (or after ``close``)."""


class TricktableBot(commands.AutoShardedBot, commands.Bot):
    """The bot. ``store``/``service``/``duplicate`` are available once ``setup_hook`` ran
    (before, they raise :class:`NotSetUp`); ``web_server`` once it ran with ``web``
    settings.

    An ``AutoShardedBot`` (it runs the shards ``bot.discord_bot.sharding`` sets, one or
    many) that is also a ``commands.Bot`` (the two differ only in their client class), so
    code typed against ``commands.Bot`` takes it."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 clock: Clock | None = None, sync_only: bool = False,
                 web: WebSettings | None = None, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        # Table messages name players without pinging them; notices allow user pings.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        options.setdefault("tree_cls", CommandTree)
        # Live messages try each edit once and retry with the newest drawing themselves.
        # … and every request with the bot's token is counted in the REST budget.
        options.setdefault("http_trace", count_requests(single_tries()))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        self.settings = settings
        self._given_store = store
        self._store = store
        self._service: TableService | None = None
        self._duplicate: DuplicateService | None = None
        self.web = web
        """Serve the web table from this process (None: no web table)."""
        self.web_server: WebServer | None = None
        """The web table's server (:mod:`bot.web.server`), once set up with ``web``."""
        self._clock = clock
        self._pool: Any = None
        self.languages: Languages | None = None
        """Who reads which language (``bot.discord_bot.languages``), once set up."""
        self.hub: TableHub | None = None
        """The Discord adapter's tables (``bot.discord_bot.table_hub``), once set up."""
        self.sync_only = sync_only
        """Set up the commands but recover and run no table (``tricktable sync``)."""
        self.node: ClusterNode | None = None
        """This process's shards and their start locks (``bot.discord_bot.sharding``)."""
        self.budget_task: asyncio.Task[None] | None = None
        """The REST budget shared with the bot's other processes
        (``bot.discord_bot.rest_budget``), once set up."""
        use_discord_api(settings)

    @property
    def store(self) -> Store:
        """The store (``settings.database_url``, or the one passed in)."""
        if self._store is None:
            raise NotSetUp("the store is opened by setup_hook")
        return self._store

    @property
    def service(self) -> TableService:
        """The table service (``bot.service``)."""
        if self._service is None:
            raise NotSetUp("the table service is built by setup_hook")
        return self._service

    @property
    def duplicate(self) -> DuplicateService:
        """The duplicate events' service (``bot.duplicate``)."""
        if self._duplicate is None:
            raise NotSetUp("the duplicate service is built by setup_hook")
        return self._duplicate

    async def setup_hook(self) -> None:
        from bot.discord_bot.club import cogs as club
        from bot.discord_bot.club.admin import AdminCog
        from bot.discord_bot.languages import CommandTexts, LanguageCog, Languages
        from bot.discord_bot.router import DYNAMIC_ITEMS, bind
        from bot.discord_bot.table_hub import TableHub
        from bot.discord_bot.tables.card_select import SIGNAL_ITEMS
        from bot.discord_bot.tables.clicks import TableClicks
        from bot.discord_bot.tables.forwarded import ShardedClicks
        from bot.discord_bot.tables.options_panel import OPTIONS_ITEMS, OptionsSource, bind_options
        from bot.discord_bot.tables.preferences import PreferencesCog
        from bot.discord_bot.tables.review import REVIEW_ITEMS, ReviewSource, bind_reviews
        from bot.discord_bot.tables.table_commands import TableCommands
        from bot.duplicate.service import DuplicateService
        from bot.ratings import MatchResultsHook

        if self._given_store is None:
            self._store = await open_store(self.settings.database_url)
        if not self.sync_only:  # raises ShardBusy when another process runs our shards
            self.node = await join_cluster(self.store, await plan_shards(self, self.settings))
        if not self.sync_only:  # shared through the database by several processes
            self.budget_task = start_budget(self.settings.rest_budget, None if (
                self.node is None or self.node.ownership.everything) else self.store)
        if self.settings.ai_workers > 0 and not self.sync_only:
            from bot.ai_pool import AIPool

            self._pool = AIPool(self.settings.ai_workers,
                                max_wait_ms=self.settings.ai_max_wait_ms)
        ratings: RatingsHook = MatchResultsHook(self.store)
        self._service = TableService(self.store, clock=self._clock, ratings=ratings,
                                     ai_pool=self._pool,
                                     ai_budget_ms=self.settings.ai_budget_ms)
        self.languages = Languages(self, self.store)
        if not self.sync_only:
            await self.languages.start()
        await self.tree.set_translator(CommandTexts())
        if isinstance(self.tree, CommandTree) and not self.sync_only:
            await self.tree.learn_ids()
            use_mentions(self.tree.mention)
        self.hub = TableHub(self, self.service, self.store, self.settings, self.languages)
        clicks = (TableClicks(self.hub) if self.node is None
                  else ShardedClicks(self.hub, self.node))
        bind(self, clicks)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REVIEW_ITEMS, *SIGNAL_ITEMS, *OPTIONS_ITEMS)
        bind_options(self, OptionsSource(self.service, self.store, self.languages))
        bind_reviews(self, ReviewSource(self.service, self.store, self.languages))
        await self.add_cog(TableCommands(self.hub, clicks))
        await self.add_cog(AdminCog(self, self.settings, self.store, self.hub, self.languages))
        await self.add_cog(PreferencesCog(self.store, self.languages))
        await self.add_cog(LanguageCog(self.languages))
        if self.node is not None:
            # One process with every shard keeps every table, as before sharding.
            await self.hub.start(owns=None if self.node.ownership.everything
                                 else self.node.owns)
            assert isinstance(clicks, ShardedClicks)
            await self.node.start(self.service, clicks.answer_forwarded)
        self._duplicate = DuplicateService.of_tables(self.store, self.service)
        event_link = None
        if self.web is not None and not self.sync_only:
            event_link = await self._serve_web(self.web, self.hub)
        await club.setup(self, store=self.store, service=self.service,
                         duplicate=self.duplicate, languages=self.languages,
                         event_link=event_link)
        log.info("tricktable is set up (%d open tables)", len(self.service.table_ids()))

    async def _serve_web(self, web: WebSettings, hub: TableHub) -> EventLink | None:
        """Start the web table's server on the table service (step 6 of the module
        docstring); returns the duplicate event pages' link maker when players can open
        links (a public address), else None."""
        from bot.discord_bot.activity_rest import instance_fetch
        from bot.discord_bot.tables.web_lobby import bind_web
        from bot.web.activity import ActivityConfig
        from bot.web.run import start
        from bot.web_duplicate import WebReveals
        from bot.web_events import EventPages

        assert self.application_id is not None  # set at login, before setup_hook
        activity = ActivityConfig.from_env(self.application_id, self.settings.token or "",
                                           self.settings.discord_api)
        pages = EventPages(self.duplicate)  # a duplicate event's page (bot.web_events)
        if activity is not None:  # its bot-token look-ups wait in discord.py's rate limiter
            activity = replace(activity, fetch=instance_fetch(self))
        self.web_server = await start(self.service, self.store, web, activity=activity,
                                      node=self.node, reveals=WebReveals(self.duplicate),
                                      routes=[pages.install])
        if not web.url:  # no public address: no link players could open
            return None
        bind_web(self, hub, self.web_server)
        return partial(pages.link, self.web_server)  # reveals and results link the page

    async def close(self) -> None:
        if self.web_server is not None:  # its sockets use the service: stopped first
            await self.web_server.stop()
            self.web_server = None
        if isinstance(self.tree, CommandTree):
            drop_mentions(self.tree.mention)
        # The adapter and the cogs first (their tasks use the service and the store).
        if self.hub is not None:
            await self.hub.stop()
        for name in list(self.cogs):
            await self.remove_cog(name)
        if self.languages is not None:
            await self.languages.close()
        if self.budget_task is not None:
            self.budget_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.budget_task
            self.budget_task = None
        if self._service is not None:
            await self._service.close()
        if self.node is not None:
            await self.node.close()
            self.node = None
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None
        if self._given_store is None and self._store is not None:
            await self._store.close()
            self._store = None
        await super().close()


def create_bot(settings: Settings | None = None, *, store: Store | None = None,
               clock: Clock | None = None, web: WebSettings | None = None,
               **options: Any) -> TricktableBot:
    """The bot, configured by ``settings`` (default: :meth:`Settings.from_env`).

    ``store``: use this open store (its owner closes it) instead of opening
    ``settings.database_url``; ``clock``: the table service's clock (tests pass a
    ``FakeClock``); ``web``: serve the web table too (:class:`bot.web.run.WebSettings`);
    further keyword arguments go to ``commands.Bot``."""
    return TricktableBot(settings or Settings.from_env(), store=store, clock=clock, web=web,
                         **options)


async def sync_commands(settings: Settings, guild_id: int | None = None) -> int:
    """Publish the slash commands (to ``guild_id`` only, at once, or globally) over HTTP,
    without connecting to the gateway or running any table. Returns how many were synced."""
    bot = create_bot(settings, sync_only=True)
    async with bot:
        assert settings.token is not None
        await bot.login(settings.token)
        guild = discord.Object(guild_id) if guild_id is not None else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    return len(synced)


__all__ = ["NotSetUp", "RedactToken", "TricktableBot", "configure_logging", "create_bot",
           "sync_commands"]
