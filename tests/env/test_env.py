"""The PettingZoo and Gymnasium environments."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tapete
from tapete.cards import Card

pytest.importorskip("pettingzoo", reason="the env extra is not installed (pip install -e '.[env]')")

from pettingzoo.test import api_test, seed_test

from tapete.env import aec_env, single_agent
from tapete.env.encoding import RunFastEncoder, encoder_for, runfast_catalogue
from tapete.records import replay

PZ_WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.filterwarnings(*PZ_WARNINGS)
@pytest.mark.parametrize("profile", tapete.profile_names())
def test_pettingzoo_api_and_seed(profile: str) -> None:
    api_test(aec_env(profile, max_hands=2), num_cycles=300)
    seed_test(lambda: aec_env(profile, max_hands=2), num_cycles=200)


@pytest.mark.parametrize("profile", ["spades", "cutthroat", "cutthroat-official", "runfast"])
def test_rewards_are_the_hand_score_changes(profile: str) -> None:
    env = aec_env(profile, max_hands=1)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    hand = env.game.replay_summary()["hands"][0]
    change = hand["score_change"]
    for agent, total in totals.items():
        seat = int(agent.split("_")[1])
        side = seat % 2 if profile == "spades" else seat
        assert total == change[side]
    assert sum(change) == 0 or profile != "runfast"


def test_illegal_action_is_refused() -> None:
    env = aec_env("cutthroat")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def _swap_runfast(game: object, keep: int, rng: random.Random) -> object | None:
    """The same Run Fast game but for two same-rank unplayed cards swapped between the other seats."""
    rec = game.record()  # type: ignore[attr-defined]
    a, b = [s for s in range(3) if s != keep]
    hands = game.hands  # type: ignore[attr-defined]
    first = int(Card.parse(game.rules.first_lead))  # type: ignore[attr-defined]
    for x in rng.sample(range(52), 52):
        if not (hands[a] >> x) & 1 or x == first:
            continue
        for y in range(x % 13, 52, 13):
            if (hands[b] >> y) & 1 and y != first:
                swap = {str(Card(x)): str(Card(y)), str(Card(y)): str(Card(x))}
                rec["hands"][0]["cards"] = [[swap.get(c, c) for c in cards] for cards in rec["hands"][0]["cards"]]
                result = replay(rec)
                assert result.exit_status == 0, result.report["error"]
                return result.game
    return None


def _swap_spades(game: object, keep: int, rng: random.Random) -> object | None:
    from tests.test_conformance import swap_hidden_same_suit

    return swap_hidden_same_suit(game, keep, rng)


@pytest.mark.parametrize("profile", ["spades", "cutthroat", "cutthroat-official", "cutthroat-5p-2jokers", "runfast"])
def test_hidden_cards_of_others_do_not_change_the_encoding(profile: str) -> None:
    rules = tapete.load_profile(profile)
    encoder = encoder_for(rules)
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = tapete.new_game(profile, seed=seed)
        for _ in range(rng.randrange(1, 40)):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        keep = rng.randrange(rules.players)
        swap = _swap_runfast if profile == "runfast" else _swap_spades
        other = swap(game, keep, rng)
        if other is None:
            continue
        mine = encoder.encode(game.observation(keep))
        assert np.array_equal(mine, encoder.encode(other.observation(keep)))  # type: ignore[attr-defined]
        changed = [s for s in range(rules.players) if s != keep]
        assert any(
            not np.array_equal(encoder.encode(game.observation(s)), encoder.encode(other.observation(s)))  # type: ignore[attr-defined]
            for s in changed
        )
        checked += 1
    assert checked >= 5


def test_runfast_catalogue_covers_every_legal_play() -> None:
    enc = RunFastEncoder()
    assert len(set(runfast_catalogue())) == len(runfast_catalogue())
    for seed in range(30):
        game = tapete.new_game("runfast", seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            obs = game.observation(game.to_act)
            legal = enc.legal(obs)
            assert legal and all(0 <= i < enc.num_actions for i in legal)
            game.apply(rng.choice(game.legal_actions()))


def test_single_agent_env_passes_check_env() -> None:
    pytest.importorskip("tapete.bots", reason="the bots are not available", exc_type=ImportError)
    from gymnasium.utils.env_checker import check_env

    env = single_agent("cutthroat", opponents="easy", seat=1, max_hands=1)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=5)
    total = 0.0
    rng = np.random.default_rng(0)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    assert total == env.game.logs[0].result.change[1]
