"""What the club cogs share: their refusal type and the admin check. Answers go through
:mod:`bot.discord_bot.answer` (re-exported here for the cogs)."""

from __future__ import annotations

from bot.discord_bot.answer import (
    NO_PINGS,
    USER_ERRORS,
    Interaction,
    Reply,
    UserError,
    answer,
    refuse,
    update_in_place,
)
from bot.i18n import N_

__all__ = ["NO_PINGS", "USER_ERRORS", "ClubError", "Reply", "answer", "guild_of", "is_admin",
           "require_admin", "send_error", "update_in_place"]


class ClubError(UserError):
    """A club command refused, with a message for the user."""


def is_admin(interaction: Interaction) -> bool:
    """Whether the member may run admin club commands (Manage Server)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def require_admin(interaction: Interaction, refusal: str) -> None:
    """Refuse with ``refusal`` (an ``N_`` message id) unless the member has Manage Server."""
    if not is_admin(interaction):
        raise ClubError(refusal)


def guild_of(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise ClubError(N_("this command works in a server channel only"))
    return interaction.guild_id


async def send_error(interaction: Interaction, message: str) -> None:
    """Tell the user privately (see :func:`bot.discord_bot.answer.refuse`)."""
    await refuse(interaction, message)
