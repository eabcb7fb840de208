"""What the club cogs share: their refusal type and the admin check. Answers go through
:mod:`bot.discord_bot.answer` (re-exported here for the cogs)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

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
from bot.discord_bot.languages import Languages
from bot.i18n import N_, Translator

__all__ = ["NO_PINGS", "USER_ERRORS", "ClubError", "Reply", "answer", "answer_publicly",
           "guild_of", "is_admin", "require_admin", "send_error", "update_in_place"]


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


async def answer_publicly(interaction: Interaction, languages: Languages,
                          work: Callable[[Translator], Awaitable[Reply]]) -> None:
    """Answer a club command publicly, worded in the server's language; its refusals go
    privately to the member, in theirs."""
    reader = await languages.reader(interaction)
    server = await languages.server(interaction.guild_id)
    await answer(interaction, lambda: work(server), t=reader)


async def send_error(interaction: Interaction, message: str) -> None:
    """Tell the user privately (see :func:`bot.discord_bot.answer.refuse`)."""
    await refuse(interaction, message)
