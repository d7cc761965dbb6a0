"""Bag rules and prize jacks of the official Cutthroat family, over several hands."""

from __future__ import annotations

import pytest

import tapete
from tapete.engine.spades.scoring import score_hand
from tests.spades.official_helpers import Plan

NO_JACKS = {"prize_jacks": []}


def totals_after_each_hand(plan):
    game = plan.start()
    out = []
    for i in range(len(plan.hands)):
        plan.play(game, i)
        out.append((game.scores(), game.bags()))
    return game, out


# --- limit L: reaching L costs 10 × the whole count, then the count is 0 ----------------
def test_official_bag_limit_ten_over_three_hands():
    plan = (
        Plan(options=NO_JACKS)
        .hand([1, 2, 2], [7, 5, 5])  # +16 (6 bags), +23 (3), +23 (3)
        .hand([1, 2, 2], [7, 5, 5])  # seat 0 reaches 12: -120, count 0 (the 2 extra are not kept)
        .hand([1, 2, 2], [1, 6, 10])  # seat 1 reaches exactly 10: -100; seat 2 reaches 14: -140
    )
    game, steps = totals_after_each_hand(plan)
    assert steps[0] == ([16, 23, 23], [6, 3, 3])
    assert steps[1] == ([16 + 16 - 120, 46, 46], [0, 6, 6])
    assert steps[2] == ([-88 + 10, 46 + 24 - 100, 46 + 28 - 140], [0, 0, 0])
    last = game.observation(0)["last_hand"]
    assert last["penalty"] == [0, -100, -140]
    assert last["score_change"] == [10, -76, -112]


def test_five_bag_limit_profile():
    plan = (
        Plan("cutthroat-300-5bags", options=NO_JACKS)
        .hand([1, 2, 2], [4, 6, 7])  # bags 3, 4, 5: seat 2 reaches 5 -> -50, count 0
        .hand([1, 2, 2], [4, 6, 7])  # seat 0: 6 -> -60; seat 1: 8 -> -80; seat 2: 5 -> -50
    )
    _, steps = totals_after_each_hand(plan)
    assert steps[0] == ([13, 24, 25 - 50], [3, 4, 0])
    assert steps[1] == ([13 + 13 - 60, 48 - 80, -25 + 25 - 50], [0, 0, 0])


def test_limit_option_on_a_custom_value():
    plan = Plan(options={**NO_JACKS, "bag_limit": 3}).hand([1, 2, 2], [3, 4, 10])
    _, steps = totals_after_each_hand(plan)
    # bags 2, 2, 8: only seat 2 reaches 3 and pays for all 8
    assert steps[0] == ([12, 22, 28 - 80], [2, 2, 0])


# --- per_hand: -10 per bag every hand, the count stays 0 ---------------------------------
def test_per_hand_profile_over_two_hands():
    plan = (
        Plan("cutthroat-300-perbag", options=NO_JACKS)
        .hand([1, 2, 2], [4, 6, 7])
        .hand([3, 0, 5], [3, 2, 12])  # nil set with 2 tricks: -100 and 2 bags -> -20
    )
    game, steps = totals_after_each_hand(plan)
    assert steps[0] == ([13 - 30, 24 - 40, 25 - 50], [0, 0, 0])
    assert steps[1] == ([-17 + 30, -16 - 100 - 20, -25 + 57 - 70], [0, 0, 0])
    assert game.observation(0)["last_hand"]["penalty"] == [0, -20, -70]


# --- accumulate: -100 per 10, the excess kept ---------------------------------------------
def test_accumulate_option_keeps_the_excess():
    plan = (
        Plan(options={**NO_JACKS, "bag_rule": "accumulate"})
        .hand([1, 2, 2], [7, 5, 5])
        .hand([1, 2, 2], [7, 5, 5])  # seat 0: 12 -> -100, 2 kept
        .hand([1, 2, 2], [1, 6, 10])  # seat 1: 10 -> -100, 0 kept; seat 2: 14 -> -100, 4 kept
    )
    _, steps = totals_after_each_hand(plan)
    assert steps[0] == ([16, 23, 23], [6, 3, 3])
    assert steps[1] == ([32 - 100, 46, 46], [2, 6, 6])
    assert steps[2] == ([-68 + 10, 46 + 24 - 100, 46 + 28 - 100], [2, 0, 4])


def test_accumulate_with_twenty_bags_in_one_hand():
    rules = tapete.load_profile("cutthroat-official", {**NO_JACKS, "bag_rule": "accumulate"})
    result = score_hand(rules, [0, 0, 1], [0, 0, 17], [0, 0, 5])
    assert result.change == (100, 100, 26 - 200)
    assert result.bags == (0, 0, 1)


@pytest.mark.parametrize(
    ("options", "bags_before", "change", "bags", "penalty"),
    [
        ({"bag_rule": "limit", "bag_limit": 10}, 7, 26 - 230, 0, -230),
        ({"bag_rule": "limit", "bag_limit": 5}, 0, 26 - 160, 0, -160),
        ({"bag_rule": "per_hand"}, 7, 26 - 160, 0, -160),
        ({"bag_rule": "accumulate", "bag_limit": 10}, 7, 26 - 200, 3, -200),
    ],
)
def test_bag_rules_table(options, bags_before, change, bags, penalty):
    rules = tapete.load_profile("cutthroat-official", {**NO_JACKS, **options})
    result = score_hand(rules, [1, 0, 0], [17, 0, 0], [bags_before, 0, 0])
    assert result.change[0] == change
    assert result.bags[0] == bags
    assert result.penalty[0] == penalty
    assert result.bags_added[0] == 16


# --- prize jacks ---------------------------------------------------------------------------
def test_official_prize_jacks_go_to_the_trick_winner_whatever_the_bid():
    # seat 0 bids nil and wins only the J♣ trick; seat 2 is set on 5 but wins the J♦ trick
    game = Plan().hand([0, 12, 5], [1, 14, 2], jacks={"JC": 0, "JD": 2}).run()
    assert game.scores() == [-100 + 10, 122, -50 + 10]
    assert game.bags() == [1, 2, 0]
    last = game.observation(1)["last_hand"]
    assert last["prizes"] == [10, 0, 10]
    assert game.replay_summary()["hands"][0]["prize_jacks"] == [{"jack": "JC", "seat": 0}, {"jack": "JD", "seat": 2}]


def test_two_prize_jacks_count_separately_and_the_heart_jack_is_no_prize_in_official():
    game = Plan().hand([2, 5, 5], [2, 10, 5], jacks={"JC": 1, "JD": 1, "JH": 0}).run()
    assert game.scores() == [20, 55 + 20, 50]
    assert game.bags() == [0, 5, 0]


def test_club_jack_only_in_the_300_profiles():
    game = Plan("cutthroat-300-5bags").hand([2, 5, 5], [2, 10, 5], jacks={"JC": 0, "JD": 1}).run()
    assert game.scores() == [30, 55 - 50, 50]  # 5 bags reach the limit of 5
    assert game.bags() == [0, 0, 0]


def test_heart_jack_takes_a_bag_before_the_limit_is_checked():
    plan = (
        Plan("cutthroat-500-3jacks")
        # seat 0 collects 9 bags; seat 2 wins J♥ with no bags: the count stays 0
        .hand([1, 3, 3], [10, 4, 3], jacks={"JC": 1, "JD": 1, "JH": 2})
        # seat 0 would reach 10 bags, but its J♥ takes one off first: 9, no penalty
        .hand([1, 5, 10], [2, 5, 10], jacks={"JH": 0, "JC": 1, "JD": 2})
    )
    game, steps = totals_after_each_hand(plan)
    assert steps[0] == ([19, 31 + 20, 30], [9, 1, 0])
    assert steps[1] == ([19 + 11, 51 + 50 + 10, 30 + 100 + 10], [9, 1, 0])
    assert game.observation(0)["last_hand"]["penalty"] == [0, 0, 0]


def test_without_the_heart_jack_the_same_hand_pays_the_penalty():
    plan = (
        Plan("cutthroat-500-3jacks")
        .hand([1, 3, 3], [10, 4, 3], jacks={"JC": 1, "JD": 1, "JH": 2})
        .hand([1, 5, 10], [2, 5, 10], jacks={"JH": 1, "JC": 1, "JD": 2})
    )
    _, steps = totals_after_each_hand(plan)
    assert steps[1] == ([19 + 11 - 100, 51 + 50 + 10, 30 + 100 + 10], [0, 0, 0])


@pytest.mark.parametrize(
    ("bag_rule", "bags_before", "tricks", "jacks", "change", "bags", "added"),
    [
        # limit 10: 9 + 2 - 1 = 10 reaches the limit -> -100 for the 10 bags
        ("limit", 9, 3, [("JH", 0)], 12 - 100, 0, 1),
        # limit 10: 8 + 2 - 1 = 9, no penalty
        ("limit", 8, 3, [("JH", 0)], 12, 9, 1),
        # never below 0
        ("limit", 0, 1, [("JH", 0)], 10, 0, 0),
        ("accumulate", 0, 1, [("JH", 0)], 10, 0, 0),
        # accumulate: 9 + 2 - 1 = 10 -> -100, 0 kept
        ("accumulate", 9, 3, [("JH", 0)], 12 - 100, 0, 1),
        # per_hand: the J♥ removes one of this hand's bags
        ("per_hand", 0, 4, [("JH", 0)], 13 - 20, 0, 2),
        ("per_hand", 0, 1, [("JH", 0)], 10, 0, 0),
        # J♦ and J♣ with J♥: +20 and one bag fewer
        ("limit", 0, 4, [("JD", 0), ("JC", 0), ("JH", 0)], 13 + 20, 2, 2),
        # someone else's J♥ does nothing for seat 0
        ("limit", 9, 3, [("JH", 1)], 12 - 110, 0, 2),
    ],
)
def test_heart_jack_table(bag_rule, bags_before, tricks, jacks, change, bags, added):
    rules = tapete.load_profile("cutthroat-500-3jacks", {"bag_rule": bag_rule})
    result = score_hand(rules, [1, 0, 0], [tricks, 17 - tricks, 0], [bags_before, 0, 0], jack_winners=jacks)
    assert result.change[0] == change
    assert result.bags[0] == bags
    assert result.bags_added[0] == added


def test_heart_jack_under_per_hand_in_a_played_hand():
    plan = Plan("cutthroat-500-3jacks", options={"bag_rule": "per_hand"}).hand(
        [1, 2, 12], [4, 2, 11], jacks={"JH": 0, "JC": 2, "JD": 2}
    )
    game = plan.run()
    # seat 0: +13, 3 bags less the J♥ = 2 -> -20; seat 2: set on 12, +20 in prizes
    assert game.scores() == [13 - 20, 20, -120 + 20]
    assert game.bags() == [0, 0, 0]
