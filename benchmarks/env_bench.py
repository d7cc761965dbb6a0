"""Environment steps per second with random masked actions: tapete vs RLCard and OpenSpiel.

Every step produces what an agent needs — an observation array and the legal-action
mask — and applies a random legal action:
- tapete: ``tapete.env.aec_env(profile)`` (PettingZoo AEC), ``observe`` + ``step``;
- RLCard's ``doudizhu`` env (``rlcard.make``), ``step`` with a random legal action;
- OpenSpiel ``spades`` driven from Python: ``observation_tensor`` + ``legal_actions_mask``
  + ``apply_action`` (chance nodes resolved by random choice, not counted as steps).
The engines alternate in short rounds so machine load slows all alike.

Run: ``python benchmarks/env_bench.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np


def tapete_runner(profile: str) -> Callable[[float], int]:
    from tapete.env import aec_env

    env = aec_env(profile)
    rng = np.random.default_rng(0)
    state = {"seed": 0}
    env.reset(seed=0)

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                state["seed"] += 1
                env.reset(seed=state["seed"])
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
        return steps

    return run


def rlcard_runner() -> Callable[[float], int]:
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)
    box = {"state": env.reset()[0]}

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if env.is_over():
                box["state"] = env.reset()[0]
            legal = list(box["state"]["legal_actions"].keys())
            box["state"], _ = env.step(rng.choice(legal))
            steps += 1
        return steps

    return run


def openspiel_runner() -> Callable[[float], int]:
    import pyspiel

    game = pyspiel.load_game("spades")
    rng = random.Random(0)
    box = {"state": game.new_initial_state(), "plays": 0}

    def run(seconds: float) -> int:
        steps = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = box["state"]
            if state.is_terminal() or box["plays"] >= 56:  # one hand: 4 bids + 52 cards
                box["state"] = state = game.new_initial_state()
                box["plays"] = 0
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            np.asarray(state.observation_tensor(player), dtype=np.float32)
            mask = np.asarray(state.legal_actions_mask(player), dtype=np.int8)
            state.apply_action(int(rng.choice(np.flatnonzero(mask))))
            box["plays"] += 1
            steps += 1
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description="Environment steps per second, tapete vs peers.")
    parser.add_argument("--seconds", type=float, default=6.0, help="time per environment (default 6)")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    runners: dict[str, Callable[[float], int]] = {
        "tapete spades (AEC)": tapete_runner("spades"),
        "tapete runfast (AEC)": tapete_runner("runfast"),
    }
    for name, make in (("RLCard doudizhu", rlcard_runner), ("OpenSpiel spades", openspiel_runner)):
        try:
            runners[name] = make()
        except ImportError:
            print(f"{name}: not installed, skipped")
    totals = dict.fromkeys(runners, 0)
    for _ in range(args.rounds):
        for name, run in runners.items():
            totals[name] += run(args.seconds / args.rounds)
    rates = {name: totals[name] / args.seconds for name in runners}
    print(f"{'environment':<22} {'steps/s':>9}")
    for name, rate in rates.items():
        print(f"{name:<22} {rate:9.0f}")
    for ours in ("tapete spades (AEC)", "tapete runfast (AEC)"):
        for peer in ("RLCard doudizhu", "OpenSpiel spades"):
            if peer in rates:
                print(f"ratio {ours} / {peer} = {rates[ours] / rates[peer]:.2f}")


if __name__ == "__main__":
    main()
