"""Hard: determinized rollouts (PIMC) over deals consistent with the seat's view.

Each sampled deal is rebuilt as a ``RunFastGame`` (the other seats' hidden cards drawn
by the ``Sampler``, the observed plays replayed), every candidate play is tried on it and
the deal is played out by the normal policy at every seat; the candidate with the best
average settlement for the seat wins. The budget is a fixed number of deals and
candidates, so a decision is deterministic given its random generator.
"""

from __future__ import annotations

import dataclasses
import random

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.runfast.policy import normal_choose, normal_scores
from tapete.bots.runfast.sampler import Sampler
from tapete.bots.runfast.view import View
from tapete.cards import iter_bits
from tapete.engine.runfast.actions import RunFastAction
from tapete.engine.runfast.game import RunFastGame

MAX_PLAYOUT_ACTIONS = 400


def build_game(view: View, hidden: dict[int, int]) -> RunFastGame:
    """The game of the view with the other seats' hidden cards as given."""
    now = dict(hidden)
    now[view.seat] = view.hand
    deal = [list(iter_bits(now[s] | view.played_by[s])) for s in range(3)]
    g = RunFastGame(dataclasses.replace(view.rules, deals=1), deal=deal)  # this deal only
    for _, m in view.log:
        g.apply(RunFastAction(m))
    return g


def playout(g: RunFastGame) -> tuple[list[int], int]:
    """Play a game out with the normal policy at every seat; the settlement and the
    number of actions played."""
    steps = 0
    while not g.is_over() and steps < MAX_PLAYOUT_ACTIONS:
        seat = g.to_act_
        assert seat is not None
        legal = g.legal_actions()
        if len(legal) == 1:
            g.apply(legal[0])
        else:
            hands = g.hands
            hand = hands[seat]
            out = (hands[0] | hands[1] | hands[2]) & ~hand
            sizes = [h.bit_count() for h in hands]
            g.apply(RunFastAction(normal_choose(seat, hand, legal, g.cur_key, sizes, out)))
        steps += 1
    return g.scores(), steps


def hard_choose(
    view: View,
    rng: random.Random,
    samples: int,
    candidates: int,
    steps: int = 3000,
    deadline: Deadline = NO_DEADLINE,
) -> int:
    """The play with the best average result over sampled deals.

    ``steps`` caps the playout actions of one decision (checked after each deal), so the
    long playouts of the first plays stay within budget; deterministic like the rest.
    """
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0]
    scored = normal_scores(view.seat, view.hand, legal, view.cur_key, view.sizes, view.out)
    if len(scored) == 1 or scored[0][0] >= 50:
        return scored[0][1]
    cands = [m for _, m in scored[:candidates]]
    deals = Sampler(view).deals(rng, samples, samples * 20)
    if not deals:
        return cands[0]
    totals = [0.0] * len(cands)
    spent = 0
    for k, hidden in enumerate(deals):
        if spent >= steps or (deadline.expired() and k > 0):
            break
        base = build_game(view, hidden)
        for i, m in enumerate(cands):
            g = base.clone()
            g.apply(RunFastAction(m))
            result, n = playout(g)
            totals[i] += result[view.seat]
            spent += n
    # ties go to the normal policy's order
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    return cands[best]


__all__ = ["build_game", "hard_choose", "playout"]
