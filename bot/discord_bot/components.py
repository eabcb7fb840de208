"""Persistent components: every button and select of the bot is a ``DynamicItem`` whose
``custom_id`` carries everything needed to act on it, so it works after a restart.

``custom_id`` = ``tt:<kind>:<table>:<version>:<arg>``

* buttons — ``l`` lobby (arg ``join``/``leave``/``ai:<level>``/``start``; a plain ``ai``
  from an older lobby seats a ``rules`` AI), ``a`` an action (arg: the
  action's record JSON), ``h`` **My hand**, ``b`` **I'm back**, ``x`` confirm abandon;
* selects — ``s`` pick a card (values: action JSON), ``m`` Truf's multi-card bid (values:
  cards).

``version`` is the table version the choice was offered at (0 where it does not matter);
the table service refuses a choice that is no longer current.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import discord

from games.actions import Action, action_from_json

if TYPE_CHECKING:
    from bot.discord_bot.tables import TablesCog

BUTTON_KINDS = "lahbx"
SELECT_KINDS = "sm"


def custom_id(kind: str, table: int, version: int, arg: str = "") -> str:
    cid = f"tt:{kind}:{table}:{version}:{arg}"
    if len(cid) > 100:
        raise ValueError(f"custom_id too long: {cid!r}")
    return cid


def encode_action(action: Action) -> str:
    return json.dumps(action.to_json(), separators=(",", ":"))


def decode_action(text: str) -> Action:
    """Parse an action from a component; raises ValueError for anything malformed."""
    try:
        obj = json.loads(text)
        _, action = action_from_json({**obj, "seat": 0}, "choice")
    except Exception as exc:
        raise ValueError(f"that choice is not understood ({exc})") from None
    return action


def _cog(interaction: discord.Interaction) -> TablesCog:
    cog = interaction.client.get_cog("TablesCog")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tt:(?P<kind>[" + BUTTON_KINDS + r"]):(?P<table>\d+):"
                           r"(?P<version>\d+):(?P<arg>.*)"):
    """Any button of a table (see the module docstring)."""

    def __init__(self, kind: str, table: int, version: int, arg: str = "", *,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or None, style=style, row=row,
                                           emoji=emoji,
                                           custom_id=custom_id(kind, table, version, arg)))
        self.kind, self.table, self.version, self.arg = kind, table, version, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TableButton:
        return cls(match["kind"], int(match["table"]), int(match["version"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_component(interaction, self.kind, self.table,
                                             self.version, self.arg, [])


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"tt:(?P<kind>[" + SELECT_KINDS + r"]):(?P<table>\d+):"
                           r"(?P<version>\d+):(?P<arg>.*)"):
    """A select of a table: card choices, or a multi-card bid."""

    def __init__(self, kind: str, table: int, version: int, arg: str = "", *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 min_values: int = 1, max_values: int = 1, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=custom_id(kind, table, version, arg), options=options or [],
            placeholder=placeholder[:150] or None, min_values=min_values,
            max_values=max_values, row=row))
        self.kind, self.table, self.version, self.arg = kind, table, version, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TableSelect:
        return cls(match["kind"], int(match["table"]), int(match["version"]), match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _cog(interaction).on_component(interaction, self.kind, self.table,
                                             self.version, self.arg, values)


DYNAMIC_ITEMS = (TableButton, TableSelect)
