"""Discord Activities and OAuth2 in the fake Discord (docs/testing-discord.md).

* **Launch.** The interaction callback type 12 (``LAUNCH_ACTIVITY``) on a command or a
  component interaction puts its user in the channel's Activity instance (a new one when
  the channel has none running) and answers with ``activity_instance_id``; when
  :attr:`Activities.enabled` is False (the application has no Activities) it is refused
  with Discord's 400 ``50231``.
* **Instances.** :meth:`Activities.start`, :meth:`join`, :meth:`leave`, :meth:`end`;
  ``GET /applications/{app}/activity-instances/{instance}`` (bot token) answers
  ``{application_id, instance_id, launch_id, location: {id, kind, channel_id, guild_id},
  users}``, 404 for an unknown or ended instance.
* **OAuth2.** :meth:`Activities.authorize` is what the SDK's ``commands.authorize`` hands
  the page: a code for a user. ``POST /oauth2/token`` (form-encoded ``client_id``,
  ``client_secret``, ``grant_type=authorization_code``, ``code``; or the client in HTTP
  Basic auth) exchanges it once for an access token (``invalid_client`` 401 for a wrong
  client, ``invalid_grant`` 400 for an unknown or reused code, ``unsupported_grant_type``
  400). ``GET /users/@me`` and ``GET /oauth2/@me`` take ``Authorization: Bearer <token>``
  (401 for an unknown token); :meth:`Activities.foreign_token` makes a token of another
  application for the same user.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from . import payloads as P
from .limits import DiscordError
from .models import FakeChannel, FakeUser, RecordedRequest

if TYPE_CHECKING:
    from .models import InteractionRecord
    from .server import FakeDiscord

LAUNCH_ACTIVITY = 12
ACTIVITIES_DISABLED = 50231
TOKEN_LIFETIME = 604800


@dataclass(eq=False)
class FakeActivityInstance:
    """One running Activity in a channel: who is in it; ``ended`` once it closed."""

    instance_id: str
    launch_id: int
    channel: FakeChannel
    users: list[int] = field(default_factory=list)
    ended: bool = False


@dataclass(frozen=True)
class AccessGrant:
    user_id: int
    application_id: int
    scopes: tuple[str, ...]


class OAuthError(DiscordError):
    """An OAuth2 error answer (``{"error": …, "error_description": …}``)."""

    def __init__(self, status: int, error: str, description: str | None = None) -> None:
        super().__init__(status, 0, error)
        self.body = {"error": error}
        if description is not None:
            self.body["error_description"] = description


class Activities:
    """The fake application's Activities and OAuth2 grants (module docstring)."""

    def __init__(self, discord: FakeDiscord) -> None:
        self.discord = discord
        self.enabled = True
        """Whether the application has Activities (else a launch is refused, 50231)."""
        self.client_secret = secrets.token_urlsafe(24)
        self.instances: dict[str, FakeActivityInstance] = {}
        self._codes: dict[str, tuple[int, bool]] = {}
        """code → (user id, used)."""
        self._tokens: dict[str, AccessGrant] = {}

    # -- the world -----------------------------------------------------------------------
    def running_in(self, channel: FakeChannel) -> FakeActivityInstance | None:
        return next((i for i in self.instances.values()
                     if i.channel.id == channel.id and not i.ended), None)

    def start(self, channel: FakeChannel, *users: FakeUser) -> FakeActivityInstance:
        """A new instance in ``channel`` with ``users`` in it."""
        launch = self.discord.snowflake()  # Discord's shape: i-<launch>-gc-<guild>-<channel>
        where = (f"gc-{channel.guild_id}-{channel.id}" if channel.guild_id is not None
                 else f"pc-{channel.id}")
        instance = FakeActivityInstance(f"i-{launch}-{where}", launch, channel,
                                        [u.id for u in users])
        self.instances[instance.instance_id] = instance
        return instance

    def join(self, instance: FakeActivityInstance, user: FakeUser) -> None:
        if user.id not in instance.users:
            instance.users.append(user.id)

    def leave(self, instance: FakeActivityInstance, user: FakeUser) -> None:
        if user.id in instance.users:
            instance.users.remove(user.id)
        if not instance.users:
            instance.ended = True

    def end(self, instance: FakeActivityInstance) -> None:
        instance.users.clear()
        instance.ended = True

    def authorize(self, user: FakeUser) -> str:
        """The code ``commands.authorize`` gives the page of ``user`` (scope identify)."""
        code = secrets.token_urlsafe(20)
        self._codes[code] = (user.id, False)
        return code

    def foreign_token(self, user: FakeUser) -> str:
        """An access token of ``user`` issued to another application."""
        token = secrets.token_urlsafe(24)
        self._tokens[token] = AccessGrant(user.id, self.discord.snowflake(), ("identify",))
        return token

    # -- the launch callback -------------------------------------------------------------
    def launch(self, interaction: InteractionRecord) -> dict[str, Any]:
        """Answer a type-12 callback (module docstring)."""
        if not self.enabled:
            raise DiscordError(400, ACTIVITIES_DISABLED, "Activities are not enabled for "
                               "this application")
        instance = self.running_in(interaction.channel)
        if instance is None:
            instance = self.start(interaction.channel, interaction.user)
        else:
            self.join(instance, interaction.user)
        return {"interaction": {"id": str(interaction.id), "type": interaction.type,
                                "activity_instance_id": instance.instance_id,
                                "response_message_loading": False,
                                "response_message_ephemeral": False},
                "resource": {"type": LAUNCH_ACTIVITY,
                             "activity_instance": {"id": instance.instance_id}}}

    # -- REST ----------------------------------------------------------------------------
    def get_instance(self, record: RecordedRequest) -> dict[str, Any]:
        if record.params["application_id"] != str(self.discord.application_id):
            raise DiscordError(403, 50001, "Missing Access")
        instance = self.instances.get(record.params["instance_id"])
        if instance is None or instance.ended:
            raise DiscordError(404, 0, "404: Not Found")
        channel = instance.channel
        location: dict[str, Any] = {"id": f"gc-{channel.guild_id}-{channel.id}",
                                    "kind": "gc" if channel.guild_id else "pc",
                                    "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            location["guild_id"] = str(channel.guild_id)
        return {"application_id": str(self.discord.application_id),
                "instance_id": instance.instance_id, "launch_id": str(instance.launch_id),
                "location": location, "users": [str(u) for u in instance.users]}

    def exchange(self, record: RecordedRequest, authorization: str | None) -> dict[str, Any]:
        """``POST /oauth2/token`` (raises :class:`OAuthError`)."""
        form = {k: v[0] for k, v in parse_qs(record.json if isinstance(record.json, str)
                                            else "").items()}
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(authorization[6:]).decode().partition(
                    ":")
            except ValueError:
                raise OAuthError(401, "invalid_client") from None
        if client_id != str(self.discord.application_id) or secret != self.client_secret:
            raise OAuthError(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            raise OAuthError(400, "unsupported_grant_type")
        code = form.get("code", "")
        held = self._codes.get(code)
        if held is None or held[1]:
            raise OAuthError(400, "invalid_grant", 'Invalid "code" in request.')
        self._codes[code] = (held[0], True)
        token = secrets.token_urlsafe(24)
        self._tokens[token] = AccessGrant(held[0], self.discord.application_id, ("identify",))
        return {"token_type": "Bearer", "access_token": token, "expires_in": TOKEN_LIFETIME,
                "refresh_token": secrets.token_urlsafe(24), "scope": "identify"}

    def bearer(self, authorization: str | None) -> AccessGrant | None:
        """The grant of an ``Authorization: Bearer …`` header, if it names one."""
        if not authorization or not authorization.startswith("Bearer "):
            return None
        return self._tokens.get(authorization[7:])

    def me(self, grant: AccessGrant) -> dict[str, Any]:
        return P.user_payload(self.discord.users[grant.user_id])

    def authorization_info(self, grant: AccessGrant) -> dict[str, Any]:
        """``GET /oauth2/@me``: the token's application, scopes and user."""
        return {"application": {"id": str(grant.application_id), "name": "app",
                                "icon": None, "description": "", "bot_public": True,
                                "bot_require_code_grant": False,
                                "verify_key": "0" * 64, "flags": 0},
                "scopes": list(grant.scopes), "expires": P.iso(),
                "user": self.me(grant)}
