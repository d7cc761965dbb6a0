"""Records, replay summaries, observations and profile options of Run Fast."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import tapete
from tapete.engine.runfast import PASS, RunFastGame
from tapete.engine.runfast.actions import action_of
from tapete.errors import IllegalAction, ProfileError

Game = Callable[..., RunFastGame]


def test_profile_and_options() -> None:
    rules = tapete.load_profile("runfast")
    assert rules.first_lead == "3H" and rules.overrides_json() == {}
    assert rules.options_json() == {"first_lead": "3H", "deal_size": 16, "one_card_rule": False, "deals": 1}
    info = tapete.profile_info("runfast")
    assert info.family == "runfast" and info.title == "Run Fast"
    assert tapete.load_profile("runfast", {"first_lead": "3S"}).overrides_json() == {"first_lead": "3S"}
    with pytest.raises(ProfileError, match="first_lead"):
        tapete.load_profile("runfast", {"first_lead": "4H"})
    with pytest.raises(ProfileError, match="'target'"):
        tapete.load_profile("runfast", {"target": 300})


def test_record_of_a_game_in_progress(game: Game) -> None:
    g = game("3H", "2S")
    g.apply({"seat": 0, "play": ["3H"]})
    g.apply({"seat": 1, "play": ["2S"]})
    g.apply({"seat": 2, "pass": True})
    rec = g.record(players=["Ana", "Boris", "Carmen"])
    assert rec["format"] == "tapete-record/1" and rec["profile"] == "runfast" and rec["options"] == {}
    assert rec["players"] == ["Ana", "Boris", "Carmen"] and rec["seed"] == 0
    hand = rec["hands"][0]
    assert set(hand) == {"cards", "actions"}
    assert hand["cards"][0][0] == "3H" and [len(c) for c in hand["cards"]] == [16, 16, 16]
    assert hand["actions"] == [
        {"seat": 0, "play": ["3H"]},
        {"seat": 1, "play": ["2S"]},
        {"seat": 2, "pass": True},
    ]
    json.dumps(rec)
    summary = g.replay_summary()
    assert summary["finished"] is False and summary["winner"] is None and summary["scores"] == [0, 0, 0]
    (h,) = summary["hands"]
    assert h["plays"] == [
        {"seat": 0, "cards": ["3H"]},
        {"seat": 1, "cards": ["2S"]},
        {"seat": 2, "pass": True},
    ]
    assert h["score_change"] is None
    assert [len(r) for r in h["remaining"]] == [15, 15, 16]
    order = "3456789TJQKA2"
    for cards in h["remaining"]:
        assert [order.index(c[0]) for c in cards] == sorted(order.index(c[0]) for c in cards)


def test_summary_of_a_finished_game(game: Game) -> None:
    g = game(
        "3H 3S 4S 4H 5S 5H 6S 6H 7S 7H 9S 9H 9D 9C TC JC",
        "KS KH KD KC QS QH QD QC AS AD AC 4D 5D 6D 7D 8S",
    )
    for action in [
        {"seat": 0, "play": ["3H", "3S", "4S", "4H", "5S", "5H", "6S", "6H", "7S", "7H"]},
        {"seat": 1, "play": ["KS", "KH", "KD", "KC"]},
        {"seat": 2, "pass": True},
        {"seat": 0, "pass": True},
        {"seat": 1, "play": ["QS", "QH", "QD", "QC"]},
        {"seat": 2, "pass": True},
        {"seat": 0, "pass": True},
        {"seat": 1, "play": ["AS", "AD", "AC"]},
        {"seat": 2, "pass": True},
        {"seat": 0, "pass": True},
        {"seat": 1, "play": ["4D", "5D", "6D", "7D", "8S"]},
    ]:
        g.apply(action)
    summary = g.replay_summary()
    assert summary["finished"] is True and summary["winner"] == 1
    assert summary["scores"] == [-26, 78, -52]
    (h,) = summary["hands"]
    assert h["score_change"] == [-26, 78, -52]
    assert h["remaining"][0] == ["9S", "9H", "9D", "9C", "TC", "JC"] and h["remaining"][1] == []
    assert h["bomb_bonuses"] == [{"seat": 1, "cards": ["KS", "KH", "KD", "KC"], "points": 20}]
    # the record replays to the same summary
    rec = g.record()
    again = tapete.new_game("runfast", seed=rec["seed"], deal=rec["hands"][0]["cards"])
    for action in rec["hands"][0]["actions"]:
        again.apply(action)
    assert again.replay_summary() == summary
    with pytest.raises(IllegalAction) as info:
        again.apply({"seat": 0, "pass": True})
    assert info.value.code == "wrong_phase"


def test_observation_is_opt_in(game: Game) -> None:
    g = game("3H 4S", "2S")
    obs = g.observation(1)
    assert obs["game"] == "runfast" and obs["profile"] == "runfast" and obs["seat"] == 1
    assert obs["phase"] == "play" and obs["to_act"] == 0 and obs["legal_actions"] == []
    assert obs["hand_sizes"] == [16, 16, 16] and len(obs["hand"]) == 16 and "2S" in obs["hand"]
    assert obs["current"] is None and obs["plays"] == [] and obs["scores"] == [0, 0, 0]
    json.dumps(obs)
    mine = g.observation(0)
    assert {"seat": 0, "play": ["3H"]} in mine["legal_actions"]
    g.apply({"seat": 0, "play": ["3H"]})
    obs = g.observation(2)
    assert obs["current"] == {"seat": 0, "cards": ["3H"], "combination": "a single 3"}
    assert obs["plays"] == [{"seat": 0, "cards": ["3H"]}]
    assert obs["has_played"] == [True, False, False]


def test_actions_have_a_readable_form() -> None:
    a = action_of(["9H", "9S"])
    assert str(a) == "play 9♠ 9♥" and str(PASS) == "pass" and PASS.is_pass and not a.is_pass
    assert a.to_record(2) == {"seat": 2, "play": ["9S", "9H"]}
    assert [str(c) for c in a.cards] == ["9S", "9H"]


def test_parse_action_and_action_to_record(game: Game) -> None:
    g = game("3H 3S")
    a = g.parse_action({"seat": 0, "play": ["3s", "3♥"]})
    assert a == action_of(["3H", "3S"])
    assert g.action_to_record(a) == {"seat": 0, "play": ["3S", "3H"]}
    with pytest.raises(IllegalAction) as info:
        g.parse_action({"seat": 1, "play": ["3D"]})
    assert info.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as info:
        g.parse_action({"seat": 0, "play": ["3S"], "bid": 3})
    assert info.value.code == "bad_record"


def test_clone_is_independent() -> None:
    g = tapete.new_game("runfast", seed=5)
    h = g.clone()
    h.apply(h.legal_actions()[0])
    assert g.log == [] and len(h.log) == 1 and g.hands != h.hands
