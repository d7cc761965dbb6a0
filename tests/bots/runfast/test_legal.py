"""Every level answers only with legal actions, over thousands of random positions."""

from __future__ import annotations

import random

import pytest

import tapete
from tapete.bots import make_bot
from tests.bots.runfast.helpers import random_position

TINY = {"samples": 2, "candidates": 2}


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_play_only_legal_actions_in_whole_games(level: str) -> None:
    positions = 0
    for seed in range(60):
        g = tapete.new_game("runfast", seed=seed)
        rng = random.Random(seed)
        bot = make_bot(level, seed=seed)
        while not g.is_over():
            seat = g.to_act
            obs = g.observation(seat)
            if rng.random() < 0.5:
                action = bot.act(obs)
                assert action in obs["legal_actions"]
                positions += 1
            else:
                action = rng.choice(obs["legal_actions"])
            g.apply(action)
    assert positions > 1000


def test_every_level_plays_legal_actions_at_random_positions() -> None:
    bots = {
        lv: make_bot(lv, seed=3, **(TINY if lv in ("hard", "ismcts") else {}))
        for lv in ("easy", "normal", "hard", "ismcts")
    }
    checked = 0
    for seed in range(300):
        g = random_position(seed)
        obs = g.observation(g.to_act)
        for lv, bot in bots.items():
            if lv in ("hard", "ismcts") and seed % 3:
                continue
            action = bot.act(obs)
            assert action in obs["legal_actions"], (lv, seed)
            checked += 1
    assert checked >= 700


def test_hard_finishes_games_with_a_tiny_budget() -> None:
    for seed in range(3):
        g = tapete.new_game("runfast", seed=seed)
        bots = [make_bot("hard", seed=s, **TINY) for s in range(3)]
        while not g.is_over():
            seat = g.to_act
            obs = g.observation(seat)
            action = bots[seat].act(obs)
            assert action in obs["legal_actions"]
            g.apply(action)
        assert sum(g.scores()) == 0


def test_arena_plays_run_fast() -> None:
    from tapete.arena import run_arena

    summary = run_arena("runfast", ["normal", "easy", "easy"], 3, seed=2, jobs=1, progress=False)
    assert summary["deals"] == 3
    assert set(summary["levels"]) == {"normal", "easy"}
