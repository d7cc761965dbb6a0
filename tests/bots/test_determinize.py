"""state_from_observation rebuilds the observed point; the fast path matches the checked one."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tapete
from tapete.bots.spades.rollout import greedy_rollout, random_rollout, seat_targets
from tapete.engine.spades.determinize import FAST_FIELDS, FastHand, state_from_observation
from tests.helpers import sensible_random_action

PROFILES = [p for p in tapete.profile_names() if tapete.profile_info(p).family == "spades"]


def _positions(profile: str, count: int, rng: random.Random) -> list[Any]:
    """Games stopped at random points (bidding and play, later hands with non-zero totals)."""
    out = []
    for seed in range(count):
        g = tapete.new_game(profile, seed=seed, options={"target": 300})
        stop = rng.randrange(0, 4 * sum(g.dealt_sizes))
        for _ in range(stop):
            if g.is_over():
                break
            g.apply(sensible_random_action(g, rng))
        if not g.is_over():
            out.append(g)
    return out


@pytest.mark.parametrize("profile", PROFILES)
def test_state_from_observation_reproduces_the_game(profile: str) -> None:
    rng = random.Random(profile)
    for g in _positions(profile, 12, rng):
        seat = g.to_act
        obs = g.observation(seat)
        d = state_from_observation(obs, list(g.hands))
        assert d.legal_actions() == g.legal_actions()
        assert {**d.observation(seat), "last_hand": None} == {**obs, "last_hand": None}
        for s in range(g.num_players):
            assert d.observation(s)["legal_actions"] == g.observation(s)["legal_actions"]
        # the same actions give the same hand result
        hand = len(g.logs) - 1
        play_rng = random.Random(5)
        while g.logs[hand].result is None:
            action = sensible_random_action(g, play_rng)
            g.apply(action)
            d.apply(action)
        assert d.logs[0].result == g.logs[hand].result
        assert d.scores() == g.scores() and d.bags() == g.bags()


@pytest.mark.parametrize("profile", PROFILES)
def test_fast_path_gives_the_checked_results(profile: str) -> None:
    rng = random.Random(profile + "fast")
    done = 0
    for g in _positions(profile, 20, rng):
        if g.phase.name != "PLAY":
            continue
        seat = g.to_act
        obs = g.observation(seat)
        f = FastHand.from_observation(obs, list(g.hands))
        ref = FastHand.from_game(g)
        assert all(getattr(f, k) == getattr(ref, k) for k in FAST_FIELDS)
        # random playout: the same choices through both paths
        checked = state_from_observation(obs, list(g.hands))
        fast = f.copy()
        choice_rng = random.Random(11)
        hand = len(checked.logs) - 1
        while checked.logs[hand].result is None:
            legal = checked.legal_actions()
            assert sum(1 << a for a in legal) == fast.playable()
            action = legal[choice_rng.randrange(len(legal))]
            checked.apply(action)
            fast.play(int(action))
        assert fast.done
        assert fast.result() == checked.logs[hand].result
        # the rollout policies run the fast path to the end
        targets, nil = seat_targets(f.bids, bool(obs["partnership"]))
        g1 = f.copy()
        greedy_rollout(g1, targets, nil, bool(obs["partnership"]))
        g2 = f.copy()
        random_rollout(g2, random.Random(3))
        assert g1.done and g2.done
        assert sum(g1.tricks_won) == sum(g2.tricks_won) == sum(ref.tricks_won) + ref.tricks_left
        done += 1
    assert done >= 3
