"""``/duplicate …``: club duplicate nights on Discord (``docs/duplicate.md``).

Commands (``event`` is an event number; it defaults to the server's only open event):

* ``/duplicate create name game boards closes [opens] [timezone] [scoring] [leaderboard]
  [players] [league]`` (Manage Server, refused server-side to others) — an event hosted in
  this channel; ``opens`` and ``closes`` are ``YYYY-MM-DD HH:MM`` in ``timezone`` (default
  UTC; ``opens`` defaults to now); ``league`` makes it a round of that running league (its
  teams entered, its standings taking the ranking).
* ``/duplicate list``, ``/duplicate status [event]`` — counts only, nothing of a board.
* ``/duplicate enter [event] [partner]`` — alone, or a pair that ``partner`` confirms with
  ``/duplicate confirm [event]``.
* ``/duplicate play [event] [against] [board]`` — the next board (or the one under way,
  or ``board``) at a table in a private thread of the entrant's own, under the event's
  channel; ``against`` a member of another pair asks that pair to meet at one table
  (they are told by DM) or accepts its invitation: the two pairs play the board from its
  two directions in a private thread of the four.
* ``/duplicate close [event]`` (Manage Server) — close it now (it also closes at the end of
  its window).

After each board its entrant's members get, by DM, the traveller so far, the hand record
and what the AI scored in their seat. At the close a results thread in the event's channel
gets the ranking, each board's traveller and hand record and the records as one zip file,
and every member of every entrant a score card by DM; each piece is claimed in the store
first (``claim_duplicate_post``), so nothing is posted twice, even across a restart.

The commands are in :mod:`~.duplicate_director` (``create``, ``close``) and
:mod:`~.duplicate_member` (the others), what they share in :mod:`~.duplicate_base`, and what
the cog posts unasked (reveals, the close's results) in :mod:`~.duplicate_posts`.
"""

from __future__ import annotations

import asyncio
import contextlib

from discord.ext import commands

from bot.discord_bot.club.duplicate_base import DUPLICATE
from bot.discord_bot.club.duplicate_cards import MyResults
from bot.discord_bot.club.duplicate_cards import bind as bind_cards
from bot.discord_bot.club.duplicate_director import DirectorCommands
from bot.discord_bot.club.duplicate_member import MemberCommands
from bot.discord_bot.club.duplicate_posts import DuplicatePosts, EventLink
from bot.discord_bot.club.duplicate_review import BoardReview, ReviewSource
from bot.discord_bot.club.duplicate_review import bind as bind_reviews
from bot.discord_bot.languages import Languages
from bot.duplicate.service import DuplicateService
from storage.base import Store
from storage.duplicate import DuplicateEntrant, DuplicateEvent


class DuplicateCog(DirectorCommands, MemberCommands, name="ClubDuplicate"):
    """``/duplicate`` commands, the boards' reveals and the results at the close."""

    duplicate = DUPLICATE

    def __init__(self, bot: commands.Bot, store: Store, service: DuplicateService,
                 languages: Languages, *, run: bool = True,
                 event_link: EventLink | None = None) -> None:
        self.bot, self.store, self.languages = bot, store, languages
        self.service = service
        service.report_to(self.tell_board, self.post_results)
        self.posts = DuplicatePosts(bot, store, languages, self.service, event_link)
        self.run = run
        self._task: asyncio.Task[None] | None = None
        bind_reviews(bot, ReviewSource(store, languages))
        bind_cards(bot, self.posts.card_of, languages)

    async def cog_load(self) -> None:
        if self.run:
            self._task = asyncio.create_task(self.service.run())

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def tell_board(self, event: DuplicateEvent, entrant: DuplicateEntrant,
                         board: int) -> None:
        """The service's ``on_board``: the entrant's members get the board's reveal."""
        await self.posts.tell_board(event, entrant, board)

    async def post_results(self, event: DuplicateEvent) -> None:
        """The service's ``on_close``: the results thread and the score cards, once."""
        await self.posts.post_results(event)


async def setup(bot: commands.Bot, store: Store, service: DuplicateService,
                languages: Languages, *, run: bool = True,
                event_link: EventLink | None = None) -> None:
    """Add the ``/duplicate`` cog on the process's duplicate ``service`` (its board watcher
    runs from ``cog_load``) and the boards' Review buttons; ``event_link``: the event
    pages' link maker when the web serves them."""
    await bot.add_cog(DuplicateCog(bot, store, service, languages, run=run,
                                   event_link=event_link))
    bot.add_dynamic_items(BoardReview, MyResults)
