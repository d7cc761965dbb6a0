"""Where the double-dummy solver spends its time: node counts per solve and a profile.

Solves positions of ``--cards`` cards a hand (spades broken, 4 players) and prints the
nodes, the transposition-table size and the time of each; with ``--profile`` runs them
under pyinstrument (``pip install pyinstrument``; profile the pure-Python solver, as a
compiled one shows as one opaque call)::

    python benchmarks/dds_profile.py --cards 8 --deals 20 --profile
    PYTHONPATH=/tmp/x/src python benchmarks/dds_profile.py --cards 13 --deals 5   # compiled
    PYTHONPATH=/tmp/x/src python benchmarks/dds_profile.py --cards 13 --deals 10 --endplay
"""

from __future__ import annotations

import argparse
import random
import time

from dds_bench import endplay_solve  # this folder's: the script's own directory is on the path

from tapete.engine.spades.dds import Solver, position


def run(cards: int, deals: int, seed: int, values: bool = False, endplay: bool = False) -> None:
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
        line = (
            f"deal {i}: {v} tricks  nodes {solver.nodes:>10}  tricks played {solver.tricks_played:>9}"
            f"  table {solver.entries:>8}  {1000 * dt:9.1f} ms"
        )
        solved = endplay_solve(hands, i % 4, every_card=False) if endplay and not values else None
        if solved is not None:
            line += f"  endplay tricks played {solved[1]:>8}  ratio {solver.tricks_played / max(1, solved[1]):6.1f}"
        print(line)
    print(f"total: nodes {total}  {time.perf_counter() - start:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=8)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="run under pyinstrument")
    ap.add_argument("--values", action="store_true", help="card_values (every lead's value), not solve")
    ap.add_argument("--endplay", action="store_true", help="also endplay DDS's nodes for the same solve")
    args = ap.parse_args()
    if args.profile:
        from pyinstrument import Profiler

        prof = Profiler()
        prof.start()
        run(args.cards, args.deals, args.seed, args.values, args.endplay)
        prof.stop()
        print(prof.output_text(unicode=False, color=False, flat=True))
    else:
        run(args.cards, args.deals, args.seed, args.values, args.endplay)


if __name__ == "__main__":
    main()
