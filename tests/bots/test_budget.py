"""A search level given a time budget answers within it, with a legal action; a budget it does not reach changes nothing."""

from __future__ import annotations

import random
import time

import pytest

import tapete
from tapete.bots import make_bot
from tapete.bots.budget import Deadline, time_budget


def position(profile: str, seed: int, steps: int) -> dict[str, object]:
    g = tapete.new_game(profile, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        g.apply(rng.choice(g.legal_actions()))
    seat = g.to_act
    assert seat is not None
    obs: dict[str, object] = g.observation(seat)
    return obs


# (profile, moves into the game, parameters that would take many seconds without a budget)
HUGE = [
    ("cutthroat", 10, {"rollouts": 200_000, "samples": 64}),  # play: tree search
    ("spades", 0, {"bid_samples": 3_000}),  # bidding search (~2.5 s without a budget)
    ("spades", 9, {"search": "pimc", "rollouts": 400_000, "samples": 64}),
    ("runfast", 2, {"samples": 5_000, "steps": 10**9}),
]


@pytest.mark.parametrize(("profile", "steps", "params"), HUGE)
def test_a_spent_budget_stops_the_search_with_a_legal_action(
    profile: str, steps: int, params: dict[str, object]
) -> None:
    obs = position(profile, 5, steps)
    bot = make_bot("hard", seed=3, time_budget=0.2, **params)
    start = time.monotonic()
    action = bot.act(obs)
    took = time.monotonic() - start
    assert action in obs["legal_actions"]  # type: ignore[operator]
    assert took < 1.5, took


@pytest.mark.parametrize("profile", ["cutthroat", "spades", "runfast"])
def test_an_unreached_budget_changes_nothing(profile: str) -> None:
    for steps in (0, 7, 14):
        obs = position(profile, 11, steps)
        plain = make_bot("hard", seed=4).act(obs)
        budgeted = make_bot("hard", seed=4, time_budget=30.0).act(obs)
        assert plain == budgeted


def test_deadline_and_parameter() -> None:
    assert not Deadline.after(None).stop(8)
    assert not Deadline.after(0.0).stop(0)  # never before the first iteration
    assert Deadline.after(0.0).stop(8)
    assert time_budget(None) is None and time_budget("0.5") == 0.5
    with pytest.raises(ValueError):
        time_budget(0)


def test_the_expert_level_keeps_its_budget_too() -> None:
    obs = position("spades", 5, 32)  # four bids and seven tricks: six cards a hand
    assert max(obs["hand_sizes"]) <= 7  # type: ignore[call-overload]
    bot = make_bot("expert", seed=3, time_budget=0.2, expert_samples=5_000, expert_nodes=10**9)
    start = time.monotonic()
    action = bot.act(obs)
    assert action in obs["legal_actions"]  # type: ignore[operator]
    assert time.monotonic() - start < 1.5
