"""Clicks for a table another bot process owns, both sides (see ``docs/scale.md``).

Discord delivers every DM interaction to shard 0, whatever the table's guild, so the
process running shard 0 receives the hand-DM clicks of every table.

**The receiving side** (:class:`ShardedClicks`, the router's click handler): a click for a
table this process holds is handled as always (:class:`~bot.discord_bot.tables.clicks.TableClicks`).
Otherwise the interaction is acknowledged at once (a silent deferral, well within
Discord's 3 seconds) and handed to the owner through PostgreSQL
(:meth:`bot.cluster.ForwardingClient.forward`, keyed by the interaction id: handled once).
The owner answers the player itself; only when it does not answer within the wait
(``timeout``) does the receiving side tell the player privately that the table's process
is not answering. The request stays in the owner's inbox and is applied at most once when
that process is back (its answer then still reaches the player through the token). When
the database does not answer the receiving side (the click cannot be passed on), the
player is told so privately: every click gets an answer.

**The owner's side** (:meth:`ShardedClicks.answer_forwarded`, the
:class:`bot.cluster.AnswerCallback`):
the owner applied the request under the table's lock exactly as a local click, and stored
what it changes before marking it done (:class:`bot.cluster.InboxConsumer`: a picked card
is played there too); this callback only draws, through the interaction's webhook token:

* ``applied`` ``act`` / ``panel``: when the clicked DM is the seat's live DM panel, its
  one editor (:class:`~bot.discord_bot.tables.seat_panels.SeatPanels`, which draws the newest state
  and never lets an older drawing land after a newer one) redraws it; an older DM message
  clicked (e.g. the last panel of a finished deal) is edited through the token to the
  state of now. A click that ended the clicked DM's deal is answered there with "Deal N
  is over…" and no controls: the next deal has a DM of its own (as a local click). A
  pick's variants or a signal choice are drawn through the token on the clicked DM,
  which becomes the seat's live panel (as a local click makes it);
* ``applied`` ``rejoin``: "Welcome back", privately;
* anything else: the reason, privately (as :func:`bot.discord_bot.answer.refuse` words it).

A card chosen in the card select is a ``panel`` request carrying ``{"pick": action,
"version": v}``: the owner's inbox resolves it against the seat's legal actions as a local
click does — the exact legal action (or a card's only variant) is played, under the
version check, before the request is marked done (a request delivered again after the
owner died is refused as stale: played once); several variants are offered as buttons
on the panel. The leader's signal choice
(:mod:`bot.discord_bot.tables.card_select`) is a ``panel`` request carrying ``{"signal": word or
None, "version": v}``: the panel is redrawn with the cards carrying it.
"""

from __future__ import annotations

import logging
from typing import cast

import discord

from bot.cluster import ClusterNode, Delivery, ForwardOutcome, ForwardRequest
from bot.discord_bot.answer import (
    NO_PINGS,
    NOT_NOW,
    UserError,
    answer,
    clip,
    refuse,
    sentence,
)
from bot.discord_bot.router import Click
from bot.discord_bot.table_hub import TableHub
from bot.discord_bot.tables.clicks import (
    MATCH_OVER_HERE,
    TableClicks,
    deal_over_here,
)
from bot.discord_bot.tables.hand_panel import SeatState, draw_panel
from bot.discord_bot.tables.seat_panels import SeatPanels
from bot.discord_bot.tables.table_words import refusal_sentence, rule_refusal
from bot.discord_bot.tables.token_route import ORIGINAL, TokenRoute
from bot.i18n import N_, Translator, translator
from bot.i18n.languages import match_language
from bot.i18n.said import Said
from bot.service import NoSuchTable, RuleRefusal, ServiceError, StaleAction, TableInfo
from games.actions import Action, action_from_json
from storage import ChannelLocation, NotFound, Table
from storage.models import JsonObject

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

NOT_ANSWERING = N_("The process that runs this table is not answering right now (it may be "
                   "restarting): your click was not applied yet. If it is applied when the "
                   "process is back, this panel will show it; otherwise try again in a "
                   "moment.")
WELCOME_BACK = N_("Welcome back: your seat is yours again.")
CLOSED = N_("That table is closed.")
DB_AWAY = N_("Your click could not be passed on to its table: the database is not "
             "answering. Try again in a moment.")
OUTCOME_TEXTS: dict[str, str] = {
    "no_table": CLOSED,
    "failed": N_("Your choice could not be saved; nothing changed. Please try again."),
    "expired": N_("Your click waited too long for its table's process (it was down), so "
                  "it was not applied. Look at the panel and choose again."),
}


class ShardedClicks(TableClicks):
    """The click handler of a process that runs some of the shards (module docstring)."""

    def __init__(self, hub: TableHub, node: ClusterNode) -> None:
        super().__init__(hub)
        self.node = node

    async def act(self, interaction: Interaction, click: Click, action: Action | None, *,
                  picked: bool = False) -> None:
        if self.service.holds(click.table_id):
            await super().act(interaction, click, action, picked=picked)
        elif action is None:
            await self._refuse(interaction, click.table_id, N_("That choice is not understood."))
        elif picked:
            await self._forward(interaction, ForwardRequest.panel(
                click.table_id, click.user_id,
                {"pick": action.to_json(), "version": click.version}))
        else:
            await self._forward(interaction, ForwardRequest.act(
                click.table_id, click.user_id, action.to_json(), click.version))

    async def bid_cards(self, interaction: Interaction, click: Click,
                        cards: tuple[str, ...]) -> None:
        if self.service.holds(click.table_id):
            await super().bid_cards(interaction, click, cards)
        elif not cards:
            await self._refuse(interaction, click.table_id, N_("Choose at least one card."))
        else:
            await self._forward(interaction, ForwardRequest.act(
                click.table_id, click.user_id, Action.bid_cards(cards).to_json(),
                click.version))

    async def my_hand(self, interaction: Interaction, click: Click) -> None:
        if self.service.holds(click.table_id) or not click.on_panel:
            await super().my_hand(interaction, click)
        else:
            await self._forward(interaction,
                                ForwardRequest.panel(click.table_id, click.user_id))

    async def signal(self, interaction: Interaction, click: Click, signal: str | None
                     ) -> None:
        if self.service.holds(click.table_id):
            await super().signal(interaction, click, signal)
        else:
            await self._forward(interaction, ForwardRequest.panel(
                click.table_id, click.user_id, {"signal": signal, "version": click.version}))

    async def back(self, interaction: Interaction, click: Click) -> None:
        if self.service.holds(click.table_id):
            await super().back(interaction, click)
        else:
            await self._forward(interaction,
                                ForwardRequest.rejoin(click.table_id, click.user_id))

    async def _refuse(self, interaction: Interaction, table_id: int, message: str) -> None:
        async def run() -> None:
            raise UserError(message)
        await answer(interaction, run, t=await self.reader(interaction, table_id),
                     defer_after=self.hub.settings.defer_after)

    async def _forward(self, interaction: Interaction, request: ForwardRequest) -> None:
        """Acknowledge the click, hand it to the table's owner, and answer only what the
        owner cannot: a closed table, or an owner that does not answer in time."""
        await interaction.response.defer()  # first: Discord wants an answer within 3 s
        t = translator(match_language(str(interaction.locale)) or "en")
        try:
            # one read of the table's row serves the language, the check and the forward
            row = await self.hub.store.get_table(request.table_id)
            t = await self._reader_of(interaction, row)
            if row is None or row.status not in ("lobby", "playing"):
                await refuse(interaction, t.gettext(CLOSED))
                return
            message = interaction.message
            reply_to: JsonObject = {
                "application_id": interaction.application_id, "token": interaction.token,
                "channel_id": interaction.channel_id,
                "message_id": None if message is None else message.id,
            }
            outcome = await self.node.client.forward(request, key=str(interaction.id),
                                                     reply_to=reply_to, table=row)
        except NotFound:  # the table's row went away meanwhile
            await refuse(interaction, t.gettext(CLOSED))
            return
        except Exception as exc:  # the store (or its connection) failed: say so
            log.warning("table %s: a click could not be forwarded (the database: %r)",
                        request.table_id, exc)
            await refuse(interaction, t.gettext(DB_AWAY))
            return
        if outcome.status == "timeout":
            await refuse(interaction, t.gettext(NOT_ANSWERING))
        log.debug("table %s: forwarded %s → %s", request.table_id, request.kind,
                  outcome.status)

    async def _reader_of(self, interaction: Interaction, row: Table | None) -> Translator:
        """:meth:`reader` with the table's row at hand (a DM click's fallback language
        is its table's server)."""
        guild_id = interaction.guild_id
        if guild_id is None and row is not None and isinstance(row.location, ChannelLocation):
            guild_id = row.location.guild_id
        self.hub.languages.seen(interaction)
        return await self.hub.languages.player(interaction.user.id, guild_id)

    # -- the owner's side ---------------------------------------------------------------
    async def answer_forwarded(self, delivery: Delivery, outcome: ForwardOutcome) -> None:
        """The :class:`bot.cluster.AnswerCallback`: answer a forwarded request through
        its interaction's webhook token (module docstring)."""
        reply_to = delivery.reply_to or {}
        app_id, token = reply_to.get("application_id"), reply_to.get("token")
        if not isinstance(app_id, int) or not isinstance(token, str):
            log.warning("forwarded request %s carries no interaction to answer", delivery.id)
            return
        hook = discord.Webhook.partial(app_id, token, client=self.hub.client)
        hook.type = discord.WebhookType.application  # an interaction's webhook
        request = delivery.request
        t = await self._player_reader(request)
        if outcome.status != "applied":
            rule = rule_refusal(outcome.rule, outcome.message or "")
            await self._private(hook, refusal_sentence(rule, self._info(request.table_id), t)
                                if rule is not None else _outcome_text(outcome, t))
        elif request.kind == "rejoin":
            await hook.send(clip(t.gettext(WELCOME_BACK)), ephemeral=True,
                            allowed_mentions=NO_PINGS)
        else:
            await self._panel(hook, request, reply_to, t, outcome)

    async def _player_reader(self, request: ForwardRequest) -> Translator:
        """The clicking player's language (the owner words the answer: the receiving
        process only forwarded the click)."""
        guild_id = None
        presenter = self.hub.presenters.get(request.table_id)
        if presenter is not None:
            guild_id = presenter.guild_id
        else:
            row = await self.hub.store.get_table(request.table_id)
            if row is not None and isinstance(row.location, ChannelLocation):
                guild_id = row.location.guild_id
        return await self.hub.languages.player(request.user_id, guild_id)

    def _info(self, table_id: int) -> TableInfo | None:
        """The table's info as its presenter shows it (None: not drawn here)."""
        presenter = self.hub.presenters.get(table_id)
        return None if presenter is None else presenter.info

    async def _private(self, hook: discord.Webhook, text: str) -> None:
        await hook.send(clip(f"⚠️ {text}"), ephemeral=True, allowed_mentions=NO_PINGS)

    async def _panel(self, hook: discord.Webhook, request: ForwardRequest,
                     reply_to: JsonObject, t: Translator, outcome: ForwardOutcome) -> None:
        """Draw the seat's panel on the clicked message (a pick: the card the inbox
        played, or its variants to offer)."""
        table_id = request.table_id
        seat = self.service.seat_of(table_id, request.user_id)
        try:
            presenter = await self.hub.ensure(table_id)
            if seat is None or presenter is None:
                raise NoSuchTable(CLOSED)  # answered below, worded as "the match is over"
            state = SeatState.of(self.service.state(table_id, seat))
            clicked_deal = state.deal if outcome.played_deal is None else outcome.played_deal
            pick, signal = self._choice(request, seat, state, outcome)
            panels = self.hub.panels.get(table_id)
            facts = self._facts(presenter, panels)
        except NoSuchTable:
            await _say_on_clicked(hook, t.gettext(MATCH_OVER_HERE))
            return
        except RuleRefusal as exc:  # the rules' reason, with the table's names
            await self._private(hook, refusal_sentence(exc, self._info(table_id), t))
            return
        except (ServiceError, UserError) as exc:
            await self._private(hook, sentence(exc.said, t))
            return
        channel_id, message_id = reply_to.get("channel_id"), reply_to.get("message_id")
        clicked = isinstance(channel_id, int) and isinstance(message_id, int)
        if clicked and state.deal != clicked_deal:  # this click ended the DM's deal
            await _say_on_clicked(hook, deal_over_here(t, clicked_deal, facts.channel_id)
                                  if state.status == "playing" else t.gettext(MATCH_OVER_HERE))
            return
        drawing = await draw_panel(facts, seat, state, t, images=presenter.images, pick=pick,
                                   signal=signal)
        if panels is not None and clicked and pick is None and signal is None:
            live = panels.live_dm(seat) == message_id
            if live and _dm_draws(panels, seat, state):
                # The seat's live DM has one editor (a LiveMessage: in order, always the
                # newest state), which redraws it — through this click's token (no
                # request of the bot's budget): an edit from here could land after, and
                # hide, a newer turn's panel.
                route = TokenRoute.of(reply_to.get("application_id"), reply_to.get("token"),
                                      message_id)
                if route is not None:
                    panels.clicked_dm(seat, route)
                await panels.refresh(seat, panels.state_of(seat) or state)
                return
            if not live:
                # An older message (e.g. the last panel of a finished deal): show the
                # state of now on it; the live DM stays the seat's panel.
                await hook.edit_message(ORIGINAL, **drawing.edit_kwargs())
                return
            ended = panels.seats[seat].dm_deal if seat in panels.seats else None
            if ended is not None:
                # The live DM of a deal this click ended (an action applied before this
                # answer): its editor draws only its own deal, and the next deal has a DM
                # of its own; this one says so and keeps no controls.
                await _say_on_clicked(hook, deal_over_here(t, ended, facts.channel_id))
                return
        await hook.edit_message(ORIGINAL, **drawing.edit_kwargs())
        if panels is not None and clicked:
            panels.shown_in_dm(seat, cast(int, channel_id), cast(int, message_id),
                               drawing.key, via=TokenRoute.of(
                                   reply_to.get("application_id"), reply_to.get("token"),
                                   message_id))
            await panels.refresh(seat, state)

    def _choice(self, request: ForwardRequest, seat: int, state: SeatState,
                outcome: ForwardOutcome) -> tuple[Action | None, str | None]:
        """A ``panel`` request's choice: ``(card whose variants to offer, signal)``; a
        picked card the inbox played (:attr:`ForwardOutcome.played_deal`) is
        ``(None, None)``: the panel of now is drawn."""
        data = request.data or {}
        if ("pick" not in data and "signal" not in data) or outcome.played_deal is not None:
            return None, None
        version = data.get("version")
        if not isinstance(version, int) or version != state.version:
            raise StaleAction()
        signal = data.get("signal")
        chosen_json = data.get("pick")
        if not isinstance(chosen_json, dict):
            return None, signal if isinstance(signal, str) else None
        try:
            _, chosen = action_from_json({**chosen_json, "seat": seat}, "choice")
        except ValueError:
            raise UserError(N_("That choice is not understood.")) from None
        return chosen, None


async def _say_on_clicked(hook: discord.Webhook, text: str) -> None:
    """The clicked message (through the click's token) says ``text``, without controls."""
    await hook.edit_message(ORIGINAL, content=clip(text), view=None, attachments=[])


def _dm_draws(panels: SeatPanels, seat: int, state: SeatState) -> bool:
    """Whether the seat's DM editor draws ``state``: a deal's DM shows only that deal, so
    a click that ended the deal (``state`` is of the next one) is not drawn by it."""
    panel = panels.seats.get(seat)
    return panel is not None and panel.dm_deal in (None, state.deal)


def _outcome_text(outcome: ForwardOutcome, t: Translator) -> str:
    if outcome.status == "stale":
        return sentence(Said.of(StaleAction.MESSAGE), t)
    if outcome.status == "refused" or (outcome.status == "failed" and outcome.message):
        return sentence(outcome.said(), t)
    return t.gettext(OUTCOME_TEXTS.get(outcome.status, NOT_NOW))


__all__ = ["ShardedClicks"]
