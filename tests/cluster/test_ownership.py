"""Who owns what: Discord's shard formula, and the shard settings of a process."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cluster import Ownership, shard_of
from bot.settings import Settings, SettingsError
from storage import ChannelLocation, TerminalLocation

PG = "postgresql://tt@db/tricktable"


def test_shard_of_is_discords_formula() -> None:
    # 4194304 = 1 << 22: the first guild id of the next "timestamp" step.
    assert shard_of(4194303, 2) == 0
    assert shard_of(4194304, 2) == 1
    assert shard_of(2 * 4194304 + 17, 2) == 0
    assert shard_of(81384788765712384, 16) == (81384788765712384 >> 22) % 16
    with pytest.raises(ValueError):
        shard_of(1, 0)


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=1, max_value=64),
       st.integers(min_value=1, max_value=8))
def test_every_guild_has_exactly_one_owner(guild: int, count: int, processes: int) -> None:
    """Shards dealt out to processes round-robin: one owner per guild, the same for every
    channel of the guild."""
    groups = [Ownership.of(count, range(p, count, processes))
              for p in range(min(processes, count))]
    owners = [o for o in groups if o.owns(ChannelLocation(guild, 1))]
    assert len(owners) == 1
    assert owners[0].owns(ChannelLocation(guild, 99))
    assert owners[0].owns_guild(guild)
    assert owners[0].owner_shard(ChannelLocation(guild, 5)) == shard_of(guild, count)


def test_terminal_tables_belong_to_no_bot_process() -> None:
    everything = Ownership.of(1)
    assert everything.everything and everything.receives_dms
    assert not everything.owns(TerminalLocation("play"))
    assert everything.owner_shard(TerminalLocation("play")) is None
    assert not Ownership.of(2, [1]).receives_dms


def test_an_ownership_names_real_shards() -> None:
    with pytest.raises(ValueError, match="shard 2 does not exist"):
        Ownership.of(2, [0, 2])
    with pytest.raises(ValueError, match="at least one shard"):
        Ownership.of(2, [])


def test_shard_settings_default_to_one_process_running_everything() -> None:
    settings = Settings.from_env({})
    assert settings.shard_count == 1 and settings.shard_ids is None
    assert settings.shards_for(1) == (0,)


def test_shard_settings_are_read_and_checked() -> None:
    env = {"DATABASE_URL": PG, "TRICKTABLE_SHARD_COUNT": "4",
           "TRICKTABLE_SHARD_IDS": " 3, 1 "}
    settings = Settings.from_env(env)
    assert settings.shard_count == 4 and settings.shard_ids == (1, 3)
    auto = Settings.from_env({**env, "TRICKTABLE_SHARD_COUNT": "auto"})
    assert auto.shard_count is None
    assert auto.shards_for(8) == (1, 3)
    with pytest.raises(SettingsError, match="shard 3 does not exist with 2 shards"):
        auto.shards_for(2)
    assert Settings.from_env({"TRICKTABLE_SHARD_COUNT": "auto"}).shards_for(3) == (0, 1, 2)


@pytest.mark.parametrize(("env", "message"), [
    ({"TRICKTABLE_SHARD_COUNT": "0"}, "at least 1 or 'auto'"),
    ({"TRICKTABLE_SHARD_COUNT": "two"}, "at least 1 or 'auto', not 'two'"),
    ({"TRICKTABLE_SHARD_IDS": "0,x"}, "'x' is not a shard number"),
    ({"TRICKTABLE_SHARD_IDS": "1,1", "TRICKTABLE_SHARD_COUNT": "2"}, "names shard 1 twice"),
    ({"TRICKTABLE_SHARD_IDS": ",", "TRICKTABLE_SHARD_COUNT": "2"}, "names no shard"),
    ({"TRICKTABLE_SHARD_IDS": "2", "TRICKTABLE_SHARD_COUNT": "2", "DATABASE_URL": PG},
     r"shard 2 does not exist with 2 shards \(shards are numbered 0 to 1\)"),
])
def test_bad_shard_settings_are_refused_with_the_reason(env: dict[str, str],
                                                        message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_env(env)


def test_sqlite_with_several_processes_is_refused() -> None:
    for env in ({"TRICKTABLE_SHARD_COUNT": "2", "TRICKTABLE_SHARD_IDS": "1"},
                {"TRICKTABLE_SHARD_COUNT": "auto", "TRICKTABLE_SHARD_IDS": "0"},
                {"TRICKTABLE_SHARD_COUNT": "2", "TRICKTABLE_SHARD_IDS": "0",
                 "DATABASE_URL": "sqlite:////data/tricktable.db"}):
        with pytest.raises(SettingsError, match="several processes need PostgreSQL"):
            Settings.from_env(env)
    # One SQLite process running every shard is fine, named or not.
    both = Settings.from_env({"TRICKTABLE_SHARD_COUNT": "2", "TRICKTABLE_SHARD_IDS": "0,1"})
    assert both.shards_for(2) == (0, 1)
    assert Settings.from_env({"TRICKTABLE_SHARD_COUNT": "2"}).shards_for(2) == (0, 1)
    with pytest.raises(SettingsError, match="several processes need PostgreSQL"):
        Settings(shard_count=2, shard_ids=(1,))


def test_tricktable_run_refuses_sqlite_with_part_of_the_shards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///never-created.db")
    monkeypatch.setenv("TRICKTABLE_SHARD_COUNT", "2")
    monkeypatch.setenv("TRICKTABLE_SHARD_IDS", "1")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "several processes need PostgreSQL" in err
    assert "not-a-real-token" not in err
