"""**Open table** and ``/table open`` (bot/discord_bot/tables/web_table.py) through the fake
Discord: the launch-Activity answer (type 12) puts the player in the channel's instance;
where Discord refuses (50231: the application has no Activities) the player gets the
private **Open in browser** link of the web table, signed for their seat or the public
view, with a sentence saying why; without a web table no button is shown."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app_fixture import App, start_app
from fakediscord import Harness, StoredMessage

from bot.discord_bot.tables.web_lobby import bind_web
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer

SECRET = b"k" * 32
PUBLIC = "https://tables.example"


def _open_button(message: StoredMessage) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("tt:w:")), None)


def _link_buttons(message: StoredMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", [])
            if c.get("style") == 5]


async def _served(fake_discord: Harness, tmp_path: Path) -> App:
    app = await start_app(fake_discord, tmp_path)
    assert app.bot.hub is not None
    bind_web(app.bot, app.bot.hub, WebServer(app.service, WebConfig(secret=SECRET),
                                             public_url=PUBLIC))
    return app


async def test_open_table_launches_the_activity(fake_discord: Harness, tmp_path: Path
                                                ) -> None:
    app = await _served(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = await (await alice.slash("table", "new", game="turup")).wait_filled()
    button = _open_button(lobby)
    assert button is not None
    r = await bob.click(lobby, button)
    launched = r.callback.response["interaction"]["activity_instance_id"]
    assert r.type == 12 and r.callback.status == 200
    instance = fake_discord.server.activities.instances[launched]
    assert instance.users == [bob.id] and instance.channel.id == lobby.channel_id
    r = await alice.slash("table", "open")
    assert r.type == 12 and instance.users == [bob.id, alice.id]
    [table] = app.service.table_ids()
    await alice.click(lobby, f"tt:l:{table}:0:ai:rules")
    await alice.click(lobby, f"tt:l:{table}:0:ai:rules")
    await bob.click(lobby, f"tt:l:{table}:0:join")
    started = await alice.click(lobby, f"tt:l:{table}:0:start")
    assert started.message is not None and "deal 1" in started.message.content
    assert _open_button(started.message) == button  # the table in play carries it too


async def test_a_refused_launch_gives_the_browser_link(fake_discord: Harness, tmp_path: Path
                                                       ) -> None:
    app = await _served(fake_discord, tmp_path)
    fake_discord.server.activities.enabled = False
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    lobby = await (await alice.slash("table", "new", game="turup")).wait_filled()
    [table] = app.service.table_ids()
    refused = [r for r in fake_discord.server.requests if r.json and isinstance(r.json, dict)
               and r.json.get("type") == 12]
    assert not refused
    for user, role in ((alice, "seat"), (carol, "watch")):
        r = await user.click(lobby, _open_button(lobby) or "")
        assert r.type == 4 and r.ephemeral
        assert "cannot open the table here as an Activity" in r.content
        [link] = _link_buttons(r.message)  # type: ignore[arg-type]
        assert link["label"] == "Open in browser" and link["url"].startswith(f"{PUBLIC}/#k=")
        p = links.verify(SECRET, link["url"].split("#k=")[1], time.time())
        assert (p.table, p.user, p.role) == (table, user.id, role)
    launches = [q for q in fake_discord.server.requests
                if isinstance(q.json, dict) and q.json.get("type") == 12]
    assert [q.status for q in launches] == [400, 400]
    assert all(q.response["code"] == 50231 for q in launches)
    r = await carol.slash("table", "open")
    assert r.ephemeral and "browser" in r.content and _link_buttons(r.message)  # type: ignore[arg-type]


async def test_without_a_web_table_nothing_is_offered(fake_discord: Harness, tmp_path: Path
                                                      ) -> None:
    await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    lobby = await (await alice.slash("table", "new", game="turup")).wait_filled()
    assert _open_button(lobby) is None
    r = await alice.slash("table", "open")
    assert r.ephemeral and r.content.endswith("This bot does not serve the table on the web.")
    assert not fake_discord.server.activities.instances


async def test_any_other_refusal_also_gives_the_link(fake_discord: Harness, tmp_path: Path
                                                     ) -> None:
    await _served(fake_discord, tmp_path)
    fake_discord.server.fail_next(
        "POST /interactions/{webhook_id}/{webhook_token}/callback", status=400,
        body={"code": 50035, "message": "Invalid Form Body"},
        match=lambda r: isinstance(r.json, dict) and r.json.get("type") == 12)
    alice = fake_discord.user("alice")
    lobby = await (await alice.slash("table", "new", game="turup")).wait_filled()
    r = await alice.click(lobby, _open_button(lobby) or "")
    assert r.type == 4 and r.ephemeral
    assert r.content == ("Discord did not open the table as an Activity: open it in your "
                         "browser instead.")
    assert _link_buttons(r.message)  # type: ignore[arg-type]
