"""Deals consistent with one seat's observation: hand sizes, voids shown, cards gone.

The sampler only ever reads the observation, so it cannot touch the true hidden cards.
"""

from __future__ import annotations

import math
import random

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.heuristics import estimate_tricks, nil_risk
from tapete.bots.spades.view import SUITS, View, bid_target, read_view
from tapete.engine.spades.determinize import played_by_seat
from tapete.engine.spades.observation import SpadesObservation


class Sampler:
    """Draws the other seats' hands for one observation (built once per decision)."""

    def __init__(self, view: View) -> None:
        self.view = view
        n = view.n
        self.n = n
        me = view.seat
        own_known = view.obs.get("hand") is not None
        self.fixed: list[int] = [0] * n
        if own_known:
            self.fixed[me] = view.hand
        self.pool = view.unseen if own_known else view.deck & ~view.played
        self.sizes = list(view.hand_sizes)
        if own_known:
            self.sizes[me] = 0
        # allowed suits per seat (as masks of cards)
        self.allowed = [view.deck for _ in range(n)]
        for s in range(n):
            for suit in range(4):
                if (view.voids[s] >> suit) & 1:
                    self.allowed[s] &= ~view.rules.trick_tables.suit_mask[suit]
        self.cards = []
        m = self.pool
        while m:
            low = m & -m
            self.cards.append(low.bit_length() - 1)
            m ^= low
        # most constrained cards first: fewer seats may hold them
        self.cards.sort(key=lambda c: sum(1 for s in range(n) if self.sizes[s] and (self.allowed[s] >> c) & 1))
        self.played = played_by_seat(view.obs)

    def sample(self, rng: random.Random) -> list[int]:
        """One deal (every seat's current hand as a mask), uniform-ish among consistent ones."""
        for _ in range(30):
            hands = self._try(rng)
            if hands is not None:
                return hands
        return self._exact(rng)

    def _try(self, rng: random.Random) -> list[int] | None:
        n = self.n
        hands = list(self.fixed)
        room = list(self.sizes)
        allowed = self.allowed
        for c in self.cards:
            bit = 1 << c
            seats = [s for s in range(n) if room[s] and allowed[s] & bit]
            if not seats:
                return None
            if len(seats) == 1:
                s = seats[0]
            else:
                total = sum(room[s] for s in seats)
                r = rng.randrange(total)
                for s in seats:
                    r -= room[s]
                    if r < 0:
                        break
            hands[s] |= bit
            room[s] -= 1
        return hands

    def _exact(self, rng: random.Random) -> list[int]:
        """Placement that always succeeds when some consistent deal exists (Hall checks)."""
        n = self.n
        hands = list(self.fixed)
        room = list(self.sizes)
        cards = list(self.cards)
        rng.shuffle(cards)
        remaining = list(cards)
        for c in cards:
            remaining.remove(c)
            seats = [s for s in range(n) if room[s] and (self.allowed[s] >> c) & 1]
            rng.shuffle(seats)
            for s in seats:
                room[s] -= 1
                if self._feasible(remaining, room):
                    hands[s] |= 1 << c
                    break
                room[s] += 1
            else:
                raise ValueError("no deal is consistent with this observation")
        return hands

    def _feasible(self, cards: list[int], room: list[int]) -> bool:
        n = self.n
        counts: dict[int, int] = {}
        for c in cards:
            key = 0
            for s in range(n):
                if room[s] and (self.allowed[s] >> c) & 1:
                    key |= 1 << s
            counts[key] = counts.get(key, 0) + 1
        if 0 in counts:
            return False
        for subset in range(1, 1 << n):
            need = sum(k for key, k in counts.items() if key & ~subset == 0)
            cap = sum(room[s] for s in range(n) if (subset >> s) & 1)
            if need > cap:
                return False
        return True

    def weight(self, hands: list[int]) -> float:
        """How well a deal fits the other seats' bids (1 = perfectly)."""
        view = self.view
        w = 0.0
        for s in range(self.n):
            bid = view.bids[s]
            if s == view.seat or bid is None or bid in ("BN", "B6"):
                continue
            original = hands[s] | self.played[s]
            if bid == 0:
                w -= 1.5 * nil_risk(original, view.deck, self.n)
                continue
            est = estimate_tricks(original, view.deck, self.n)
            d = est - bid_target(bid)
            w -= d * d / 4.5
        return math.exp(w)

    def weighted(
        self, rng: random.Random, count: int, oversample: int = 3, deadline: Deadline = NO_DEADLINE
    ) -> list[list[int]]:
        """``count`` deals drawn in proportion to how well they fit the bids (from
        ``oversample`` times as many candidates). Once ``deadline`` has passed no more
        candidates are drawn, and the deals are as many as those drawn allow (at least one)."""
        candidates: list[list[int]] = []
        for i in range(count * oversample):
            if deadline.stop(i):
                break
            candidates.append(self.sample(rng))
        if oversample == 1:
            return candidates
        weights = [self.weight(h) for h in candidates]
        k = count if len(candidates) == count * oversample else max(1, len(candidates) // oversample)
        return rng.choices(candidates, weights=weights, k=k)


def sample_deal(observation: SpadesObservation, rng: random.Random, *, weighted: bool = True) -> list[int]:
    """A deal consistent with ``observation``: every seat's current cards as a mask.

    The observer's own hand is kept; the other seats get the right number of cards from
    those still unseen, never in a suit they have shown void. With ``weighted`` the
    deal is drawn in proportion to how well it fits the bids.
    """
    sampler = Sampler(read_view(observation))
    if weighted:
        return sampler.weighted(rng, 1)[0]
    return sampler.sample(rng)


def suits_held(mask: int) -> int:
    """A 4-bit mask of the suits present in ``mask``."""
    out = 0
    for s in range(4):
        if mask & SUITS[s]:
            out |= 1 << s
    return out
