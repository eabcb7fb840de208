"""The lobby's **Options** control: the host changes the rule options without JSON.

**Options** on the lobby message opens a private panel for the host (the member who opened
the table, or one with Manage Server; anybody else is told so): the options in force in
players' words, and a select of the game's options, each with its current value. Choosing
one offers its values — a select with every allowed value, the rule file's default marked,
for switches and choices; a button opening a form for numbers. The new value is checked
by the engine (:meth:`TableService.set_options`): a bad one gets the engine's clear message
and changes nothing. The lobby message is redrawn by the ``lobby`` event that follows.

List options (a group's extra signal words, Truf's adjustment amounts) stay with
``/table new options:`` JSON, as the panel says. ``custom_id``: ``tt:o:<table>:0:<arg>``
(``open``, ``pick``, ``set:<option>``, ``num:<option>``); a number's form (a modal) is
``tt:o:<table>:0:form:<option>:<user>``: one per table, option and member, so two members'
open forms never take each other's answers, and a submission by anyone but the member who
opened the form is refused without closing it.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.discord_bot.answer import Reply, UserError, answer, refuse, update_in_place
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ids import CustomIdKind, custom_id
from bot.discord_bot.languages import Languages
from bot.discord_bot.router import (
    ANOTHER_SERVER,
    ButtonItem,
    SelectItem,
    from_another_server,
)
from bot.i18n import N_, Translator
from bot.i18n.commands import command, option
from bot.service import NoSuchTable, TableService
from bot.words.options import option_name, options_text, value_text
from games.errors import quote
from games.registry import GAMES
from storage import ChannelLocation, Store

Interaction = discord.Interaction[discord.Client]
_CHOICE = re.compile(r"'([^']*)'")
_NUMBER = re.compile(r"whole number (-?\d+)\.\.(-?\d+)")


@dataclass(frozen=True)
class OptionsSource:
    """The service (options, changes) and the store (who is the host)."""

    service: TableService
    store: Store
    languages: Languages

    async def check_host(self, interaction: Interaction, table_id: int) -> None:
        """Only the host or a member with Manage Server changes the options, and only from
        the table's own server (a forged component from another server is refused)."""
        try:
            where = self.service.info(table_id).location
        except NoSuchTable:
            where = None  # closed, or run elsewhere: :meth:`lobby` says so
        if from_another_server(interaction.guild_id,
                               where.guild_id if isinstance(where, ChannelLocation) else None):
            raise UserError(ANOTHER_SERVER)
        perms = interaction.permissions
        if perms is not None and perms.manage_guild:
            return
        shown = await self.store.get_table_messages(table_id)
        if shown is None or shown.creator != interaction.user.id:
            raise UserError(N_("Only the player who opened the table or a member with "
                               "Manage Server can change its options."))

    def lobby(self, table_id: int) -> tuple[str, dict[str, Any]]:
        try:
            info = self.service.info(table_id)
        except NoSuchTable:
            raise UserError(N_("That table is closed.")) from None
        if info.status != "lobby":
            raise UserError(N_("The match has started: its options are fixed."))
        return info.game, dict(info.options)


_SOURCES: weakref.WeakKeyDictionary[discord.Client, OptionsSource] = (
    weakref.WeakKeyDictionary())


def bind_options(client: discord.Client, source: OptionsSource) -> None:
    _SOURCES[client] = source


def _source(interaction: Interaction) -> OptionsSource:
    source = _SOURCES.get(interaction.client)
    if source is None:
        raise RuntimeError("no options source is bound to this client")
    return source


def kind_of(row: dict[str, Any]) -> tuple[str, list[Any]]:
    """How an option is chosen: ``("select", values)`` for switches and choices,
    ``("number", [low, high])`` for whole numbers, ``("json", [])`` for lists."""
    allowed = str(row["allowed"])
    if allowed == "true | false":
        return "select", [True, False]
    choices = _CHOICE.findall(allowed)
    if choices and "list" not in allowed:
        return "select", choices
    number = _NUMBER.search(allowed)
    if number and "list" not in allowed:
        return "number", [int(number[1]), int(number[2])]
    return "json", []


def _rows(game: str) -> list[dict[str, Any]]:
    return [dict(r) for r in GAMES[game].options_type.describe()]


def panel(table_id: int, game: str, options: dict[str, Any], t: Translator,
          chosen: str | None = None, note: str = "") -> Reply:
    """The host's options panel in ``t``'s language (``chosen``: the option whose values
    are offered)."""
    text = options_text(game, options, t=t)
    lines = [t.gettext("**{title}** — table {table}").format(title=text.title, table=table_id)]
    if note:
        lines.append(note)
    lines += [f"• {line}" for line in text.lines]
    # Translators: {option} is the name of an option (options) of the command {command}
    # (/table new, shown as a link).
    lines.append(t.gettext("Lists (signal words, adjustment amounts): as JSON in the {option} "
                           "option of {command}.").format(
                               option=option("options", t), command=command("table new", t)))
    body = "\n".join(lines)
    if len(body) > 1900:  # the rule quotes are long: keep the values, cut the quotes
        body = clip("\n".join(line.split(" Rule file: ")[0] for line in lines), 1900)
    v = discord.ui.View(timeout=None)
    rows = [r for r in _rows(game) if kind_of(r)[0] != "json"]
    v.add_item(OptionSelect(table_id, t, options=[
        discord.SelectOption(
            label=clip(option_name(r["name"], game, t), 100), value=r["name"],
            description=clip(t.gettext("now: {value}").format(
                value=value_text(options.get(r["name"], r["default"]), t)), 100),
            default=r["name"] == chosen)
        for r in rows[:25]]))
    row = next((r for r in rows if r["name"] == chosen), None)
    if row is not None:
        kind, values = kind_of(row)
        current = options.get(row["name"], row["default"])
        if kind == "select":
            v.add_item(ValueSelect(table_id, row["name"], t, options=[
                discord.SelectOption(
                    label=clip(t.gettext("{value} (default)").format(value=value_text(x, t))
                               if x == row["default"] else value_text(x, t), 100),
                    value=str(x).lower() if isinstance(x, bool) else str(x),
                    default=x == current)
                for x in values[:25]]))
        else:
            v.add_item(NumberButton(table_id, row["name"], label=clip(
                t.gettext("Enter {option}").format(option=option_name(row["name"], game, t)),
                80)))
    return Reply(body, view=v, ephemeral=True)


def _parse(row: dict[str, Any], raw: str, game: str, t: Translator) -> Any:
    kind, values = kind_of(row)
    if kind == "select":
        for x in values:
            if (str(x).lower() if isinstance(x, bool) else str(x)) == raw:
                return x
        raise UserError(N_("{value} is not a value of this option."),
                        value=safe_name(quote(raw, 40)))
    text = raw.strip()
    if text == "" and str(row["allowed"]).startswith("null"):
        return None
    try:
        return int(text)
    except ValueError:
        raise UserError(N_("{option} must be a whole number from {low} to {high}."),
                        option=option_name(row["name"], game, t), low=values[0],
                        high=values[1]) from None


async def change(interaction: Interaction, table_id: int, name: str, raw: str,
                 t: Translator) -> Reply:
    """Set option ``name`` of the lobby from the host's choice ``raw``."""
    source = _source(interaction)
    await source.check_host(interaction, table_id)
    game, options = source.lobby(table_id)
    row = next((r for r in _rows(game) if r["name"] == name), None)
    if row is None:
        raise UserError(N_("That option is not one of this game's."))
    value = _parse(row, raw, game, t)
    changed = await source.service.set_options(table_id, {**options, name: value})
    # ``changed`` omits options at their default: show the value in force
    note = t.gettext("{option} is now **{value}**.").format(
        option=option_name(name, game, t), value=value_text(changed.get(name, row["default"]), t))
    return panel(table_id, game, changed, t, name, note)


class OptionsButton(ButtonItem,
                    template=CustomIdKind.OPTIONS.template(r"(?P<table>\d+):0:open")):
    """**Options** on the lobby message (host only)."""

    def __init__(self, table: int, t: Translator | None = None, *,
                 row: int | None = None) -> None:
        label = clip(t.gettext("Options"), 80) if t is not None else "Options"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           row=row,
                                           custom_id=custom_id(CustomIdKind.OPTIONS, table, 0,
                                                               "open")))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        source = _source(interaction)
        t = await source.languages.reader(interaction)

        async def run() -> Reply:
            await source.check_host(interaction, self.table)
            game, options = source.lobby(self.table)
            return panel(self.table, game, options, t)
        await answer(interaction, run, t=t, private_wait=True)


class OptionSelect(SelectItem,
                   template=CustomIdKind.OPTIONS.template(r"(?P<table>\d+):0:pick")):
    """Which option to change."""

    def __init__(self, table: int, t: Translator | None = None, *,
                 options: list[discord.SelectOption] | None = None) -> None:
        placeholder = (clip(t.gettext("Choose an option to change"), 150) if t is not None
                       else None)
        super().__init__(discord.ui.Select(custom_id=custom_id(CustomIdKind.OPTIONS, table, 0,
                                                               "pick"),
                                           options=options or [], placeholder=placeholder))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]))

    async def callback(self, interaction: Interaction) -> None:
        source = _source(interaction)
        t = await source.languages.reader(interaction)

        async def run() -> Reply:
            await source.check_host(interaction, self.table)
            game, options = source.lobby(self.table)
            reply = panel(self.table, game, options, t, _value(interaction))
            reply.ephemeral = False  # an update of the panel itself
            return reply
        await update_in_place(interaction, run, t=t)


class ValueSelect(SelectItem, template=CustomIdKind.OPTIONS.template(
                      r"(?P<table>\d+):0:set:(?P<name>[a-z_]+)")):
    """The chosen option's values (default marked)."""

    def __init__(self, table: int, name: str, t: Translator | None = None, *,
                 options: list[discord.SelectOption] | None = None) -> None:
        placeholder = clip(t.gettext("Choose its value"), 150) if t is not None else None
        super().__init__(discord.ui.Select(custom_id=custom_id(CustomIdKind.OPTIONS, table, 0,
                                                               f"set:{name}"),
                                           options=options or [], placeholder=placeholder))
        self.table, self.name = table, name

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]), match["name"])

    async def callback(self, interaction: Interaction) -> None:
        t = await _source(interaction).languages.reader(interaction)

        async def run() -> Reply:
            reply = await change(interaction, self.table, self.name, _value(interaction), t)
            reply.ephemeral = False
            return reply
        await update_in_place(interaction, run, t=t)


class NumberButton(ButtonItem, template=CustomIdKind.OPTIONS.template(
                       r"(?P<table>\d+):0:num:(?P<name>[a-z_]+)")):
    """Opens the form for a number option."""

    def __init__(self, table: int, name: str, *, label: str = "Enter a value") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=custom_id(CustomIdKind.OPTIONS, table, 0,
                                                               f"num:{name}")))
        self.table, self.name = table, name

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]), match["name"])

    async def callback(self, interaction: Interaction) -> None:
        source = _source(interaction)
        t = await source.languages.reader(interaction)
        try:
            game, _ = source.lobby(self.table)
        except UserError as exc:
            await refuse(interaction, exc.said.text(t))
            return
        await interaction.response.send_modal(
            NumberForm(self.table, self.name, game, t, interaction.user.id))


class NumberForm(discord.ui.Modal):
    """A number option's new value; an empty answer means none where the option allows
    it (Albastini's session length). Its ``custom_id`` names the table, the option and
    the member who opened it (discord.py keeps open forms by ``custom_id`` alone); only
    that member's submission of that very form is taken."""

    def __init__(self, table: int, name: str, game: str, t: Translator, user: int) -> None:
        super().__init__(title=clip(option_name(name, game, t), 45),
                         custom_id=custom_id(CustomIdKind.OPTIONS, table, 0, f"form:{name}:{user}"))
        self.value: discord.ui.TextInput[NumberForm] = discord.ui.TextInput(
            label=clip(t.gettext("New value"), 45), max_length=6, required=False,
            custom_id="value")
        self.add_item(self.value)
        self.table, self.name, self.t, self.user = table, name, t, user

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Refuse (privately, leaving the form open for its member) a submission by anyone
        else or of another form."""
        submitted = interaction.data.get("custom_id") if interaction.data else None
        if interaction.user.id == self.user and submitted == self.custom_id:
            return True
        t = await _source(interaction).languages.reader(interaction)
        # Translators: {button} is the lobby's Options button, as translated.
        await refuse(interaction, t.gettext(
            "That form was opened by another member: press **{button}** to open your own."
        ).format(button=t.gettext("Options")))
        return False

    async def on_submit(self, interaction: Interaction) -> None:
        async def run() -> Reply:
            reply = await change(interaction, self.table, self.name, self.value.value, self.t)
            reply.ephemeral = False
            return reply
        await update_in_place(interaction, run, t=self.t)


def _value(interaction: Interaction) -> str:
    data = interaction.data
    raw = data.get("values", []) if data is not None else []
    return str(raw[0]) if isinstance(raw, list) and raw else ""


OPTIONS_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    OptionsButton, OptionSelect, ValueSelect, NumberButton)
"""The Options control's component classes (registered with the router's)."""
