"""Hostile input through Discord (issue 18, "The same parsers serve ``/league report`` files
and ``/table new options:``"), end to end: the real discord.py client against the fake
Discord.

The Discord paths read JSON with the engine's one parser
(:func:`games.records.load_json`: too deep, a number of thousands of digits, bad syntax —
one short message), quote what they refuse with :func:`games.errors.quote` (clipped to a
few dozen characters) and name games as :func:`games.registry.game_id` reads them (any
case, ``-`` for ``_``). Each hostile input is answered privately with one short line, and
nothing is created or recorded.

Discord caps a string option at 6,000 characters (the fake refuses a longer one as Discord
does), so ``options:`` carries the deepest nesting, the longest number and the longest
option name that fit in 6,000 characters; a ``sheet`` file may hold 256 KB.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from app_fixture import start_app
from club_app import start_club, stop_club
from fakediscord import (
    CommandFile,
    CommandUnavailable,
    Harness,
    InteractionResult,
    SimulatedUser,
)
from fakediscord.models import InteractionRecord, StoredMessage
from fakediscord.payloads import MESSAGE_COMPONENT
from league_report import (
    assert_untouched,
    played_record,
    running_league,
)

from games.records import replay

SHORT = 300
"""The longest a refusal may be: a sentence, whatever the size of what was sent."""

OPTION_LIMIT = 6000
"""Discord's limit on a string option (the fake enforces it from the command's schema)."""


def one_short_line(answer: InteractionResult, *words: str) -> None:
    """A private answer in the interaction's own response: one line, short, with
    ``words``."""
    assert answer.type == 4 and answer.ephemeral and not answer.followups, answer
    text = answer.content
    assert "\n" not in text and len(text) <= SHORT, (len(text), text[:400])
    for word in words:
        assert word in text, text


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# ------------------------------------------------------------------------ /table new


async def test_table_new_refuses_hostile_options_in_one_short_line(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")

    with pytest.raises(CommandUnavailable, match="length out of range"):
        # 50,000 deep does not fit in an option: Discord refuses it before the bot
        alice.build_slash("table", "new", game="turup", options=nested(50_000))

    deep = '{"target": ' + nested(2_990) + "}"
    digits = '{"target": ' + "7" * 5_000 + "}"
    readable = '{"target": ' + "7" * 4_000 + "}"  # under int()'s limit: the options judge it
    long_name = '{"' + "ẞ" * (OPTION_LIMIT - 7) + '": 1}'
    broken = '{"target": 1, ' + " " * 5_000 + "oops}"
    assert max(map(len, (deep, digits, readable, long_name, broken))) <= OPTION_LIMIT

    async def new(options: str) -> InteractionResult:
        return await alice.slash("table", "new", game="turup", options=options)

    one_short_line(await new(deep),
                   "Those options cannot be read: the JSON is nested too deeply.")
    one_short_line(await new(digits), "Those options cannot be read: the JSON holds a "
                                      "number too long to read")
    one_short_line(await new(readable), "option 'target': <a number of about 40",
                   "digits> is not allowed")
    named = await new(long_name)
    one_short_line(named, "unknown option 'ẞẞẞ", "…", "this game's options are")
    assert named.content.count("ẞ") < 50
    one_short_line(await new(broken), "Those options cannot be read: not valid JSON:",
                   "line 1, column 5015.")

    assert app.service.table_ids() == []
    server = fake_discord.server
    assert all(m.ephemeral for m in server.messages(fake_discord.channel))
    # and the channel is still free: a sound table opens
    opened = await alice.slash("table", "new", game="turup", options='{"target": 1}')
    assert not (await opened.wait_filled()).ephemeral
    assert len(app.service.table_ids()) == 1


# ------------------------------------------------------------------------ /league report


async def test_league_report_refuses_hostile_sheets_in_one_short_line(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_club(fake_discord, tmp_path)
    await app.bot.tree.sync()
    alice, bob, carol, dave = (fake_discord.user(n) for n in ("alice", "bob", "carol", "dave"))
    fixture = await running_league(app, fake_discord, "Cup", "arbaa_turub",
                                   (alice.id, carol.id), (bob.id, dave.id))
    record = played_record(tmp_path, "arbaa_turub")

    async def report(data: str) -> InteractionResult:
        sheet = CommandFile("sheet.json", data.encode())
        return await alice.slash("league", "report", fixture=fixture.id, sheet=sheet)

    deep = nested(100_000)
    assert len(deep.encode()) <= 256 * 1024
    one_short_line(await report(deep),
                   "the report cannot be read: the JSON is nested too deeply")
    huge_number = '{"deals": [{"tricks_by_team": [' + "9" * 5_000 + ", 0]}]}"
    one_short_line(await report(huge_number), "the report cannot be read: the JSON holds a "
                                              "number too long to read")
    one_short_line(await report("1" * 5_000 + "-0 20-16"),
                   "cannot read '111", "…", "write each deal as HOME-AWAY")
    long_name = {**record, "game": "x" * 200_000}
    one_short_line(await report(json.dumps(long_name)),
                   "this is a record of 'xxx", "…", "but league 'Cup' plays Arba'a Turub")
    other = {**record, "game": "TURUP"}
    one_short_line(await report(json.dumps(other)),
                   "this is a record of Turup, but league 'Cup' plays Arba'a Turub")
    deep_game = '{"format": "tricktable/1", "game": ' + nested(400) + ', "deals": []}'
    one_short_line(await report(deep_game), "the game record does not replay: field "
                                            "'game': unknown game [[[", "…")
    await assert_untouched(app, fixture)
    assert all(m.ephemeral for m in fake_discord.server.messages(fake_discord.channel))

    # The league's own game in another spelling is that game: the record counts.
    spelled: dict[str, Any] = {**record, "game": "Arbaa-Turub"}
    out, status = replay(spelled)
    assert status == 0 and out["match"]["over"]
    sent = await report(json.dumps(spelled))
    assert not sent.ephemeral, sent.content
    assert "of a game record." in sent.content
    stored = await app.store.get_fixture(fixture.id)
    assert stored is not None and stored.status == "reported" and stored.result is not None
    assert stored.result["record"] == spelled  # stored as given
    await stop_club(fake_discord, app)


# ------------------------------------------------- components from another server (L1)


def forged_click(mallory: SimulatedUser, carrier: StoredMessage, to_id: str
                 ) -> InteractionRecord:
    """[forged] ``mallory`` clicks, on her own server's lobby message ``carrier``, its Join
    button with the ``custom_id`` rewritten to ``to_id`` (a component of another server's
    table): a payload Discord itself would never send."""
    join = next(c for c in carrier.custom_ids() if c.endswith(":join"))
    payload = json.loads(json.dumps(carrier.payload).replace(f'"{join}"', f'"{to_id}"'))
    return mallory.server.new_interaction(
        interaction_type=MESSAGE_COMPONENT, data={"custom_id": to_id, "component_type": 2},
        user=mallory.user, channel=mallory.channel,
        message=dataclasses.replace(carrier, payload=payload), source_message_id=carrier.id)


async def test_a_component_forged_from_another_server_is_refused_and_changes_nothing(
        fake_discord: Harness, tmp_path: Path) -> None:
    """Security review L1: the owner of another server (Manage Server there) forges, from
    her own server, the Join, Add AI, Start and Options buttons and the abandon
    confirmation of a lobby of this server: each is refused privately and the table is
    untouched. The same components from the table's own server still work."""
    other = fake_discord.server.add_guild("Other Club")
    elsewhere = fake_discord.server.add_text_channel(other, "tables")
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    mallory = fake_discord.user("mallory", guild=other, manager=True).at(elsewhere)
    home = await (await alice.slash("table", "new", game="turup")).wait_filled()
    hers = await (await mallory.slash("table", "new", game="turup")).wait_filled()
    table_id = int(next(c for c in home.custom_ids() if c.endswith(":join")).split(":")[2])
    before = app.service.info(table_id)
    for forged in ("l:{}:0:join", "l:{}:0:ai:rules", "l:{}:0:start", "o:{}:0:open",
                   "x:{}:0:"):
        to_id = "tt:" + forged.format(table_id)
        answer = await fake_discord.interact(forged_click(mallory, hers, to_id))
        assert answer.ephemeral and "belongs to another server" in answer.content, answer
        assert app.service.info(table_id) == before, to_id
    assert before.status == "lobby" and [s is not None for s in before.seats].count(True) == 1
    joined = await fake_discord.user("bob").click(home, f"tt:l:{table_id}:0:join")
    assert joined.type == 7
    assert [s is not None for s in app.service.info(table_id).seats].count(True) == 2


# ------------------------------------------ numbers past a slash option's range (L3)


def forged_slash(user: SimulatedUser, option: str, value: Any, *path: str, **options: Any
                 ) -> InteractionRecord:
    """[forged] ``/path options`` with ``option`` then set to ``value``: the client keeps
    to the command's min/max, a forged interaction need not."""
    record = user.build_slash(*path, **options)
    entries = record.payload["data"]["options"]
    while entries and entries[0]["type"] in (1, 2):  # into the subcommand
        entries = entries[0].setdefault("options", [])
    for entry in entries:
        if entry["name"] == option:
            entry["value"] = value
    return record


@pytest.mark.parametrize(("option", "value", "words"), [
    ("ai_pace", 1e308, ("`ai_pace`", "0 to 30")),
    ("ai_pace", float("nan"), ("0 to 30",)),
    ("ai_pace", float("inf"), ("0 to 30",)),
    ("ai_pace", -1.5, ("0 to 30",)),
    ("turn_timeout", 0, ("10 to 86400",)),
    ("turn_timeout", -30, ("10 to 86400",)),
    ("turn_timeout", 10**12, ("10 to 86400",)),
])
async def test_settings_refuses_a_forged_number_and_stores_nothing(
        fake_discord: Harness, tmp_path: Path, option: str, value: Any,
        words: tuple[str, ...]) -> None:
    app = await start_app(fake_discord, tmp_path)
    mona = fake_discord.user("mona", manager=True)
    before = await app.store.get_guild_settings(fake_discord.guild.id)
    legal = {"ai_pace": 2.0, "turn_timeout": 60}[option]
    answer = await fake_discord.interact(forged_slash(mona, option, value, "settings",
                                                      **{option: legal}))
    one_short_line(answer, *words)
    assert await app.store.get_guild_settings(fake_discord.guild.id) == before
    shown = await mona.slash("settings")  # the settings still show
    assert shown.ephemeral and "Turn timeout" in shown.content


@pytest.mark.parametrize(("path", "option", "value", "legal", "said"), [
    (("table", "new"), "players", 99, 4, "Turup is played by 4 players."),
    (("table", "new"), "players", -1, 4, "Turup is played by 4 players."),
    (("table", "ai"), "seat", 99, 1, "There is no seat 99 at this table (0-3)."),
    (("table", "ai"), "seat", -1, 1, "There is no seat -1 at this table (0-3)."),
    (("table", "remove"), "seat", 7, 1, "`seat` must be a whole number from 0 to 3."),
    (("table", "remove"), "seat", -10**15, 1, "`seat` must be a whole number from 0 to 3."),
])
async def test_table_commands_refuse_a_forged_number(
        fake_discord: Harness, tmp_path: Path, path: tuple[str, ...], option: str,
        value: int, legal: int, said: str) -> None:
    """``players`` and ``/table ai seat:`` were held (the service checks them);
    ``/table remove seat:`` past the table's seats answered "Seat 7 is empty"."""
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    extra: dict[str, Any] = {"game": "turup"} if path[1] == "new" else {}
    if path[1] != "new":
        await (await alice.slash("table", "new", game="turup")).wait_filled()
    before = [app.service.info(i) for i in app.service.table_ids()]
    answer = await fake_discord.interact(forged_slash(alice, option, value, *path,
                                                      **{option: legal}, **extra))
    one_short_line(answer, said)
    assert [app.service.info(i) for i in app.service.table_ids()] == before


@pytest.mark.parametrize("pace", [1e308, float("inf"), float("nan"), -1e300])
def test_settings_text_shows_any_stored_number(pace: float) -> None:
    """A value stored by older code past today's ranges still shows: ``/settings`` keeps
    working to put it right."""
    from bot.discord_bot.club.admin import settings_text
    from bot.i18n import translator
    from storage import GuildSettings

    for language in ("en", "so", "id", "sw"):
        text = settings_text(GuildSettings(turn_timeout=10**15, ai_pace=pace),
                             translator(language), "en")
        assert f"{pace:g}" in text and "1e+15" in text
