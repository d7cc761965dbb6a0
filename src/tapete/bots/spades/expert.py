"""The expert level's play: sampled deals solved double-dummy (PIMC over ``engine/spades/dds``).

Deals consistent with everything the seat has seen are drawn by the hard level's
sampler (bid-weighted); on each, the solver gives every legal card's tricks for the
seat's side (its team, or the seat alone against all the others). A card scores, summed
over the deals, its side's contract made (tricks up to the bid count) with a small
weight for tricks beyond — a bag is worth little, never a set. Each decision has a
node budget shared by its deals; deals past it are left out, and when the hand is
still too big to solve (``dds_cards``), a nil is being played, or fewer deals were
solved than ``MIN_DEALS`` (too few to read a card's value from), the hard level's
search decides instead.
"""

from __future__ import annotations

import random

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.search import candidate_plays
from tapete.bots.spades.view import View, bid_target, is_nil
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.determinize import FastHand

DEFAULT_EXPERT_SAMPLES = 24
"""Deals drawn per decision."""
DEFAULT_EXPERT_NODES = 400_000
"""Search nodes per decision, shared by its deals (about 0.6 s of the compiled solver)."""
DEFAULT_DDS_CARDS = 9
"""The solver plays once no hand holds more cards than this (before: the hard level)."""
MIN_DEALS = 8
"""Fewer deals solved within the budget than this (or than the deals asked for): hard decides."""
EXTRA_TRICK = 0.05
"""What a trick beyond the side's bid is worth against one inside it."""


def side_mask(view: View) -> int:
    """The seats playing for the observer: its team, or itself alone."""
    return sum(1 << s for s in range(view.n) if view.side(s) == view.side(view.seat))


def side_bid(view: View, side: int) -> int:
    """The tricks the side has bid (0 when nothing counts yet)."""
    return sum(bid_target(view.bids[s]) for s in range(view.n) if (side >> s) & 1)


def expert_play(
    view: View, rng: random.Random, samples: int, nodes: int, dds_cards: int, deadline: Deadline = NO_DEADLINE
) -> int | None:
    """The card with the best summed value over solved deals, or ``None`` to defer to hard."""
    cands = candidate_plays(view)
    if len(cands) == 1:
        return cands[0]
    if max(view.hand_sizes) > dds_cards or any(is_nil(view.bids[s]) for s in range(view.n)):
        return None
    side = side_mask(view)
    bid = side_bid(view, side)
    won = sum(view.tricks_won[s] for s in range(view.n) if (side >> s) & 1)
    solver = Solver(view.n, side)
    totals = dict.fromkeys(cands, 0.0)
    solved = 0
    spent = 0
    for hands in Sampler(view).weighted(rng, samples):
        if spent >= nodes or (solved and deadline.expired()):
            break
        solver.budget = nodes - spent
        start = solver.nodes
        try:
            values = solver.card_values(FastHand.from_observation(view.obs, hands))
        except SearchLimit:
            break
        finally:
            spent += solver.nodes - start
        solved += 1
        for c in cands:
            t = won + values[c]
            totals[c] += min(t, bid) + EXTRA_TRICK * max(0, t - bid) if bid > 0 else EXTRA_TRICK * t
    if solved < min(MIN_DEALS, samples):
        return None
    return max(cands, key=lambda c: (totals[c], -c))


__all__ = [
    "DEFAULT_DDS_CARDS",
    "DEFAULT_EXPERT_NODES",
    "DEFAULT_EXPERT_SAMPLES",
    "MIN_DEALS",
    "expert_play",
    "side_bid",
    "side_mask",
]
