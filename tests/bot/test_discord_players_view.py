"""What the players see in Discord (issue 16), end to end through the real discord.py
client and the fake Discord: the whole hand in every DM from the deal on, one tap per
card, the leader's signal chosen before the card, results in players' words."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import discord
import pytest
from app_fixture import App, start_app
from discord_helpers import channel_texts, controls, my_hand, open_table, play_until
from fakediscord import Harness, SimulatedUser
from fakediscord.models import StoredMessage
from words_check import problems

from bot.words.cards import hand_lines

GAMES = ["turup", "arbaa_turub", "tarabish", "truf", "albastini"]


def hand_dm(user: SimulatedUser, table_id: int, deal: int) -> StoredMessage | None:
    """The user's newest DM panel of ``deal`` (as it reads now)."""
    header = re.compile(rf"table {table_id}, deal {deal + 1}\b")
    mine = [m for m in user.dms if header.search(m.content)]
    return mine[-1] if mine else None


def lists_hand(msg: StoredMessage | None, hand: list[str]) -> bool:
    if msg is None or f"**Your hand** ({len(hand)} cards)" not in msg.content:
        return False
    return all(line in msg.content for line in hand_lines(hand))


@pytest.mark.parametrize("game", GAMES)
async def test_every_dm_lists_the_whole_hand_at_the_first_card_play(
        fake_discord: Harness, tmp_path: Path, game: str) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, public = await open_table(app, alice, game, ais=2, others=(bob,))
    humans = {u: app.service.seat_of(table_id, u.id) for u in (alice, bob)}

    def first_card_played() -> bool:
        view = app.service.view(table_id, None)
        return bool((view.get("trick") or {}).get("cards") or view.get("tricks"))

    await play_until(app, table_id, public, humans, first_card_played,  # type: ignore[arg-type]
                     rng=random.Random(5))
    deal = app.service.info(table_id).deal  # not always the first: a Truf misdeal redeals
    for user, seat in humans.items():
        assert seat is not None
        hand = list(app.service.view(table_id, seat)["hand"])
        assert hand
        await fake_discord.wait_until(lambda u=user, h=hand: lists_hand(  # type: ignore[misc]
            hand_dm(u, table_id, deal), h), what=f"{user.user.username}'s whole hand by DM")


async def _lead_panel(app: App, user: SimulatedUser, public: StoredMessage, table_id: int,
                      rng: random.Random) -> StoredMessage | None:
    """Play on (choosing plain cards) until ``user`` is to lead with at least three cards
    in hand (the deal goes on after the lead): their panel then; ``None`` when the match
    ends first (the deals are random: ``user``'s side may never win a trick)."""
    seat = app.service.seat_of(table_id, user.id)
    for _ in range(200):
        await app.service.settle()
        await app.harness.settle()
        if table_id not in app.service.table_ids():
            return None
        if seat in app.service.info(table_id).to_act:
            panel = await my_hand(user, public, table_id)
            hand = app.service.view(table_id, seat)["hand"]
            if any(c.startswith("tt:g:") for c in panel.custom_ids()) and len(hand) >= 3:
                return panel
            select = next(c for c in controls(panel))
            if select["type"] == 3:
                r = await user.select(panel, select["custom_id"],
                                      [rng.choice(select["options"])["value"]])
            else:
                r = await user.click(panel, select["custom_id"])
            assert r.type == 7, r.content
    raise AssertionError("never the leader")


async def test_a_lead_is_one_tap_and_a_signal_is_chosen_before_the_card(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    rng = random.Random(11)

    async def lead_panel() -> StoredMessage:
        """Alice's next lead panel, at a new table when a match ends without one."""
        nonlocal table_id, public
        while (found := await _lead_panel(app, alice, public, table_id, rng)) is None:
            table_id, public = await open_table(app, alice, "turup", ais=3)
        return found

    # a lead without a signal: picking the card plays it, in one interaction
    panel = await lead_panel()
    before = len(await app.store.load_actions(table_id))
    assert all(c["type"] == 3 for c in controls(panel))  # no second step: no variant buttons
    select = next(c for c in controls(panel) if c["type"] == 3)
    value = select["options"][0]["value"]
    assert "signal" not in json.loads(value)
    r = await alice.select(panel, select["custom_id"], [value])
    assert r.type == 7, r.content
    log = await app.store.load_actions(table_id)
    assert log[before].action["action"] == {"seat": 0, "type": "play",
                                            "card": json.loads(value)["card"]}
    # a lead with a signal: chosen first, then the card (two taps for the one who signals)
    for _ in range(8):
        panel = await lead_panel()
        deal = app.service.info(table_id).deal
        signal = next(c for c in panel.walk_components()
                      if str(c.get("custom_id", "")).startswith("tt:g:"))
        r = await alice.select(panel, signal["custom_id"], ["weak"])
        assert r.type == 7 and r.message is not None
        assert "Signal with my next lead: weak suit" in json.dumps(r.message.components)
        select = next(c for c in controls(r.message) if c["type"] == 3)
        value = select["options"][0]["value"]
        card = json.loads(value)["card"]
        r = await alice.select(r.message, select["custom_id"], [value])
        assert r.type == 7, r.content
        log = await app.store.load_actions(table_id)
        assert any(a.action["action"] == {"seat": 0, "type": "play", "card": card,
                                          "signal": "weak"} for a in log)
        await app.service.settle()
        if table_id in app.service.table_ids() and app.service.info(table_id).deal == deal:
            break
        # that trick decided the deal (Turup stops at five tricks): its table message gave
        # way to the result at once, so the lead may never have been shown; lead again
    else:
        raise AssertionError("every signalled lead ended its deal")
    # the table message tells it (an AI's later signal may replace it: look at its edits;
    # each deal has its own table message in the channel)
    channel = f"/channels/{public.channel_id}/messages"

    def told() -> bool | None:
        return any(channel in r.path and isinstance(r.json, dict)
                   and "Alice led" in str(r.json.get("content"))
                   and "signalling: weak suit" in str(r.json.get("content"))
                   for r in fake_discord.server.requests) or None

    await fake_discord.wait_until(told, what="the signal on the table message")
    # the next panel of the seat offers no signal until chosen again
    assert all("signal" not in json.loads(o["value"]) for c in controls(r.message)
               if c["type"] == 3 for o in c["options"])


NAMED = "**Bold** <@{id}> @everyone _x_"


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_match_reads_in_players_words_and_pings_nobody(
        fake_discord: Harness, tmp_path: Path, game: str) -> None:
    """A member with markdown and mentions in their name plays a whole match: every
    message of the channel and every DM reads in players' words (no card codes, engine
    keys, Python literals, bare seat numbers), the name is shown literally and nobody is
    pinged."""
    app = await start_app(fake_discord, tmp_path)
    bob = fake_discord.user("bob")
    alice = fake_discord.user("alice")
    alice.user.global_name = NAMED.format(id=bob.user.id)
    short = {"arbaa_turub": {}, "turup": {"target": 1}, "tarabish": {"target": 150},
             "truf": {"deals": 2}, "albastini": {"target_vp": 1}}[game]
    table_id, public = await open_table(app, alice, game, ais=3, options=json.dumps(short))

    def over() -> bool:
        return any(f"The match at table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, {alice: 0}, over, rng=random.Random(2))
    await fake_discord.settle()
    texts = [m.content for m in fake_discord.server.messages(fake_discord.channel)]
    texts += [m.content for m in alice.dms]
    results = [t for t in texts if " is over." in t]
    assert results and any("win" in t for t in results)
    bad = [p for t in texts for p in problems(_without_markup(t))]
    assert not bad, "\n".join(bad[:5])
    assert any(r"\*\*Bold\*\* \<@" + "\u200b" in t for t in results), results[0]
    leaked = [t for t in texts if "@everyone" in t]
    assert not leaked, leaked[0]
    for m in [*fake_discord.server.messages(fake_discord.channel), *alice.dms]:
        pinged = {int(u["id"]) for u in m.payload.get("mentions") or []}
        assert bob.user.id not in pinged and not m.payload.get("mention_everyone"), m.content
    for req in fake_discord.server.requests:
        allowed = (req.json or {}).get("allowed_mentions") if isinstance(req.json, dict) \
            else None
        if allowed is not None:
            assert "everyone" not in allowed.get("parse", []), req.path
            assert bob.user.id not in [int(u) for u in allowed.get("users", [])], req.path


_MARKUP = re.compile(r"<@!?\u200b?\d+>|<#\d+>|`[^`]*`|\*\*|\\.")


def _without_markup(text: str) -> str:
    """Mentions, code spans and markdown removed (what a player reads)."""
    return _MARKUP.sub(" ", text)


async def _page_through(user: SimulatedUser, first: StoredMessage) -> list[str]:
    """Every page of a review, turning with ▶ until it is disabled."""
    pages = [first.content]
    msg = first
    for _ in range(60):
        nxt = next((c for c in msg.walk_components()
                    if str(c.get("custom_id", "")).endswith("n")), None)
        if nxt is None or nxt.get("disabled"):
            return pages
        r = await user.click(msg, nxt["custom_id"])
        assert r.type in (6, 7) and r.message is not None, r.content
        msg = r.message
        pages.append(msg.content)
    raise AssertionError("the review never ends")


async def test_review_pages_through_a_finished_deal_also_after_a_restart(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice, carol = fake_discord.user("alice"), fake_discord.user("carol")
    table_id, public = await open_table(app, alice, "turup", ais=3)

    def result() -> StoredMessage | None:
        return next((m for m in fake_discord.server.messages(fake_discord.channel)
                     if f"Deal 1 of table {table_id} is over" in m.content), None)

    await play_until(app, table_id, public, {alice: 0}, lambda: result() is not None)
    posted = result()
    assert posted is not None
    review = f"tt:r:{table_id}:0:0"
    assert review in posted.custom_ids()
    # anyone in the channel may review a finished deal: privately, page by page
    r = await carol.click(posted, review)
    assert r.ephemeral and r.message is not None
    pages = await _page_through(carol, r.message)
    assert len(pages) >= 2
    text = "\n".join(pages)
    assert "Alice:" in text and "Trick 1:" in text and "Trick 2:" in text
    assert "Deal 1: result" in text
    assert not [p for t in pages for p in problems(_without_markup(t))]
    # after a restart the same button still works, from the store
    await app.restart()
    r = await alice.click(posted, review)
    assert r.ephemeral and r.message is not None
    assert await _page_through(alice, r.message) == pages


async def test_my_hand_twice_leaves_one_live_panel(fake_discord: Harness,
                                                   tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "tarabish", ais=3)
    await app.service.settle()
    first = await my_hand(alice, public, table_id)
    second = await my_hand(alice, public, table_id)
    assert first.id != second.id

    def retired() -> bool | None:
        old = fake_discord.server.message(first.id)
        return ("replaced by a newer one" in old.content and not old.custom_ids()) or None

    await fake_discord.wait_until(retired, what="the first panel made inert")
    panels = [m for m in alice.visible() if m.ephemeral and f"table {table_id}" in m.content]
    live = [m for m in panels if m.custom_ids()]
    assert [m.id for m in live] == [second.id]
    # every turn played from a new My hand panel: still one panel with controls
    await play_until(app, table_id, public, {alice: 0},
                     lambda: len(app.service.view(table_id, 0)["hand"]) < 9)
    await fake_discord.settle()
    live = [m for m in alice.visible() if m.ephemeral and m.custom_ids()
            and f"table {table_id}" in m.content]
    assert len(live) == 1, [m.content for m in live]


async def test_rules_and_options_in_players_words(fake_discord: Harness,
                                                  tmp_path: Path) -> None:
    """``/rules`` shows the paged player summary; ``/table options`` quotes each option's
    rule text; neither points to a repository path."""
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    r = await alice.slash("rules", game="tarabish")
    assert r.ephemeral and r.message is not None
    embeds = r.message.embeds
    assert len(embeds) >= 3 and all(e.get("description") for e in embeds)
    text = "\n".join(e["title"] + "\n" + e["description"] for e in embeds)
    assert "docs/rules" not in text and "Tarabish" in text and "bella" in text
    await open_table(app, alice, "turup", ais=3, start=False, options='{"target": 3}')
    r = await alice.slash("table", "options")
    assert r.ephemeral and r.message is not None
    text = "\n".join(e["description"] for e in r.message.embeds)
    assert "Rule file: “" in text and "docs/rules" not in text
    assert "3 (changed; the default is 5)" in text


async def test_admin_commands_are_for_managers_only(fake_discord: Harness,
                                                    tmp_path: Path) -> None:
    """The registered admin commands carry Manage Server as their default permission, so
    ordinary members do not see them; ``/admin sync`` is still owner-checked."""
    app = await start_app(fake_discord, tmp_path)
    manage = discord.Permissions(manage_guild=True).value
    registered = {c.name: c.to_dict(app.bot.tree) for c in app.bot.tree.get_commands()}
    for name in ("admin", "settings", "season"):
        assert registered[name]["default_member_permissions"] == manage, name
    for name in ("table", "rules", "leaderboard"):
        assert registered[name]["default_member_permissions"] is None, name
    boss = fake_discord.user("boss", manager=True)
    r = await boss.slash("admin", "sync", here=True)
    assert r.ephemeral and "Only the bot's owner" in r.content


async def test_truf_bid_choices_show_each_cards_value(fake_discord: Harness,
                                                      tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "truf", ais=3)
    await app.service.settle()
    panel = await my_hand(alice, public, table_id)
    worth = {"J": 0, "Q": 0, "K": 0, "A": 1, "T": 10}
    selects = [c for c in controls(panel) if c["type"] == 3]
    assert selects
    for select in selects:
        for option in select["options"]:
            value = option["value"]
            card = json.loads(value)["card"] if value.startswith("{") else value
            rank = card[0]
            assert option["description"] == f"worth {worth.get(rank, rank)}", option


async def test_the_options_control_changes_an_option(fake_discord: Harness,
                                                     tmp_path: Path) -> None:
    """The host changes options from the lobby's Options control (a select for a switch,
    a form for a number); a bad number gets the engine's message and changes nothing;
    another member is refused."""
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    table_id, public = await open_table(app, alice, "tarabish", start=False)
    opened = f"tt:o:{table_id}:0:open"
    assert opened in public.custom_ids()
    r = await bob.click(public, opened)
    assert r.ephemeral and "Only the player who opened the table" in r.content
    r = await alice.click(public, opened)
    assert r.ephemeral and r.message is not None
    panel = r.message
    assert "Auto bella (`auto_bella`): off (the default)" in panel.content
    r = await alice.select(panel, f"tt:o:{table_id}:0:pick", ["auto_bella"])
    assert r.type == 7 and r.message is not None
    values = next(c for c in r.message.walk_components()
                  if c.get("custom_id") == f"tt:o:{table_id}:0:set:auto_bella")
    assert [(o["label"], o.get("default")) for o in values["options"]] == [
        ("on", False), ("off (default)", True)]
    r = await alice.select(r.message, values["custom_id"], ["true"])
    assert r.type == 7 and "Auto bella is now **on**" in r.message.content
    assert app.service.info(table_id).options["auto_bella"] is True
    # a number through the form; a bad one is refused with the engine's reason
    r = await alice.select(r.message, f"tt:o:{table_id}:0:pick", ["target"])
    form = await alice.click(r.message, f"tt:o:{table_id}:0:num:target")
    refused = await alice.submit_modal(form, {"value": "0"})
    assert refused.ephemeral and "0 is not allowed" in refused.content
    assert "target" not in app.service.info(table_id).options  # still the default
    form = await alice.click(r.message, f"tt:o:{table_id}:0:num:target")
    done = await alice.submit_modal(form, {"value": "300"})
    assert done.type == 7, done.content
    assert app.service.info(table_id).options == {"target": 300, "auto_bella": True}
    row = await app.store.get_table(table_id)
    assert row is not None and row.options["target"] == 300


async def test_forced_plays_are_a_per_player_choice(fake_discord: Harness,
                                                    tmp_path: Path) -> None:
    """With ``/autoplay`` on, a player whose only legal action is one card never has to
    play it; off (the default), every card waits for them."""
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    assert await app.store.get_play_only_card(alice.id) is False
    r = await alice.slash("autoplay", enabled=True)
    assert r.ephemeral and "Forced plays are **on**" in r.content
    assert await app.store.get_play_only_card(alice.id) is True
    table_id, public = await open_table(app, alice, "tarabish", ais=3)
    rng = random.Random(4)
    forced_turns = 0
    for _ in range(400):
        await app.service.settle()
        await fake_discord.settle()
        info = app.service.info(table_id)
        if info.deal > 0:
            break
        if 0 not in info.to_act:
            continue
        legal = app.service.legal(table_id, 0)
        plays = [a for a in legal if a.type == "play"]
        forced_turns += len(plays) == 1 and all(a.type in ("play", "concede") for a in legal)
        panel = await my_hand(alice, public, table_id)
        select = next((c for c in controls(panel) if c["type"] == 3), None)
        if select is not None:
            r = await alice.select(panel, select["custom_id"],
                                   [rng.choice(select["options"])["value"]])
        else:
            r = await alice.click(panel, next(c["custom_id"] for c in controls(panel)
                                              if "concede" not in c["custom_id"]))
        assert r.type == 7, r.content
    assert forced_turns == 0  # every forced card was played for her, at once
    log = await app.store.load_actions(table_id)
    mine = [a for a in log if a.action["deal"] == 0 and a.action["action"].get("seat") == 0
            and a.action["action"]["type"] == "play"]
    assert len(mine) == 9  # her last card (at least) was forced, and played
    # (the next deal may have begun with a forced card of hers too: only the first counts)
    r = await alice.slash("autoplay", enabled=False)
    assert "Forced plays are **off**" in r.content
    assert await app.store.get_play_only_card(alice.id) is False


async def test_the_leaderboard_shows_display_names_escaped(fake_discord: Harness,
                                                           tmp_path: Path) -> None:
    """Joining a table records the member's display name (``players``): the leaderboard
    names them, literally (markdown escaped), not as a mention."""
    app = await start_app(fake_discord, tmp_path,
                          guild_settings={"ai_pace": 0.0, "images": False,
                                          "ai_matches_rated": True})
    alice = fake_discord.user("alice")
    alice.user.global_name = "**Ace** _one_"
    table_id, public = await open_table(app, alice, "turup", ais=3, options='{"target": 1}')

    def over() -> bool:
        return any(f"The match at table {table_id} is over" in t for t in channel_texts(app))

    await play_until(app, table_id, public, {alice: 0}, over, rng=random.Random(6))
    player = await app.store.get_player(alice.id)
    assert player is not None and player.display_name == "**Ace** _one_"
    r = await alice.slash("leaderboard", game="turup")
    shown = "\n".join(e.get("description", "") for e in r.message.embeds) if r.message else ""
    assert r"\*\*Ace\*\* \_one\_" in shown and f"<@{alice.id}>" not in shown, shown
