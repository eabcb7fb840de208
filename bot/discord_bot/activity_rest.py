"""The Discord Activity's bot-token request — *Get Activity Instance* — sent through the
bot's own HTTP client: it first takes room in the bot's REST budget
(:mod:`bot.discord_bot.rest_budget`, as a request that may wait, after the seat to act
and the table messages), is counted there as it leaves, and waits in discord.py's rate
limiter (the route's bucket and the global limit) with every other request of the bot:
one budget, one place (``docs/web.md``, "Limits"). :mod:`bot.web.activity` keeps its own
small budget in front of it and shares each answer between the sockets of an instance."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord.http import Route

from bot.discord_bot.rest_budget import process_budget
from bot.discord_bot.tables.gate import LATER

WAIT = 5.0
"""Seconds a look-up waits for room in the bot's budget before the join is refused (the
page may try again)."""

InstanceFetch = Callable[[int, str], Awaitable[tuple[int, Any]]]
"""The look-up's shape, as :data:`bot.web.activity.InstanceFetch` takes it (the adapter
imports no web code: the composition root, :mod:`bot.app`, hands one to the other)."""


def instance_fetch(client: discord.Client) -> InstanceFetch:
    """``GET /applications/{app}/activity-instances/{instance}`` through ``client.http``:
    the answer's status and body (404/403: no such instance for this application; 503:
    Discord could not be reached)."""

    async def fetch(application_id: int, instance_id: str) -> tuple[int, Any]:
        route = Route("GET", "/applications/{application_id}/activity-instances/{instance_id}",
                      application_id=application_id, instance_id=instance_id)
        try:  # room in the bot's budget first: the players' own messages go before it
            await asyncio.wait_for(process_budget().take(lambda: LATER), WAIT)
        except TimeoutError:
            return 503, None
        try:
            return 200, await client.http.request(route)
        except discord.NotFound:
            return 404, None
        except discord.Forbidden:
            return 403, None
        except discord.HTTPException as exc:
            return exc.status or 503, None
        except (aiohttp.ClientError, OSError, TimeoutError):
            return 503, None

    return fetch
