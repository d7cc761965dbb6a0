"""Random complete hands of partnership Spades per second: tapete vs OpenSpiel.

Both engines are driven from Python the same way — ask for the legal actions, pick one
at random, apply it — until the hand is scored, dealing included. tapete goes through
its public, checked API (``legal_actions()`` + ``apply()``) and plays whole games,
counting hands; OpenSpiel's ``spades`` resolves its 52 dealing chance nodes by random
choice. The two alternate in short rounds so that a busy machine slows both alike.

The engine is timed as installed: ``pip install .`` compiles its hot modules with mypyc,
an editable install (``pip install -e .``) runs them as Python; the script says which.

Run: ``python benchmarks/spades_bench.py [--seconds S] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import sysconfig
import time
from collections.abc import Callable


class TapeteRunner:
    def __init__(self) -> None:
        import tapete

        self.tapete = tapete
        self.rng = random.Random(1)
        self.seed = 0
        self.game = tapete.new_game("spades", seed=self.seed)

    def hands(self, seconds: float) -> int:
        rng, n = self.rng, 0
        end = time.perf_counter() + seconds
        game = self.game
        while time.perf_counter() < end:
            if game.is_over():
                self.seed += 1
                game = self.game = self.tapete.new_game("spades", seed=self.seed)
            current = game.hand_number
            while game.hand_number == current and not game.is_over():
                game.apply(rng.choice(game.legal_actions()))
            n += 1
        return n


class OpenSpielRunner:
    def __init__(self) -> None:
        import pyspiel

        self.game = pyspiel.load_game("spades")
        self.rng = random.Random(1)

    def hands(self, seconds: float) -> int:
        rng, n = self.rng, 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = self.game.new_initial_state()
            plays = 0
            while not state.is_terminal() and plays < 56:  # 4 bids + 52 cards after the deal
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    plays += 1
            n += 1
        return n


def engine_build() -> str:
    """``compiled`` when the installed Spades engine is the mypyc build, else ``pure Python``."""
    from tapete.engine.spades import game

    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return "compiled (mypyc)" if str(game.__file__).endswith(suffix) else "pure Python"


def measure(runners: dict[str, Callable[[float], int]], seconds: float, rounds: int) -> dict[str, float]:
    totals = dict.fromkeys(runners, 0)
    slice_ = seconds / rounds
    for _ in range(rounds):
        for name, run in runners.items():
            totals[name] += run(slice_)
    return {name: totals[name] / seconds for name in runners}


def main() -> None:
    parser = argparse.ArgumentParser(description="Random complete Spades hands per second, tapete vs OpenSpiel.")
    parser.add_argument("--seconds", type=float, default=6.0, help="time per engine (default 6)")
    parser.add_argument("--rounds", type=int, default=12, help="alternating rounds (default 12)")
    args = parser.parse_args()
    runners: dict[str, Callable[[float], int]] = {"tapete": TapeteRunner().hands}
    try:
        runners["OpenSpiel"] = OpenSpielRunner().hands
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): no peer, no ratio")
    print(f"tapete engine: {engine_build()}")
    rates = measure(runners, args.seconds, args.rounds)
    print(f"{'engine':<10} {'hands/s':>10}")
    for name, rate in rates.items():
        print(f"{name:<10} {rate:10.0f}")
    if "OpenSpiel" in rates:
        print(f"ratio tapete/OpenSpiel = {rates['tapete'] / rates['OpenSpiel']:.2f}")


if __name__ == "__main__":
    main()
