"""The expert level's play: sampled deals solved double-dummy (PIMC over ``engine/spades/dds``).

Deals consistent with everything the seat has seen are drawn by the hard level's
sampler (bid-weighted); on each, the solver gives every legal card's tricks for the
seat's team. A card scores, summed
over the deals, what the hand would then be worth as the hard level counts it: the
side's score change minus the other sides' mean (``trick_utilities``: the profile's own
scoring, so a set, a bag penalty or the opponents' failed contract all count). Each decision has a
node budget shared by its deals; deals past it are left out, and when the hand is
still too big to solve (``dds_cards``), a team plays two nils, or fewer deals were
solved than ``MIN_DEALS`` (too few to read a card's value from), the hard level's
search decides instead. While a nil is open (its bidder has taken no trick yet), each
deal is also solved for the nil alone: whether the bidder's opponents can force it a
trick after each card (``Solver(counted=…)``), and the hand's worth takes the nil's
outcome with the team's tricks (each answer against best play for its own question). In the individual profiles (every seat for itself) hard always
decides: there the solver can only give a seat's tricks against all the others together
(the paranoid reading), and cards chosen by it played measurably worse than hard's
(Cutthroat, 300 duplicate deals: −3.3 points a hand [−5.6, −1.0]).
"""

from __future__ import annotations

import random

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.search import candidate_plays, seat_utilities
from tapete.bots.spades.view import View, is_nil
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.determinize import FastHand
from tapete.engine.spades.scoring import score_hand

DEFAULT_EXPERT_SAMPLES = 24
"""Deals drawn per decision."""
DEFAULT_EXPERT_NODES = 400_000
"""Search nodes per decision, shared by its deals (about 0.6 s of the compiled solver)."""
DEFAULT_DDS_CARDS = 9
"""The solver plays once no hand holds more cards than this (before: the hard level)."""
MIN_DEALS = 8
"""Fewer deals solved within the budget than this (or than the deals asked for): hard decides."""


def side_mask(view: View) -> int:
    """The seats playing for the observer: its team, or itself alone."""
    return sum(1 << s for s in range(view.n) if view.side(s) == view.side(view.seat))


def open_nils(view: View) -> list[int]:
    """Seats playing a nil that have taken no trick yet: made or set in what is left."""
    return [s for s in range(view.n) if is_nil(view.bids[s]) and view.tricks_won[s] == 0]


class HandWorth:
    """What the rest of the hand is worth to the observer, for the tricks its team takes
    of those left (the other team taking the rest) and whether each open nil is set:
    its side's score change minus the other side's, in hundreds (``search.seat_utilities``),
    scored by the profile (``score_hand``). A set nil's bidder takes one trick; a team's
    other tricks go to its seat that is not bidding nil (``_carrier``)."""

    def __init__(self, view: View, f: FastHand, side: int, left: int, nils: list[int]) -> None:
        self.view, self.f, self.left, self.nils = view, f, left, nils
        self.teams = [side, ((1 << view.n) - 1) & ~side]
        self.carrier = [_carrier(view, t, nils) for t in self.teams]
        self.side_of = [view.side(s) for s in range(view.n)]
        self.cache: dict[tuple[int, tuple[int, ...]], float] = {}

    def __call__(self, ours: int, sets: tuple[int, ...] = ()) -> float:
        key = (ours, sets)
        got = self.cache.get(key)
        if got is not None:
            return got
        totals = [ours, self.left - ours]
        for seat, taken in zip(self.nils, sets, strict=True):
            team = 0 if (self.teams[0] >> seat) & 1 else 1
            if taken and totals[team] == 0 and totals[1 - team] > 0:  # the set needs a trick: the team has it
                totals[team] += 1
                totals[1 - team] -= 1
        tricks = list(self.view.tricks_won)
        for team in (0, 1):
            rest = totals[team]
            for seat, taken in zip(self.nils, sets, strict=True):
                if (self.teams[team] >> seat) & 1 and taken and rest:
                    tricks[seat] += 1
                    rest -= 1
            tricks[self.carrier[team]] += rest
        f = self.f
        change = score_hand(f.rules, f.bids, tricks, f.bags, f.jack_winners).change
        worth = seat_utilities(change, self.side_of, self.view.rules.sides)[self.view.seat]
        self.cache[key] = worth
        return worth


def _carrier(view: View, team: int, nils: list[int]) -> int:
    """The seat of ``team`` credited with its tricks: one not bidding nil, else one whose
    nil is already set (a team's two open nils are left to hard)."""
    seats = [s for s in range(view.n) if (team >> s) & 1]
    plain = [s for s in seats if not is_nil(view.bids[s])]
    return (plain or [s for s in seats if s not in nils] or seats)[0]


def trick_utilities(view: View, f: FastHand, side: int, left: int) -> list[float]:
    """For each number ``t`` (0 … ``left``) of the remaining tricks the observer's team
    (``side``) takes, the other team taking the rest, no nil open: the hand's worth to the
    observer (``HandWorth``)."""
    worth = HandWorth(view, f, side, left, [])
    return [worth(t) for t in range(left + 1)]


def expert_play(
    view: View, rng: random.Random, samples: int, nodes: int, dds_cards: int, deadline: Deadline = NO_DEADLINE
) -> int | None:
    """The card with the best summed value over solved deals, or ``None`` to defer to hard."""
    cands = candidate_plays(view)
    if len(cands) == 1:
        return cands[0]
    if not view.partnership:
        return None  # each seat for itself: the paranoid count misjudges play (measured weaker than hard)
    if max(view.hand_sizes) > dds_cards:
        return None
    side = side_mask(view)
    nils = open_nils(view)
    teams = {view.side(s) for s in nils}
    if len(teams) < len(nils):
        return None  # a team playing two nils: its tricks cannot be given to a partner
    everyone = (1 << view.n) - 1
    solver = Solver(view.n, side)
    nil_solvers = [
        Solver(view.n, everyone & ~(side if (side >> s) & 1 else everyone & ~side), counted=1 << s, cap=1) for s in nils
    ]
    worth: HandWorth | None = None
    totals = dict.fromkeys(cands, 0.0)
    solved = 0
    spent = 0
    for hands in Sampler(view).weighted(rng, samples):
        if spent >= nodes or (solved and deadline.expired()):
            break
        f = FastHand.from_observation(view.obs, hands)
        if worth is None:
            worth = HandWorth(view, f, side, f.tricks_left, nils)  # the trick in progress included
        try:
            values = _values(solver, f, nodes - spent)
            spent += values[1]
            sets = []
            for s in nil_solvers:
                answer = _values(s, f, nodes - spent)
                spent += answer[1]
                sets.append(answer[0])
        except _OverBudget:
            break
        solved += 1
        for c in cands:
            totals[c] += worth(values[0][c], tuple(x[c] for x in sets))
    if solved < min(MIN_DEALS, samples):
        return None
    return max(cands, key=lambda c: (totals[c], -c))


class _OverBudget(Exception):
    """The decision's node budget is spent."""


def _values(solver: Solver, f: FastHand, budget: int) -> tuple[dict[int, int], int]:
    """``solver.card_values(f)`` within ``budget`` nodes, with the nodes it took."""
    if budget <= 0:
        raise _OverBudget
    solver.budget = budget
    start = solver.nodes
    try:
        return solver.card_values(f), solver.nodes - start
    except SearchLimit:
        raise _OverBudget from None


__all__ = [
    "DEFAULT_DDS_CARDS",
    "DEFAULT_EXPERT_NODES",
    "DEFAULT_EXPERT_SAMPLES",
    "MIN_DEALS",
    "HandWorth",
    "expert_play",
    "open_nils",
    "side_mask",
    "trick_utilities",
]
