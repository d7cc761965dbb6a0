"""Hand scoring as a pure function: the spec's worked examples and table cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.engine.spades.scoring import BAG_PENALTY, lasting_change, score_bid, score_hand

CUTTHROAT = tapete.load_profile("cutthroat")
SPADES = tapete.load_profile("spades")


def test_seed_worked_example_5_6_4() -> None:
    result = score_hand(CUTTHROAT, bids=[5, 6, 4], tricks=[7, 6, 4], bags_before=[0, 0, 0])
    assert result.change == (52, 60, 40)
    assert result.bags == (2, 0, 0)


def test_seed_worked_example_bag_penalty() -> None:
    result = score_hand(CUTTHROAT, bids=[5, 6, 4], tricks=[7, 6, 4], bags_before=[9, 0, 0])
    assert result.contract == (52, 60, 40)
    assert result.penalty == (-100, 0, 0)
    assert result.bags == (1, 0, 0)
    assert result.change[0] == -48


@pytest.mark.parametrize(
    ("bid", "tricks", "points", "bags"),
    [
        (5, 5, 50, 0),
        (5, 8, 53, 3),
        (5, 4, -50, 0),
        (13, 0, -130, 0),
        (0, 0, 100, 0),
        (0, 3, -100, 3),  # a failed nil's tricks are bags, not points
        (17, 17, 170, 0),
    ],
)
def test_individual_bid_table(bid: int, tricks: int, points: int, bags: int) -> None:
    r = score_bid(bid, tricks)
    assert (r.points, r.bags) == (points, bags)


@pytest.mark.parametrize(
    ("bids", "tricks", "bags_before", "team0"),
    [
        ([4, 5, 5, 0], [5, 3, 5, 0], [0, 0], 91),
        ([13, 5, 0, 1], [4, 6, 1, 2], [0, 0], -230),
        ([3, 3, 3, 2], [4, 2, 5, 2], [9, 0], -37),
    ],
)
def test_partnership_issue_cases(bids: list[int], tricks: list[int], bags_before: list[int], team0: int) -> None:
    assert score_hand(SPADES, bids, tricks, bags_before).change[0] == team0


def test_partnership_failed_nil_tricks_help_the_partner() -> None:
    # seat 0 bids 4 and takes 3; its nil partner (seat 2) takes 1: contract 4 made, nil fails
    r = score_hand(SPADES, bids=[4, 5, 0, 4], tricks=[3, 5, 1, 4], bags_before=[0, 0])
    assert r.change[0] == 40 - 100
    assert r.bags[0] == 0


def test_partnership_double_nil_tricks_are_all_bags() -> None:
    r = score_hand(SPADES, bids=[0, 6, 0, 6], tricks=[1, 6, 0, 6], bags_before=[0, 0])
    assert r.contract[0] == -100 + 100 + 1
    assert r.bags[0] == 1
    assert r.change[1] == 120


def test_partnership_team_bags_carry_over() -> None:
    r = score_hand(SPADES, bids=[3, 3, 3, 3], tricks=[7, 3, 1, 2], bags_before=[8, 0])
    assert r.contract[0] == 62
    assert r.penalty[0] == -100
    assert r.bags[0] == 0
    assert r.change == (-38, -60)


def test_accumulate_twenty_bags_costs_two_penalties() -> None:
    r = score_hand(CUTTHROAT, bids=[1, 1, 1], tricks=[15, 1, 1], bags_before=[8, 0, 0])
    assert r.bags_added[0] == 14
    assert r.penalty[0] == -200
    assert r.bags[0] == 2


def test_negative_totals_allowed_and_no_bag_credit_on_failure() -> None:
    r = score_hand(CUTTHROAT, bids=[10, 5, 0], tricks=[9, 5, 3], bags_before=[0, 0, 0])
    assert r.change == (-100, 50, -100)
    assert r.bags == (0, 0, 3)


@pytest.mark.parametrize("rule", ["accumulate", "limit", "per_hand", "none"])
@settings(max_examples=150, deadline=None)
@given(
    bids=st.lists(st.integers(0, 13), min_size=3, max_size=3),
    cuts=st.lists(st.integers(0, 17), min_size=2, max_size=2),
    before=st.lists(st.integers(0, 9), min_size=3, max_size=3),
)
def test_lasting_change_charges_every_bag_whatever_the_count_before(
    rule: str, bids: list[int], cuts: list[int], before: list[int]
) -> None:
    """Every bag costs ``BAG_PENALTY`` less its point, however many were banked: the
    lasting value is the same from any bag count, and it is the change once the penalty
    is replaced by that charge."""
    rules = tapete.load_profile("cutthroat", {"bag_rule": rule})
    a, b = sorted(cuts)
    tricks = [a, b - a, 17 - b]
    result = score_hand(rules, bids=bids, tricks=tricks, bags_before=before)
    fresh = score_hand(rules, bids=bids, tricks=tricks, bags_before=[0, 0, 0])
    assert lasting_change(result) == lasting_change(fresh)
    for side in range(3):
        charged = result.change[side] - result.penalty[side] - BAG_PENALTY * result.bags_added[side]
        assert lasting_change(result)[side] == charged
        if rule == "none":
            assert lasting_change(result)[side] == result.change[side]


def test_lasting_change_of_a_partnership_hand() -> None:
    """Team 0 bids 6 and takes 8 (two bags), team 1 bids 5 and takes 5; team 0 had 9 bags."""
    result = score_hand(SPADES, bids=[3, 2, 3, 3], tricks=[4, 3, 4, 2], bags_before=[9, 0])
    assert result.change == (62 - 100, 50)
    assert lasting_change(result) == (62 - 2 * BAG_PENALTY, 50)
