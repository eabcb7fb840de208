"""The Discord bot in Somali, Indonesian and Swahili, end to end through the real
discord.py client and the fake Discord (issue 21).

* A whole match of every game in every language, the server's language chosen with
  ``/settings language``: every message the bot sent — public posts and their edits, DMs,
  private answers, embeds, button labels, menus — holds no English phrase of the catalog
  (:func:`bot.i18n.leftovers.english_leftovers`) and stays inside Discord's limits (the fake
  Discord refuses a message past them, as Discord does; the texts are measured here too).
* ``/settings language`` redraws the open table at once and survives a restart;
  ``/language`` redraws the player's own panel at once, answers in their language, survives
  a restart and ``Automatic`` returns to the server's language; an Indonesian Discord client
  gets Indonesian private answers in an English server.
* The slash commands reach Discord with their Indonesian names and descriptions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_fixture import App, start_app
from discord_helpers import find, my_hand, open_table, play_until
from fakediscord import Harness, SimulatedUser
from fakediscord.models import StoredMessage

from bot.i18n import translator
from bot.i18n.leftovers import english_leftovers

GAMES = ["arbaa_turub", "turup", "tarabish", "truf", "albastini"]
LANGUAGES = ["so", "id", "sw"]
SHORT = {"arbaa_turub": {}, "turup": {"target": 1}, "tarabish": {"target": 150},
         "truf": {"deals": 2}, "albastini": {"target_vp": 1}}
"""Options that make a whole match short."""

LIMITS = {"content": 2000, "title": 256, "description": 4096, "field name": 256,
          "field value": 1024, "footer": 2048, "button label": 80, "option label": 100,
          "option description": 100, "placeholder": 150}


def sent_texts(payload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(kind, text)`` of everything a reader sees in a message payload."""
    if payload.get("content"):
        yield "content", str(payload["content"])
    for embed in payload.get("embeds") or []:
        for key, kind in (("title", "title"), ("description", "description")):
            if embed.get(key):
                yield kind, str(embed[key])
        for f in embed.get("fields") or []:
            yield "field name", str(f.get("name", ""))
            yield "field value", str(f.get("value", ""))
        if (embed.get("footer") or {}).get("text"):
            yield "footer", str(embed["footer"]["text"])
    for row in payload.get("components") or []:
        for c in row.get("components") or []:
            if c.get("label"):
                yield "button label", str(c["label"])
            if c.get("placeholder"):
                yield "placeholder", str(c["placeholder"])
            for o in c.get("options") or []:
                yield "option label", str(o.get("label", ""))
                if o.get("description"):
                    yield "option description", str(o["description"])


def bot_payloads(harness: Harness) -> list[dict[str, Any]]:
    """Every message body the bot sent or edited (REST and interaction answers)."""
    out = []
    for req in harness.server.requests:
        body = req.json
        if isinstance(body, dict):
            data = body.get("data") if isinstance(body.get("data"), dict) else body
            if any(k in data for k in ("content", "embeds", "components")):
                out.append(data)
    return out


def problems(harness: Harness, language: str) -> list[str]:
    found = []
    for payload in bot_payloads(harness):
        for kind, text in sent_texts(payload):
            if len(text) > LIMITS[kind]:
                found.append(f"{kind} of {len(text)} characters: {text[:60]!r}")
            left = english_leftovers(text, language)
            if left:
                found.append(f"English {left[:2]} in {text[:120]!r}")
    return found


async def set_server_language(harness: Harness, language: str) -> SimulatedUser:
    mona = harness.user("mona", manager=True)
    r = await mona.slash("settings", language=language)
    done = await r.wait_filled()
    said = translator(language).gettext("Settings changed.")
    assert said in done.content, done.content
    return mona


def finished(app: App, table_id: int) -> bool:
    return table_id not in app.service.table_ids()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_match_speaks_the_servers_language(
        fake_discord: Harness, tmp_path: Path, game: str, language: str) -> None:
    app = await start_app(fake_discord, tmp_path)
    await set_server_language(fake_discord, language)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, game, ais=3,
                                        options=json.dumps(SHORT[game]))
    await play_until(app, table_id, public, {alice: 0}, lambda: finished(app, table_id),
                     rng=random.Random(3))
    await app.service.settle()
    await fake_discord.settle()
    t = translator(language)
    over = t.gettext("🏁 **The match at table {table} is over.**").format(table=table_id)
    await fake_discord.wait_until(
        lambda: any(over in m.content for m in fake_discord.server.messages(
            fake_discord.channel)) or None, what="the match result in the channel")
    # a stale click (the first DM's controls are of a passed turn): a private refusal
    first_dm = alice.dms[0]
    stale = next((c for c in first_dm.walk_components()
                  if str(c.get("custom_id", "")).startswith("tt:")), None)
    if stale is not None:
        before = len(fake_discord.server.requests)
        if stale["type"] == 3:
            await alice.select(first_dm, stale["custom_id"], [stale["options"][0]["value"]])
        else:
            await alice.click(first_dm, stale["custom_id"])
        await fake_discord.wait_until(  # the refusal follows the acknowledgement
            lambda: any("⚠️" in json.dumps(r.json, ensure_ascii=False)
                        for r in fake_discord.server.requests[before:]) or None,
            what="the stale click refused")
    await fake_discord.settle()
    found = problems(fake_discord, language)
    assert not found, "\n".join(found[:8])


async def test_rules_options_review_and_refusals_in_the_players_language(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    await set_server_language(fake_discord, "sw")
    alice = fake_discord.user("alice")
    r = await alice.slash("rules", game="albastini")
    await r.wait_filled()
    r = await alice.slash("table", "new", game="turup", options='{"target": 1}')
    lobby = await r.wait_filled()
    r = await alice.slash("table", "options")
    await r.wait_filled()
    r = await alice.slash("table", "new", game="truf")  # a second table here: refused
    assert translator("sw").gettext("There is already a table in this channel: {link}") \
        .split("{")[0] in r.content
    table_id = int(find(lobby, ":join").split(":")[2])
    for _ in range(3):
        await alice.click(lobby, find(lobby, ":ai:rules"))
    bob = fake_discord.user("bob")
    refused = await bob.click(lobby, find(lobby, ":start"))  # not the host: refused
    assert refused.ephemeral
    await alice.click(lobby, find(lobby, ":start"))
    rng = random.Random(4)

    def deal_over() -> bool:
        return any("🔎" in json.dumps(m.components, ensure_ascii=False)
                   for m in fake_discord.server.messages(fake_discord.channel))

    await play_until(app, table_id, lobby, {alice: 0}, deal_over, rng=rng)
    result = next(m for m in fake_discord.server.messages(fake_discord.channel)
                  if "🔎" in json.dumps(m.components, ensure_ascii=False))
    review = next(c["custom_id"] for c in result.walk_components()
                  if str(c.get("custom_id", "")).startswith("tt:r:"))
    opened = await alice.click(result, review)
    assert opened.ephemeral
    await fake_discord.settle()
    found = problems(fake_discord, "sw")
    assert not found, "\n".join(found[:8])


def newest_dm(user: SimulatedUser) -> StoredMessage:
    return user.dms[-1]


async def test_settings_language_redraws_at_once_and_survives_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    r = await alice.slash("table", "new", game="tarabish")
    lobby = await r.wait_filled()
    assert "waiting for players" in lobby.content
    await set_server_language(fake_discord, "sw")
    join_sw = translator("sw").gettext("Join")
    await fake_discord.wait_until(
        lambda: join_sw in json.dumps(fake_discord.server.message(lobby.id).components,
                                      ensure_ascii=False) or None,
        what="the lobby redrawn in Swahili")
    waiting = translator("sw").gettext("**{game}** — table {table}, waiting for players")
    assert waiting.split("{table}")[1] in fake_discord.server.message(lobby.id).content
    await app.restart()
    r = await alice.slash("table", "status")
    done = await r.wait_filled()
    assert waiting.split("{table}")[1] in done.content, done.content
    gs = await app.store.get_guild_settings(int(fake_discord.guild.id))
    assert gs.language == "sw"
    # Automatic: back to the server's Discord language (English here)
    mona = fake_discord.user("mona", manager=True)
    r = await mona.slash("settings", language="auto")
    await r.wait_filled()
    await fake_discord.wait_until(
        lambda: "Join" in json.dumps(fake_discord.server.message(lobby.id).components)
        or None, what="the lobby back in English")


async def test_language_redraws_the_players_panel_at_once_and_survives_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    await fake_discord.wait_until(lambda: alice.dms or None, what="the hand DM")
    assert "**Your hand**" in newest_dm(alice).content
    r = await alice.slash("language", language="so")
    done = await r.wait_filled()
    assert done.ephemeral
    so = translator("so")
    assert so.gettext("Your hand, your private panels and the bot's DMs to you are now in "
                      "{language}.").split("{")[0] in done.content
    hand_so = "**Gacantaada**"
    await fake_discord.wait_until(lambda: hand_so in newest_dm(alice).content or None,
                                  what="the DM redrawn in Somali")
    # the table message stays in the server's language
    assert "table" in fake_discord.server.message(public.id).content
    await app.restart()
    panel = await my_hand(alice, public, table_id)
    assert hand_so in panel.content
    assert await app.store.get_player_language(alice.id) == "so"
    r = await alice.slash("language", language="auto")
    done = await r.wait_filled()
    assert "server's language" in done.content  # worded in the server's language: English
    await fake_discord.wait_until(lambda: "**Your hand**" in newest_dm(alice).content
                                  or None, what="the DM back in English")


async def test_an_indonesian_client_gets_indonesian_private_answers(
        fake_discord: Harness, tmp_path: Path) -> None:
    await start_app(fake_discord, tmp_path)
    budi = fake_discord.user("budi")
    record = budi.build_slash("table", "status")
    record.payload["locale"] = "id"
    r = await fake_discord.interact(record)
    assert r.content is not None
    no_table = translator("id").gettext(
        "There is no open table in this channel: {command} opens one.").format(
            command="`/meja baru`")  # the command as the Indonesian client names it
    assert no_table in r.content, r.content
    r = await budi.slash("table", "status")  # the same member, an English client: English
    assert "There is no open table" in str(r.content)


async def test_slash_commands_carry_their_indonesian_names_and_descriptions(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    await app.bot.tree.sync()
    synced = {c["name"]: c for c in fake_discord.server.global_commands}
    table = synced["table"]
    t = translator("id")
    assert table["name_localizations"]["id"] == t.pgettext("command name", "table") != "table"
    assert table["description_localizations"]["id"] == t.pgettext(
        "command description", "Card tables in this channel")
    new = next(o for o in table["options"] if o["name"] == "new")
    assert new["name_localizations"]["id"] == t.pgettext("command name", "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    assert game["name_localizations"]["id"] == t.pgettext("command name", "game")
    language = next(o for o in synced["settings"]["options"] if o["name"] == "language")
    auto = next(c for c in language["choices"] if c["value"] == "auto")
    assert auto["name_localizations"]["id"] == t.pgettext(
        "command description", "Automatic (from Discord's language)")
