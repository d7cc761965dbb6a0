"""Records and ``tapete replay``: the format, the report, exit statuses and bad input."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.records import replay, replay_text
from tests.helpers import bid_all, build_deal, play


def worked_example_record() -> dict[str, Any]:
    deal = build_deal("cutthroat", 2, {0: ["AH"], 1: ["2S"], 2: ["KH", "QS"]}, void={1: "H"})
    g = tapete.new_game("cutthroat", deal=deal, dealer=2, seed=5)
    bid_all(g, [5, 6, 4])
    play(g, "AH", "2S", "KH")
    rec = g.record()
    rec["players"] = ["Ana", "Boris", "Carmen"]
    return rec


def run_cli(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete", *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def test_record_shape() -> None:
    rec = worked_example_record()
    assert rec["format"] == "tapete-record/1"
    assert rec["profile"] == "cutthroat" and rec["options"] == {}
    hand = rec["hands"][0]
    assert hand["dealer"] == 2 and [len(c) for c in hand["cards"]] == [17, 17, 17]
    assert hand["actions"][:3] == [{"seat": 0, "bid": 5}, {"seat": 1, "bid": 6}, {"seat": 2, "bid": 4}]
    assert hand["actions"][3:] == [{"seat": 0, "play": "AH"}, {"seat": 1, "play": "2S"}, {"seat": 2, "play": "KH"}]


def test_replay_report_in_progress() -> None:
    result = replay(worked_example_record())
    assert result.exit_status == 0
    r = result.report
    assert r["profile"] == "cutthroat"
    hand = r["hands"][0]
    assert hand["bids"] == [5, 6, 4]
    assert hand["tricks"][0] == {"leader": 0, "cards": ["AH", "2S", "KH"], "seats": [0, 1, 2], "winner": 1}
    assert hand["tricks_won"] == [0, 1, 0]
    assert hand["score_change"] is None
    assert r["finished"] is False and r["winner"] is None and r["error"] is None
    assert r["to_act"] == 1
    assert r["legal_actions"] and all(a["seat"] == 1 and "play" in a for a in r["legal_actions"])


def test_replay_stops_at_first_illegal_action() -> None:
    rec = worked_example_record()
    rec["hands"][0]["actions"][5] = {"seat": 2, "play": "QS"}  # C must follow hearts
    rec["hands"][0]["actions"].append({"seat": 1, "play": "3S"})
    result = replay(rec)
    assert result.exit_status == 1
    err = result.report["error"]
    assert err["hand"] == 0 and err["action"] == 5 and err["seat"] == 2 and err["code"] == "must_follow_suit"
    assert "hearts" in err["message"]
    # the report describes the game just before the bad action
    assert result.report["to_act"] == 2
    assert {"seat": 2, "play": "KH"} in result.report["legal_actions"]
    assert {"seat": 2, "play": "QS"} not in result.report["legal_actions"]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("AS", "bad_record"),
        ({"seat": 0}, "bad_record"),
        ({"seat": 9, "play": "AH"}, "bad_record"),
        ({"seat": 0, "play": "ZZ"}, "bad_record"),
        ({"seat": 0, "play": "AH", "bid": 3}, "bad_record"),
        ({"seat": 1, "bid": 3}, "not_your_turn"),
        ({"seat": 0, "bid": 18}, "bid_out_of_range"),
        ({"seat": 0, "bid": "B6"}, "bid_not_allowed"),
        ({"seat": 0, "bid": "pass"}, "bid_not_allowed"),
        ({"seat": 0, "play": "AH"}, "wrong_phase"),
        ({"draw": ["AS", "KS", "QS"]}, "bad_record"),
    ],
)
def test_malformed_and_illegal_actions(action: object, code: str) -> None:
    rec = worked_example_record()
    rec["hands"][0]["actions"] = [action]
    result = replay(rec)
    assert result.exit_status == 1
    assert result.report["error"]["code"] == code
    assert result.report["error"]["action"] == 0


def _mutate(rec: dict[str, Any], path: str) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    cards = rec["hands"][0]["cards"]
    if path == "unknown card":
        cards[0][0] = "ZZ"
    elif path == "duplicated card":
        cards[0][0] = cards[1][0]
    elif path == "wrong hand sizes":
        cards[1].append(cards[0].pop())
    elif path == "foreign card":
        cards[0][0] = "2C"
    elif path == "unknown profile":
        rec["profile"] = "hearts"
    elif path == "bad option":
        rec["options"] = {"target": -5}
    elif path == "format":
        rec["format"] = "pgn"
    elif path == "dealer":
        rec["hands"][0]["dealer"] = 7
    elif path == "not an object":
        return ["not", "a", "record"]  # type: ignore[return-value]
    return rec


@pytest.mark.parametrize(
    "path",
    [
        "unknown card",
        "duplicated card",
        "wrong hand sizes",
        "foreign card",
        "unknown profile",
        "bad option",
        "format",
        "dealer",
        "not an object",
    ],
)
def test_unreadable_records_exit_2(path: str) -> None:
    result = replay(_mutate(worked_example_record(), path))
    assert result.exit_status == 2
    assert result.report["error"]["code"] == "bad_record"


def test_not_json_is_exit_2() -> None:
    result = replay_text("{ not json")
    assert result.exit_status == 2 and result.report["error"]["code"] == "bad_record"


def test_record_without_cards_uses_the_seed() -> None:
    g = tapete.new_game("cutthroat", seed=77)
    for _ in range(10):
        g.apply(g.legal_actions()[-1])
    rec = g.record()
    for hand in rec["hands"]:
        del hand["cards"]
    result = replay(rec)
    assert result.exit_status == 0 and result.game.record() == g.record()
    del rec["seed"]
    assert replay(rec).exit_status == 2


def test_finished_game_report_and_extra_actions() -> None:
    g = tapete.new_game("spades", seed=3, options={"target": 1})
    while not g.is_over():
        g.apply(g.legal_actions()[0])
    rec = g.record()
    result = replay(rec)
    assert result.exit_status == 0
    r = result.report
    assert r["finished"] and r["winner"] == g.winner() and r["to_act"] is None and r["legal_actions"] == []
    assert [sum(h["score_change"][i] for h in r["hands"]) for i in range(2)] == r["scores"]
    rec["hands"][-1]["actions"].append({"seat": 0, "play": "AS"})
    bad = replay(rec)
    assert bad.exit_status == 1 and bad.report["error"]["code"] == "wrong_phase"


def test_between_hands_reports_next_first_bidder() -> None:
    g = tapete.new_game("cutthroat", seed=8, dealer=0)
    while g.hand_number == 0:
        g.apply(g.legal_actions()[0])
    rec = g.record()
    rec["hands"] = rec["hands"][:1]
    result = replay(rec)
    assert result.exit_status == 0
    assert result.report["to_act"] == 2  # dealer is now seat 1; seat 2 bids first
    assert {"seat": 2, "bid": 0} in result.report["legal_actions"]


def test_cli_replay_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(worked_example_record()))
    out = run_cli(["replay", str(path), "--json"])
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["hands"][0]["bids"] == [5, 6, 4]
    text = run_cli(["replay", str(path)])
    assert text.returncode == 0 and "A♥ 2♠ K♥" in text.stdout and "seat 1 to act" in text.stdout
    stdin = run_cli(["replay", "-", "--json"], stdin=path.read_text())
    assert json.loads(stdin.stdout) == report


def test_cli_exit_statuses(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    out = run_cli(["replay", str(bad), "--json"])
    assert out.returncode == 2 and json.loads(out.stdout)["error"]["code"] == "bad_record"
    rec = worked_example_record()
    rec["hands"][0]["actions"].append({"seat": 1, "play": "AS"})
    rec["hands"][0]["actions"].insert(0, {"seat": 2, "bid": 1})
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(rec))
    out = run_cli(["replay", str(illegal), "--json"])
    assert out.returncode == 1 and json.loads(out.stdout)["error"]["code"] == "not_your_turn"
    missing = run_cli(["replay", str(tmp_path / "missing.json")])
    assert missing.returncode == 2 and "cannot read" in missing.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=4) | st.sampled_from(["AS", "nil", "B6", "10♥"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["seat", "play", "bid", "look", "draw", "x"]), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, max_size=6))
def test_hostile_actions_never_crash(actions: list[Any]) -> None:
    rec = worked_example_record()
    rec["hands"][0]["actions"] = actions
    result = replay(rec)
    assert result.exit_status in (0, 1)
    json.dumps(result.report)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_hostile_records_never_crash(obj: Any) -> None:
    result = replay(obj)
    assert result.exit_status == 2
