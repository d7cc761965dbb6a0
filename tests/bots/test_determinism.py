"""The same seed and observation give the same decision; bots keep nothing between tables."""

from __future__ import annotations

import random

import tapete
from tapete.bots import make_bot
from tests.helpers import sensible_random_action


def test_same_seed_same_observation_same_decision() -> None:
    rng = random.Random(2)
    for profile in ("spades", "cutthroat-official", "cutthroat-5p"):
        g = tapete.new_game(profile, seed=9)
        for _ in range(30):
            g.apply(sensible_random_action(g, rng))
        obs = g.observation(g.to_act)
        for level, params in (("hard", {"samples": 8, "rollouts": 60}), ("ismcts", {"simulations": 60})):
            first = make_bot(level, seed=5, **params)
            answer = first.act(obs)
            assert first.act(obs) == answer  # asking twice does not change it
            assert make_bot(level, seed=5, **params).act(obs) == answer


def test_a_whole_hand_between_hard_bots_replays_identically() -> None:
    def play() -> list[object]:
        g = tapete.new_game("cutthroat", seed=3)
        bots = [make_bot("hard", seed=s, samples=4, rollouts=20) for s in range(3)]
        while g.logs[0].result is None:
            g.apply(bots[g.to_act].act(g.observation(g.to_act)))
        return g.record()["hands"][0]["actions"]

    assert play() == play()
