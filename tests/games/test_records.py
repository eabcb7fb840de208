"""Records and `tricktable replay` (docs/records.md): format, errors, exit statuses."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.records import replay, replay_text
from games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def played_turup(seed: int = 3) -> dict:
    m = GAMES["turup"].match_type(None, None, 0, seed=seed)
    d = m.start_deal()
    rng = random.Random(seed)
    while not d.is_over:
        d.apply(d.to_act[0], rng.choice(d.legal_actions(d.to_act[0])))
    return d.record()


def test_single_deal_shorthand_equals_the_deals_form():
    deal = played_turup()
    short, s1 = replay({"format": "tricktable/1", "game": "turup", **deal})
    long, s2 = replay({"format": "tricktable/1", "game": "turup", "deals": [deal]})
    assert s1 == s2 == 0 and short == long
    assert short["ok"] is True and short["illegal"] is None


def test_rejected_action_gives_status_1_and_the_state_before_it():
    deal = played_turup()
    trump = deal["actions"][0]["suit"]
    lead = deal["actions"][1]
    # the next player plays a card he does not hold (the leader's card)
    bad = {"seat": (lead["seat"] - 1) % 4, "type": "play", "card": lead["card"]}
    deal["actions"] = [*deal["actions"][:2], bad, *deal["actions"][2:]]
    out, status = replay({"game": "turup", **deal})
    assert status == 1 and out["ok"] is False
    assert out["illegal"] == {"deal": 0, "action": 2,
                              "reason": f"you do not hold {lead['card']}"}
    summary = out["deals"][0]
    assert summary["hand_over"] is False and summary["trump"] == trump
    assert summary["trick_winners"] == []


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda r: r.update(game="bridge"), "field 'game'"),
    (lambda r: r.update(format="other/2"), "field 'format'"),
    (lambda r: r.update(options={"target": "ten"}), "option 'target'"),
    (lambda r: r.update(options={"colour": 1}), "unknown option 'colour'"),
    (lambda r: r.pop("dealer"), "deal 0, field 'dealer'"),
    (lambda r: r["hands"][1].pop(), "seat 1: holds 8 cards"),
    (lambda r: r["hands"][2].__setitem__(0, "ZZ"), "seat 2: 'ZZ' is not a card"),
    (lambda r: r["actions"][3].update(type="jump"), "deal 0, action 3, field 'type'"),
    (lambda r: r["actions"][4].pop("card"), "deal 0, action 4: a play needs field 'card'"),
    (lambda r: r["actions"][5].update(card="1X"), "deal 0, action 5, field 'card'"),
    (lambda r: r["actions"][0].update(suit="X"), "deal 0, action 0, field 'suit'"),
    (lambda r: r["actions"][2].update(seat="two"), "deal 0, action 2, field 'seat'"),
    (lambda r: r.update(deals=[]), "field 'dealer'"),
    (lambda r: r.update(colour="red"), "field 'colour'"),
    (lambda r: r.update(extra={"stock": []}), "deal 0, field 'extra.stock': turup deals take no"),
])
def test_malformed_records_get_one_clear_error_naming_the_place(mutate, message):
    record = {"format": "tricktable/1", "game": "turup", **played_turup()}
    mutate(record)
    out, status = replay(record)
    assert status == 2 and out["ok"] is False
    assert message in out["error"], out["error"]


def test_a_later_dealer_must_be_the_one_the_rules_pick():
    deals = [{"dealer": 0, "summary": {"tricks_by_team": [5, 2]}},
             {"dealer": 0, "summary": {"tricks_by_team": [5, 2]}}]
    out, status = replay({"game": "turup", "deals": deals})
    assert status == 2 and "deal 1" in out["error"] and "rules pick (3)" in out["error"]
    deals[1]["dealer"] = 3
    assert replay({"game": "turup", "deals": deals})[1] == 0


def test_an_unfinished_deal_cannot_be_followed_by_another():
    deal = played_turup()
    deal["actions"] = deal["actions"][:5]
    out, status = replay({"game": "turup", "deals": [deal, {"summary": {
        "tricks_by_team": [5, 0]}}]})
    assert status == 2 and "deal 1: follows a deal that did not finish" in out["error"]


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "dealer", "hands", "actions", "deals", "summary", "seat",
                         "type", "card", "options", "players", "extra", "x"]), kids,
        max_size=5),
    max_leaves=20))
def test_garbage_never_raises(obj):
    out, status = replay(obj if not isinstance(obj, dict) else {"game": "turup", **obj})
    assert status in (0, 1, 2)
    json.dumps(out)


def test_not_json_is_status_2_with_the_place():
    out, status = replay_text('{"game": "turup",')
    assert status == 2 and "not valid JSON" in out["error"] and "line 1" in out["error"]


def test_an_arbaa_turub_deal_of_144_plays_replays():
    m = GAMES["arbaa_turub"].match_type(None, None, 0, seed=9)
    d = m.start_deal()
    rng = random.Random(9)
    while not d.is_over:
        d.apply(d.to_act[0], rng.choice(d.legal_actions(d.to_act[0])))
    record = {"game": "arbaa_turub", **d.record()}
    assert sum(a["type"] == "play" for a in record["actions"]) == 144
    out, status = replay(json.loads(json.dumps(record)))
    assert status == 0 and sum(out["deals"][0]["tricks_by_team"]) == 36


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, input=stdin, cwd=ROOT, timeout=60)


def test_cli_exit_statuses_and_no_traceback(tmp_path):
    examples = sorted((ROOT / "examples").glob("*.json"))
    assert examples, "examples/ holds records"
    for path in examples:
        res = run_cli("replay", str(path))
        assert res.returncode in (0, 1), (path, res.stdout, res.stderr)
        assert json.loads(res.stdout)["ok"] is (res.returncode == 0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "turup", "dealer": 9, "hands": []}')
    res = run_cli("replay", str(bad))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert json.loads(res.stdout)["ok"] is False
    res = run_cli("replay", str(tmp_path / "missing.json"))
    assert res.returncode == 2 and "cannot read" in json.loads(res.stdout)["error"]
    res = run_cli("replay", "-", stdin=json.dumps({"game": "turup", **played_turup()}))
    assert res.returncode == 0


def test_replay_prints_no_hidden_card():
    """An unfinished deal's output holds only cards the record's actions played."""
    deal = played_turup()
    deal["actions"] = deal["actions"][:7]  # trump, one whole trick, two cards of the next
    out, _ = replay({"game": "turup", **deal})
    text = json.dumps(out)
    played = {a["card"] for a in deal["actions"] if a["type"] == "play"}
    from games.cards import RANKS_36, deck, name
    shown = {name(c) for c in deck(RANKS_36) if f'"{name(c)}"' in text}
    assert shown <= played and len(shown) == 4
