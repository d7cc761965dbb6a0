"""Random complete games of Run Fast per second, tapete vs OpenSpiel and RLCard Dou Dizhu.

Every engine is driven from Python the same way: ask for the legal actions, pick one at
random, apply it, until the game is over. tapete goes through its public, checked API
(``tapete.new_game("runfast", seed=i)``, ``legal_actions``, ``apply``), seeded deal
included. The peers are the closest shedding games they ship: OpenSpiel's
``dou_dizhu`` (C++, driven from Python; its dealing and bidding chance nodes resolved
by a random choice of ``chance_outcomes()``) and RLCard's ``DoudizhuGame`` raw game loop
(``init_game`` / legal actions / ``step``). Peers that are not installed are skipped.

Run: ``python benchmarks/runfast_bench.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import tapete

Result = tuple[int, float, int]
"""Games played, seconds spent, actions applied."""


def tapete_games(seconds: float, first_seed: int = 0) -> Result:
    """Complete random games of ``runfast`` through the public API."""
    rng = random.Random(first_seed)
    choice = rng.choice
    games = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = tapete.new_game("runfast", seed=first_seed + games)
        while not game.is_over():
            game.apply(choice(game.legal_actions()))
            actions += 1
        games += 1
    return games, time.perf_counter() - start, actions


def openspiel_games(seconds: float, first_seed: int = 0) -> Result | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(first_seed)
    games = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        games += 1
    return games, time.perf_counter() - start, actions


def rlcard_games(seconds: float, first_seed: int = 0) -> Result | None:
    try:
        from rlcard.games.doudizhu.game import DoudizhuGame  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = DoudizhuGame()
    game.np_random.seed(first_seed)
    rng = random.Random(first_seed)
    legal: Callable[[dict[str, object]], list[str]]
    if hasattr(game, "get_legal_actions"):

        def legal(state: dict[str, object]) -> list[str]:
            return list(game.get_legal_actions())
    else:  # rlcard ≥ 1.0 puts the legal actions in the state it returns

        def legal(state: dict[str, object]) -> list[str]:
            return list(state["actions"])  # type: ignore[call-overload]

    games = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = game.init_game()
        while not game.is_over():
            state, _ = game.step(rng.choice(legal(state)))
            actions += 1
        games += 1
    return games, time.perf_counter() - start, actions


ENGINES: tuple[tuple[str, Callable[[float, int], Result | None], str], ...] = (
    ("tapete runfast", tapete_games, "public checked API"),
    ("OpenSpiel dou_dizhu", openspiel_games, "C++ driven from Python"),
    ("RLCard doudizhu", rlcard_games, "Python raw game loop"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine (default 5)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="the engines take turns in this many slices, so that a change of machine load "
        "affects them alike (default 5)",
    )
    args = parser.parse_args()
    totals: dict[str, list[float]] = {}
    missing: set[str] = set()
    for r in range(args.rounds):
        for name, run, _ in ENGINES:
            if name in missing:
                continue
            result = run(args.seconds / args.rounds, r * 1_000_003)
            if result is None:
                missing.add(name)
                continue
            t = totals.setdefault(name, [0, 0.0, 0])
            t[0] += result[0]
            t[1] += result[1]
            t[2] += result[2]
    ours = totals["tapete runfast"][0] / totals["tapete runfast"][1]
    for name, _, how in ENGINES:
        if name in missing:
            print(f"{name:20} not installed — no ratio")
            continue
        games, seconds, actions = totals[name]
        rate = games / seconds
        print(
            f"{name:20} {rate:9.0f} games/s  ({games:.0f} games in {seconds:.1f} s, "
            f"{actions / games:.1f} actions/game, {how})"
        )
    for name, _, _ in ENGINES[1:]:
        if name not in missing:
            print(f"ratio tapete/{name.split()[0]} = {ours / (totals[name][0] / totals[name][1]):.2f}")


if __name__ == "__main__":
    main()
