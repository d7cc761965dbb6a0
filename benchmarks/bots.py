"""Bot benchmarks: decision time p50/p95 per level per profile, and rollout speed.

Run: ``python benchmarks/bots.py [--hands N] [--profiles a,b] [--levels easy,hard]
[--bot-params expert.maxn_cards=15]`` (``--bot-params`` as ``tapete arena`` takes it).
Goals: hard p95 ≤ 1 s per decision; fast-path rollouts ≥ 10,000 hands/s. The checked
engine (``SpadesGame.clone`` + ``apply``) is printed as the peer of the fast path.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import tapete
from tapete.arena import parse_bot_params
from tapete.bots import make_bot
from tapete.bots.spades.rollout import greedy_rollout, random_rollout, seat_targets
from tapete.engine.spades.determinize import FastHand


def _quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def decision_times(
    profile: str,
    level: str,
    hands: int,
    clock: Callable[[], float] = time.perf_counter,
    params: dict[str, Any] | None = None,
) -> list[float]:
    """Seconds per decision of ``level`` in every seat over the first hand of ``hands`` deals
    (``clock``: wall time, or ``time.process_time`` for CPU time on a busy machine;
    ``params``: the level's bot parameters)."""
    times: list[float] = []
    for seed in range(hands):
        g = tapete.new_game(profile, seed=seed)
        bots = [make_bot(level, seed=s, **(params or {})) for s in range(g.num_players)]
        while g.logs[0].result is None:
            seat = g.to_act
            obs = g.observation(seat)
            t0 = clock()
            action = bots[seat].act(obs)
            times.append(clock() - t0)
            g.apply(action)
    return times


def rollout_speed(profile: str, seconds: float = 1.5) -> tuple[float, float, float]:
    """Whole-hand rollouts per second from the first lead: greedy fast, random fast, checked engine."""
    g = tapete.new_game(profile, seed=1)
    driver = [make_bot("normal", seed=s) for s in range(g.num_players)]
    while g.phase.name == "BID":
        g.apply(driver[g.to_act].act(g.observation(g.to_act)))
    template = FastHand.from_game(g)
    partnership = g.rules.partnership
    targets, nil = seat_targets(template.bids, partnership)
    rng = random.Random(1)

    def rate(step: object) -> float:
        count = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for _ in range(50):
                step()  # type: ignore[operator]
            count += 50
        return count / (time.perf_counter() - t0)

    def greedy() -> None:
        greedy_rollout(template.copy(), targets, nil, partnership)

    def rand() -> None:
        random_rollout(template.copy(), rng)

    def checked() -> None:
        c = g.clone()
        hand = len(c.logs) - 1
        while c.logs[hand].result is None:
            legal = c.legal_actions()
            c.apply(legal[rng.randrange(len(legal))])

    return rate(greedy), rate(rand), rate(checked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2, help="deals per profile and level (default 2)")
    parser.add_argument("--profiles", help="comma-separated profiles (default: every Spades-family profile)")
    parser.add_argument("--levels", default="easy,normal,hard,ismcts")
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="time decisions by the wall clock or by CPU time"
    )
    parser.add_argument("--bot-params", help="per-level parameters, e.g. 'expert.expert_nodes=800000'")
    args = parser.parse_args()
    params = parse_bot_params(args.bot_params)
    profiles = (
        args.profiles.split(",")
        if args.profiles
        else [p for p in tapete.profile_names() if tapete.profile_info(p).family == "spades"]
    )
    levels = args.levels.split(",")
    print(f"{'profile':<22} {'level':<7} {'decisions':>9} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}")
    for profile in profiles:
        for level in levels:
            clock = time.process_time if args.clock == "cpu" else time.perf_counter
            t = decision_times(profile, level, args.hands, clock, params.get(level))
            print(
                f"{profile:<22} {level:<7} {len(t):>9} {1000 * statistics.median(t):>9.2f} "
                f"{1000 * _quantile(t, 0.95):>9.2f} {1000 * max(t):>9.2f}"
            )
    print()
    print(f"{'profile':<22} {'greedy fast':>12} {'random fast':>12} {'checked':>10} {'fast/checked':>13}  (hands/s)")
    for profile in profiles:
        greedy, rand, checked = rollout_speed(profile)
        print(f"{profile:<22} {greedy:>12.0f} {rand:>12.0f} {checked:>10.0f} {rand / checked:>12.1f}x")


if __name__ == "__main__":
    main()
