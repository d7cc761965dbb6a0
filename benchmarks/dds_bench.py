"""Speed of the double-dummy solver: p50 and p95 time per solve, endplay's DDS alongside.

Cases: full 13-card partnership deals at the first lead (``spades``: spades not broken,
and the same hands with spades broken as endplay solves them), positions with 8 cards
a hand (``--positions`` of them, so that the p95 is not simply the slowest of a few),
the 13-card and cutthroat deals again on ``--processes`` cores (``tapete.parallel_solve``; each solver's
processes started before the clock runs, its tables fresh; ``--processes 1``: not run),
and full 17-card cutthroat deals (one seat against the two others). With an open nil
the expert level asks ``ScoreSearch`` instead (the hand's worth, exact positions in its
table): ``--nil-positions`` endings of ``--nil-cards`` cards a hand, every card's worth,
and the trick solver's every card's tricks on the same endings. Run it on the
compiled engine to see the shipped speed, e.g. from a scratch build::

    python setup.py build_ext --inplace     # in a copy of the sources (as tests/test_compiled.py)
    PYTHONPATH=/that/copy/src python benchmarks/dds_bench.py --deals 20

Each line also gives the search's size (p50, p95), which does not depend on the
machine's load: the tricks played in the search (each trick completed once counted
once), which is what DDS reports as its nodes, and for this solver also its nodes (one
a card played). ``--clock cpu`` times solves in CPU time (endplay's too) on a busy machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import tapete
from tapete.engine.spades.dds import Solver, position
from tapete.engine.spades.game import SpadesGame
from tapete.engine.spades.score_search import ScoreSearch
from tapete.engine.spades.trick import TrickState
from tapete.parallel_solve import ParallelSolver

RANKS = "23456789TJQKA"


def at_first_lead(profile: str, seed: int) -> SpadesGame:
    """A game of ``profile`` after random bids, at its first lead."""
    rng = random.Random(seed)
    g = tapete.new_game(profile, seed=seed)
    while g.phase.name != "PLAY":
        g.apply(rng.choice(g.legal_actions()))
    assert isinstance(g, SpadesGame)
    return g


def team(g: SpadesGame, seat: int) -> int:
    rules = g.rules
    return sum(1 << s for s in range(rules.players) if rules.side_of(s) == rules.side_of(seat))


CLOCK: list[Callable[[], float]] = [time.perf_counter]
"""The clock solves are timed with (``--clock``)."""


def timed(fn: Callable[[], object]) -> float:
    t = CLOCK[0]()
    fn()
    return CLOCK[0]() - t


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def spread(values: list[int]) -> str:
    """p50 / p95 of counts."""
    return f"{statistics.median(values):,.0f} / {p95([float(n) for n in values]):,.0f}"


def report(name: str, times: list[float], tricks: list[int] | None, nodes: list[int] | None = None) -> None:
    line = (
        f"{name:<52} n={len(times):<4} p50 {1000 * statistics.median(times):9.1f} ms   p95 {1000 * p95(times):9.1f} ms"
    )
    if tricks:
        line += f"   tricks played p50/p95 {spread(tricks):>21}"
    if nodes:
        line += f"   nodes p50/p95 {spread(nodes):>21}"
    print(line)


def solve_timed(solver: Solver, state: TrickState, tricks: list[int], nodes: list[int]) -> float:
    """Time one solve and note its size: tricks played and nodes."""
    t = timed(lambda: solver.solve(state))
    tricks.append(solver.tricks_played)
    nodes.append(solver.nodes)
    return t


def endplay_solve(hands: list[int], leader: int, every_card: bool) -> tuple[float, int] | None:
    """endplay's DDS on the hands with spades trumps, from a cold table: every card's value
    (``SolveMode.Default``) or only the most tricks (``OptimalOne``, the question
    ``Solver.solve`` answers). Returns the time and the size DDS reports for its search
    (``futureTricks.nodes``: DDS counts a node each time a trick is completed, as
    ``Solver.tricks_played`` does); ``None`` without endplay."""
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    pbn = "N:" + " ".join(
        ".".join(
            "".join(RANKS[r] for r in range(12, -1, -1) if (hands[seat] >> (13 * s + r)) & 1) for s in (3, 2, 1, 0)
        )
        for seat in range(4)
    )
    deal = Deal(pbn)
    deal.trump = Denom.spades
    deal.first = Player(leader)
    mode = SolveMode.Default if every_card else SolveMode.OptimalOne
    solve_board(Deal("N:A... K... Q... J..."))  # DDS keeps its table for the same deal: start cold
    answer: list[Any] = []
    t = timed(lambda: answer.append(solve_board(deal, mode)))
    return t, int(answer[0]._data.nodes)


class Results:
    """Each case's times and search sizes, in the order first seen."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.tricks: dict[str, list[int]] = {}
        self.nodes: dict[str, list[int]] = {}

    def solve(self, name: str, solver: Solver, state: TrickState) -> None:
        t = solve_timed(solver, state, self.tricks.setdefault(name, []), self.nodes.setdefault(name, []))
        self.times.setdefault(name, []).append(t)

    def solve_cards(self, name: str, solver: Solver, state: TrickState) -> None:
        """Every legal card's value (``Solver.card_values``), as the expert level asks."""
        t = timed(lambda: solver.card_values(state))
        self.times.setdefault(name, []).append(t)
        self.tricks.setdefault(name, []).append(solver.tricks_played)
        self.nodes.setdefault(name, []).append(solver.nodes)

    def solve_worth(self, name: str, state: TrickState) -> None:
        """Every legal card's worth by ``ScoreSearch`` with seat 2 on an open nil (seats 0
        and 2 the side): 10 points a trick, the nil +100 kept and -100 lost. Its tricks
        played are those of the trick solver it hands the lines past the nil to."""
        stride = state.tricks_left + 1
        worth = [0] * 16 * stride
        for won in range(stride):
            worth[won] = 100 + 10 * won
            worth[0b0100 * stride + won] = 10 * won - 100
        search = ScoreSearch(4, 0b0101, 0b0100, worth)
        t = timed(lambda: search.card_values(state))
        self.times.setdefault(name, []).append(t)
        self.tricks.setdefault(name, []).append(search.tricks.tricks_played)
        self.nodes.setdefault(name, []).append(search.nodes)

    def solve_parallel(self, name: str, players: int, side: int, processes: int, state: TrickState) -> None:
        """``state`` solved by a ``ParallelSolver`` of ``processes``, timed by the wall clock
        (its processes work at once: their CPU time is not the wait)."""
        with ParallelSolver(players, side, processes) as solver:
            solver.start()
            t = time.perf_counter()
            solver.solve(state)
            self.add(name, time.perf_counter() - t, 0)

    def add(self, name: str, t: float, tricks: int) -> None:
        self.times.setdefault(name, []).append(t)
        self.tricks.setdefault(name, []).append(tricks)

    def report(self) -> None:
        for name, times in self.times.items():
            tricks = self.tricks[name]
            report(name, times, tricks if any(tricks) else None, self.nodes.get(name))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10, help="13-card deals")
    ap.add_argument("--positions", type=int, default=100, help="positions of 8 cards a hand")
    ap.add_argument(
        "--nil-positions", type=int, default=30, help="positions with an open nil, for the worth search and the solver"
    )
    ap.add_argument("--nil-cards", type=int, default=7, help="cards a hand in the --nil-positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-cutthroat", action="store_true")
    ap.add_argument("--cutthroat-deals", type=int, help="cutthroat deals (default: --deals)")
    ap.add_argument("--processes", type=int, default=2, help="processes of the parallel solves (1: none)")
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="time solves by the wall clock or CPU time"
    )
    args = ap.parse_args()
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    ours = Results()
    theirs = Results()
    for i in range(args.deals):
        g = at_first_lead("spades", args.seed + i)
        side = team(g, g.turn)
        ours.solve("spades, 13 cards, first lead", Solver(4, side), g)
        hands, leader = list(g.hands), g.turn
        broken = position(hands, turn=leader, tricks_left=13, spades_broken=True)
        ours.solve("spades, 13 cards, spades broken", Solver(4, side), broken)
        if args.processes > 1:
            for name, state in (("first lead", g), ("spades broken", broken)):
                n = args.processes
                ours.solve_parallel(f"spades, 13 cards, {name}, {n} processes (wall)", 4, side, n, state)
        for every_card in (False, True):
            solved = endplay_solve(hands, leader, every_card)
            if solved is not None:
                theirs.add(f"endplay DDS, 13 cards, {'every card' if every_card else 'most tricks'}", *solved)
        print(f"deal {i + 1}/{args.deals} done", flush=True)
    rng = random.Random(args.seed)
    for i in range(args.positions):
        deck = list(range(52))
        rng.shuffle(deck)
        small = [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
        b8 = position(small, turn=i % 4, tricks_left=8, spades_broken=True)
        ours.solve("spades, 8 cards a hand, spades broken", Solver(4, 0b0101 << (i % 2)), b8)
    for i in range(args.nil_positions):
        deck = list(range(52))
        rng.shuffle(deck)
        k = args.nil_cards
        hands = [sum(1 << c for c in deck[k * s : k * s + k]) for s in range(4)]
        board = position(hands, turn=i % 4, tricks_left=k, spades_broken=True)
        ours.solve_worth(f"spades, {k} cards a hand, seat 2 on nil: worth search", board)
        ours.solve_cards(f"spades, {k} cards a hand, the same: trick solver", Solver(4, 0b0101), board)
    if not args.skip_cutthroat:
        count = args.deals if args.cutthroat_deals is None else args.cutthroat_deals
        for i in range(count):
            g = at_first_lead("cutthroat", args.seed + i)
            ours.solve("cutthroat, 17 cards, first lead (paranoid)", Solver(3, 1 << g.turn), g)
            if args.processes > 1:
                n = args.processes
                ours.solve_parallel(f"cutthroat, 17 cards, first lead, {n} processes (wall)", 3, 1 << g.turn, n, g)
            print(f"cutthroat deal {i + 1}/{count} done", flush=True)
    import tapete.engine.spades.dds as dds

    print(f"solver module: {dds.__file__}; clock: {args.clock}")
    ours.report()
    theirs.report()
    if args.deals and not theirs.times:
        print("endplay is not installed: no DDS comparison")


if __name__ == "__main__":
    main()
