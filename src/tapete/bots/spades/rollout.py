"""Fast rollout policies over ``FastHand``: a cheap greedy player, a random one, and their mix."""

from __future__ import annotations

import random

from tapete.bots.spades.view import SUITS, bid_target, is_nil
from tapete.cards import TRUMP_MASK, TRUMP_START
from tapete.engine.spades.determinize import FastHand
from tapete.engine.spades.scoring import Bid
from tapete.engine.spades.trick import winning_cards

_CL, _DI, _HE = SUITS[0], SUITS[1], SUITS[2]


def _low(mask: int) -> int:
    """Lowest-ranked card of a mask (side cards first at equal rank)."""
    best = -1
    key = 99
    part = mask & _CL
    if part:
        best = (part & -part).bit_length() - 1
        key = best * 2
    part = mask & _DI
    if part:
        c = (part & -part).bit_length() - 1
        k = (c - 13) * 2
        if k < key:
            best, key = c, k
    part = mask & _HE
    if part:
        c = (part & -part).bit_length() - 1
        k = (c - 26) * 2
        if k < key:
            best, key = c, k
    part = mask & TRUMP_MASK
    if part:
        c = (part & -part).bit_length() - 1
        if (c - TRUMP_START) * 2 + 1 < key:
            best = c
    return best


def _high_side(mask: int) -> int:
    """Highest-ranked card, side suits before trumps (-1 if none)."""
    best = -1
    key = -1
    part = mask & _CL
    if part:
        best = part.bit_length() - 1
        key = best
    part = mask & _DI
    if part:
        c = part.bit_length() - 1
        if c - 13 > key:
            best, key = c, c - 13
    part = mask & _HE
    if part:
        c = part.bit_length() - 1
        if c - 26 > key:
            best = c
    return best


def seat_targets(bids: list[Bid], partnership: bool) -> tuple[list[int], list[bool]]:
    """Per seat the tricks its side aims at and whether it bid nil."""
    n = len(bids)
    nil = [is_nil(b) for b in bids]
    if partnership:
        team = [sum(bid_target(bids[s]) for s in range(t, n, 2) if not nil[s]) for t in (0, 1)]
        return [team[s % 2] for s in range(n)], nil
    return [bid_target(b) for b in bids], nil


def greedy_card(f: FastHand, legal: int, targets: list[int], nil: list[bool], partnership: bool) -> int:
    """The greedy policy's card for the seat to act in ``f`` among ``legal`` (two or more cards)."""
    seat = f.turn
    won = f.tricks_won
    trick = f.trick
    # what this seat wants
    if nil[seat]:
        want = -1 if won[seat] == 0 else 0
        pn = False
    else:
        if partnership:
            p = (seat + 2) % 4
            got = won[seat] + won[p]
            pn = nil[p] and won[p] == 0
        else:
            got = won[seat]
            pn = False
        want = 1 if got < targets[seat] else -1
    if not trick:
        if want > 0:
            h = _high_side(legal)
            if h >= 0:
                return h
        return _low(legal)
    best = f.best_card
    partner_winning = partnership and f.best_seat == (seat + 2) % 4
    if pn and partner_winning:
        want, partner_winning = 1, False
    lead = f.lead_mask
    beats = winning_cards(legal, best, lead, f.tables)
    if want > 0 and not partner_winning:
        if beats:
            return _low(beats & lead) if beats & lead else _low(beats)
        return _low(legal)
    under = legal & ~beats
    if want < 0 and under:
        if under & lead:
            return (under & lead).bit_length() - 1
        h = _high_side(under)
        return h if h >= 0 else (under.bit_length() - 1)
    return _low(under) if under else _low(legal)


def greedy_rollout(f: FastHand, targets: list[int], nil: list[bool], partnership: bool) -> None:
    """Play ``f`` to the end of the hand with the greedy policy (mutates ``f``)."""
    hands = f.hands
    playable, play = f.playable_cards, f.play
    while not f.done:
        legal = playable(hands[f.turn])
        if not legal & (legal - 1):
            play(legal.bit_length() - 1)
            continue
        play(greedy_card(f, legal, targets, nil, partnership))


def mixed_rollout(
    f: FastHand, rng: random.Random, epsilon: float, targets: list[int], nil: list[bool], partnership: bool
) -> None:
    """Epsilon-greedy playout: each card is random with probability ``epsilon``, else greedy."""
    hands = f.hands
    rand = rng.random
    playable, play = f.playable_cards, f.play
    while not f.done:
        legal = playable(hands[f.turn])
        if not legal & (legal - 1):
            play(legal.bit_length() - 1)
            continue
        if rand() < epsilon:
            k = rng.randrange(legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            play((legal & -legal).bit_length() - 1)
        else:
            play(greedy_card(f, legal, targets, nil, partnership))


def random_rollout(f: FastHand, rng: random.Random) -> None:
    """Play ``f`` to the end of the hand with uniformly random legal cards."""
    hands = f.hands
    playable, play = f.playable_cards, f.play
    while not f.done:
        legal = playable(hands[f.turn])
        k = rng.randrange(legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        play((legal & -legal).bit_length() - 1)
