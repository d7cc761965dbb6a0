"""Decision times of the Run Fast bots: p50 / p95 / max per level (hard: the search).

Plays ``--games`` seeded games (hard in every seat by default, each at its own seed) and
times every ``act`` call of the chosen level, forced moves included (they are part of
what a person waits for).

Run: ``python benchmarks/bots_runfast.py [--games N] [--level hard] [--samples S] [--candidates C]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import tapete
from tapete.bots import make_bot


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    ap.add_argument("--opponents", default="normal", help="level of the two other seats")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--candidates", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    params = {k: v for k, v in (("samples", args.samples), ("candidates", args.candidates)) if v is not None}
    times: list[float] = []
    choices: list[float] = []
    for i in range(args.games):
        seed = args.seed + i
        g = tapete.new_game("runfast", seed=seed)
        me = i % 3
        bots = [
            make_bot(args.level, seed=seed, **params) if s == me else make_bot(args.opponents, seed=seed + s)
            for s in range(3)
        ]
        while not g.is_over():
            seat = g.to_act
            obs = g.observation(seat)
            t = time.perf_counter()
            action = bots[seat].act(obs)
            dt = time.perf_counter() - t
            if seat == me:
                times.append(dt)
                if len(obs["legal_actions"]) > 1:
                    choices.append(dt)
            g.apply(action)
    print(f"runfast {args.level} decisions: {len(times)} ({len(choices)} with a choice), params {params or 'default'}")
    for name, vals in (("all", times), ("with a choice", choices)):
        if vals:
            print(
                f"  {name:<14} p50 {percentile(vals, 0.5) * 1000:8.1f} ms   p95 {percentile(vals, 0.95) * 1000:8.1f} ms"
                f"   max {max(vals) * 1000:8.1f} ms   mean {statistics.fmean(vals) * 1000:8.1f} ms"
            )


if __name__ == "__main__":
    main()
