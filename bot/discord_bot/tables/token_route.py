"""A DM panel edited through a click's interaction token: :class:`TokenRoute`.

Discord counts every request made with the bot's token against the bot's global limit of
50 per second (all shards and processes together); the interaction endpoints are not
bound to it — the answer to a click, and the edits of the clicked message through the
click's token (``PATCH /webhooks/{application}/{token}/messages/@original``), which works
for 15 minutes. A click on a hand DM (answered here, or by the table's owner for a click
another process received and forwarded) leaves its token to the DM's one editor (its
:class:`~bot.discord_bot.tables.delivery.LiveMessage`): while the token is valid
(:data:`TOKEN_LIFETIME`) and the message is the clicked one, the editor's edits go through
it — the next turn's controls, a forwarded click's redraw — in the editor's own order, and
cost the bot's budget nothing. A token Discord no longer takes (an expired or unknown
interaction: 401, 404 Unknown Webhook) is dropped and the edit made with the bot's token.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, cast

import discord

TOKEN_LIFETIME = 14 * 60.0
"""Seconds a click's token is used for (Discord keeps it 15 minutes)."""

ORIGINAL = cast(int, "@original")
"""Discord's name of an interaction's original response (for a click: the message
clicked on) in the webhook message routes; discord.py puts the id into the path as is."""


@dataclass(frozen=True)
class TokenRoute:
    """The click on message ``message_id`` whose token edits it (module docstring)."""

    application_id: int
    token: str
    message_id: int
    since: float = field(default_factory=time.monotonic)

    @staticmethod
    def of(application_id: object, token: object, message_id: object) -> TokenRoute | None:
        """The route of a click's fields (None when one is missing)."""
        if (isinstance(application_id, int) and isinstance(token, str) and token
                and isinstance(message_id, int)):
            return TokenRoute(application_id, token, message_id)
        return None

    @staticmethod
    def of_interaction(interaction: discord.Interaction[discord.Client]) -> TokenRoute | None:
        """The route of a click answered by updating the clicked message."""
        message = interaction.message
        return TokenRoute.of(interaction.application_id, interaction.token,
                             None if message is None else message.id)

    def fits(self, message_id: int) -> bool:
        """Whether this token edits ``message_id`` now."""
        return (message_id == self.message_id
                and time.monotonic() - self.since < TOKEN_LIFETIME)

    def webhook(self, client: discord.Client) -> discord.Webhook:
        hook = discord.Webhook.partial(self.application_id, self.token, client=client)
        hook.type = discord.WebhookType.application  # an interaction's webhook
        return hook

    async def edit(self, client: discord.Client, **kwargs: Any) -> None:
        """Edit the clicked message through the token."""
        await self.webhook(client).edit_message(ORIGINAL, **kwargs)


def token_refused(exc: discord.HTTPException) -> bool:
    """Whether Discord refused the token itself (expired or unknown): the edit is then
    made with the bot's token."""
    return exc.status == 401 or (exc.status == 404 and exc.code in (10015, 10062))
