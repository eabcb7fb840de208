"""A fake Discord API and gateway on 127.0.0.1 for end-to-end tests of the Discord adapter
with the real discord.py client. See docs/testing-discord.md."""

from .client import (
    BotError,
    CommandUnavailable,
    ComponentUnavailable,
    Harness,
    InteractionResult,
    SimulatedUser,
    bot_options,
    pointed_at,
)
from .limits import DiscordError
from .models import (
    CommandFile,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    GatewayFrame,
    InteractionRecord,
    RecordedRequest,
    StoredAttachment,
    StoredMessage,
    snowflake_for_shard,
)
from .server import FakeDiscord, NotConnected, counts_globally

__all__ = [
    "BotError",
    "CommandFile",
    "CommandUnavailable",
    "ComponentUnavailable",
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "GatewayFrame",
    "Harness",
    "InteractionRecord",
    "InteractionResult",
    "NotConnected",
    "RecordedRequest",
    "SimulatedUser",
    "StoredAttachment",
    "StoredMessage",
    "bot_options",
    "counts_globally",
    "pointed_at",
    "snowflake_for_shard",
]
