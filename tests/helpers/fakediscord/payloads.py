"""Builders for Discord API objects (API v10 JSON, ids as strings), shaped as Discord sends
them and as discord.py 2.x parses them: users, members, roles, channels, guilds (the gateway
``GUILD_CREATE`` form), messages, attachments, and the four interaction kinds a bot receives
(application commands, autocomplete, message components, modal submits).

Pure functions of the world objects in :mod:`fakediscord.models`: no I/O, no state.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from .models import (
    DM,
    PUBLIC_THREAD,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    StoredAttachment,
)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction contexts.
CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1


def iso(ts: datetime.datetime | None = None) -> str:
    return (ts or datetime.datetime.now(datetime.UTC)).isoformat()


def user_payload(user: FakeUser) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.username,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "avatar_decoration_data": None,
    }


def client_user_payload(user: FakeUser) -> dict[str, Any]:
    """``GET /users/@me`` and ``READY.user``: a user plus the account fields."""
    return {**user_payload(user), "verified": True, "mfa_enabled": False, "flags": 0,
            "locale": user.locale, "email": None}


def member_payload(member: FakeMember, *, with_user: bool = True,
                   permissions: int | None = None) -> dict[str, Any]:
    """A guild member; ``permissions`` (a string bitfield, as in interactions) when given."""
    data: dict[str, Any] = {
        "roles": [str(r) for r in member.roles],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(member.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: FakeRole) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }


def channel_payload(channel: FakeChannel) -> dict[str, Any]:
    if channel.type == DM:
        assert channel.recipient is not None
        return {"id": str(channel.id), "type": DM, "last_message_id": None, "flags": 0,
                "recipients": [user_payload(channel.recipient)]}
    data: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": channel.overwrites,
        "nsfw": False,
        "topic": channel.topic,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "flags": 0,
    }
    if channel.type == PUBLIC_THREAD:
        data.update({
            "owner_id": str(channel.owner_id),
            "message_count": 0,
            "member_count": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                "archive_timestamp": iso(), "locked": False},
        })
        del data["permission_overwrites"], data["topic"], data["position"]
    return data


def guild_create_payload(guild: FakeGuild, *, members: list[FakeMember]) -> dict[str, Any]:
    """The gateway ``GUILD_CREATE`` object: the guild with its roles, channels, threads and
    the given members; ``member_count`` is always the true total, so discord.py chunks the
    guild (when it asks) exactly when ``members`` is partial."""
    channels = [c for c in guild.channels.values() if c.type != PUBLIC_THREAD]
    threads = [c for c in guild.channels.values() if c.type == PUBLIC_THREAD]
    system = guild.text_channels[0].id if guild.text_channels else None
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None if system is None else str(system),
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": iso(),
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [member_payload(m) for m in members],
        "channels": [channel_payload(c) for c in channels],
        "threads": [channel_payload(c) for c in threads],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def rest_guild_payload(guild: FakeGuild) -> dict[str, Any]:
    """``GET /guilds/{guild_id}``: the guild without the gateway-only fields."""
    data = guild_create_payload(guild, members=[])
    for key in ("joined_at", "large", "unavailable", "member_count", "voice_states", "members",
                "channels", "threads", "presences", "stage_instances",
                "guild_scheduled_events", "soundboard_sounds"):
        del data[key]
    return data


def attachment_payload(attachment: StoredAttachment, url: str, *, ephemeral: bool = False
                       ) -> dict[str, Any]:
    """An attachment object; ``ephemeral`` for a file attached to a command option (Discord
    marks those ``"ephemeral": true``)."""
    data: dict[str, Any] = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": len(attachment.data),
        "url": url,
        "proxy_url": url,
        "content_type": attachment.content_type,
    }
    if attachment.description is not None:
        data["description"] = attachment.description
    size = png_size(attachment.data)
    if size is not None:
        data["width"], data["height"] = size
    if ephemeral:
        data["ephemeral"] = True
    return data


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG (read from its IHDR chunk), None for anything else."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def message_payload(*, message_id: int, channel_id: int, author: FakeUser, content: str,
                    embeds: list[dict[str, Any]], components: list[dict[str, Any]],
                    attachments: list[dict[str, Any]], flags: int, tts: bool = False,
                    mentions: list[FakeUser] | None = None, message_type: int = 0,
                    application_id: int | None = None,
                    interaction_metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": message_type,
        "author": user_payload(author),
        "content": content,
        "timestamp": iso(),
        "edited_timestamp": None,
        "tts": tts,
        "mention_everyone": False,
        "mentions": [user_payload(u) for u in mentions or []],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": embeds,
        "components": components,
        "reactions": [],
        "pinned": False,
        "flags": flags,
    }
    if application_id is not None:
        data["application_id"] = str(application_id)
        data["webhook_id"] = str(application_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = interaction_metadata
    return data


def _location(*, user: FakeUser, channel: FakeChannel, guild: FakeGuild | None,
              permissions: int, app_permissions: int) -> dict[str, Any]:
    """The fields that say who acts where: guild, channel, member or user, context."""
    data: dict[str, Any] = {
        "channel_id": str(channel.id),
        "channel": channel_payload(channel),
        "app_permissions": str(app_permissions),
        "locale": user.locale,
    }
    if guild is not None:
        member = guild.members[user.id]
        data.update({
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "member": member_payload(member, permissions=permissions),
            "context": CONTEXT_GUILD,
            "authorizing_integration_owners": {"0": str(guild.id)},
        })
    else:
        data.update({
            "user": user_payload(user),
            "context": CONTEXT_BOT_DM,
            "authorizing_integration_owners": {"0": "0"},
        })
    return data


def interaction_payload(*, interaction_id: int, token: str, application_id: int,
                        interaction_type: int, data: dict[str, Any], user: FakeUser,
                        channel: FakeChannel, guild: FakeGuild | None, permissions: int,
                        app_permissions: int,
                        message: dict[str, Any] | None = None) -> dict[str, Any]:
    """An ``INTERACTION_CREATE`` payload. ``data`` is the type-specific part (command name and
    options, or ``custom_id`` / ``component_type`` / ``values``, or a modal's components);
    ``message`` the message a component sits on. In a guild the actor comes as ``member``
    (with ``permissions``, a string bitfield), in a DM as ``user``."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "data": data,
        "token": token,
        "version": 1,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        **_location(user=user, channel=channel, guild=guild, permissions=permissions,
                    app_permissions=app_permissions),
    }
    if message is not None:
        payload["message"] = message
    return payload


def command_data(command: dict[str, Any], options: list[dict[str, Any]],
                 resolved: dict[str, Any]) -> dict[str, Any]:
    """``data`` of an application command interaction for a registered ``command`` (as
    stored by the command sync routes), with already typed ``options``."""
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": command.get("type", 1),
        "options": options,
    }
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def component_data(custom_id: str, component_type: int, values: list[str] | None = None,
                   resolved: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    if resolved:
        data["resolved"] = resolved
    return data


def modal_submit_data(modal: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """``data`` of a modal submit: the modal's own layout (action rows, or labels wrapping
    one component) with each input's ``custom_id`` and the typed ``value`` (a string), or
    ``values`` (a list) for selects inside labels."""

    def answer(component: dict[str, Any]) -> dict[str, Any]:
        custom_id = component["custom_id"]
        if component["type"] == 4:
            return {"type": 4, "id": component.get("id", 0), "custom_id": custom_id,
                    "value": str(values.get(custom_id, component.get("value", "")))}
        chosen = values.get(custom_id, [])
        return {"type": component["type"], "id": component.get("id", 0),
                "custom_id": custom_id, "values": [str(v) for v in chosen]}

    rows: list[dict[str, Any]] = []
    for top in modal.get("components", []):
        if top["type"] == 1:
            rows.append({"type": 1, "components": [answer(c) for c in top["components"]
                                                   if "custom_id" in c]})
        elif top["type"] == 18:
            rows.append({"type": 18, "id": top.get("id", 0), "component": answer(top["component"])})
    return {"custom_id": modal["custom_id"], "components": rows}


def resolved_for(*, users: Sequence[FakeUser] = (), guild: FakeGuild | None = None,
                 roles: Sequence[FakeRole] = (), channels: Sequence[FakeChannel] = (),
                 channel_permissions: int = 0,
                 attachments: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The ``resolved`` map of a command or select that names users, roles or channels, or
    of a command given files (``attachments``: attachment objects, keyed by their id)."""
    resolved: dict[str, Any] = {}
    if attachments:
        resolved["attachments"] = {a["id"]: a for a in attachments}
    if users:
        resolved["users"] = {str(u.id): user_payload(u) for u in users}
        if guild is not None:
            resolved["members"] = {
                str(u.id): member_payload(guild.members[u.id], with_user=False,
                                          permissions=guild.permissions_of(u.id))
                for u in users if u.id in guild.members}
    if roles:
        resolved["roles"] = {str(r.id): role_payload(r) for r in roles}
    if channels:
        resolved["channels"] = {
            str(c.id): {"id": str(c.id), "name": c.name, "type": c.type,
                        "permissions": str(channel_permissions),
                        "parent_id": None if c.parent_id is None else str(c.parent_id)}
            for c in channels}
    return resolved
