"""Marks the slow tests ``slow``, in one place, so the fast loop is
``python -m pytest -m "not slow"`` (``tests/README.md``). CI runs everything.

Slow are the tests that start real processes (``tricktable run`` on the fake Discord,
child processes killed mid-write, a browser), run two bot "processes" on PostgreSQL, or
play whole matches or many AI decisions. A test is marked when its node id starts with one of
:data:`SLOW`; a file or a test that becomes slow is added here, not in its file.

**The guard.** Under CI (``CI`` set, as every CI service sets it) an unmarked test whose
call uses more than :data:`GUARD_SECONDS` of CPU time in the test process fails, naming
the rule. CPU time, not wall time: the suite runs on shared machines (``-n auto``, other
jobs), where a test waits far longer than it works and a wall-clock limit would fail
tests at random; the CPU a test spends is the same on a busy machine as on an idle one.
Work done in child processes and time spent waiting (sockets, a browser) is not counted:
those tests are slow by kind and listed above. Locally the guard is off unless
``TRICKTABLE_SLOW_GUARD=1``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator

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
    "tests/web/test_event_page_browser.py",
    # a duplicate night of every format through the fake Discord, one after the other
    "tests/bot/test_duplicate_formats.py",
    # `tricktable play --web` as real processes: a whole match through the socket, Ctrl+C
    "tests/play/test_web_play.py::test_a_whole_match_from_the_page",
    "tests/play/test_web_play.py::test_ctrl_c_keeps_the_match_and_exits_0",
    # every AI level through every variant; the oracle against search
    "tests/games/test_ai_play.py::test_every_level_plays_every_variant_to_the_end",
    "tests/games/test_ai_budget.py::test_oracle_sees_what_search_may_not",
    # many examples or every event of many matches (5 s and more of work each)
    "tests/games/test_plain_properties.py::test_legal_actions_partition_and_secret_views",
    "tests/games/test_tarabish_properties.py::test_legal_actions_partition_and_secret_views",
    "tests/bot/test_club_duplicate.py::test_duplicate_event",
    "tests/service/test_table_contract.py::test_every_service_event_conforms_to_the_published_schema",
    "tests/service/test_service_secrecy.py::test_every_event_is_what_its_seat_may_see",
    # child processes killed in a write; the terminal as a real process
    "tests/service/test_service_recovery.py::test_kill_in_a_write_and_recover",
    "tests/service/test_terminal.py::test_one_deal_then_end_of_input_then_resume",
    "tests/service/test_terminal.py::test_real_process_end_of_input",
    # the terminal redrawn after a resync, a whole match
    "tests/service/test_subscription_bound.py::test_the_terminal_redraws_after_a_resync_and_plays_the_same_match",
)
"""Node-id prefixes of the slow tests (paths from the project's root)."""


def is_slow(nodeid: str) -> bool:
    """Whether the test with this node id is one of :data:`SLOW`."""
    return nodeid.startswith(SLOW)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item.nodeid):
            item.add_marker(pytest.mark.slow)


GUARD_SECONDS = 5.0
"""CPU seconds an unmarked test's call may use under CI (module docstring)."""
_CPU = pytest.StashKey[float]()


def guard_on(environ: dict[str, str] | None = None) -> bool:
    """Whether the slow-test guard runs: under CI, or asked for locally."""
    env = dict(os.environ) if environ is None else environ
    wanted = env.get("TRICKTABLE_SLOW_GUARD", env.get("CI", ""))
    return wanted.strip().lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    start = time.process_time()
    try:
        yield
    finally:
        item.stash[_CPU] = time.process_time() - start


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    spent = item.stash.get(_CPU, 0.0)
    if (report.when == "call" and report.passed and spent > GUARD_SECONDS
            and not is_slow(item.nodeid) and guard_on()):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} used {spent:.1f} s of CPU, over the {GUARD_SECONDS:.0f} s an "
            "unmarked test may use: make it lighter or add it to SLOW in tests/conftest.py")
