"""Deals consistent with one seat's view: hand sizes, cards played and pass inference.

Under must-beat a pass proves the passer had no legal response at that moment, bombs
included. The sampler turns every pass into per-rank caps (fast, exact for singles,
pairs, triples and bombs) and rejects any deal that still contradicts a pass (straights
and pair runs): a deal it returns never contradicts a pass.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tapete.bots.runfast.plan import rank_mask
from tapete.bots.runfast.view import View
from tapete.cards import iter_bits
from tapete.engine.runfast.actions import ACE, rf_rank
from tapete.engine.runfast.combos import ACE_BOMB, CELESTIAL, FOUR_THREES, PAIR, SINGLE, TRIPLE, classify, responses


@dataclass(frozen=True)
class PassFact:
    seat: int
    key: int
    """The play the seat could not beat."""
    later: int
    """The cards the seat played after the pass (they were in its hand then)."""


def pass_facts(log: list[tuple[int, int]]) -> list[PassFact]:
    """Every pass of the log, with what it proves."""
    facts: list[tuple[int, int, int]] = []
    cur = -1
    passes = 0
    opening = True
    for i, (seat, m) in enumerate(log):
        if m:
            key = classify(m)
            assert key is not None
            if opening and key == FOUR_THREES:
                key = CELESTIAL
            opening = False
            cur = key
            passes = 0
        else:
            facts.append((seat, cur, i))
            passes += 1
            if passes == 2:
                cur = -1
                passes = 0
    out = []
    for seat, key, i in facts:
        later = 0
        for s, m in log[i + 1 :]:
            if s == seat:
                later |= m
        out.append(PassFact(seat, key, later))
    return out


def consistent(hand: int, facts: list[PassFact], seat: int) -> bool:
    """Whether a seat's current hidden hand agrees with every pass it made."""
    return all(responses(hand | f.later, f.key) == [] for f in facts if f.seat == seat)


def rank_caps(facts: list[PassFact], seat: int) -> list[int]:
    """The most cards of each Run Fast rank the seat may hold now."""
    caps = [4] * 13
    caps[ACE] = 3
    for f in facts:
        if f.seat != seat or f.key == CELESTIAL:
            continue
        cap = [4] * 13
        if f.key >= 16:
            kind = f.key >> 8
            for r in range(11):
                cap[r] = 3
            cap[ACE] = 2
            top = f.key & 15
            if kind in (SINGLE, PAIR, TRIPLE):
                limit = {SINGLE: 0, PAIR: 1, TRIPLE: 2}[kind]
                for r in range(top + 1, 13):
                    cap[r] = min(cap[r], limit)
        else:
            for r in range(f.key + 1, 11):
                cap[r] = 3
            if f.key < ACE_BOMB:
                cap[ACE] = 2
        for r in range(13):
            held_later = (f.later & rank_mask(r)).bit_count()
            caps[r] = min(caps[r], max(0, cap[r] - held_later))
    return caps


class Sampler:
    """Draws the other two seats' hidden hands for one view."""

    def __init__(self, view: View) -> None:
        self.view = view
        me = view.seat
        self.others = [(me + 1) % 3, (me + 2) % 3]
        self.facts = pass_facts(view.log)
        self.caps = {s: rank_caps(self.facts, s) for s in self.others}
        self.fixed = {s: 0 for s in self.others}
        first = view.rules.first_lead_card
        if view.out >> first & 1 and view.first_leader in self.fixed:
            self.fixed[view.first_leader] |= 1 << first
        free = view.out & ~self.fixed[self.others[0]] & ~self.fixed[self.others[1]]
        self.free_cards = list(iter_bits(free))

    def sample(self, rng: random.Random) -> dict[int, int] | None:
        """One consistent assignment ``seat → hidden hand``, or ``None`` on a failed try."""
        a, b = self.others
        sizes = self.view.sizes
        hands = {a: self.fixed[a], b: self.fixed[b]}
        slots = {s: sizes[s] - hands[s].bit_count() for s in (a, b)}
        if slots[a] < 0 or slots[b] < 0 or slots[a] + slots[b] != len(self.free_cards):
            return None
        held = {s: [(hands[s] & rank_mask(r)).bit_count() for r in range(13)] for s in (a, b)}
        caps = self.caps
        order = sorted(self.free_cards, key=lambda c: (min(caps[a][rf_rank(c)], caps[b][rf_rank(c)]), rng.random()))
        for c in order:
            r = rf_rank(c)
            ok_a = slots[a] > 0 and held[a][r] < caps[a][r]
            ok_b = slots[b] > 0 and held[b][r] < caps[b][r]
            if ok_a and ok_b:
                s = a if rng.random() * (slots[a] + slots[b]) < slots[a] else b
            elif ok_a:
                s = a
            elif ok_b:
                s = b
            else:
                return None
            hands[s] |= 1 << c
            held[s][r] += 1
            slots[s] -= 1
        if not all(consistent(hands[s], self.facts, s) for s in (a, b)):
            return None
        return hands

    def deals(self, rng: random.Random, count: int, tries: int) -> list[dict[int, int]]:
        """Up to ``count`` consistent assignments within ``tries`` attempts."""
        out: list[dict[int, int]] = []
        for _ in range(tries):
            if len(out) >= count:
                break
            h = self.sample(rng)
            if h is not None:
                out.append(h)
        return out


def sample_deals(view: View, rng: random.Random, count: int, tries: int | None = None) -> list[dict[int, int]]:
    return Sampler(view).deals(rng, count, tries if tries is not None else count * 20)


__all__ = ["PassFact", "Sampler", "consistent", "pass_facts", "rank_caps", "sample_deals"]
