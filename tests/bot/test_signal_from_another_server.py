"""Security review L1, the leftover: the leader's signal select (``tt:g:…:lead``,
:mod:`bot.discord_bot.tables.card_select`) passes the same server check as every other table
component (:func:`bot.discord_bot.router.admitted`).

A player seated at a table of this server who is also a member of another server forges,
from a message of that other server, the signal select of her table. Without the check the
bot answered by redrawing the clicked message as her hand panel: her hidden cards in a
public message of the other server. With it she is refused privately, the other server's
message keeps its text and nothing is played.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from app_fixture import start_app
from discord_helpers import open_table
from fakediscord import Harness
from fakediscord.payloads import MESSAGE_COMPONENT


async def test_a_signal_select_forged_from_another_server_is_refused_and_shows_nothing(
        fake_discord: Harness, tmp_path: Path) -> None:
    other = fake_discord.server.add_guild("Other Club")
    elsewhere = fake_discord.server.add_text_channel(other, "tables")
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, _ = await open_table(app, alice, "turup", ais=3)
    await app.service.settle()
    await fake_discord.settle()
    fake_discord.server.join(other, alice.user)
    abroad = alice.at(elsewhere)
    carrier = await (await abroad.slash("table", "new", game="turup")).wait_filled()
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    hand = list(app.service.view(table_id, seat)["hand"])
    assert hand
    version = app.service.info(table_id).version
    log = len(await app.store.load_actions(table_id))

    to_id = f"tt:g:{table_id}:{version}:lead"
    payload = json.loads(json.dumps(carrier.payload))  # the forged select in a row of its own
    payload["components"] = [{"type": 1, "components": [
        {"type": 3, "custom_id": to_id, "options": [{"label": "Weak", "value": "weak"}]}]}]
    forged = abroad.server.new_interaction(
        interaction_type=MESSAGE_COMPONENT,
        data={"custom_id": to_id, "component_type": 3, "values": ["weak"]},
        user=abroad.user, channel=abroad.channel,
        message=dataclasses.replace(carrier, payload=payload), source_message_id=carrier.id)
    answer = await fake_discord.interact(forged)

    assert answer.ephemeral and "belongs to another server" in answer.content, answer
    assert "Your hand" not in fake_discord.server.message(carrier.id).content
    assert fake_discord.server.message(carrier.id).content == carrier.content
    assert len(await app.store.load_actions(table_id)) == log
