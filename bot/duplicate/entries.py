"""Entering a duplicate event: alone, or as a pair whose partner confirms.

The entry (and who has confirmed it) is stored at once (``storage.duplicate``), so a pair
waiting for its partner's confirmation survives a restart. A member is in one entrant of
an event; entrant names are unique in the event (they are the records' tags). A league's
round is entered by the league's entrants only, at its creation.
"""

from __future__ import annotations

from bot.duplicate.context import DuplicateContext, DuplicateError
from bot.i18n import N_
from bot.text_safety import clean_text
from games.registry import GAMES
from storage.duplicate import AlreadyEntered, DuplicateEntrant, DuplicateEvent
from storage.errors import NotFound


class EntryDesk:
    """Entries and their confirmation, during the event's window."""

    def __init__(self, context: DuplicateContext) -> None:
        self.context = context

    async def enter(self, event_id: int, guild_id: int, user_id: int, name: str,
                    partner: tuple[int, str] | None = None) -> DuplicateEntrant:
        """Enter alone, or as a pair with ``partner`` (``(user_id, name)``), who must
        confirm before the pair plays."""
        store = self.context.store
        event = await self.context.event(event_id, guild_id)
        self.context.check_window(event)
        _check_open_entry(event)
        members = [user_id]
        names = [clean_text(name) or "?"]
        if partner is not None:
            if event.format != "pairs":
                raise DuplicateError(N_("{game} is played by individuals: enter alone"),
                                     game=GAMES[event.game].title)
            if partner[0] == user_id:
                raise DuplicateError(N_("your partner must be someone else"))
            members.append(partner[0])
            names.append(clean_text(partner[1]) or "?")
        title = await self.context.unique_name(event.id, " & ".join(names))
        try:
            entrant = await store.add_duplicate_entrant(event.id, title, members,
                                                        confirmed=[user_id])
        except AlreadyEntered as exc:
            if exc.user_id == user_id:
                raise DuplicateError(N_("you have already entered this event")) from None
            raise DuplicateError(N_("your partner has already entered this event")) from None
        for member, member_name in zip(members, names, strict=True):
            await store.upsert_player(member, member_name)  # the seats' names
        return entrant

    async def confirm(self, event_id: int, guild_id: int, user_id: int) -> DuplicateEntrant:
        """The partner confirms the pair (during the window)."""
        event = await self.context.event(event_id, guild_id)
        self.context.check_window(event)
        try:
            return await self.context.store.confirm_duplicate_member(event.id, user_id)
        except NotFound:
            raise DuplicateError(N_("nobody has entered this event with you")) from None


def _check_open_entry(event: DuplicateEvent) -> None:
    """A league's round is entered by the league's entrants only (at its creation)."""
    if event.league_id is not None:
        raise DuplicateError(N_("{name} is a round of a league: its entrants are the "
                                "league's, entered already"), name=event.name)
