"""The fake Discord's world and its records: users, guilds, channels, stored messages,
recorded requests, gateway frames and interactions.

These are plain mutable objects owned by :class:`fakediscord.server.FakeDiscord`; tests read
them (and may flip switches such as :attr:`FakeUser.dms_open`), the server turns them into
Discord JSON with :mod:`fakediscord.payloads`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000

# Permission sets (Discord bitfields) used by the default world.
EVERYONE_PERMISSIONS = discord.Permissions(
    create_instant_invite=True, add_reactions=True, view_channel=True, send_messages=True,
    embed_links=True, attach_files=True, read_message_history=True, use_external_emojis=True,
    change_nickname=True, use_application_commands=True, create_public_threads=True,
    send_messages_in_threads=True, connect=True, speak=True,
).value
MANAGER_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(manage_guild=True).value
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(
    manage_messages=True, manage_threads=True, create_private_threads=True,
).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
ALL_PERMISSIONS = discord.Permissions.all().value

# Channel types (Discord's numbering).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15


class SnowflakeFactory:
    """Discord ids: milliseconds since the Discord epoch in the high bits, strictly increasing
    (so ids made in the same millisecond still sort in creation order)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


def snowflake_for_shard(shard_id: int, shard_count: int, after: int = 0) -> int:
    """A fresh snowflake ``> after`` whose guild shard ``(id >> 22) % shard_count`` is
    ``shard_id`` (use it as a guild id to place a guild on a given shard)."""
    ms = max((int(time.time() * 1000) - DISCORD_EPOCH_MS), (after >> 22) + 1)
    while ms % shard_count != shard_id:
        ms += 1
    return ms << 22


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``dms_open=False`` makes the bot's DMs to them fail with 403 / 50007,
    as when a member has closed DMs from server members."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    color: int = 0
    managed: bool = False


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a public thread (``parent_id`` and ``owner_id`` set) or a DM
    channel (``recipient`` set, ``guild_id`` None)."""

    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    recipient: FakeUser | None = None
    topic: str | None = None
    owner_id: int | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    """Discord permission overwrites (``{"id", "type": 0 role / 1 member, "allow",
    "deny"}``), sent to the bot with the channel; the fake itself does not apply them."""

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeMember:
    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = "2024-01-01T00:00:00+00:00"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == GUILD_TEXT]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions: the owner and administrators have all of them, others the
        union of @everyone and their roles (channel overwrites are not modelled)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        value = self.everyone.permissions
        if member is not None:
            for role_id in member.roles:
                value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def role_named(self, name: str) -> FakeRole:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(name)


@dataclass(eq=False)
class StoredAttachment:
    """A file the fake holds and serves at its ``url``: a message's attachment, or a file a
    user attached to a command option (Discord's ephemeral attachments). ``downloads``
    counts the fetches of its URL."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None
    downloads: int = 0


@dataclass(frozen=True)
class CommandFile:
    """A file a simulated user attaches to a slash command's attachment option (type 11):
    ``alice.slash("league", "report", sheet=CommandFile("sheet.txt", b"20-16 22-14"))``. The
    content type is guessed from the name when not given, as the Discord client does."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(eq=False)
class StoredMessage:
    """A message as the fake Discord holds it.

    ``payload`` is the Discord message object returned by the API (content, embeds,
    components, attachments, flags, ...), kept current through edits; ``history`` holds
    every earlier version. ``ephemeral_for`` is the only user who can see an ephemeral
    interaction response. ``interaction_id`` links interaction responses and follow-ups.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    payload: dict[str, Any]
    files: dict[int, StoredAttachment] = field(default_factory=dict)
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def content(self) -> str:
        return str(self.payload.get("content", ""))

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.payload.get("embeds", []))

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.payload.get("components", []))

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags", 0))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("thinking") response not yet filled by an edit or a follow-up."""
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    @property
    def attachments(self) -> list[StoredAttachment]:
        return [self.files[int(a["id"])] for a in self.payload.get("attachments", [])]

    @property
    def edits(self) -> int:
        return len(self.history)

    def walk_components(self) -> Iterator[dict[str, Any]]:
        """Every component at any depth (action rows, containers, sections' accessories)."""
        return walk_components(self.components)

    def component(self, custom_id: str) -> dict[str, Any]:
        for component in self.walk_components():
            if component.get("custom_id") == custom_id:
                return component
        raise KeyError(f"no component with custom_id {custom_id!r} on message {self.id}; "
                       f"custom_ids: {self.custom_ids()}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def text(self) -> str:
        """Content, embed texts and text-display components joined: handy for `in` checks."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get(k, "")) for k in ("title", "description")]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
            if "footer" in embed:
                parts.append(str(embed["footer"].get("text", "")))
        parts += [str(c["content"]) for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if key in component:
                yield from walk_components([component[key]])


@dataclass(eq=False)
class UploadedFile:
    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass(eq=False)
class RecordedRequest:
    """One HTTP request the bot made. ``route`` is discord.py's own route template
    (``"POST /channels/{channel_id}/messages"``; None for an unknown route), ``params`` the
    path parameters, ``json`` the JSON body (for multipart requests: the parsed
    ``payload_json`` part), ``files`` the uploaded files, ``response`` what was answered."""

    seq: int
    time: float
    method: str
    route: str | None
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    status: int = 0
    response: Any = None

    @property
    def multipart(self) -> bool:
        return bool(self.files)

    def __repr__(self) -> str:
        body = json.dumps(self.json)[:120] if self.json is not None else ""
        return f"<{self.method} {self.path} -> {self.status} {body}>"


@dataclass(eq=False)
class GatewayFrame:
    """A gateway payload, ``direction`` "send" (server to bot) or "recv" (bot to server)."""

    direction: str
    shard_id: int
    op: int
    t: str | None
    s: int | None
    d: Any


@dataclass(eq=False)
class InteractionRecord:
    """An interaction pushed to the bot and what the bot did with its token."""

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    source_message_id: int | None = None
    callback: RecordedRequest | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else int(self.callback.json["type"])


_MENTION = re.compile(r"<@!?(\d+)>")


def mentioned_user_ids(content: str) -> list[int]:
    return [int(m) for m in _MENTION.findall(content)]
