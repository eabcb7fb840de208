"""Marks the slow tests ``slow``, in one place, so the fast loop is
``python -m pytest -m "not slow"`` (``tests/README.md``). CI runs everything.

Slow are the tests that start real processes (``tricktable run`` on the fake Discord,
child processes killed mid-write, a browser), run two bot "processes" on PostgreSQL, or
play whole matches or many AI decisions. A test is marked when its node id starts with one of
:data:`SLOW`; a file or a test that becomes slow is added here, not in its file.
"""

from __future__ import annotations

import pytest

SLOW: tuple[str, ...] = (
    # real `tricktable run` processes, sharded, on the fake Discord
    "tests/multiprocess/",
    # two bot "processes" on one PostgreSQL database, and the lost shard lock
    "tests/cluster/test_two_processes.py",
    "tests/cluster/test_lost_lock.py",
    # child processes killed in the middle of their writes
    "tests/storage/test_crash_safety.py",
    # whole deals and matches of every game: the terminal app, its line mode, Discord
    "tests/terminal/test_whole_match.py::test_a_whole_match",
    "tests/terminal/test_app.py::test_a_whole_deal_played_by_keys",
    "tests/i18n/test_terminal_languages.py::test_a_whole_deal_on_the_card_table",
    "tests/service/test_terminal.py::test_whole_match_saves_a_record_that_replays",
    "tests/bot/test_discord_languages.py::test_a_whole_match_speaks_the_servers_language",
    "tests/bot/test_discord_players_view.py::test_a_whole_match_reads_in_players_words",
    "tests/bot/test_discord_turns.py::test_the_player_to_act_has_controls_at_every_turn_of_many",
    # a real browser (chromium) playing whole deals on the web table's page, also as an Activity
    "tests/web/test_browser.py",
    "tests/web/test_activity_browser.py",
    "tests/web/test_duplicate_reveal_browser.py",
    # `tricktable play --web` as real processes: a whole match through the socket, Ctrl+C
    "tests/play/test_web_play.py::test_a_whole_match_from_the_page",
    "tests/play/test_web_play.py::test_ctrl_c_keeps_the_match_and_exits_0",
    # every AI level through every variant; the oracle against search
    "tests/games/test_ai_play.py::test_every_level_plays_every_variant_to_the_end",
    "tests/games/test_ai_budget.py::test_oracle_sees_what_search_may_not",
)
"""Node-id prefixes of the slow tests (paths from the project's root)."""


def is_slow(nodeid: str) -> bool:
    """Whether the test with this node id is one of :data:`SLOW`."""
    return nodeid.startswith(SLOW)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)
