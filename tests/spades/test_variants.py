"""Scenario tests for the variant profiles: callbreak, deuces high, jokers, blind nil, suicide."""

from __future__ import annotations

from typing import Any

import pytest

import tapete
from tapete import IllegalAction, ProfileError
from tests.helpers import bid_all, build_deal, play


def refused(game: Any, action: dict[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value


def legal_cards(game: Any) -> set[str]:
    return {str(a.to_record(game.to_act)["play"]) for a in game.legal_actions()}


# --- callbreak ------------------------------------------------------------------------
def callbreak(fixed: dict[int, list[str]], void: dict[int, str] | None = None, **options: object) -> Any:
    """A callbreak hand dealt by seat 3, so seat 0 bids first and leads; everyone bids 1."""
    deal = build_deal("callbreak", 3, fixed, void=void, options=options)
    g = tapete.new_game("callbreak", deal=deal, dealer=3, options=options)
    bid_all(g, [1, 1, 1, 1])
    return g


def test_callbreak_spades_may_be_led_at_once() -> None:
    g = callbreak({0: ["AS", "2H"]})
    assert "AS" in legal_cards(g)
    play(g, "AS")


def test_callbreak_must_beat_the_highest_card_of_the_suit() -> None:
    g = callbreak({0: ["9H"], 1: ["3H", "KH"], 2: ["4H", "5H"]})
    play(g, "9H")
    err = refused(g, {"seat": 1, "play": "3H"})
    assert err.code == "must_beat" and "K♥" in err.message and "9♥" in err.message
    play(g, "KH")
    if "AH" not in legal_cards(g):
        assert legal_cards(g) >= {"4H", "5H"}  # cannot beat K♥: any heart
        play(g, "5H")


def test_callbreak_follow_suit_still_first() -> None:
    g = callbreak({0: ["9H"], 1: ["3H", "AS"]})
    play(g, "9H")
    assert refused(g, {"seat": 1, "play": "AS"}).code == "must_follow_suit"


def test_callbreak_void_must_trump() -> None:
    g = callbreak({0: ["9H"], 1: ["3S", "2C"]}, void={1: "H"})
    play(g, "9H")
    assert refused(g, {"seat": 1, "play": "2C"}).code == "must_trump"
    play(g, "3S")


def test_callbreak_void_must_overtrump_when_able() -> None:
    g = callbreak({0: ["9H"], 1: ["5S"], 2: ["3S", "9S", "2C"]}, void={1: "H", 2: "H"})
    play(g, "9H", "5S")
    legal = legal_cards(g)
    assert "9S" in legal and "3S" not in legal and "2C" not in legal
    assert all(c.endswith("S") and "3456789TJQKA".index(c[0]) > 2 for c in legal)
    err = refused(g, {"seat": 2, "play": "3S"})
    assert err.code == "must_overtrump" and "9♠" in err.message


def test_callbreak_cannot_overtrump_plays_anything() -> None:
    g = callbreak({0: ["9H"], 1: ["AS"], 2: ["3S", "2C"]}, void={1: "H", 2: "H"})
    play(g, "9H", "AS")
    assert {"3S", "2C"} <= legal_cards(g)
    play(g, "2C")


def test_callbreak_trick_cut_by_a_spade_any_card_of_the_suit() -> None:
    g = callbreak({0: ["9H"], 1: ["3S"], 2: ["2H", "KH"]}, void={1: "H"})
    play(g, "9H", "3S")
    assert {"2H", "KH"} <= legal_cards(g)
    play(g, "2H")


def test_callbreak_bids_from_one_to_max_bid() -> None:
    g = tapete.new_game("callbreak", seed=3, options={"max_bid": 8})
    bids = sorted(a.bid for a in g.legal_actions())
    assert bids == list(range(1, 9))
    assert refused(g, {"seat": g.to_act, "bid": 0}).code == "bid_out_of_range"
    assert refused(g, {"seat": g.to_act, "bid": 9}).code == "bid_out_of_range"


def test_callbreak_scoring_in_tenths() -> None:
    rules = tapete.load_profile("callbreak")
    from tapete.engine.spades.scoring import score_hand

    r = score_hand(rules, [3, 4, 2, 4], [5, 3, 2, 3], [0, 0, 0, 0])
    assert r.change == (32, -40, 20, -40) and r.bags == (0, 0, 0, 0) and r.penalty == (0, 0, 0, 0)
    g = tapete.new_game("callbreak", seed=1)
    g.scores_ = [32, -40, 20, -40]
    assert g.scores() == [3.2, -4.0, 2.0, -4.0]
    assert g.observation(0)["scores"] == [3.2, -4.0, 2.0, -4.0]


def test_callbreak_five_deals_then_highest_total_ties_play_on() -> None:
    import random

    g = tapete.new_game("callbreak", seed=5)
    rng = random.Random(5)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    top = max(g.scores_)
    assert len(g.logs) >= 5 and g.scores_.count(top) == 1 and g.winner() == g.scores_.index(top)
    if len(g.logs) > 5:  # a tie after five deals was played off
        assert len([log for log in g.logs if log.result is not None]) == len(g.logs)
    g2 = tapete.new_game("callbreak", seed=5)
    g2.logs = [g2.log] * 5
    g2.scores_ = [30, 30, 22, 21]
    assert g2._game_winner() is None  # tied at the top: another deal
    g2.scores_ = [31, 30, 22, 21]
    assert g2._game_winner() == 0


def test_callbreak_replay_prints_tenths() -> None:
    import json

    from tapete.records import replay

    g = tapete.new_game("callbreak", seed=2)
    import random

    rng = random.Random(2)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    report = replay(json.loads(json.dumps(g.record()))).report
    assert report["scores"] == [x / 10 for x in g.scores_]
    assert all(isinstance(x, float) for x in report["scores"])


# --- deuces high --------------------------------------------------------------------------
def deuces(fixed: dict[int, list[str]], void: dict[int, str] | None = None) -> Any:
    deal = build_deal("spades-deuces", 3, fixed, void=void)
    g = tapete.new_game("spades-deuces", deal=deal, dealer=3)
    bid_all(g, [3, 3, 3, 3])
    return g


def test_deuces_order_2d_2s_above_ace() -> None:
    g = deuces({0: ["AH"], 1: ["AS"], 2: ["2D"], 3: ["2S"]}, void={1: "H", 2: "HD", 3: "H"})
    play(g, "AH", "AS", "2D", "2S")
    assert g.tricks_won == [0, 0, 1, 0]


def test_deuces_2d_is_a_spade_for_following() -> None:
    g = deuces({0: ["3D"], 1: ["2D", "4D"]})
    play(g, "3D")
    assert "2D" not in legal_cards(g)  # 2♦ is no diamond: follow with 4♦
    err = refused(g, {"seat": 1, "play": "2D"})
    assert err.code == "must_follow_suit"


def test_deuces_2d_follows_a_spade_lead_and_breaks_spades() -> None:
    g = deuces({0: ["KH", "5S"], 1: ["2D", "4C"], 2: ["3H"], 3: ["4H"]}, void={1: "HS"})
    assert "5S" not in legal_cards(g)  # spades not broken
    play(g, "KH", "2D")
    assert g.spades_broken
    play(g, "3H", "4H")
    assert g.tricks_won[1] == 1


def test_deuces_2d_may_not_be_led_before_spades_are_broken() -> None:
    g = deuces({0: ["2D", "3C"]})
    assert refused(g, {"seat": 0, "play": "2D"}).code == "spades_not_broken"


# --- jokers -----------------------------------------------------------------------------------
def test_jokers_deck_and_order() -> None:
    rules = tapete.load_profile("spades-jokers")
    names = {str(c) for c in rules.deck}
    assert len(names) == 52 and {"BJ", "RJ"} <= names and not {"2C", "2D"} & names
    assert rules.hand_sizes(0) == [13] * 4
    deal = build_deal("spades-jokers", 3, {0: ["AH"], 1: ["RJ"], 2: ["BJ"], 3: ["AS"]}, void={1: "H", 2: "H", 3: "H"})
    g = tapete.new_game("spades-jokers", deal=deal, dealer=3)
    bid_all(g, [3, 3, 3, 3])
    play(g, "AH", "RJ")
    assert g.spades_broken  # a joker on another suit breaks spades
    play(g, "BJ", "AS")
    assert g.tricks_won == [0, 1, 0, 0]


# --- blind nil --------------------------------------------------------------------------------
def test_blind_nil_before_looking_scores_200() -> None:
    g = tapete.new_game("spades-blind-nil", seed=4, dealer=3)
    obs = g.observation(0)
    assert obs["hand"] is None and obs["hand_face_down"]
    assert {str(a) for a in g.legal_actions()} == {"bid BN", "look"}
    g.apply({"seat": 0, "bid": "BN"})
    assert refused(g, {"seat": 1, "bid": 3}).code == "bid_not_allowed"  # look first
    from tapete.engine.spades.scoring import score_hand

    r = score_hand(g.rules, ["BN", 3, 4, 3], [0, 4, 5, 4], [0, 0])
    assert r.change[0] == 200 + 40 + 1 and r.change[1] == 60 + 2
    r = score_hand(g.rules, ["BN", 3, 4, 3], [1, 4, 4, 4], [0, 0])
    assert r.change[0] == -200 + 40 + 1


def test_blind_nil_behind_option() -> None:
    g = tapete.new_game("spades-blind-nil", seed=4, dealer=3, options={"blind_nil_behind": 100})
    assert {str(a) for a in g.legal_actions()} != {"bid BN", "look"}
    assert refused(g, {"seat": 0, "bid": "BN"}).code == "bid_not_allowed"
    g.scores_ = [0, 100]
    g.offer_blind_bids()
    assert g.blind_nil_ok == [True, False, True, False]


# --- suicide ----------------------------------------------------------------------------------
def test_suicide_first_partner_nil_or_four_plus_second_the_other() -> None:
    g = tapete.new_game("spades-suicide", seed=1, dealer=3)
    assert sorted(a.bid for a in g.legal_actions()) == [0, *range(4, 14)]
    assert refused(g, {"seat": 0, "bid": 2}).code == "bid_not_allowed"
    g.apply({"seat": 0, "bid": 0})
    g.apply({"seat": 1, "bid": 5})
    assert sorted(a.bid for a in g.legal_actions()) == list(range(4, 14))
    err = refused(g, {"seat": 2, "bid": 0})
    assert err.code == "bid_not_allowed" and "partner bid nil" in err.message
    g.apply({"seat": 2, "bid": 4})
    assert [a.bid for a in g.legal_actions()] == [0]
    assert refused(g, {"seat": 3, "bid": 6}).code == "bid_not_allowed"


# --- player counts and bounds ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("profile", "options", "allowed"),
    [
        ("cutthroat", {"players": 4}, "allows 3"),
        ("cutthroat", {"players": 6}, "allows 3"),
        ("spades", {"players": 3}, "needs 'players' = 4"),
        ("cutthroat-4p", {"players": 8}, "allows 4"),
        ("cutthroat-5p-2jokers", {"dealer_sits_out_first_trick": False}, "allows 3, 6"),
    ],
)
def test_unequal_hands_are_refused(profile: str, options: dict[str, object], allowed: str) -> None:
    with pytest.raises(ProfileError) as err:
        tapete.load_profile(profile, options)
    assert err.value.code == "bad_option" and allowed in err.value.message


@pytest.mark.parametrize(
    ("options", "allowed"),
    [
        ({"players": 2}, "≥ 3"),
        ({"target": 10**100}, "≤ 10000"),
        ({"floor": -(10**100)}, "≥ -10000"),
        ({"tokens": 10**9}, "≤ 25"),
        ({"bag_limit": 10**6}, "≤ 100"),
        ({"blind_six_margin": 10**12}, "≤ 10000"),
        ({"deals": 0}, "≥ 1"),
    ],
)
def test_numeric_options_are_bounded(options: dict[str, object], allowed: str) -> None:
    with pytest.raises(ProfileError) as err:
        tapete.load_profile("cutthroat", options)
    assert err.value.code == "bad_option" and allowed in err.value.message


def test_equal_hands_for_other_counts() -> None:
    rules = tapete.load_profile("cutthroat", {"players": 4, "removed": []})
    assert rules.hand_sizes(0) == [13] * 4
    rules = tapete.load_profile("cutthroat", {"players": 8, "removed": ["2C", "2D", "2H", "2S"]})
    assert rules.hand_sizes(0) == [6] * 8


def test_seating_draw_is_in_the_observation() -> None:
    g = tapete.new_game("cutthroat-official", seed=8)
    draw = g.record()["hands"][0]["actions"][0]["draw"]
    assert all(g.observation(s)["draw"] == draw for s in range(3))
    assert tapete.new_game("cutthroat", seed=8).observation(0)["draw"] is None
