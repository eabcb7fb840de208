"""A table played on the web costs Discord almost nothing: :class:`WebPlay`.

A human **plays on the web** while they have the table open on the web (a page or the
Activity: :func:`~bot.discord_bot.tables.web_table.web_users`) and have not played from
Discord since they opened it. While every human of a table in play does:

* its **table message** shows who plays, the match's score (the last deal's result) and
  the **Open table** link — not the cards: it is edited at each deal's end, with that
  deal's result in the same edit (no result message of its own), instead of per card
  (:func:`web_table_text`);
* each such player's **hand DM** is not redrawn turn by turn (the page is their hand): the
  DM shown says once that the deal is played on the web, with **Play here** (the **My
  hand** button, drawn in place), and no DM is sent for a deal begun meanwhile
  (:func:`web_note`).

**Back to the live drawing** when someone plays from Discord again: a click of theirs on
a panel of the table (answered here, or forwarded by another process and answered by the
owner) makes them a Discord player until they open the table on the web again; closing the
page does too. The table message and their panels are redrawn at once (coalesced as
always).
"""

from __future__ import annotations

import discord

from bot.discord_bot.drawing.texts import clip, seat_lines
from bot.discord_bot.router import MyHandButton
from bot.discord_bot.tables.hand_panel import PanelDrawing, SeatState, TableFacts
from bot.discord_bot.tables.web_table import web_users
from bot.i18n import N_, Translator
from bot.service import TableInfo
from games.registry import GAMES

PLAY_HERE = N_("Play here")
WEB_NOTE = N_("You are playing deal {deal} of table {table} on the web: this message is "
              "not kept current meanwhile. To play here in Discord instead, press **Play "
              "here**.")


class WebPlay:
    """Which humans of one table play on the web (module docstring)."""

    def __init__(self, client: discord.Client, table_id: int) -> None:
        self.client = client
        self.table_id = table_id
        self.from_discord: set[int] = set()
        """Users who played from Discord since they last opened the table on the web."""
        self._present = frozenset(web_users(client, table_id))

    def present(self) -> frozenset[int]:
        return frozenset(web_users(self.client, self.table_id))

    def presence_changed(self) -> None:
        """The users with the table open on the web changed: one who opened it (again)
        plays on the web."""
        now = self.present()
        self.from_discord -= now - self._present
        self._present = now

    def on_web(self, user_id: int) -> bool:
        """Whether ``user_id`` plays on the web now."""
        return user_id in self.present() and user_id not in self.from_discord

    def played_from_discord(self, user_id: int) -> bool:
        """``user_id`` clicked a panel of the table in Discord; True when they were
        playing on the web (the drawings then change)."""
        was = self.on_web(user_id)
        self.from_discord.add(user_id)
        return was

    def all_on_web(self, info: TableInfo) -> bool:
        """Whether the table is in play and every human of it plays on the web."""
        if info.status != "playing":
            return False
        humans = [s.user_id for s in info.seats
                  if s is not None and not s.is_ai and s.user_id is not None]
        return bool(humans) and all(self.on_web(user) for user in humans)


def web_table_text(info: TableInfo, result: str | None, t: Translator) -> str:
    """The table message of a table played on the web: the game, who plays (on the
    web), the seats and teams, and the last deal's result with the match's score (or that
    the first deal is being played) — nothing that changes within a deal, nor between a
    deal's result and the next deal's start: one edit per deal."""
    out = [t.gettext("**{game}** — table {table}").format(game=GAMES[info.game].title,
                                                          table=info.id)]
    out.append(t.gettext("🌐 Played on the web: open the table to watch the cards."))
    out.extend(seat_lines(info, t))
    out.append(result if result else t.gettext("The first deal is being played."))
    return clip("\n".join(out), 1990)


def web_note_key(state: SeatState, language: str) -> str:
    """What a hand DM shows while its player plays on the web: one drawing per deal."""
    return f"web:{state.deal}|{language}"


def web_note(facts: TableFacts, state: SeatState, t: Translator) -> PanelDrawing:
    """The hand DM of a player on the web (module docstring): one sentence and **Play
    here** (the **My hand** button: the panel drawn in place, live again)."""
    view = discord.ui.View(timeout=None)
    view.add_item(MyHandButton(facts.table_id, label=clip(t.gettext(PLAY_HERE), 80),
                               style=discord.ButtonStyle.primary))
    text = t.gettext(WEB_NOTE).format(deal=t.number(state.deal + 1), table=facts.table_id)
    return PanelDrawing(clip(text), view, None, web_note_key(state, t.language), False,
                        t.language)
