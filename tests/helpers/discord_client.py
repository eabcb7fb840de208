"""Discord's client and proxy, for the Activity's page in a real browser (Playwright).

Chromium believes it is inside Discord: the top page is ``https://discord.com/activities``
and holds the Activity in an iframe at ``https://<application id>.discordsays.com/?
frame_id=…&instance_id=…&platform=…``, as Discord's client does. Nothing leaves the
machine: Playwright's routing answers both origins.

* **The client** (the top page) answers the Embedded App SDK's ``postMessage`` RPC as
  Discord's client does (the SDK's ``output/Discord.mjs``): the handshake (opcode 0) with the
  ``READY`` dispatch, then the commands (opcode 1 frames ``{cmd, args, nonce}``) with
  ``{cmd, evt: null, nonce, data}``, or ``evt: "ERROR"``. ``AUTHORIZE`` hands out a code of
  the fake Discord for this page's user (:meth:`Activities.authorize`); ``AUTHENTICATE``
  checks the access token with the fake Discord.
* **The proxy** (``<application id>.discordsays.com``) forwards every request to the
  bot's web server, with ``/.proxy`` removed from the path as Discord's URL mapping ``/``
  does, and relays the WebSockets with the frame's ``Origin``. :attr:`DiscordClient.paths`
  records what the page asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from playwright.async_api import Browser, BrowserContext, Page, Route, WebSocketRoute

PROXY = "/.proxy"
PARENT = "https://discord.com/activities"

_PARENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord</title></head>
<body style="margin:0;overflow:hidden">
<iframe id="activity" src="%(src)s" style="border:0;width:100vw;height:100vh;display:block">
</iframe>
<script>
const frame = document.getElementById("activity");
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, body] = event.data;
  const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
  if (opcode === 0) {
    window.sdkHandshake(body);
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config: {
      api_endpoint: "//discord.com/api", environment: "production"}}});
    return;
  }
  if (opcode !== 1) return;
  try {
    const data = await window.sdkCommand(body.cmd, body.args ?? null);
    reply({cmd: body.cmd, evt: null, nonce: body.nonce, data});
  } catch (error) {
    reply({cmd: body.cmd, evt: "ERROR", nonce: body.nonce,
           data: {code: 4000, message: String(error)}});
  }
});
</script></body></html>"""


@dataclass
class DiscordClient:
    """One user's Discord client showing the Activity (module docstring)."""

    discord: Any
    """The fake Discord (``tests/bot/fakediscord``)."""
    user: Any
    server: str
    """The bot's web server, ``http://127.0.0.1:PORT``."""
    code: str | None = None
    """The code ``AUTHORIZE`` answers (default: a new one per call)."""
    paths: list[str] = field(default_factory=list)
    commands: list[tuple[str, Any]] = field(default_factory=list)
    handshakes: list[dict[str, Any]] = field(default_factory=list)
    _relays: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def frame_origin(self) -> str:
        return f"https://{self.discord.application_id}.discordsays.com"

    async def open(self, browser: Browser, instance_id: str, *, width: int, height: int,
                   platform: str = "desktop") -> Page:
        """A page of its own (a browser context per user) showing the Activity."""
        context = await browser.new_context(viewport={"width": width, "height": height})
        await context.expose_function("sdkHandshake", self._handshake)
        await context.expose_function("sdkCommand", self._command)
        src = (f"{self.frame_origin}/?frame_id=frame-{self.user.id}&instance_id={instance_id}"
               f"&platform={platform}")
        await context.route(f"{PARENT}**", lambda route: route.fulfill(
            status=200, content_type="text/html", body=_PARENT_PAGE % {"src": src}))
        await context.route(f"{self.frame_origin}/**", self._forward)
        await context.route_web_socket(
            f"wss://{self.frame_origin.removeprefix('https://')}/**", self._relay)
        page = await context.new_page()
        await page.goto(PARENT)
        return page

    def frame(self, page: Page) -> Any:
        """The Activity's frame of ``page`` (a FrameLocator)."""
        return page.frame_locator("#activity")

    async def close(self, context: BrowserContext) -> None:
        await context.close()
        for task in list(self._relays):
            task.cancel()
        await asyncio.gather(*self._relays, return_exceptions=True)

    # -- the client's RPC ---------------------------------------------------------------
    def _handshake(self, payload: dict[str, Any]) -> None:
        self.handshakes.append(payload)

    async def _command(self, cmd: str, args: Any) -> dict[str, Any]:
        self.commands.append((cmd, args))
        activities = self.discord.activities
        if cmd == "AUTHORIZE":
            if args.get("client_id") != str(self.discord.application_id):
                raise ValueError("unknown client")
            return {"code": self.code or activities.authorize(self.user)}
        if cmd == "AUTHENTICATE":
            grant = activities.bearer(f"Bearer {args.get('access_token')}")
            if grant is None or grant.user_id != self.user.id:
                raise ValueError("invalid token")
            info = activities.authorization_info(grant)
            return {"access_token": args["access_token"], "user": info["user"],
                    "scopes": info["scopes"], "expires": info["expires"],
                    "application": {"id": info["application"]["id"], "name": "tricktable",
                                    "description": "", "icon": None}}
        raise ValueError(f"not answered here: {cmd}")

    # -- the proxy ----------------------------------------------------------------------
    def _target(self, url: str) -> str:
        path = url.removeprefix(self.frame_origin).removeprefix(
            f"wss://{self.frame_origin.removeprefix('https://')}")
        self.paths.append(path.split("?")[0])
        return path.removeprefix(PROXY) or "/"

    async def _forward(self, route: Route) -> None:
        target = self.server + self._target(route.request.url)
        response = await route.fetch(url=target)
        await route.fulfill(response=response)

    def _relay(self, ws: WebSocketRoute) -> None:
        """Relay one page socket to the server (Discord's proxy passes the frame's
        origin)."""
        target = "ws" + self.server.removeprefix("http") + self._target(ws.url)
        pending: asyncio.Queue[str | None] = asyncio.Queue()
        ws.on_message(lambda message: pending.put_nowait(
            message if isinstance(message, str) else message.decode()))
        ws.on_close(lambda code, reason: pending.put_nowait(None))

        async def relay() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(
                    target, headers={"Origin": self.frame_origin}) as upstream:

                async def down() -> None:
                    async for msg in upstream:
                        if msg.type == aiohttp.WSMsgType.TEXT:
                            ws.send(msg.data)
                    with contextlib.suppress(Exception):
                        await ws.close()

                reader = asyncio.create_task(down())
                try:
                    while (message := await pending.get()) is not None:
                        await upstream.send_str(message)
                finally:
                    await upstream.close()
                    await asyncio.gather(reader, return_exceptions=True)

        task = asyncio.create_task(relay())
        self._relays.add(task)
        task.add_done_callback(self._relays.discard)

