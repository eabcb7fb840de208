"""One way to answer an interaction, for table components and club commands alike.

The policy (Discord wants an answer within 3 seconds):

* the work runs first; when it is done within ``defer_after`` seconds (:data:`DEFER_AFTER`
  unless the caller passes the bot's setting) the interaction is answered with its result
  in **one** request — a refusal found at once is then a private message;
* when the work is slower, the interaction is deferred meanwhile (a "thinking" message for
  a command, a silent acknowledgement for a click on a component) and the result then
  fills or edits the deferred response.

The one error path (:func:`refuse`): a :class:`UserError` or a table service refusal
(:class:`bot.service.ServiceError`) reaches the user as a private sentence and changes
nothing; any other exception is logged once and answered with a short apology.

Every answer is worded for its reader: the caller passes the translator of the user's
private language (``await languages.reader(interaction)``,
:mod:`bot.discord_bot.languages`), and the refusals (:class:`~bot.i18n.said.SaidError`:
an English template and its fields) are translated with it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from bot.discord_bot.club.club_texts import ScoresheetError
from bot.i18n import N_, Translator
from bot.i18n.said import Said, SaidError
from bot.leagues.service import LeagueError
from bot.service import ServiceError, StaleAction

log = logging.getLogger(__name__)

DEFER_AFTER: float = 1.5
"""Seconds of work after which the interaction is deferred (read at call time; the bot sets
it for a table from ``Settings.defer_after``)."""

CONTENT_LIMIT: Final = 2000
NO_PINGS: Final = discord.AllowedMentions.none()

Interaction = discord.Interaction[discord.Client]


class UserError(SaidError):
    """A request refused with a message for the user; nothing was changed
    (``UserError(N_("Unknown game {game}."), game=quote(name))``)."""


USER_ERRORS: Final = (UserError, LeagueError, ScoresheetError)
"""Refusals told to the user as they are (the domain code words them for players)."""


@dataclass
class Reply:
    """What an interaction is answered with."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    ephemeral: bool = False
    ping: tuple[int, ...] = ()
    """Users whose mentions in ``content`` notify them (nobody else is ever pinged)."""
    clear_files: bool = False
    """On an update: drop the message's attachments when ``files`` is empty."""

    def mentions(self) -> discord.AllowedMentions:
        if not self.ping:
            return NO_PINGS
        return discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(u) for u in self.ping])

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embeds": self.embeds, "allowed_mentions": self.mentions(),
                               "files": [_file(n, d) for n, d in self.files]}
        if self.content is not None:
            out["content"] = clip(self.content)
        if self.view is not None:
            out["view"] = self.view
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embeds": self.embeds, "view": self.view,
                               "allowed_mentions": self.mentions()}
        if self.files or self.clear_files:
            out["attachments"] = [_file(n, d) for n, d in self.files]
        if self.content is not None:
            out["content"] = clip(self.content)
        return out


def _file(name: str, data: bytes) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


STALE: Final = N_("That choice is no longer current (a double click, or a panel from an "
                  "earlier turn): nothing changed. Use **My hand** for the current panel.")
NOT_NOW: Final = N_("That is not possible now.")
FAILED: Final = N_("Something went wrong; nothing was changed. The error was logged.")


def sentence(said: Said, t: Translator) -> str:
    """A service refusal as a sentence for the player, in ``t``'s language."""
    if said.message == StaleAction.MESSAGE:
        return t.gettext(STALE)
    text = said.text(t).strip() or t.gettext(NOT_NOW)
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "…")) else text + "."


async def refuse(interaction: Interaction, message: str) -> None:
    """Tell the user privately where Discord allows (``message`` is worded already): an
    ephemeral message when nothing was answered yet or after a silent acknowledgement;
    after a public "thinking" deferral the loading message itself shows the refusal."""
    text = clip(f"⚠️ {message}")
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=NO_PINGS)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)
    else:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def _run(interaction: Interaction, work: Callable[[], Awaitable[Reply | None]],
               defer_after: float | None, defer: Callable[[], Awaitable[Any]],
               t: Translator) -> tuple[Reply | None, bool]:
    """Run ``work``, deferring if it is still running after the policy's time. Returns
    its reply (None: nothing to send, or the work failed and the user was told) and
    whether the interaction was deferred."""
    wait = DEFER_AFTER if defer_after is None else defer_after
    task = asyncio.ensure_future(work())
    deferred = False
    slow = wait <= 0 or not (await asyncio.wait({task}, timeout=wait))[0]
    if slow and not interaction.response.is_done():
        await defer()
        deferred = True
    try:
        return await task, deferred
    except USER_ERRORS as exc:
        await refuse(interaction, exc.said.text(t))
    except ServiceError as exc:
        await refuse(interaction, sentence(exc.said, t))
    except Exception:
        log.exception("answering %s failed", _what(interaction))
        await refuse(interaction, t.gettext(FAILED))
    return None, deferred


async def answer(interaction: Interaction, work: Callable[[], Awaitable[Reply | None]], *,
                 t: Translator, defer_after: float | None = None,
                 private_wait: bool = False) -> discord.Message | None:
    """Run ``work`` and answer with its :class:`Reply` (a new message). Returns the
    message when it was sent as a follow-up (after a deferral), else None.

    ``private_wait``: the "thinking" message of a deferral is ephemeral (for a reply that
    will be private)."""
    reply, deferred = await _run(
        interaction, work, defer_after,
        lambda: interaction.response.defer(thinking=True, ephemeral=private_wait), t)
    if reply is None:
        return None
    if deferred or interaction.response.is_done():
        return await interaction.followup.send(wait=True, ephemeral=reply.ephemeral,
                                               **reply.send_kwargs())
    await interaction.response.send_message(ephemeral=reply.ephemeral, **reply.send_kwargs())
    return None


async def update_in_place(interaction: Interaction,
                          work: Callable[[], Awaitable[Reply | None]], *,
                          t: Translator, defer_after: float | None = None
                          ) -> Reply | None:
    """Run ``work`` for a click and replace the clicked message with its :class:`Reply`
    (``content`` None keeps the content). In one request (an update) when the work is
    quick, else a silent acknowledgement and then an edit. When ``work`` returns a reply
    with ``ephemeral`` set, it is sent as a private message instead of an update. Returns
    the reply sent (None: the work had nothing to send, or failed and the user was told)."""
    reply, deferred = await _run(interaction, work, defer_after,
                                 interaction.response.defer, t)
    if reply is None:
        if not interaction.response.is_done():
            await interaction.response.defer()
        return None
    if reply.ephemeral:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **reply.send_kwargs())
        else:
            await interaction.response.send_message(ephemeral=True, **reply.send_kwargs())
        return reply
    if deferred or interaction.response.is_done():
        await interaction.edit_original_response(**reply.edit_kwargs())
    else:
        await interaction.response.edit_message(**reply.edit_kwargs())
    return reply


def _what(interaction: Interaction) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data = interaction.data
    custom = data.get("custom_id", "?") if data is not None else "?"
    return f"component {custom}"
