"""Running a real discord.py bot against :class:`FakeDiscord`, and simulated users who
use slash commands, click buttons, pick from select menus, fill modals and type messages.

* :func:`pointed_at` points discord.py at the fake (``Route.BASE``,
  ``DiscordWebSocket.DEFAULT_GATEWAY``, ``Asset.BASE``) and restores it afterwards.
* :class:`Harness` owns a server, a default guild and channel, the bots it started and a
  capture of discord.py's error log (an exception inside a command or a view fails the
  waiting helper at once, and the test at teardown unless taken with
  :meth:`Harness.take_errors`).
* :class:`SimulatedUser` builds interactions the way the Discord client does — commands
  and options checked against the synced command (or, if the bot never synced, its
  ``tree``), components checked against the message they sit on — pushes them on the
  gateway and returns an :class:`InteractionResult` once the bot answered (its callback
  request) and the event loop is quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import discord
import yarl
from discord.app_commands import CommandTree
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from . import payloads as P
from .models import (
    ADMINISTRATOR,
    CommandFile,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    InteractionRecord,
    RecordedRequest,
    StoredMessage,
)
from .server import FakeDiscord

T = TypeVar("T")

FAST_GUILD_READY_TIMEOUT = 0.02
"""discord.py waits ``guild_ready_timeout`` (default 2 s) after the last GUILD_CREATE before
``on_ready``; the harness lowers it so a bot is ready in milliseconds."""


class CommandUnavailable(AssertionError):
    """The Discord client would not let this user run this command here (unknown command or
    subcommand, wrong or missing options, missing default permissions, wrong context)."""


class ComponentUnavailable(AssertionError):
    """The user cannot use this component (not on the message, disabled, wrong kind, a
    message they cannot see, values not offered)."""


class BotError(AssertionError):
    """discord.py logged an error (an exception in a command, view, modal or event)."""


def bot_options(**overrides: Any) -> dict[str, Any]:
    """Keyword arguments for ``commands.Bot`` that suit the fake: default intents, mention
    prefix, fast ready. Pass anything to override."""
    return {"command_prefix": commands.when_mentioned,
            "intents": discord.Intents.default(),
            "guild_ready_timeout": FAST_GUILD_READY_TIMEOUT, **overrides}


@contextlib.contextmanager
def pointed_at(server: FakeDiscord) -> Iterator[None]:
    """Point discord.py (REST, gateway, CDN) at ``server`` and restore the real URLs after.
    ``Route.BASE`` is read when each request's route is built, so this covers the bot's
    REST client and interaction webhooks; the gateway URL of a non-sharded client is
    ``DiscordWebSocket.DEFAULT_GATEWAY`` (``AutoShardedClient`` asks ``GET /gateway/bot``)."""
    saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, discord.Asset.BASE)
    Route.BASE = server.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)
    discord.Asset.BASE = server.base_url + "/cdn"
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, discord.Asset.BASE = saved


class _ErrorCapture(logging.Handler):
    def __init__(self, server: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.server = server
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        self.server.notify()


def _describe(record: logging.LogRecord) -> str:
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        text += "\n" + "".join(traceback.format_exception(record.exc_info[1]))
    return text


class Harness:
    """A fake Discord with one guild ("Test Club", ``#cards``) and the bots started on it.

    ``timeout`` bounds every wait (a bot that never answers fails the test with the last
    requests listed, it does not hang it). ``strict``: at :meth:`close`, fail if the bot
    called an unknown route or discord.py logged an error that no test took."""

    def __init__(self, server: FakeDiscord, *, timeout: float = 5.0) -> None:
        self.server = server
        self.timeout = timeout
        self.strict = True
        self.guild: FakeGuild = server.add_guild("Test Club")
        self.channel: FakeChannel = server.add_text_channel(self.guild, "cards")
        self.bots: list[tuple[discord.Client, asyncio.Task[None]]] = []
        self._errors = _ErrorCapture(server)
        self._errors_taken = 0
        self._unsynced_ids: dict[tuple[str, str | None], str] = {}
        logging.getLogger("discord").addHandler(self._errors)

    # ------------------------------------------------------------------ bots

    @property
    def bot(self) -> discord.Client:
        """The bot started last (and still running)."""
        if not self.bots:
            raise RuntimeError("no bot started: await harness.start_bot(bot) first")
        return self.bots[-1][0]

    async def start_bot(self, bot: discord.Client, *, fast_ready: bool = True) -> discord.Client:
        """Start ``bot`` (``bot.start(token)`` in a task) and return once ``on_ready`` fired.
        ``fast_ready`` lowers discord.py's ``guild_ready_timeout`` (see
        :data:`FAST_GUILD_READY_TIMEOUT`) and, unless the bot overrides it, drops the 5 s
        sleep of ``before_identify_hook`` before each IDENTIFY after the first (shards,
        re-identify); neither changes what the bot does, only how long it waits."""
        if fast_ready:
            state = bot._connection
            state.guild_ready_timeout = min(state.guild_ready_timeout, FAST_GUILD_READY_TIMEOUT)
            if type(bot).before_identify_hook is discord.Client.before_identify_hook:
                # The stock hook sleeps 5 s before every IDENTIFY but the first (Discord's
                # identify rate limit); the fake has no such limit.
                async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
                    return None
                bot.before_identify_hook = no_wait  # type: ignore[method-assign]
        task = asyncio.create_task(bot.start(self.server.token), name="fakediscord-bot")
        self.bots.append((bot, task))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while not bot.is_ready():
            if task.done():
                self.bots.pop()
                await bot.close()
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            if loop.time() > deadline:
                raise AssertionError(f"the bot was not ready after {self.timeout}s")
            await asyncio.sleep(0.002)
        await self.settle()
        return bot

    async def stop_bot(self, bot: discord.Client | None = None) -> None:
        """Close ``bot`` (default: the last one) cleanly and wait for its task to end: this is
        how a test simulates the bot process stopping (the server keeps its state)."""
        running = [b for b, _ in self.bots]
        if bot is not None and bot not in running:
            raise ValueError("that bot is not running on this harness")
        index = len(running) - 1 if bot is None else running.index(bot)
        candidate, task = self.bots.pop(index)
        await candidate.close()
        await asyncio.wait_for(task, self.timeout)
        await self.settle()

    # ------------------------------------------------------------------ people

    def user(self, name: str, *, guild: FakeGuild | None = None, roles: tuple[FakeRole, ...] = (),
             manager: bool = False, dms_open: bool = True, locale: str = "en-US",
             member: bool = True) -> SimulatedUser:
        """A new user, a member of ``guild`` (default: the harness guild) unless
        ``member=False``; ``manager`` gives the "Club Manager" role (Manage Server)."""
        guild = guild or self.guild
        user = self.server.add_user(name, global_name=name.title(), dms_open=dms_open,
                                    locale=locale)
        if member:
            extra = (guild.role_named("Club Manager"),) if manager else ()
            self.server.join(guild, user, roles=(*roles, *extra))
            if guild is self.guild:
                return SimulatedUser(self, user, self.channel)
            if guild.text_channels:
                return SimulatedUser(self, user, guild.text_channels[0])
        return SimulatedUser(self, user, self.server.dm_channel(user))

    # ------------------------------------------------------------------ waiting

    async def settle(self, *, max_rounds: int = 2000) -> None:
        """Return once nothing is runnable on the event loop: no ready callbacks for a few
        consecutive turns (each turn also polls sockets, so a response already written by
        the fake is read by the bot first). This is what "the bot has finished reacting"
        means for work done on the loop; work in threads or processes is not seen, so wait
        for its visible effect (a request, a message) instead."""
        loop = asyncio.get_running_loop()
        ready = getattr(loop, "_ready", None)
        quiet = 0
        for _ in range(max_rounds):
            await asyncio.sleep(0)
            if ready is None:
                quiet += 1
            else:
                quiet = quiet + 1 if not ready else 0
            if quiet >= 3 and (ready is not None or quiet >= 50):
                return

    def check_errors(self, since: int = 0) -> None:
        """Raise :class:`BotError` if discord.py logged an error after record ``since``."""
        records = self._errors.records[max(since, self._errors_taken):]
        if records:
            raise BotError("the bot logged an error:\n" + "\n".join(map(_describe, records)))

    def take_errors(self) -> list[str]:
        """The errors logged so far (for tests that expect one); they no longer fail."""
        taken = self._errors.records[self._errors_taken:]
        self._errors_taken = len(self._errors.records)
        return [_describe(r) for r in taken]

    async def wait_until(self, condition: Callable[[], T | None], *, what: str,
                         timeout: float | None = None) -> T:
        """:meth:`FakeDiscord.wait_until`, failing early when the bot logs an error."""
        mark = len(self._errors.records)

        def check() -> T | None:
            self.check_errors(mark)
            return condition()
        return await self.server.wait_until(check, timeout=timeout or self.timeout, what=what)

    async def interact(self, record: InteractionRecord) -> InteractionResult:
        """Push ``record`` and return once the bot called back (and the loop is quiet)."""
        await self.settle()
        await self.server.push_interaction(record)
        await self.wait_until(lambda: record.callback is not None,
                              what=f"the bot to answer interaction {_summary(record)}")
        await self.settle()
        return InteractionResult(self, record)

    # ------------------------------------------------------------------ teardown

    async def close(self) -> None:
        """Stop the bots, then (``strict``) fail on unknown routes or untaken errors."""
        try:
            while self.bots:
                await self.stop_bot()
        finally:
            logging.getLogger("discord").removeHandler(self._errors)
        if self.strict:
            unknown = self.server.unknown_requests
            assert not unknown, f"the bot called routes the fake does not know: {unknown}"
            self.check_errors()

    # ------------------------------------------------------------------ commands

    def command_schema(self, name: str, channel: FakeChannel) -> dict[str, Any]:
        """The chat-input command ``name`` as the Discord client knows it in ``channel``:
        the synced one (guild commands first), else the bot's ``tree`` (as if synced)."""
        guild = self.server.guild_of(channel)
        candidates = []
        if guild is not None:
            candidates += self.server.guild_commands.get(guild.id, [])
        candidates += self.server.global_commands
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        tree = self._tree()
        if tree is not None:
            scope = None if guild is None else discord.Object(guild.id)
            found = tree.get_command(name, guild=scope) if scope else None
            if found is not None:
                return self._unsynced(found.to_dict(tree), str(guild.id if guild else ""))
            found = tree.get_command(name)
            if found is not None:
                return self._unsynced(found.to_dict(tree), None)
        raise CommandUnavailable(f"no command /{name} is registered for {channel}")

    def _tree(self) -> CommandTree[Any] | None:
        if not self.bots:
            return None
        tree = getattr(self.bot, "tree", None)
        return tree if isinstance(tree, CommandTree) else None

    def _unsynced(self, command: dict[str, Any], guild_id: str | None) -> dict[str, Any]:
        key = (command["name"], guild_id)
        ident = self._unsynced_ids.setdefault(key, str(self.server.snowflake()))
        permissions = command.get("default_member_permissions")
        return {**command, "id": ident, "guild_id": guild_id or None,
                "default_member_permissions": None if permissions is None else str(permissions)}


def _summary(record: InteractionRecord) -> str:
    data = record.payload["data"]
    if record.type in (P.APPLICATION_COMMAND, P.AUTOCOMPLETE):
        return f"/{data['name']} by {record.user.username}"
    return f"{data.get('custom_id')!r} by {record.user.username}"


class SimulatedUser:
    """A person using Discord: acts in :attr:`channel` (by default the harness channel for
    members, their DM channel otherwise); :meth:`at` and :meth:`in_dm` give the same person
    elsewhere."""

    def __init__(self, harness: Harness, user: FakeUser, channel: FakeChannel) -> None:
        self.harness = harness
        self.user = user
        self.channel = channel

    def __repr__(self) -> str:
        return f"<SimulatedUser {self.user.username} in {self.channel.name or 'DM'}>"

    @property
    def server(self) -> FakeDiscord:
        return self.harness.server

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        self.user.dms_open = value

    @property
    def dm_channel(self) -> FakeChannel:
        return self.server.dm_channel(self.user)

    @property
    def dms(self) -> list[StoredMessage]:
        """What the bot sent this user by DM, oldest first."""
        return self.server.messages(self.dm_channel)

    def at(self, channel: FakeChannel) -> SimulatedUser:
        return SimulatedUser(self.harness, self.user, channel)

    def in_dm(self) -> SimulatedUser:
        return self.at(self.dm_channel)

    def visible(self, channel: FakeChannel | None = None) -> list[StoredMessage]:
        """Messages of ``channel`` this user sees: all but other people's ephemerals."""
        return [m for m in self.server.messages(channel or self.channel)
                if m.ephemeral_for in (None, self.user.id)]

    async def wait_for_dm(self, predicate: Callable[[StoredMessage], bool] | None = None
                          ) -> StoredMessage:
        return await self.harness.wait_until(
            lambda: next((m for m in self.dms if predicate is None or predicate(m)), None),
            what=f"a DM to {self.user.username}")

    # ------------------------------------------------------------------ slash commands

    async def slash(self, *path: str, **options: Any) -> InteractionResult:
        """Run ``/path[0] path[1:]... option=value``: e.g. ``slash("table", "new",
        game="turup")``. Values: str, int, float, bool; users as SimulatedUser/FakeUser,
        channels as FakeChannel, roles as FakeRole, files as :class:`CommandFile` (served
        by the fake at the attachment's ``url``; kept in ``server.uploads``). Raises
        :class:`CommandUnavailable` where the Discord client would refuse."""
        return await self.harness.interact(self.build_slash(*path, **options))

    def build_slash(self, *path: str, **options: Any) -> InteractionRecord:
        """The interaction :meth:`slash` would send, registered but not sent: push it with
        ``server.push_interaction`` to control the timing yourself."""
        data = self._command(path, options, focused=None)
        return self.server.new_interaction(interaction_type=P.APPLICATION_COMMAND,
                                           data=data, user=self.user, channel=self.channel)

    async def autocomplete(self, *path: str, focused: str, **options: Any
                           ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its value as typed so far in ``options``) and
        return the choices the bot offered."""
        data = self._command(path, options, focused=focused)
        record = self.server.new_interaction(interaction_type=P.AUTOCOMPLETE, data=data,
                                             user=self.user, channel=self.channel)
        result = await self.harness.interact(record)
        return list(result.data.get("choices", []))

    def _command(self, path: tuple[str, ...], options: dict[str, Any], focused: str | None
                 ) -> dict[str, Any]:
        if not path:
            raise CommandUnavailable("slash() needs a command name")
        command = self.harness.command_schema(path[0], self.channel)
        self._check_available(command)
        resolved = _Resolved()
        built = self._options(command.get("options") or [], list(path[1:]), dict(options),
                              resolved, focused, f"/{path[0]}")
        return P.command_data(command, built, resolved.payload(self))

    def _check_available(self, command: dict[str, Any]) -> None:
        guild = self.server.guild_of(self.channel)
        name = f"/{command['name']}"
        contexts = command.get("contexts")
        if guild is None:
            if command.get("guild_id") or command.get("dm_permission") is False or (
                    contexts is not None and P.CONTEXT_BOT_DM not in contexts):
                raise CommandUnavailable(f"{name} cannot be used in DMs")
            return
        if command.get("guild_id") not in (None, str(guild.id)):
            raise CommandUnavailable(f"{name} is registered for another guild")
        if contexts is not None and P.CONTEXT_GUILD not in contexts:
            raise CommandUnavailable(f"{name} cannot be used in servers")
        if self.user.id not in guild.members:
            raise CommandUnavailable(f"{self.user.username} is not a member of {guild.name}")
        required = command.get("default_member_permissions")
        have = guild.permissions_of(self.user.id)
        if required is not None and not have & ADMINISTRATOR and (
                int(required) & have) != int(required):
            raise CommandUnavailable(f"{self.user.username} lacks the default permissions of "
                                     f"{name} ({required})")

    def _options(self, schema: list[dict[str, Any]], path: list[str], given: dict[str, Any],
                 resolved: _Resolved, focused: str | None, where: str) -> list[dict[str, Any]]:
        subcommands = {o["name"]: o for o in schema if o["type"] in (1, 2)}
        if path:
            name = path.pop(0)
            if name not in subcommands:
                raise CommandUnavailable(f"{where} has no subcommand {name!r} "
                                         f"(has: {sorted(subcommands)})")
            sub = subcommands[name]
            inner = self._options(sub.get("options") or [], path, given, resolved, focused,
                                  f"{where} {name}")
            return [{"type": sub["type"], "name": name, "options": inner}]
        if subcommands:
            raise CommandUnavailable(f"{where} needs a subcommand: {sorted(subcommands)}")
        built = []
        for option in schema:
            name = option["name"]
            if name not in given:
                if option.get("required") and name != focused:
                    raise CommandUnavailable(f"{where} requires option {name!r}")
                continue
            value = given.pop(name)
            entry: dict[str, Any] = {"type": option["type"], "name": name}
            if name == focused:
                entry.update(value=str(value), focused=True)
            else:
                entry["value"] = _option_value(option, value, resolved, f"{where} {name}",
                                               self)
            built.append(entry)
        if given:
            raise CommandUnavailable(f"{where} has no option(s) {sorted(given)} "
                                     f"(has: {[o['name'] for o in schema]})")
        return built

    # ------------------------------------------------------------------ components

    async def click(self, message: StoredMessage | discord.Message | int, custom_id: str
                    ) -> InteractionResult:
        """Press the button ``custom_id`` on ``message``."""
        stored, _ = self._component(message, custom_id, (2,))
        data = P.component_data(custom_id, 2)
        return await self._component_interaction(stored, data)

    async def select(self, message: StoredMessage | discord.Message | int, custom_id: str,
                     values: list[Any]) -> InteractionResult:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``: option values
        for a string select, users/roles/channels for the other kinds."""
        stored, component = self._component(message, custom_id, (3, 5, 6, 7, 8))
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ComponentUnavailable(f"{custom_id!r} takes {low} to {high} values, "
                                       f"not {len(values)}")
        resolved = _Resolved()
        if component["type"] == 3:
            offered = [o["value"] for o in component.get("options", [])]
            missing = [v for v in values if v not in offered]
            if missing:
                raise ComponentUnavailable(f"{custom_id!r} offers no {missing}; "
                                           f"offered: {offered}")
            chosen = [str(v) for v in values]
        else:
            chosen = [str(resolved.add(v)) for v in values]
        data = P.component_data(custom_id, component["type"], chosen, resolved.payload(self))
        return await self._component_interaction(stored, data)

    def _component(self, message: StoredMessage | discord.Message | int, custom_id: str,
                   kinds: tuple[int, ...]) -> tuple[StoredMessage, dict[str, Any]]:
        message_id = message if isinstance(message, int) else message.id
        try:
            stored = self.server.message(message_id)
        except KeyError:
            raise ComponentUnavailable(f"no message {message_id} on the fake server") from None
        channel = self.server.channels[stored.channel_id]
        guild = self.server.guild_of(channel)
        if stored.deleted:
            raise ComponentUnavailable(f"message {stored.id} was deleted")
        if stored.ephemeral_for not in (None, self.user.id) or (
                channel.is_dm and channel.recipient is not self.user) or (
                guild is not None and self.user.id not in guild.members):
            raise ComponentUnavailable(f"{self.user.username} cannot see message {stored.id}")
        try:
            component = stored.component(custom_id)
        except KeyError as error:
            raise ComponentUnavailable(str(error)) from None
        if component["type"] not in kinds:
            raise ComponentUnavailable(f"{custom_id!r} is a component of type "
                                       f"{component['type']}, not one of {kinds}")
        if component.get("disabled"):
            raise ComponentUnavailable(f"{custom_id!r} is disabled")
        return stored, component

    async def _component_interaction(self, message: StoredMessage, data: dict[str, Any]
                                     ) -> InteractionResult:
        channel = self.server.channels[message.channel_id]
        record = self.server.new_interaction(
            interaction_type=P.MESSAGE_COMPONENT, data=data, user=self.user, channel=channel,
            message=message, source_message_id=message.id)
        return await self.harness.interact(record)

    # ------------------------------------------------------------------ modals, messages

    async def submit_modal(self, opened: InteractionResult, values: dict[str, Any]
                           ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to ``opened``: text inputs
        take strings (required ones must be given, lengths are checked), selects lists."""
        modal = opened.modal
        if modal is None:
            raise ComponentUnavailable(f"the bot answered with type {opened.type}, not a modal")
        for component in _modal_inputs(modal):
            custom_id = component["custom_id"]
            value = values.get(custom_id)
            if component["type"] == 4:
                text = "" if value is None else str(value)
                if component.get("required", True) and not text:
                    raise ComponentUnavailable(f"modal field {custom_id!r} is required")
                if text and not (component.get("min_length", 0) <= len(text)
                                 <= component.get("max_length", 4000)):
                    raise ComponentUnavailable(f"modal field {custom_id!r}: bad length")
        source = opened.record.source_message_id
        message = None if source is None else self.server.message(source)
        record = self.server.new_interaction(
            interaction_type=P.MODAL_SUBMIT, data=P.modal_submit_data(modal, values),
            user=self.user, channel=opened.record.channel, message=message,
            source_message_id=source)
        return await self.harness.interact(record)

    async def say(self, content: str) -> StoredMessage:
        """Post ``content`` in :attr:`channel` as this user (MESSAGE_CREATE as the bot's
        intents allow)."""
        message = await self.server.post_user_message(self.user, self.channel, content)
        await self.harness.settle()
        return message


def _modal_inputs(modal: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for top in modal.get("components", []):
        if top["type"] == 1:
            yield from (c for c in top.get("components", []) if "custom_id" in c)
        elif top["type"] == 18:
            yield top["component"]


class _Resolved:
    """Users, roles and channels named by options or select values; files attached to
    attachment options (uploaded to the fake as the Discord client uploads them)."""

    def __init__(self) -> None:
        self.users: list[FakeUser] = []
        self.roles: list[FakeRole] = []
        self.channels: list[FakeChannel] = []
        self.attachments: list[dict[str, Any]] = []

    def attach(self, actor: SimulatedUser, file: Any, where: str) -> str:
        """Upload ``file`` (a :class:`CommandFile`) for ``actor``; its attachment id. The
        client refuses a file over the interaction's ``attachment_size_limit``."""
        if not isinstance(file, CommandFile):
            raise CommandUnavailable(f"{where} takes a file (fakediscord.CommandFile), "
                                     f"not {file!r}")
        if len(file.data) > P.ATTACHMENT_SIZE_LIMIT:
            raise CommandUnavailable(f"{where}: {file.filename} is over the upload limit")
        attachment = actor.server.upload(actor.channel, file)
        self.attachments.append(attachment)
        return str(attachment["id"])

    def add(self, value: Any) -> int:
        if isinstance(value, SimulatedUser):
            value = value.user
        for kind, bucket in ((FakeUser, self.users), (FakeRole, self.roles),
                             (FakeChannel, self.channels)):
            if isinstance(value, kind):
                if value not in bucket:
                    bucket.append(value)  # type: ignore[arg-type]
                return int(value.id)
        raise CommandUnavailable(f"cannot mention {value!r}: give a user, role or channel")

    def payload(self, actor: SimulatedUser) -> dict[str, Any]:
        guild = actor.server.guild_of(actor.channel)
        permissions = guild.permissions_of(actor.id) if guild else 0
        return P.resolved_for(users=self.users, guild=guild, roles=self.roles,
                              channels=self.channels, channel_permissions=permissions,
                              attachments=self.attachments)


def _option_value(option: dict[str, Any], value: Any, resolved: _Resolved, where: str,
                  actor: SimulatedUser) -> Any:
    kind = option["type"]
    if kind == 11:
        return resolved.attach(actor, value, where)
    if kind == 3:
        if not isinstance(value, str):
            raise CommandUnavailable(f"{where} takes a string, not {value!r}")
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise CommandUnavailable(f"{where}: length out of range")
    elif kind == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CommandUnavailable(f"{where} takes an integer, not {value!r}")
    elif kind == 10:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CommandUnavailable(f"{where} takes a number, not {value!r}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise CommandUnavailable(f"{where} takes true or false, not {value!r}")
    elif kind in (6, 7, 8, 9):
        return str(resolved.add(value))
    else:
        raise CommandUnavailable(f"{where}: option type {kind} is not supported by the fake")
    if kind in (4, 10) and not (option.get("min_value", value) <= value
                                <= option.get("max_value", value)):
        raise CommandUnavailable(f"{where}: {value} is out of range")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandUnavailable(f"{where}: {value!r} is not one of the choices "
                                 f"{[c['value'] for c in choices]}")
    return value


class InteractionResult:
    """What the bot did with one interaction: its callback and everything it did later
    with the interaction token (follow-ups, edits of the original response)."""

    def __init__(self, harness: Harness, record: InteractionRecord) -> None:
        self.harness = harness
        self.record = record

    def __repr__(self) -> str:
        return f"<InteractionResult {_summary(self.record)} type={self.type}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def callback(self) -> RecordedRequest:
        assert self.record.callback is not None
        return self.record.callback

    @property
    def type(self) -> int:
        """The callback type: 4 message, 5 deferred message, 6 deferred update, 7 update
        message, 8 autocomplete result, 9 modal."""
        return int(self.callback.json["type"])

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.callback.json.get("data") or {})

    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload that was sent."""
        return self.record.payload

    @property
    def message(self) -> StoredMessage | None:
        """The original response now: the new message (types 4, 5) or the message the
        component sits on (6, 7); None for modals and autocomplete."""
        ident = self.record.original_message_id
        return None if ident is None else self.harness.server.message(ident)

    @property
    def content(self) -> str:
        return "" if self.message is None else self.message.content

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.data if self.type == 9 else None

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.harness.server.message(i) for i in self.record.followup_ids]

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request made with this interaction's token, the callback first."""
        return [r for r in self.record.requests if r.status]

    async def wait_followups(self, count: int = 1) -> list[StoredMessage]:
        """Wait until at least ``count`` follow-up messages exist; return them all."""
        await self.harness.wait_until(lambda: len(self.record.followup_ids) >= count,
                                      what=f"{count} follow-up(s) to {_summary(self.record)}")
        return self.followups

    async def wait_filled(self) -> StoredMessage:
        """For a deferred response: wait until the loading message was filled (by an edit of
        ``@original`` or the first follow-up) and return it."""
        def filled() -> StoredMessage | None:
            message = self.message
            return message if message is not None and not message.loading else None
        return await self.harness.wait_until(filled, what=f"the deferred response to "
                                             f"{_summary(self.record)} to be filled")

    async def wait_request(self, route: str, predicate: Callable[[RecordedRequest], bool]
                           | None = None) -> RecordedRequest:
        """Wait for a request on ``route`` made with this interaction's token."""
        def find() -> RecordedRequest | None:
            return next((r for r in self.requests if f"{r.method} {r.route}" == route
                         and (predicate is None or predicate(r))), None)
        return await self.harness.wait_until(find, what=f"{route} for {_summary(self.record)}")
