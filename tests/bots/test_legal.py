"""Bots only ever return legal actions, in every Spades-family profile."""

from __future__ import annotations

import random

import pytest

import tapete
from tapete.bots import make_bot
from tapete.bots.spades import SpadesBot
from tapete.bots.spades.view import read_view

SPADES_PROFILES = [p for p in tapete.profile_names() if tapete.profile_info(p).family == "spades"]
TINY = {"hard": {"samples": 3, "rollouts": 12, "bid_samples": 4}, "ismcts": {"simulations": 12}}


def _options(profile: str) -> dict[str, object]:
    opts: dict[str, object] = {"target": 150, "floor": -250}
    if tapete.load_profile(profile).tokens:
        opts["tokens"] = 2
    return opts


@pytest.mark.parametrize("profile", SPADES_PROFILES)
def test_every_level_answers_legally_in_random_positions(profile: str) -> None:
    rng = random.Random(profile)
    levels = ["easy", "normal", "hard", "ismcts"]
    bots = {lv: make_bot(lv, seed=1, **TINY.get(lv, {})) for lv in levels}
    positions = 0
    game_seed = 0
    while positions <= 1000 and game_seed < 30:
        game_seed += 1
        g = tapete.new_game(profile, seed=game_seed, options=_options(profile))
        seat_levels = [rng.choice(levels[:2]) for _ in range(g.num_players)]
        hands = 0
        while not g.is_over() and hands < 5:
            seat = g.to_act
            obs = g.observation(seat)
            legal = obs["legal_actions"]
            # the cheap levels everywhere, the search levels on a sample of positions
            asked = ["easy", "normal"] + (["hard", "ismcts"] if rng.random() < 0.15 else [])
            answers = {lv: bots[lv].act(obs) for lv in asked}
            for lv, action in answers.items():
                assert action in legal, (lv, action)
            # the choice itself is legal (not rescued by act()'s last-resort guard)
            view = read_view(obs)
            for lv in asked[:2]:
                assert SpadesBot(lv, 1).choose(view) in view.legal
            positions += 1
            before = len(g.logs)
            g.apply(answers[seat_levels[seat]])
            hands += len(g.logs) - before
    assert positions > 1000
