"""The hard level's bidding: normal's bid, checked against simulated hands.

The candidates are normal's bid, one trick either side of it and nil. Each is scored
over the same sampled deals (bid-weighted, so the earlier bids are respected): the seats
still to bid bid as the normal level would with their sampled hands, the hand is played
out with the greedy policy, and the real hand score (contracts, nils, bags, prizes) is
taken, as the seat's side's points minus the other sides' (with ``lasting``, each bag
charged its share of a penalty: ``search.hand_worth``). A candidate must beat
normal's bid by a margin to be chosen, so the noise of a few hundred playouts does not
move the bid.

The greedy playouts never try to set a nil, so where every seat plays for itself they
value a nil far above what it earns against opponents who do (between hard bots in
Cutthroat most nils bid are lost). The expert level passes a ``nil_check``: when the
choice is a nil it is asked, with the starts of play of the first sampled deals, whether
the nil may stand; if not, the best candidate that is not a nil is bid instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.heuristics import nil_risk, normal_bid
from tapete.bots.spades.rollout import greedy_rollout, seat_targets
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.search import hand_worth
from tapete.bots.spades.view import View, bid_target, is_nil, read_view
from tapete.engine.spades.actions import BID_BASE, BLIND_CODES, CODE_SM, LOOK, action_of_code
from tapete.engine.spades.determinize import FastHand, state_from_observation

MARGIN = 0.04
"""How much better (in hundreds of points per hand) a candidate must score than normal's bid."""
NIL_STARTS = 10
"""Starts of play (the first sampled deals, bids made) kept for a ``nil_check``."""

NilCheck = Callable[[list[FastHand], int], bool]
"""``(starts of play, seat) -> whether the seat's nil may stand``."""


def _candidates(view: View, base: int) -> list[int]:
    legal = view.legal
    base_bid = action_of_code(base).bid
    target = bid_target(base_bid)
    out = [base]
    for code in sorted(legal):
        if code == base or code in BLIND_CODES or code in (LOOK, CODE_SM):
            continue
        bid = action_of_code(code).bid
        if is_nil(bid):
            if code == BID_BASE and nil_risk(view.hand, view.deck, view.n) < 2.0:
                partner = view.partner
                if partner < 0 or not is_nil(view.bids[partner]):
                    out.append(code)
            continue
        if abs(bid_target(bid) - target) <= 1:
            out.append(code)
    return out


def hard_bid(
    view: View,
    rng: random.Random,
    samples: int,
    deadline: Deadline = NO_DEADLINE,
    *,
    lasting: bool = False,
    nil_check: NilCheck | None = None,
) -> int:
    """The hard level's bid action code (with ``nil_check``, the expert level's)."""
    base = normal_bid(view, hard=False)
    if base in (LOOK, CODE_SM) or base in BLIND_CODES or samples <= 0:
        return base
    if view.obs.get("hand") is None:
        return base
    cands = _candidates(view, base)
    if len(cands) == 1:
        return base
    me = view.seat
    sampler = Sampler(view)
    deals = sampler.weighted(rng, samples, deadline=deadline)
    side_of = [view.side(s) for s in range(view.n)]
    sides = view.rules.sides
    k = max(1, sides - 1)
    mine = side_of[me]
    totals = dict.fromkeys(cands, 0.0)
    starts: list[FastHand] = []
    used = 0
    for i, hands in enumerate(deals):
        if used and deadline.stop(i):
            break
        try:
            g = state_from_observation(view.obs, hands)
            while g.phase.name == "BID" and g.to_act is not None:
                seat = g.to_act
                codes = [int(a) for a in g.legal_actions()]
                if LOOK in codes:
                    g.apply(LOOK)
                    continue
                if seat == me:
                    code = base if base in codes else max(c for c in codes if BID_BASE <= c < LOOK)
                else:
                    code = normal_bid(read_view(g.observation(seat)))
                    if code in BLIND_CODES or code not in codes:
                        code = max(c for c in codes if BID_BASE <= c < LOOK and c not in BLIND_CODES)
                g.apply(code)
        except Exception:  # an odd sample must never stop the bot
            continue
        f0 = FastHand.from_game(g)
        if nil_check is not None and len(starts) < NIL_STARTS:
            starts.append(f0)  # the rollouts play copies: it stays at the first lead
        used += 1
        for code in cands:
            f = f0.copy()
            bids = list(f0.bids)
            bids[me] = action_of_code(code).bid
            f.bids = bids
            targets, nil = seat_targets(bids, view.partnership)
            greedy_rollout(f, targets, nil, view.partnership)
            change = hand_worth(f.result(), lasting)
            total = sum(change)
            totals[code] += (change[mine] - (total - change[mine]) / k) / 100.0
    if not used:
        return base
    best = max(cands, key=lambda c: (totals[c], c == base, -c))
    if best != base and (totals[best] - totals[base]) / used < MARGIN:
        best = base
    if nil_check is not None and _nil(best) and not nil_check(starts, me):
        others = [c for c in cands if not _nil(c)]
        if others:
            best = max(others, key=lambda c: (totals[c], c == base, -c))
    return best


def _nil(code: int) -> bool:
    return is_nil(action_of_code(code).bid)


__all__ = ["MARGIN", "NIL_STARTS", "NilCheck", "hard_bid"]
