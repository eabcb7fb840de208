"""The private side of Discord in the player's language (issue 21): the hand DM and its
controls, **My hand** panels, answers to clicks, refusals (also those a table's owner
process words for a forwarded click) and ``/autoplay``.

The checks do not depend on what the catalogs hold: a *marking* translator stands in for a
language. It answers every message id with ``⟦<language>|<msgid>⟧``, so a text a player
reads shows which language each piece was asked in, and whatever is left once the marked
pieces are taken out must be no words at all — only cards, numbers, names, mentions,
punctuation, emoji and markdown. A *long* translator (every message many times over)
shows that every button label, option, placeholder and message stays inside Discord's
limits however long a translation is: the fake Discord refuses what Discord would.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from app_fixture import App, start_app
from babel.support import NullTranslations
from discord_helpers import controls, my_hand, open_table, play_until, take_turn
from fakediscord import Harness, SimulatedUser
from fakediscord import payloads as P
from fakediscord.models import StoredMessage

import bot.discord_bot.languages as languages_module
import bot.discord_bot.tables.single_panel as single_panel_module
from bot.cluster import ClusterNode, Delivery, ForwardOutcome, ForwardRequest, Ownership
from bot.discord_bot.answer import STALE
from bot.discord_bot.tables.clicks import NO_SEAT
from bot.discord_bot.tables.forwarded import ShardedClicks
from bot.i18n import N_, Translator, translator
from bot.service import LobbyError, RuleRefusal
from games.errors import IllegalAction

LIMITS = {"content": 2000, "button label": 80, "option label": 100,
          "option description": 100, "placeholder": 150}
MARK = re.compile(r"⟦(\w+)\|[^⟦⟧]*⟧")
WORD = re.compile(r"[^\W\d_]{2,}")


class Marking(Translator):
    """Every message id comes back marked with the language it was asked in."""

    def __init__(self, language: str) -> None:
        super().__init__(language, NullTranslations())

    def gettext(self, message: str) -> str:
        return f"⟦{self.language}|{message}⟧"

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.gettext(singular if count == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        return self.ngettext(singular, plural, count)


class Long(Marking):
    """A language whose every translation is the message twenty times over."""

    def gettext(self, message: str) -> str:
        return " ".join([super().gettext(message)] * 20)


def use_translators(monkeypatch: pytest.MonkeyPatch,
                    made: dict[str, Callable[[str], Translator]]) -> None:
    """Languages ``made`` speak through the given translators (the rest: the catalogs)."""
    real = translator
    chosen = {code: make(code) for code, make in made.items()}

    def fake(code: str) -> Translator:
        return chosen[code] if code in chosen else real(code)

    monkeypatch.setattr(languages_module, "translator", fake)
    monkeypatch.setattr(single_panel_module, "translator", fake)


def texts(payload: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(kind, text)`` of everything a reader sees in a message payload."""
    if payload.get("content"):
        yield "content", str(payload["content"])
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


def unmarked(text: str) -> tuple[set[str], list[str]]:
    """The languages ``text`` was marked in, and the words left outside the marks."""
    languages: set[str] = set()
    while True:
        found = MARK.findall(text)
        if not found:
            break
        languages.update(found)
        text = MARK.sub("", text)
    return languages, WORD.findall(text)


def versions_of(msg: StoredMessage) -> list[dict[str, Any]]:
    """Every version of a message: its earlier ones and the one shown now."""
    return [*msg.history, msg.payload]


def foreign(payloads: list[dict[str, Any]], language: str, names: set[str]) -> list[str]:
    """What in ``payloads`` was not asked in ``language``: words outside the marks (other
    than ``names``), or pieces marked in another language; also the option labels that
    are neither marked nor a card."""
    found = []
    for payload in payloads:
        for kind, text in texts(payload):
            asked, words = unmarked(text)
            stray = [w for w in words if w not in names]
            if stray or asked - {language}:
                found.append(f"{kind} {text[:100]!r}: {stray[:3]} {sorted(asked)}")
    return found


def names_of(*users: SimulatedUser) -> set[str]:
    return {n for u in users for n in (u.user.username, u.user.global_name or "")}


def alice_panels(alice: SimulatedUser, server: Any) -> list[dict[str, Any]]:
    """Every version of alice's DMs and of the ephemeral messages only she sees."""
    out = [p for m in alice.dms for p in versions_of(m)]
    for m in server.messages(alice.channel):
        if m.ephemeral_for == alice.id:
            out.extend(versions_of(m))
    return out


def first_deal_over(app: App, table_id: int) -> bool:
    """The table's first deal is over (or its whole match: the table is closed)."""
    return (table_id not in app.service.table_ids()
            or app.service.info(table_id).deal > 0)


async def dm_with_controls(harness: Harness, alice: SimulatedUser) -> StoredMessage:
    """alice's hand DM once it offers her choices (her turn)."""
    return await harness.wait_until(
        lambda: next((m for m in reversed(alice.dms) if controls(m)), None),
        what="alice's turn in her DM")


async def test_the_dm_panel_my_hand_and_answers_are_in_the_players_language(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    await app.store.set_player_language(alice.id, "so")
    table_id, public = await open_table(app, alice, "turup", ais=3,
                                        options=json.dumps({"target": 1}))
    dm = await dm_with_controls(fake_discord, alice)
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    # the hand, the turn and every control of the DM: Somali (marked), nothing else
    assert "⟦so|**Your turn** — choose below.⟧" in dm.content
    assert any(c.get("placeholder") or c.get("label") for c in controls(dm))
    made = await play_until(app, table_id, public, {alice: seat},
                            lambda: first_deal_over(app, table_id),
                            rng=random.Random(5))
    assert made > 0
    await fake_discord.settle()
    panels = alice_panels(alice, fake_discord.server)
    assert any(m.ephemeral_for == alice.id for m in fake_discord.server.messages(
        alice.channel))  # My hand panels were shown, and are checked
    found = foreign(panels, "so", names_of(alice))
    assert not found, "\n".join(found[:8])
    # the public table message stays in the server's language (English: no marks)
    shown = fake_discord.server.message(public.id)
    assert "⟦" not in shown.content and "table" in shown.content


async def test_a_language_change_redraws_the_dm_at_once_and_the_players_own_choice_wins(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Marking, "sw": Marking, "id": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    dm = await dm_with_controls(fake_discord, alice)
    assert "**Your turn**" in dm.content and "⟦" not in dm.content
    edits = len(dm.history)

    def redrawn_in(language: str) -> Callable[[], StoredMessage | None]:
        def check() -> StoredMessage | None:
            msg = fake_discord.server.message(dm.id)
            asked, words = unmarked(msg.content)
            return msg if asked == {language} and not words else None
        return check

    # the server's language: every seat without a choice of its own follows it at once
    mona = fake_discord.user("mona", manager=True)
    await (await mona.slash("settings", language="sw")).wait_filled()
    shown = await fake_discord.wait_until(redrawn_in("sw"), what="the DM redrawn in sw")
    assert len(shown.history) > edits  # the same DM, edited (not a new message)
    assert not foreign([shown.payload], "sw", names_of(alice))
    # the player's own language
    r = await alice.slash("language", language="so")
    assert r.ephemeral and "⟦so|" in r.content
    shown = await fake_discord.wait_until(redrawn_in("so"), what="the DM redrawn in so")
    assert not foreign([shown.payload], "so", names_of(alice))
    # another server language now changes nothing for her: her choice wins
    await (await mona.slash("settings", language="id")).wait_filled()
    await fake_discord.settle()
    assert redrawn_in("so")() is not None
    panel = await my_hand(alice, public, table_id)
    assert not foreign([panel.payload], "so", names_of(alice))


async def test_a_players_change_redraws_only_their_panels_a_servers_change_the_others(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Marking, "sw": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await open_table(app, alice, "turup", ais=2, others=(bob,))
    await fake_discord.wait_until(lambda: (alice.dms and bob.dms) or None, what="the DMs")
    # the AI players move on their pace timers: wait for a human's turn, after which no
    # other edit comes until someone acts
    await fake_discord.wait_until(
        lambda: next((u for u in (alice, bob) if u.dms and controls(u.dms[-1])), None),
        what="a human's turn")
    await app.service.settle()
    await fake_discord.settle()
    bob_dm = bob.dms[-1]
    before = (bob_dm.content, len(bob_dm.history))
    assert "⟦" not in before[0]

    def in_language(user: SimulatedUser, language: str) -> StoredMessage | None:
        msg = user.dms[-1]
        asked, words = unmarked(msg.content)
        return msg if asked == {language} and not words else None

    # alice's own language: her DM is redrawn (SeatPanels.redraw_user), bob's is not
    await (await alice.slash("language", language="so")).wait_filled()
    await fake_discord.wait_until(lambda: in_language(alice, "so"), what="alice in so")
    await fake_discord.settle()
    assert (bob.dms[-1].content, len(bob.dms[-1].history)) == before
    # the server's language: bob's DM follows it (SeatPanels.redraw_all); alice keeps hers
    mona = fake_discord.user("mona", manager=True)
    await (await mona.slash("settings", language="sw")).wait_filled()
    await fake_discord.wait_until(lambda: in_language(bob, "sw"), what="bob in sw")
    await fake_discord.settle()
    assert in_language(alice, "so") is not None


async def test_refusals_come_in_the_clicking_players_language(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Marking, "sw": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await app.store.set_player_language(alice.id, "so")
    await app.store.set_player_language(bob.id, "sw")
    table_id, public = await open_table(app, alice, "turup", ais=3)
    # bob has no seat: My hand is refused, privately, in Swahili
    r = await bob.click(public, f"tt:h:{table_id}:0:")
    assert r.ephemeral
    assert r.content == f"⚠️ ⟦sw|{NO_SEAT}⟧", r.content
    # alice clicks a control of a turn that has passed: her click raced the DM's edit,
    # so Discord sends it with the message as it was when she clicked
    dm = await dm_with_controls(fake_discord, alice)
    old = json.loads(json.dumps(dm.payload))
    stale = controls(dm)[0]
    done = await take_turn(alice, dm, random.Random(2))
    assert done.type == 7
    await app.service.settle()
    await fake_discord.settle()
    now = json.loads(json.dumps(fake_discord.server.message(dm.id).payload))
    assert now != old
    values = [stale["options"][0]["value"]] if stale["type"] == 3 else None
    record = fake_discord.server.new_interaction(
        interaction_type=P.MESSAGE_COMPONENT,
        data=P.component_data(stale["custom_id"], stale["type"], values),
        user=alice.user, channel=alice.dm_channel, message=replace(dm, payload=old),
        source_message_id=dm.id)
    refused = await fake_discord.interact(record)
    assert refused.ephemeral
    assert refused.content == f"⚠️ ⟦so|{STALE}⟧", refused.content
    await fake_discord.settle()
    assert fake_discord.server.message(dm.id).payload == now  # the DM is left as it is


async def test_autoplay_answers_in_the_players_language(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"sw": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    await app.store.set_player_language(alice.id, "sw")
    for enabled in (True, False):
        r = await alice.slash("autoplay", enabled=enabled)
        done = await r.wait_filled()
        assert done.ephemeral
        asked, words = unmarked(done.content)
        assert asked == {"sw"} and not words, done.content
        assert ("**on**" if enabled else "**off**") in done.content
        assert await app.store.get_play_only_card(alice.id) is enabled
    await app.bot.tree.sync()
    synced = {c["name"]: c for c in fake_discord.server.global_commands}
    t = translator("id")
    autoplay = synced["autoplay"]
    assert autoplay["name_localizations"]["id"] == t.pgettext("command name", "autoplay")
    option = autoplay["options"][0]
    assert option["name"] == "enabled"
    assert option["name_localizations"]["id"] == t.pgettext("command name", "enabled")


async def test_a_forwarded_refusal_is_worded_by_the_owner_in_the_players_language(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Marking})
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    await app.store.set_player_language(alice.id, "so")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    # the refusal travels through the inbox as JSON: its template and its fields
    refusal = ForwardOutcome.refusal("refused", LobbyError(N_("seat {seat} is taken"), seat=3))
    stored = json.loads(json.dumps(refusal.to_json()))
    assert stored["message"] == "seat {seat} is taken" and stored["fields"] == {"seat": "3"}
    outcome = ForwardOutcome.from_json(stored)
    # the owner answers through the clicking interaction's token
    asked = await alice.slash("autoplay", enabled=False)
    await asked.wait_filled()
    clicks = ShardedClicks(app.tables, ClusterNode(app.store, Ownership.of(1, [0])))
    token = asked.interaction["token"]
    reply_to = {"application_id": fake_discord.server.application_id, "token": token,
                "channel_id": None, "message_id": None}
    # a refusal of the rules travels as the engine's template and fields (data), and the
    # owner words it with the table's names
    rule = ForwardOutcome.from_json(json.loads(json.dumps(ForwardOutcome.refusal(
        "refused", RuleRefusal.of(IllegalAction("you must follow {suit}: you hold {cards}",
                                                suit=0, cards=["TS"]))).to_json())))
    assert rule.rule == {"template": "you must follow {suit}: you hold {cards}",
                         "params": {"suit": 0, "cards": ["TS"]}}
    for got, expected in ((outcome, "⚠️ ⟦so|seat 3 is taken⟧."),
                          (ForwardOutcome("expired"), None),
                          (ForwardOutcome("stale"), f"⚠️ ⟦so|{STALE}⟧"),
                          (rule, "⚠️ ⟦so|you must follow ⟦so|spades⟧: you hold 10♠⟧.")):
        before = len(asked.followups)
        await clicks.answer_forwarded(
            Delivery(1, "k", ForwardRequest.panel(table_id, alice.id), reply_to,
                     dt.datetime.now(dt.UTC)), got)
        await fake_discord.settle()
        sent = asked.followups[before:]
        assert len(sent) == 1 and sent[0].ephemeral
        if expected is not None:
            assert sent[0].content == expected, sent[0].content
        asked_in, words = unmarked(sent[0].content)
        assert asked_in == {"so"} and not words, sent[0].content


async def test_every_private_text_stays_inside_discords_limits_in_a_long_language(
        fake_discord: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_translators(monkeypatch, {"so": Long})
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    await app.store.set_player_language(alice.id, "so")
    table_id, public = await open_table(app, alice, "turup", ais=3,
                                        options=json.dumps({"target": 1}))
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    await dm_with_controls(fake_discord, alice)
    made = await play_until(app, table_id, public, {alice: seat},
                            lambda: first_deal_over(app, table_id),
                            rng=random.Random(6))
    assert made > 0
    await fake_discord.settle()
    seen = alice_panels(alice, fake_discord.server)
    too_long = [f"{kind} of {len(text)}" for p in seen for kind, text in texts(p)
                if len(text) > LIMITS[kind]]
    assert not too_long, too_long[:5]
    labels = [text for p in seen for kind, text in texts(p) if kind == "button label"]
    assert any(len(label) == LIMITS["button label"] for label in labels)  # clipped
    assert all(r.status < 400 for r in fake_discord.server.requests), [
        r for r in fake_discord.server.requests if r.status >= 400][:3]
