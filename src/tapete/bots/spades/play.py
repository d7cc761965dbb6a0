"""Card play of the easy and normal levels (pure functions of a ``View``)."""

from __future__ import annotations

from tapete.bots.spades.view import (
    SUITS,
    View,
    bid_target,
    high_bit,
    highest_card,
    is_nil,
    low_bit,
    lowest_card,
)
from tapete.cards import TRUMP_START
from tapete.engine.spades.trick import suit_of, winning_cards


def easy_play(view: View) -> int:
    """The lowest legal card."""
    return lowest_card(view.legal_mask())


def _beats(view: View, mask: int) -> int:
    """The cards of ``mask`` that would win the current trick now."""
    tables = view.rules.trick_tables
    best = tables.rank[view.best_card] if view.best_card >= 0 else -1
    lead = tables.suit_mask[view.lead_suit] if view.lead_suit >= 0 else 0
    return winning_cards(mask, best, lead, tables)


def _bag_pressure(view: View) -> float:
    """0 … 1: how much an overtrick would cost this side now."""
    rules = view.rules
    bags = int(view.obs["bags"][view.side(view.seat)])
    if rules.bag_rule == "per_hand":
        return 1.0
    limit = rules.bag_limit
    return min(1.0, max(0.2, (bags + 1) / limit))


def goal(view: View) -> int:
    """+1 take tricks, -1 lose tricks (nil, or contract made and bags cost), 0 indifferent."""
    me = view.seat
    bid = view.bids[me]
    if is_nil(bid):
        return -1
    need = view.made(me)
    if need > 0:
        return 1
    if bid in ("1F", "2F") and not view.partnership:
        return -1
    return -1 if _bag_pressure(view) >= 0.2 else 0


def partner_nil_alive(view: View) -> bool:
    p = view.partner
    return p >= 0 and is_nil(view.bids[p]) and view.tricks_won[p] == 0


def _discard(view: View, mask: int, high: bool) -> int:
    """A card to throw away: highest side card to shed danger, else the lowest side card."""
    side = mask & ~SUITS[3]
    if side:
        if high:
            return highest_card(side)
        # keep the suit where we are longest; throw from the shortest
        best_s, best_len = -1, 99
        for s in (0, 1, 2):
            part = side & SUITS[s]
            if part:
                c = low_bit(part)
                if view.master(c):
                    continue
                length = (view.hand & SUITS[s]).bit_count()
                if length < best_len:
                    best_s, best_len = s, length
        if best_s >= 0:
            return low_bit(side & SUITS[best_s])
        return lowest_card(side)
    if high:
        under = mask & ~_beats(view, mask)
        return high_bit(under) if under else lowest_card(mask)
    return lowest_card(mask)


def normal_play(view: View) -> int:
    """A sensible card: contract, nils, bags, second/third/fourth hand."""
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    if not view.trick:
        return _normal_lead(view, legal)
    return _normal_follow(view, legal)


def _normal_lead(view: View, legal: int) -> int:
    want = goal(view)
    if partner_nil_alive(view):
        # lead our top cards so that the partner can play under them
        masters = [c for c in _iter(legal) if view.master(c) and c < TRUMP_START]
        if masters:
            return max(masters)
        return highest_card(legal)
    if want > 0:
        # cash side-suit masters no opponent is known to ruff
        opp_voids = 0
        for s in view.opponents():
            opp_voids |= view.voids[s]
        cash = [c for c in _iter(legal & ~SUITS[3]) if view.master(c) and not (opp_voids >> suit_of(c)) & 1]
        if cash:
            return max(cash, key=lambda c: (view.hand & SUITS[suit_of(c)]).bit_count())
        trumps = legal & SUITS[3]
        if trumps and view.master(high_bit(trumps)):
            mine = (view.hand & SUITS[3]).bit_count()
            if mine >= view.outstanding(3).bit_count():
                return high_bit(trumps)
        # lead low from a short suit (to ruff later) if holding trumps, else from the longest
        side = legal & ~SUITS[3]
        if side:
            have_trumps = bool(view.hand & SUITS[3])
            best, best_key = -1, 99.0
            for s in (0, 1, 2):
                part = side & SUITS[s]
                if not part:
                    continue
                length = part.bit_count()
                key = float(length) if have_trumps else -float(length)
                if view.partnership and (view.voids[view.partner] >> s) & 1:
                    key -= 5
                if key < best_key:
                    best, best_key = low_bit(part), key
            return best
        return low_bit(legal)
    # losing leads: the lowest card, preferring a suit with many higher cards still out
    best, best_key = -1, -1.0
    for c in _iter(legal):
        s = suit_of(c)
        higher = (view.outstanding(s) & ~((1 << (c + 1)) - 1)).bit_count()
        key = higher - 0.5 * (c - SUITS[s].bit_length() + 14) / 13
        if s == 3:
            key -= 1
        if key > best_key:
            best, best_key = c, key
    return best if best >= 0 else low_bit(legal)


def _normal_follow(view: View, legal: int) -> int:
    want = goal(view)
    after = view.to_play_after()
    last = not after
    partner = view.partner
    partner_winning = partner >= 0 and view.best_seat == partner
    beats = _beats(view, legal)
    following = bool(legal & SUITS[view.lead_suit])
    if partner_nil_alive(view):
        if partner_winning:
            if beats:
                return low_bit(beats) if following else lowest_card(beats)
            return lowest_card(legal)
        if partner in after:
            # play high so the partner can stay under
            if following:
                return high_bit(legal)
            trumps = beats & SUITS[3]
            if trumps:
                return low_bit(trumps)
            return _discard(view, legal, high=False)
    if want > 0:
        if partner_winning and (last or view.master(view.best_card) or _safe_from(view, after)):
            return lowest_card(legal) if following else _discard(view, legal, high=False)
        if beats:
            if last:
                return lowest_card(beats)
            if following:
                top = high_bit(beats)
                if view.master(top):
                    # play the lowest of our cards that is a master of the suit
                    masters = [c for c in _iter(beats) if view.master(c)]
                    return min(masters)
                if len(view.trick) >= 2 or view.n == 3:
                    return low_bit(beats)
                return low_bit(legal)
            return lowest_card(beats & SUITS[3]) if beats & SUITS[3] else lowest_card(beats)
        return lowest_card(legal) if following else _discard(view, legal, high=False)
    # losing this trick: the highest card that stays under, else shed
    under = legal & ~beats
    if under:
        if following:
            return high_bit(under)
        return _discard(view, under, high=True)
    if last:
        return highest_card(legal)
    return lowest_card(legal)


def _safe_from(view: View, after: list[int]) -> bool:
    """Whether the players still to play are all on our side."""
    return all(view.side(s) == view.side(view.seat) for s in after)


def _iter(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


__all__ = ["bid_target", "easy_play", "goal", "normal_play"]
