"""Where the double-dummy solver spends its time: node counts per solve and a profile.

Solves positions of ``--cards`` cards a hand (spades broken, 4 players) and prints the
nodes, the transposition-table size and the time of each; with ``--profile`` runs them
under pyinstrument (``pip install pyinstrument``; profile the pure-Python solver, as a
compiled one shows as one opaque call)::

    python benchmarks/dds_profile.py --cards 8 --deals 20 --profile
    PYTHONPATH=/tmp/x/src python benchmarks/dds_profile.py --cards 13 --deals 5   # compiled
"""

from __future__ import annotations

import argparse
import random
import time

from tapete.engine.spades.dds import Solver, position


def run(cards: int, deals: int, seed: int, values: bool = False) -> None:
    rng = random.Random(seed)
    total = 0
    start = time.perf_counter()
    for i in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[cards * s : cards * s + cards]) for s in range(4)]
        b = position(hands, turn=i % 4, tricks_left=cards, spades_broken=True)
        solver = Solver(4, 0b0101 << (i % 2))
        t = time.perf_counter()
        v = max(solver.card_values(b).values()) if values else solver.solve(b)
        dt = time.perf_counter() - t
        total += solver.nodes
        print(f"deal {i}: {v} tricks  nodes {solver.nodes:>10}  table {solver.entries:>8}  {1000 * dt:9.1f} ms")
    print(f"total: nodes {total}  {time.perf_counter() - start:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=8)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="run under pyinstrument")
    ap.add_argument("--values", action="store_true", help="card_values (every lead's value), not solve")
    args = ap.parse_args()
    if args.profile:
        from pyinstrument import Profiler

        prof = Profiler()
        prof.start()
        run(args.cards, args.deals, args.seed, args.values)
        prof.stop()
        print(prof.output_text(unicode=False, color=False, flat=True))
    else:
        run(args.cards, args.deals, args.seed, args.values)


if __name__ == "__main__":
    main()
