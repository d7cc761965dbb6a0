"""The hard level's pieces: tree search, epsilon-greedy playouts, simulated bidding."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tapete
from tapete.bots import make_bot
from tapete.bots.spades.bidding import hard_bid
from tapete.bots.spades.heuristics import normal_bid
from tapete.bots.spades.rollout import mixed_rollout, seat_targets
from tapete.bots.spades.search import hard_mcts, seat_utilities
from tapete.bots.spades.view import bid_target, read_view
from tapete.engine.spades.actions import ACTIONS, BID_BASE
from tapete.engine.spades.determinize import FastHand

PROFILES = ["spades", "cutthroat", "cutthroat-official"]


def _play_position(profile: str, seed: int, cards: int) -> Any:
    g = tapete.new_game(profile, seed=seed)
    driver = [make_bot("normal", seed=s) for s in range(g.num_players)]
    while g.phase.name == "BID" or cards > 0:
        if g.phase.name != "BID":
            cards -= 1
        g.apply(driver[g.to_act].act(g.observation(g.to_act)))
    return g


def test_seat_utilities_are_own_side_minus_the_others() -> None:
    # partnership: two sides, seats 0 and 2 on side 0
    assert seat_utilities((120, -40), [0, 1, 0, 1], 2) == [1.6, -1.6, 1.6, -1.6]
    # cutthroat: each seat its own side, the others averaged
    u = seat_utilities((60, 20, -100), [0, 1, 2], 3)
    assert u == pytest.approx([1.0, 0.4, -1.4])


@pytest.mark.parametrize("profile", PROFILES)
def test_mixed_playouts_finish_the_hand_legally(profile: str) -> None:
    g = _play_position(profile, 4, 5)
    obs = g.observation(g.to_act)
    f = FastHand.from_observation(obs, list(g.hands))
    targets, nil = seat_targets(f.bids, g.rules.partnership)
    rng = random.Random(3)
    for eps in (0.0, 0.5, 1.0):
        h = f.copy()
        mixed_rollout(h, rng, eps, targets, nil, g.rules.partnership)
        assert h.done
        assert not any(h.hands)
        assert sum(h.tricks_won) == sum(f.tricks_won) + f.tricks_left


@pytest.mark.parametrize("profile", PROFILES)
def test_hard_search_picks_a_legal_card_deterministically(profile: str) -> None:
    for seed in range(3):
        g = _play_position(profile, seed, 4 + seed)
        view = read_view(g.observation(g.to_act))
        a = hard_mcts(view, random.Random(9), 12, 200)
        assert a in view.legal
        assert hard_mcts(view, random.Random(9), 12, 200) == a


@pytest.mark.parametrize("profile", PROFILES)
def test_hard_bid_is_legal_deterministic_and_near_normal(profile: str) -> None:
    for seed in range(4):
        g = tapete.new_game(profile, seed=seed)
        driver = [make_bot("normal", seed=s) for s in range(g.num_players)]
        while g.phase.name == "BID":
            obs = g.observation(g.to_act)
            view = read_view(obs)
            code = hard_bid(view, random.Random(5), 24)
            assert code in view.legal
            assert hard_bid(view, random.Random(5), 24) == code
            base = normal_bid(view)
            if view.hand:
                # the search only moves the bid by one trick, or to nil
                moved = abs(bid_target(ACTIONS[code].bid) - bid_target(ACTIONS[base].bid))  # type: ignore[union-attr]
                assert code == BID_BASE or moved <= 1
            g.apply(driver[g.to_act].act(obs))


def test_the_rules_a_bot_reads_from_tables_are_kept_within_a_bound() -> None:
    """Options are the table creator's choice: a worker keeps at most ``RULES_CACHED`` rule sets,
    and still reads each table's own."""
    from tapete.engine.spades import determinize

    for target in range(300, 300 + determinize.RULES_CACHED + 40):
        game = tapete.new_game("cutthroat", seed=1, options={"target": target})
        rules = determinize.rules_from_observation(game.observation(0))  # type: ignore[arg-type]
        assert rules.target == target
    assert len(determinize._RULES_CACHE) <= determinize.RULES_CACHED
