"""A bot's decision depends on its observation only: other seats' hidden cards and the
bot's history do not change it; the same seed gives the same decision."""

from __future__ import annotations

import random

import pytest

from tapete.bots import make_bot
from tests.bots.runfast.helpers import random_position
from tests.env.test_env import _swap_runfast

PARAMS = {"easy": {}, "normal": {}, "hard": {"samples": 3, "candidates": 3}}


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_hidden_cards_of_other_seats_do_not_change_decisions(level: str) -> None:
    checked = 0
    for seed in range(40):
        game = random_position(seed, 60)
        keep = game.to_act
        assert keep is not None
        other = _swap_runfast(game, keep, random.Random(seed))
        if other is None:
            continue
        assert other.hands != game.hands  # type: ignore[attr-defined]
        a = make_bot(level, seed=11, **PARAMS[level]).act(game.observation(keep))
        b = make_bot(level, seed=11, **PARAMS[level]).act(other.observation(keep))  # type: ignore[attr-defined]
        assert a == b
        checked += 1
    assert checked >= 20


def test_same_seed_same_decision_and_fresh_bots_agree() -> None:
    for seed in range(15):
        game = random_position(seed)
        obs = game.observation(game.to_act)
        bot = make_bot("hard", seed=5, samples=4, candidates=3)
        first = bot.act(obs)
        assert bot.act(obs) == first
        assert make_bot("hard", seed=5, samples=4, candidates=3).act(obs) == first
