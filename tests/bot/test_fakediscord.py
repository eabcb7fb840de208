"""Tests of the fake Discord harness (tests/bot/fakediscord) with a throwaway discord.py bot:
the bot below is real discord.py code, the payloads it gets are parsed by discord.py's own
state, and what it does is asserted at the HTTP layer of the fake."""

from __future__ import annotations

import io
import re
from typing import Any, Literal

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import (
    BotError,
    CommandUnavailable,
    ComponentUnavailable,
    Harness,
    bot_options,
    snowflake_for_shard,
)
from PIL import Image

MESSAGES = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
CARDS = ["AS", "KS", "QH", "JD", "TC"]


# ---------------------------------------------------------------------------- the bot


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="New name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


class LobbyView(discord.ui.View):
    """Persistent (no timeout, fixed custom_ids): registered in setup_hook, so it works on
    messages sent before a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        _seen(interaction)
        assert interaction.message is not None
        await interaction.response.edit_message(
            content=f"{interaction.message.content}\n{interaction.user.name} joined")

    @discord.ui.button(label="Rename", custom_id="lobby:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button[Any]
                     ) -> None:
        await interaction.response.send_modal(RenameModal())

    @discord.ui.select(custom_id="lobby:game", options=[
        discord.SelectOption(label=g.title(), value=g) for g in ("turup", "truf", "tarabish")])
    async def game(self, interaction: discord.Interaction, select: discord.ui.Select[Any]
                   ) -> None:
        _seen(interaction)
        await interaction.response.send_message(f"chose {select.values}", ephemeral=True)


class SeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"seat:(?P<table>\d+):(?P<seat>\d)"):
    def __init__(self, table: int, seat: int) -> None:
        super().__init__(discord.ui.Button(label=f"Seat {seat}", custom_id=f"seat:{table}:{seat}"))
        self.table, self.seat = table, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> SeatButton:
        return cls(int(match["table"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        _seen(interaction)
        await interaction.response.send_message(f"table {self.table} seat {self.seat}",
                                                ephemeral=True)


class DMView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ready", custom_id="dm:ready")
    async def ready(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        _seen(interaction)
        await interaction.response.send_message("ready noted")


class HandView(discord.ui.View):
    """Not persistent: bound to the message id of the ephemeral panel it is sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(custom_id="hand:play", placeholder="Play a card",
                       options=[discord.SelectOption(label=c, value=c) for c in CARDS])
    async def play(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        _seen(interaction)
        await interaction.response.edit_message(content=f"you played {select.values[0]}",
                                                 view=None)


def data_of(interaction: discord.Interaction) -> dict[str, Any]:
    """The raw ``data`` of an interaction as discord.py parsed it."""
    return dict(interaction.data or {})


def _seen(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, ScratchBot)
    bot.seen.append(interaction)


class TableGroup(app_commands.Group, name="table", description="Card tables"):
    @app_commands.command(description="Open a table")
    async def new(self, interaction: discord.Interaction,
                  game: Literal["turup", "truf", "tarabish"],
                  players: app_commands.Range[int, 2, 6] = 4) -> None:
        _seen(interaction)
        view = LobbyView()
        view.add_item(SeatButton(7, 0)).add_item(SeatButton(7, 1))
        await interaction.response.send_message(f"New {game} table for {players}", view=view)

    @app_commands.command(description="Your hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand", view=HandView(), ephemeral=True)

    @app_commands.command(description="Slow deal")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("dealt")
        await interaction.followup.send("second", ephemeral=True)

    @app_commands.command(description="Invite by DM")
    async def invite(self, interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send(f"{interaction.user.name} invites you", view=DMView())
        except discord.Forbidden as error:
            await interaction.response.send_message(f"cannot DM {player.name}: {error.code}")
        else:
            await interaction.response.send_message(f"invited {player.name}", ephemeral=True)

    @app_commands.command(description="Post and edit a table message")
    async def post(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Table open")
        await message.edit(content="Table open: 1/4")
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(description="A picture")
    async def picture(self, interaction: discord.Interaction) -> None:
        buffer = io.BytesIO()
        Image.new("RGB", (30, 20), "green").save(buffer, "PNG")
        buffer.seek(0)
        embed = discord.Embed(title="Trick 3").set_image(url="attachment://trick.png")
        await interaction.response.send_message(embed=embed,
                                                file=discord.File(buffer, "trick.png"))

    @app_commands.command(description="Too many options")
    async def huge(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Select(custom_id="big", options=[
            discord.SelectOption(label=str(i)) for i in range(25)]))
        view.children[0].options.append(discord.SelectOption(label="25"))  # type: ignore[attr-defined]
        try:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("pick", view=view)
        except discord.HTTPException as error:
            await interaction.response.send_message(f"rejected {error.status} {error.code}")

    @app_commands.command(description="Fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom in the command")

    @app_commands.command(description="Join by name")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"joining {name}")

    @join.autocomplete("name")
    async def join_names(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        names = ["north table", "south table", "east table"]
        return [app_commands.Choice(name=n, value=n) for n in names if current in n]


@app_commands.command(name="reset", description="Admin only")
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def reset(interaction: discord.Interaction) -> None:
    _seen(interaction)
    await interaction.response.send_message("reset done", ephemeral=True)


class ScratchBot(commands.Bot):
    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(**bot_options(intents=intents or discord.Intents.default()))
        self.seen: list[discord.Interaction] = []
        self.events: list[str] = []
        self.heard: list[discord.Message] = []

    async def setup_hook(self) -> None:
        self.tree.add_command(TableGroup())
        self.tree.add_command(reset)
        self.add_view(LobbyView())
        self.add_view(DMView())
        self.add_dynamic_items(SeatButton)

    async def on_ready(self) -> None:
        self.events.append("ready")

    async def on_message(self, message: discord.Message) -> None:
        if message.author.id != self.user.id:  # type: ignore[union-attr]
            self.heard.append(message)


async def started(harness: Harness, intents: discord.Intents | None = None) -> ScratchBot:
    bot = ScratchBot(intents)
    await harness.start_bot(bot)
    return bot


# ---------------------------------------------------------------------------- connecting


async def test_bot_logs_in_identifies_and_fires_on_ready(fake_discord: Harness) -> None:
    server = fake_discord.server
    bot = await started(fake_discord)
    assert bot.events == ["ready"]
    assert bot.user is not None and bot.user.id == server.bot_user.id
    assert bot.application_id == server.application_id
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.name == "Test Club"
    assert [c.name for c in guild.text_channels] == ["cards"]
    assert guild.me is not None and guild.me.guild_permissions.manage_messages
    assert [f"{r.method} {r.route}" for r in server.requests] == [
        "GET /users/@me", "GET /oauth2/applications/@me"]
    identify = server.received(op=2)
    assert len(identify) == 1 and identify[0].d["intents"] == bot.intents.value
    assert identify[0].d["token"] == server.token
    assert [f.t for f in server.dispatched()] == ["READY", "GUILD_CREATE"]
    assert server.received(op=1), "discord.py heartbeats as soon as it gets HELLO"


async def test_gateway_frames_use_the_compression_discord_py_asked_for(
        fake_discord: Harness) -> None:
    await started(fake_discord)
    session = next(iter(fake_discord.server.sessions.values()))
    assert session.connection is not None
    expected = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    assert session.connection.compression == expected


async def test_tree_sync_hits_the_command_sync_routes(fake_discord: Harness) -> None:
    server = fake_discord.server
    bot = await started(fake_discord)
    synced = await bot.tree.sync()
    call = server.calls("PUT /applications/{application_id}/commands")[-1]
    assert call.params["application_id"] == str(server.application_id)
    assert {c["name"] for c in call.json} == {"table", "reset"}
    table = next(c for c in call.json if c["name"] == "table")
    new = next(o for o in table["options"] if o["name"] == "new")
    assert new["type"] == 1
    game = next(o for o in new["options"] if o["name"] == "game")
    assert [c["value"] for c in game["choices"]] == ["turup", "truf", "tarabish"]
    assert {c.name for c in synced} == {"table", "reset"}
    assert {c.id for c in synced} == {int(c["id"]) for c in server.global_commands}

    guild = discord.Object(fake_discord.guild.id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)
    guild_call = server.calls("PUT /applications/{application_id}/guilds/{guild_id}/commands")
    assert guild_call[-1].params["guild_id"] == str(fake_discord.guild.id)
    assert len(server.guild_commands[fake_discord.guild.id]) == 2


# ---------------------------------------------------------------------------- slash commands


async def test_slash_command_payload_is_parsed_by_discord_py(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    await bot.tree.sync()
    alice = fake_discord.user("alice")
    result = await alice.slash("table", "new", game="truf", players=3)

    assert result.type == 4 and result.content == "New truf table for 3"
    assert not result.ephemeral
    assert result.message is not None
    assert result.message.custom_ids() == ["lobby:join", "lobby:rename", "seat:7:0",
                                           "seat:7:1", "lobby:game"]
    seen = bot.seen[-1]
    assert seen.type is discord.InteractionType.application_command
    assert seen.command is not None and seen.command.qualified_name == "table new"
    assert seen.namespace.game == "truf" and seen.namespace.players == 3
    assert seen.guild_id == fake_discord.guild.id
    assert isinstance(seen.channel, discord.TextChannel)
    assert seen.channel.id == fake_discord.channel.id
    assert isinstance(seen.user, discord.Member) and seen.user.id == alice.id
    assert seen.permissions.send_messages and not seen.permissions.manage_guild
    assert seen.app_permissions.attach_files and seen.app_permissions.manage_messages
    assert seen.locale is discord.Locale.american_english
    assert seen.context.guild and not seen.context.dm_channel
    data = result.interaction["data"]
    assert data["id"] == next(c["id"] for c in fake_discord.server.global_commands
                              if c["name"] == "table")


async def test_the_default_option_value_applies_when_the_user_omits_it(
        fake_discord: Harness) -> None:
    bot = await started(fake_discord)  # never synced: the schema comes from bot.tree
    result = await fake_discord.user("alice").slash("table", "new", game="turup")
    assert result.content == "New turup table for 4"
    sent = result.interaction["data"]["options"][0]
    assert sent["name"] == "new" and [o["name"] for o in sent["options"]] == ["game"]
    assert bot.seen[-1].namespace.game == "turup"


async def test_the_client_refuses_what_discord_would_refuse(fake_discord: Harness) -> None:
    await started(fake_discord)
    alice = fake_discord.user("alice")
    with pytest.raises(CommandUnavailable, match="choices"):
        await alice.slash("table", "new", game="poker")
    with pytest.raises(CommandUnavailable, match="requires option 'game'"):
        await alice.slash("table", "new")
    with pytest.raises(CommandUnavailable, match="out of range"):
        await alice.slash("table", "new", game="truf", players=9)
    with pytest.raises(CommandUnavailable, match="needs a subcommand"):
        await alice.slash("table")
    with pytest.raises(CommandUnavailable, match="no option"):
        await alice.slash("table", "new", game="truf", colour="red")
    with pytest.raises(CommandUnavailable, match="default permissions"):
        await alice.slash("reset")
    with pytest.raises(CommandUnavailable, match="DMs"):
        await alice.in_dm().slash("reset")
    assert not fake_discord.server.interactions, "nothing was sent to the bot"


async def test_default_permissions_let_a_manager_run_an_admin_command(
        fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    await bot.tree.sync()
    manager = fake_discord.user("mona", manager=True)
    result = await manager.slash("reset")
    assert result.content == "reset done" and result.ephemeral
    assert bot.seen[-1].permissions.manage_guild


async def test_autocomplete_returns_the_bot_choices(fake_discord: Harness) -> None:
    await started(fake_discord)
    choices = await fake_discord.user("alice").autocomplete("table", "join", focused="name",
                                                            name="th")
    assert [c["value"] for c in choices] == ["north table", "south table"]


# ---------------------------------------------------------------------------- components


async def test_persistent_button_updates_its_message(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    lobby = (await alice.slash("table", "new", game="turup")).message
    assert lobby is not None

    result = await bob.click(lobby, "lobby:join")
    assert result.type == 7
    assert result.message is lobby
    assert lobby.content == "New turup table for 4\nbob joined"
    assert lobby.edits == 1 and lobby.history[0]["content"] == "New turup table for 4"
    seen = bot.seen[-1]
    assert seen.type is discord.InteractionType.component
    assert data_of(seen)["custom_id"] == "lobby:join"
    assert seen.message is not None and seen.message.id == lobby.id
    assert seen.user.id == bob.id


async def test_dynamic_item_parses_its_custom_id(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("table", "new", game="turup")).message
    assert lobby is not None
    result = await alice.click(lobby, "seat:7:1")
    assert result.type == 4 and result.ephemeral and result.content == "table 7 seat 1"
    assert result.message is not None and result.message.ephemeral_for == alice.id
    assert data_of(bot.seen[-1])["custom_id"] == "seat:7:1"


async def test_select_menu_passes_the_chosen_values(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("table", "new", game="turup")).message
    assert lobby is not None
    result = await alice.select(lobby, "lobby:game", ["tarabish"])
    assert result.content == "chose ['tarabish']"
    seen = bot.seen[-1]
    assert data_of(seen)["values"] == ["tarabish"]
    assert data_of(seen)["component_type"] == 3
    with pytest.raises(ComponentUnavailable, match="offers no"):
        await alice.select(lobby, "lobby:game", ["poker"])
    with pytest.raises(ComponentUnavailable, match="1 to 1 values"):
        await alice.select(lobby, "lobby:game", ["truf", "turup"])
    with pytest.raises(ComponentUnavailable, match="no component"):
        await alice.click(lobby, "lobby:leave")


async def test_ephemeral_panel_is_private_and_its_view_answers(fake_discord: Harness) -> None:
    server = fake_discord.server
    bot = await started(fake_discord)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    panel = await alice.slash("table", "hand")
    assert panel.ephemeral and panel.message is not None
    assert panel.callback.json["data"]["flags"] == 64
    assert panel.message in alice.visible() and panel.message not in bob.visible()
    listed = await bot.http.logs_from(fake_discord.channel.id, 50)
    assert panel.message.id not in [int(m["id"]) for m in listed]
    with pytest.raises(ComponentUnavailable, match="cannot see"):
        await bob.select(panel.message, "hand:play", ["AS"])

    played = await alice.select(panel.message, "hand:play", ["QH"])
    assert played.type == 7 and played.message is panel.message
    assert panel.message.content == "you played QH" and panel.message.components == []
    assert bot.seen[-1].message is not None and bot.seen[-1].message.flags.ephemeral
    assert server.unknown_requests == []


async def test_deferred_reply_is_filled_by_the_first_followup(fake_discord: Harness) -> None:
    await started(fake_discord)
    result = await fake_discord.user("alice").slash("table", "slow")
    assert result.type == 5
    filled = await result.wait_filled()
    assert filled.content == "dealt" and not filled.ephemeral
    followups = await result.wait_followups(1)
    assert [m.content for m in followups] == ["second"] and followups[0].ephemeral
    routes = [f"{r.method} {r.route}" for r in result.requests]
    assert routes == [CALLBACK, "POST /webhooks/{webhook_id}/{webhook_token}",
                      "POST /webhooks/{webhook_id}/{webhook_token}"]
    assert result.requests[1].query["wait"] == "1"


async def test_modal_opens_and_its_submission_reaches_the_bot(fake_discord: Harness) -> None:
    await started(fake_discord)
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("table", "new", game="turup")).message
    assert lobby is not None
    opened = await alice.click(lobby, "lobby:rename")
    assert opened.type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Rename the table"
    with pytest.raises(ComponentUnavailable, match="required"):
        await alice.submit_modal(opened, {})
    field = opened.modal["components"][0]["components"][0]["custom_id"]
    submitted = await alice.submit_modal(opened, {field: "Friday club"})
    assert submitted.content == "renamed to Friday club"


# ---------------------------------------------------------------------------- messages and DMs


async def test_dm_succeeds_for_one_user_and_fails_with_50007_for_another(
        fake_discord: Harness) -> None:
    server = fake_discord.server
    await started(fake_discord)
    host = fake_discord.user("host")
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob", dms_open=False)

    ok = await host.slash("table", "invite", player=alice)
    assert ok.content == "invited alice" and ok.ephemeral
    assert [m.content for m in alice.dms] == ["host invites you"]

    refused = await host.slash("table", "invite", player=bob)
    assert refused.content == "cannot DM bob: 50007"
    assert bob.dms == []
    sends = server.calls(MESSAGES)
    assert [s.status for s in sends] == [200, 403]
    assert sends[1].response == {"code": 50007, "message": "Cannot send messages to this user"}
    assert sends[1].params["channel_id"] == str(bob.dm_channel.id)
    assert len(server.calls("POST /users/@me/channels")) == 2


async def test_button_in_a_dm_is_a_dm_interaction(fake_discord: Harness) -> None:
    server = fake_discord.server
    bot = await started(fake_discord)
    alice = fake_discord.user("alice")
    await fake_discord.user("host").slash("table", "invite", player=alice)
    dm = await alice.wait_for_dm()

    result = await alice.click(dm, "dm:ready")
    assert result.content == "ready noted"
    assert result.message is not None and result.message.channel_id == alice.dm_channel.id
    payload = result.interaction
    assert "guild_id" not in payload and "member" not in payload
    assert payload["user"]["id"] == str(alice.id) and payload["channel"]["type"] == 1
    seen = bot.seen[-1]
    assert seen.guild is None and isinstance(seen.user, discord.User)
    assert isinstance(seen.channel, discord.DMChannel) and seen.context.dm_channel
    assert server.dispatched("INTERACTION_CREATE")[-1].shard_id == 0
    with pytest.raises(ComponentUnavailable, match="cannot see"):
        await fake_discord.user("bob").click(dm, "dm:ready")


async def test_channel_message_is_created_then_edited(fake_discord: Harness) -> None:
    server = fake_discord.server
    await started(fake_discord)
    await fake_discord.user("alice").slash("table", "post")
    posted = [m for m in server.messages(fake_discord.channel) if not m.ephemeral]
    assert [m.content for m in posted] == ["Table open: 1/4"]
    assert posted[0].history[0]["content"] == "Table open"
    edit = server.calls("PATCH /channels/{channel_id}/messages/{message_id}")[-1]
    assert edit.params == {"channel_id": str(fake_discord.channel.id),
                           "message_id": str(posted[0].id)}
    assert edit.json["content"] == "Table open: 1/4"


async def test_fetches_history_and_deletes_go_through_the_fake(fake_discord: Harness) -> None:
    server = fake_discord.server
    bot = await started(fake_discord)
    alice = fake_discord.user("alice")
    channel = await bot.fetch_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "cards"
    member = await channel.guild.fetch_member(alice.id)
    assert member.name == "alice" and member.display_name == "Alice"
    assert (await bot.fetch_user(alice.id)).name == "alice"
    with pytest.raises(discord.NotFound):
        await bot.fetch_user(12345)

    doomed = await channel.send("to delete")
    await channel.send("kept")
    assert (await channel.fetch_message(doomed.id)).content == "to delete"
    await doomed.delete()
    assert [m.content for m in server.messages(channel.id)] == ["kept"]
    assert [m.content async for m in channel.history(limit=10)] == ["kept"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(doomed.id)
    deleted = server.calls("DELETE /channels/{channel_id}/messages/{message_id}")
    assert [d.status for d in deleted] == [204]


async def test_a_thread_is_a_thread_to_discord_py(fake_discord: Harness) -> None:
    thread = fake_discord.server.add_thread(fake_discord.channel, "table 7")
    bot = await started(fake_discord)
    result = await fake_discord.user("alice").at(thread).slash("table", "new", game="turup")
    assert result.message is not None and result.message.channel_id == thread.id
    seen = bot.seen[-1]
    assert isinstance(seen.channel, discord.Thread) and seen.channel.name == "table 7"
    assert seen.channel.parent_id == fake_discord.channel.id


async def test_files_are_recorded_stored_and_served(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    result = await fake_discord.user("alice").slash("table", "picture")
    assert result.callback.multipart
    upload = result.callback.files[0]
    assert upload.field == "files[0]" and upload.filename == "trick.png"
    assert result.callback.json["data"]["attachments"][0]["filename"] == "trick.png"
    assert result.message is not None
    stored = result.message.attachments[0]
    assert Image.open(io.BytesIO(stored.data)).size == (30, 20)
    assert result.message.payload["attachments"][0]["width"] == 30
    assert result.message.embeds[0]["image"]["url"] == "attachment://trick.png"
    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fetched = await channel.fetch_message(result.message.id)
    assert await fetched.attachments[0].read() == stored.data


async def test_discord_limits_are_enforced(fake_discord: Harness) -> None:
    await started(fake_discord)
    result = await fake_discord.user("alice").slash("table", "huge")
    assert result.content == "rejected 400 50035"
    rejected = fake_discord.server.calls(MESSAGES)[-1]
    errors = rejected.response["errors"]
    assert errors["components"]["0"]["components"]["0"]["options"]["_errors"][0]["code"] == \
        "BASE_TYPE_BAD_LENGTH"


async def test_user_messages_respect_the_message_content_intent(fake_discord: Harness) -> None:
    bot = await started(fake_discord)
    alice = fake_discord.user("alice")
    await alice.say("hello table")
    await alice.say(f"{bot.user.mention} deal")  # type: ignore[union-attr]
    assert [m.content for m in bot.heard] == ["", f"<@{bot.user.id}> deal"]  # type: ignore[union-attr]


async def test_message_content_intent_shows_every_message(fake_discord: Harness) -> None:
    intents = discord.Intents.default()
    intents.message_content = True
    bot = await started(fake_discord, intents)
    await fake_discord.user("alice").say("hello table")
    assert [m.content for m in bot.heard] == ["hello table"]


@pytest.mark.parametrize("fake_discord_options", [{"privileged_intents": 0}])
async def test_privileged_intents_not_enabled_stop_the_bot(fake_discord: Harness) -> None:
    intents = discord.Intents.default()
    intents.members = True
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await fake_discord.start_bot(ScratchBot(intents))


async def test_members_intent_chunks_the_guild(fake_discord: Harness) -> None:
    for name in ("alice", "bob", "carol"):
        fake_discord.user(name)
    intents = discord.Intents.default()
    intents.members = True
    bot = await started(fake_discord, intents)
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.chunked
    assert {m.name for m in guild.members} == {"club-owner", "tricktable", "alice", "bob",
                                               "carol"}
    assert fake_discord.server.received(op=8)


# ---------------------------------------------------------------------------- failures


async def test_an_exception_in_the_bot_fails_the_wait_at_once(fake_discord: Harness) -> None:
    await started(fake_discord)
    with pytest.raises(BotError, match="boom in the command"):
        await fake_discord.user("alice").slash("table", "boom")
    assert any("boom in the command" in e for e in fake_discord.take_errors())


async def test_api_rules_answered_like_discord(fake_discord: Harness) -> None:
    server = fake_discord.server
    fake_discord.strict = False  # this test calls an unknown route on purpose
    alice = fake_discord.user("alice")
    record = server.new_interaction(interaction_type=2, data={"name": "x"}, user=alice.user,
                                    channel=fake_discord.channel)
    auth = {"Authorization": f"Bot {server.token}"}
    base = server.api_base
    callback = f"{base}/interactions/{record.id}/{record.token}/callback"
    webhook = f"{base}/webhooks/{server.application_id}/{record.token}"

    async with aiohttp.ClientSession() as http:
        async def call(method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
            async with http.request(method, url, **kwargs) as response:
                return response.status, await response.json(content_type=None)

        assert await call("GET", f"{base}/users/@me") == (
            401, {"message": "401: Unauthorized", "code": 0})
        assert await call("GET", f"{base}/no/such/route", headers=auth) == (
            404, {"message": "404: Not Found", "code": 0})
        assert (await call("POST", webhook + "?wait=1", json={"content": "x"}))[1]["code"] == 10015
        assert (await call("POST", f"{base}/interactions/1/bad/callback",
                           json={"type": 4}))[1]["code"] == 10062
        status, body = await call("POST", callback, json={"type": 6})
        assert (status, body["code"]) == (400, 50035)
        status, body = await call("POST", callback, json={"type": 4, "data": {"content": ""}})
        assert (status, body["code"]) == (400, 50006)
        status, body = await call("POST", callback, json={"type": 4, "data": {"content": "hi"}})
        assert status == 200 and body["resource"]["message"]["content"] == "hi"
        assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
        status, body = await call("POST", callback, json={"type": 4, "data": {"content": "2"}})
        assert (status, body["code"]) == (400, 40060)
        status, body = await call("POST", f"{base}/channels/{fake_discord.channel.id}/messages",
                                  json={"content": "x" * 2001}, headers=auth)
        assert status == 400
        assert body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
        status, body = await call("PATCH", webhook + "/messages/@original",
                                  json={"content": "edited"})
        assert status == 200 and body["content"] == "edited"

    assert [r.path for r in server.unknown_requests] == ["/no/such/route"]
    assert record.callback is not None and record.callback.json["type"] == 4


async def test_injected_errors_reach_the_bot(fake_discord: Harness) -> None:
    await started(fake_discord)
    fake_discord.server.fail_next(MESSAGES, status=403,
                                  body={"code": 50001, "message": "Missing Access"})
    host, alice = fake_discord.user("host"), fake_discord.user("alice")
    result = await host.slash("table", "invite", player=alice)
    assert result.content == "cannot DM alice: 50001"
    assert alice.dms == []


async def test_a_rate_limit_answer_is_retried_by_discord_py(fake_discord: Harness) -> None:
    await started(fake_discord)
    fake_discord.server.fail_next(MESSAGES, status=429, body={
        "message": "You are being rate limited.", "retry_after": 0.01, "global": False})
    host, alice = fake_discord.user("host"), fake_discord.user("alice")
    result = await host.slash("table", "invite", player=alice)
    assert result.content == "invited alice"
    assert [m.content for m in alice.dms] == ["host invites you"]
    assert [c.status for c in fake_discord.server.calls(MESSAGES)] == [429, 200]


# ---------------------------------------------------------------------------- restarts, shards


async def test_buttons_keep_working_after_a_restart(fake_discord: Harness) -> None:
    server = fake_discord.server
    first = await started(fake_discord)
    alice = fake_discord.user("alice")
    lobby = (await alice.slash("table", "new", game="truf")).message
    assert lobby is not None
    await fake_discord.stop_bot(first)
    assert first.is_closed() and not server.connected

    second = await started(fake_discord)
    result = await fake_discord.user("bob").click(lobby, "lobby:join")
    assert result.type == 7 and lobby.content.endswith("bob joined")
    assert second.seen[-1].message is not None and second.seen[-1].message.id == lobby.id
    assert len(server.received(op=2)) == 2, "a restarted bot identifies afresh"


async def test_reconnect_resumes_the_session(fake_discord: Harness) -> None:
    server = fake_discord.server
    await started(fake_discord)
    await server.reconnect()
    await fake_discord.wait_until(lambda: server.dispatched("RESUMED"), what="RESUMED")
    resume = server.received(op=6)
    assert len(resume) == 1 and resume[0].d["session_id"] in server.sessions
    assert len(server.received(op=2)) == 1
    result = await fake_discord.user("alice").slash("table", "new", game="turup")
    assert result.type == 4


async def test_events_sent_while_reconnecting_are_replayed(fake_discord: Harness) -> None:
    server = fake_discord.server
    await started(fake_discord)
    alice = fake_discord.user("alice")
    record = alice.build_slash("table", "new", game="turup")
    await server.reconnect()
    await server.push_interaction(record)  # sent to the closing socket or kept for RESUME
    await fake_discord.wait_until(lambda: record.callback, what="the callback")
    assert server.dispatched("RESUMED")


@pytest.mark.parametrize("fake_discord_options", [{"shard_count": 2}])
async def test_sharded_bot_gets_each_guild_on_its_shard_and_dms_on_shard_0(
        fake_discord: Harness) -> None:
    server = fake_discord.server
    home_shard = (fake_discord.guild.id >> 22) % 2
    other = server.add_guild("Other Club", guild_id=snowflake_for_shard(1 - home_shard, 2,
                                                                         after=server.snowflake()))
    server.add_text_channel(other, "tables")
    bot = commands.AutoShardedBot(**bot_options())
    seen: list[discord.Interaction] = []

    @bot.tree.command(description="Where am I")
    async def where(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        await interaction.response.send_message("here")

    await fake_discord.start_bot(bot)
    assert server.calls("GET /gateway/bot")
    assert sorted(f.d["shard"] for f in server.received(op=2)) == [[0, 2], [1, 2]]
    guilds = {g.id: g.shard_id for g in bot.guilds}
    assert guilds == {fake_discord.guild.id: home_shard, other.id: 1 - home_shard}

    alice = fake_discord.user("alice", guild=other)
    await alice.slash("where")
    assert server.dispatched("INTERACTION_CREATE")[-1].shard_id == 1 - home_shard
    await alice.in_dm().slash("where")
    assert server.dispatched("INTERACTION_CREATE")[-1].shard_id == 0
    assert seen[-1].guild is None


async def test_the_global_limit_answers_429_with_global_true_past_it(
        fake_discord: Harness) -> None:
    """With ``global_limit`` set, the requests made with the bot's token beyond that many
    in a second get Discord's global 429 (``global: true``, ``X-RateLimit-Global``);
    the edits through an interaction's token are not counted; the counts per route say
    what was counted."""
    server = fake_discord.server
    server.global_limit = 5
    alice = fake_discord.user("alice")
    record = server.new_interaction(interaction_type=2, data={"name": "x"}, user=alice.user,
                                    channel=fake_discord.channel)
    auth = {"Authorization": f"Bot {server.token}"}
    base = server.api_base
    post = f"{base}/channels/{fake_discord.channel.id}/messages"
    seq = server.requests[-1].seq if server.requests else 0
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{base}/interactions/{record.id}/{record.token}/callback",
                             json={"type": 4, "data": {"content": "hi"}}) as response:
            assert response.status == 200
        statuses, bodies = [], []
        for n in range(7):
            async with http.post(post, json={"content": f"m{n}"}, headers=auth) as response:
                statuses.append(response.status)
                bodies.append(await response.json(content_type=None))
                if response.status == 429:
                    assert response.headers["X-RateLimit-Global"] == "true"
        for n in range(3):  # through the interaction's token: not counted, not limited
            async with http.patch(
                    f"{base}/webhooks/{server.application_id}/{record.token}/messages/@original",
                    json={"content": f"e{n}"}) as response:
                assert response.status == 200
    assert statuses == [200] * 5 + [429] * 2
    assert all(b["global"] is True and b["retry_after"] > 0 for b in bodies[5:])
    assert server.global_429s == 2
    assert server.counted_by_route(since=seq) == {"POST /channels/{channel_id}/messages": 7}


def test_the_fake_refuses_localized_command_names_discord_refuses() -> None:
    """Localized names follow the name rule, and two options of one command may not share
    a name in any locale (``/duplicate list`` and ``/duplicate enter`` both ``daftar``)."""
    from fakediscord.limits import FormErrors, check_command

    def errors_of(command: dict[str, Any]) -> list[tuple[tuple[str, ...], str, str]]:
        errors = FormErrors()
        check_command(command, ("0",), errors)
        return errors.items

    def sub(name: str, localized: str) -> dict[str, Any]:
        return {"name": name, "description": "d", "type": 1,
                "name_localizations": {"id": localized}}

    clash = {"name": "duplicate", "description": "d",
             "options": [sub("list", "daftar"), sub("enter", "daftar")]}
    assert [e[1] for e in errors_of(clash)] == ["APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"]
    fine = {**clash, "options": [sub("list", "daftar"), sub("enter", "gabung")]}
    assert errors_of(fine) == []
    upper = {**clash, "options": [sub("list", "Daftar")],
             "description_localizations": {"id": "x" * 101}}
    assert {e[1] for e in errors_of(upper)} == {"APPLICATION_COMMAND_INVALID_NAME",
                                               "BASE_TYPE_BAD_LENGTH"}
