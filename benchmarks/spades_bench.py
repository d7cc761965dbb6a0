"""Random complete hands of partnership Spades per second, tapete vs OpenSpiel.

Both engines are driven from Python the same way: ask for the legal actions, pick one
at random, apply it, until the hand is scored. tapete plays whole games, counting
hands (each hand dealt once); tapete goes through its public, checked
API (``legal_actions`` + ``apply``); OpenSpiel's ``spades`` resolves its 52 dealing
chance nodes the same way. Run: ``python benchmarks/spades_bench.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time

import tapete


def tapete_hands(seconds: float) -> tuple[int, float]:
    rng = random.Random(1)
    hands = 0
    seed = 0
    start = time.perf_counter()
    game = tapete.new_game("spades", seed=seed)
    while time.perf_counter() - start < seconds:
        if game.is_over():
            seed += 1
            game = tapete.new_game("spades", seed=seed)
        current = game.hand_number
        while game.hand_number == current and not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        hands += 1
    return hands, time.perf_counter() - start


def openspiel_hands(seconds: float) -> tuple[int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        plays = 0
        while not state.is_terminal() and plays < 56:  # 4 bids + 52 cards after the deal
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                plays += 1
        hands += 1
    return hands, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine (default 5)")
    args = parser.parse_args()
    n, dt = tapete_hands(args.seconds)
    ours = n / dt
    print(f"tapete spades    {ours:10.0f} hands/s  ({n} hands in {dt:.1f} s, public checked API)")
    peer = openspiel_hands(args.seconds)
    if peer is None:
        print("OpenSpiel        not installed (pip install open_spiel) — no ratio")
        return
    m, dt2 = peer
    theirs = m / dt2
    print(f"OpenSpiel spades {theirs:10.0f} hands/s  ({m} hands in {dt2:.1f} s, C++ driven from Python)")
    print(f"ratio tapete/OpenSpiel = {ours / theirs:.2f}")


if __name__ == "__main__":
    main()
