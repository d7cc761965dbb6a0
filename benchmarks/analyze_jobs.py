"""Wall time of ``tapete analyze`` on a whole game, in one process against ``--jobs`` processes.

A game of ``--profile`` is played to its end (or ``--hands`` hands) with seeded random
legal actions (low bids, so that it lasts), then analysed with ``analyze(record,
nodes=…)`` in one process and in ``--jobs`` processes, alternating, ``--rounds`` times
each. Printed: each run's wall time, the medians and their ratio, and whether every run
gave the same report (it must: the answers depend on node budgets, not on time). Run it
on the compiled engine for the shipped speed::

    PYTHONPATH=/tmp/build/src python benchmarks/analyze_jobs.py --hands 8 --nodes 400000 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import tapete
from tapete.analysis import analyze

MAX_HANDS = 40
MAX_ROUNDS = 5


def game_record(profile: str, seed: int, hands: int) -> dict[str, Any]:
    """A record of up to ``hands`` hands of random legal play (bids lean low)."""
    rng = random.Random(seed)
    game: Any = tapete.new_game(profile, seed=seed)
    while not game.is_over() and game.hand_number < hands:
        legal = game.legal_actions()
        if game.phase.name == "BID":
            low = [a for a in legal if a.is_bid and isinstance(a.bid, int) and 1 <= a.bid <= 3]
            if low and rng.random() < 0.8:
                legal = low
        game.apply(rng.choice(legal))
    record: dict[str, Any] = game.record()
    return record


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--profile", default="spades")
    p.add_argument("--hands", type=int, default=8)
    p.add_argument("--nodes", type=int, default=400_000, help="node budget of each answer (tapete analyze's default)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    record = game_record(args.profile, args.seed, min(args.hands, MAX_HANDS))
    import tapete.engine.spades.dds as dds

    print(f"{args.profile}: {len(record['hands'])} hands, solver from {dds.__file__}", flush=True)
    times: dict[int, list[float]] = {1: [], args.jobs: []}
    reports: list[Any] = []
    for r in range(min(args.rounds, MAX_ROUNDS)):
        for jobs in (1, args.jobs):
            start = time.perf_counter()
            reports.append(analyze(record, nodes=args.nodes, jobs=jobs))
            took = time.perf_counter() - start
            times[jobs].append(took)
            print(f"round {r + 1}, jobs {jobs}: {took:.1f} s", flush=True)
    one, many = statistics.median(times[1]), statistics.median(times[args.jobs])
    same = all(rep == reports[0] for rep in reports)
    print(f"median: 1 process {one:.1f} s, {args.jobs} processes {many:.1f} s, {one / many:.2f}x; same reports: {same}")


if __name__ == "__main__":
    main()
