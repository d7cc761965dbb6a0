"""Speed of the max^n search (every seat for itself) against the trick solver on the same endings.

Positions: real deals of each individual profile at their first lead, every hand cut to
``k`` cards (``--cards``, a list), the seat on lead to answer for every legal card. The
max^n search (``MaxnSearch.card_values``) values each ending with the profile's scoring
as the expert level does (each seat's points less the mean of the others'); the trick
solver (``Solver.card_values``, the seat on lead against all the others: the paranoid
count) answers the same endings as the peer. Each line gives p50 and p95 time and nodes
per position and the ratio of the two searches' p50 times. Run it on the compiled engine
for the shipped speed::

    python setup.py build_ext --inplace     # in a copy of the sources
    PYTHONPATH=/that/copy/src python benchmarks/maxn_bench.py --deals 20 --clock cpu
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

import tapete
from tapete.bots.spades.search import seat_utilities
from tapete.engine.spades.dds import Board, Solver
from tapete.engine.spades.determinize import FastHand
from tapete.engine.spades.game import SpadesGame
from tapete.engine.spades.maxn import MaxnSearch, Worth
from tapete.engine.spades.scoring import score_hand


def ending(profile: str, seed: int, cards: int) -> tuple[FastHand, SpadesGame]:
    """A deal of ``profile`` after random bids, at its first lead, each hand cut to ``cards``."""
    rng = random.Random(seed)
    g = tapete.new_game(profile, seed=seed)
    while g.phase.name != "PLAY":
        g.apply(rng.choice(g.legal_actions()))
    assert isinstance(g, SpadesGame)
    f = FastHand.from_game(g)
    for seat in range(f.num_players):
        hand = [c for c in range(64) if (f.hands[seat] >> c) & 1]
        keep = rng.sample(hand, cards - (1 if seat == f.sitting_out else 0))
        if seat == f.turn and f.must_lead_2c and 0 not in keep:
            keep[0] = 0
        f.hands[seat] = sum(1 << c for c in keep)
    f.tricks_left = cards
    return f, g


def scoring_worth(f: FastHand, sides: int) -> Worth:
    """Each seat's points less the mean of the others' (in hundreds), by the profile's scoring."""
    side_of = list(range(f.num_players))

    def worth(tricks: Sequence[int], jacks: Sequence[tuple[str, int]]) -> list[float]:
        change = score_hand(f.rules, f.bids, list(tricks), f.bags, list(jacks)).change
        return seat_utilities(change, side_of, sides)

    return worth


def percentiles(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", default="cutthroat,cutthroat-official,cutthroat-5p")
    ap.add_argument("--cards", default="3,4,5")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    clock: Callable[[], float] = time.process_time if args.clock == "cpu" else time.perf_counter
    print(
        f"{'profile':<20} {'cards':>5} {'maxn p50/p95 ms':>16} {'nodes p50/p95':>16} {'paranoid p50/p95 ms':>20} {'ratio p50':>9}"
    )
    for profile in args.profiles.split(","):
        for cards in (int(k) for k in args.cards.split(",")):
            mt: list[float] = []
            mn: list[float] = []
            pt: list[float] = []
            for seed in range(args.deals):
                f, g = ending(profile, seed, cards)
                search = MaxnSearch(f.num_players, scoring_worth(f, g.rules.sides))
                t = clock()
                search.card_values(f)
                mt.append(clock() - t)
                mn.append(search.nodes)
                board = Board(f.num_players)
                board.copy_trick_state(f, list(f.trick), [])
                solver = Solver(f.num_players, 1 << f.turn)
                t = clock()
                solver.card_values(board)
                pt.append(clock() - t)
            m50, m95 = percentiles(mt)
            n50, n95 = percentiles(mn)
            p50, p95 = percentiles(pt)
            print(
                f"{profile:<20} {cards:>5} {m50 * 1e3:>7.1f} / {m95 * 1e3:<7.1f}"
                f" {n50:>7.0f} / {n95:<7.0f} {p50 * 1e3:>9.1f} / {p95 * 1e3:<8.1f} {m50 / max(p50, 1e-9):>9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
