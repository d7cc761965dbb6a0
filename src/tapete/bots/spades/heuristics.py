"""Hand evaluation and bidding heuristics shared by the normal and hard levels."""

from __future__ import annotations

from typing import Final

from tapete.bots.spades.view import SUITS, View, bid_target, high_bit, is_nil, rank_of
from tapete.engine.spades.actions import BID_BASE, CODE_1F, CODE_2F, CODE_B6, CODE_BN, CODE_SM, LOOK

_ACE_BY_LENGTH: Final = (0.0, 0.95, 0.95, 0.92, 0.85, 0.7, 0.5, 0.35, 0.2)


def estimate_tricks(hand: int, deck: int, players: int) -> float:
    """Expected tricks of a hand: side honours (worth less in long suits), trumps, ruffs."""
    n = players
    est = 0.0
    trumps = hand & SUITS[3]
    t_len = trumps.bit_count()
    all_trumps = deck & SUITS[3]
    # --- trumps: each card by the number of higher trumps it must outlast
    higher_out = 0
    sure = 0
    c_mask = all_trumps
    while c_mask:
        c = high_bit(c_mask)
        c_mask ^= 1 << c
        if (trumps >> c) & 1:
            if t_len > higher_out:
                value = (1.0, 0.85, 0.6, 0.4, 0.25)[min(higher_out, 4)]
                est += value
                sure += 1
        else:
            higher_out += 1
    avg_trumps = all_trumps.bit_count() / n
    long_trumps = max(0.0, t_len - max(sure, avg_trumps + 0.5))
    est += 0.75 * long_trumps
    spare = max(0.0, t_len - sure - long_trumps)
    # --- side suits
    rounds = 13.0 / n
    for s in (0, 1, 2):
        part = hand & SUITS[s]
        length = part.bit_count()
        suit_cards = (deck & SUITS[s]).bit_count()
        if length == 0:
            if spare > 0:
                est += 0.85 if n <= 4 else 0.7
                spare -= 1
                if spare > 0 and suit_cards > 2 * n:
                    est += 0.5
                    spare -= 1
            continue
        if length == 1 and spare > 0:
            est += 0.5
            spare -= 1
        elif length == 2 and spare > 0 and n <= 4:
            est += 0.2
            spare -= 0.5
        top = (deck & SUITS[s]).bit_length() - 1
        has = [(part >> (top - k)) & 1 for k in range(3)]
        over = max(0.0, length - rounds - 1)
        factor = max(0.15, 1.0 - 0.2 * over)
        if has[0]:
            est += _ACE_BY_LENGTH[min(length, 8)]
        if has[1] and length >= 2:
            k = 0.9 if has[0] else (0.75 if n <= 3 else 0.62 if n == 4 else 0.5)
            est += k * factor
        elif has[1]:
            est += 0.2
        if has[2] and length >= 3:
            q = 0.55 if (has[0] or has[1]) else 0.35 if n <= 3 else 0.25
            est += q * factor * (1.0 if rounds >= 3 else 0.6)
    return est


def nil_risk(hand: int, deck: int, players: int) -> float:
    """How likely a nil with this hand fails (0 safe … ≥ 1 hopeless), roughly."""
    risk = 0.0
    trumps = hand & SUITS[3]
    all_trumps = deck & SUITS[3]
    t_len = trumps.bit_count()
    rank_from_top = 0
    c_mask = all_trumps
    while c_mask:
        c = high_bit(c_mask)
        c_mask ^= 1 << c
        if (trumps >> c) & 1:
            risk += (1.0, 1.0, 0.8, 0.5, 0.3, 0.15, 0.08)[min(rank_from_top, 6)]
        rank_from_top += 1
    risk += max(0, t_len - 3) * 0.35
    for s in (0, 1, 2):
        part = hand & SUITS[s]
        length = part.bit_count()
        if not length:
            continue
        low = (part & -part).bit_length() - 1
        lr = rank_of(low)
        top = (deck & SUITS[s]).bit_length() - 1
        if (part >> top) & 1:
            risk += 0.9 if length <= 3 else 0.6
        if (part >> (top - 1)) & 1:
            risk += 0.6 if length <= 2 else 0.3
        if (part >> (top - 2)) & 1:
            risk += 0.35 if length <= 2 else 0.15
        if lr >= 7:
            risk += 0.3 + 0.1 * (lr - 7)
    return risk


def normal_bid(view: View, *, hard: bool = False) -> int:
    """The bid action code of the normal level (the hard level adjusts to the table)."""
    legal = view.legal
    if LOOK in legal:
        return _blind_choice(view)
    n = view.n
    hand_size = view.hand.bit_count()
    est = estimate_tricks(view.hand, view.deck, n)
    risk = nil_risk(view.hand, view.deck, n)
    bid = int(est + 0.35) if not view.partnership else int(est + 0.3)
    bid = max(1, min(bid, hand_size))
    partner_nil = view.partnership and is_nil(view.bids[view.partner])
    nil_limit = 0.9 if view.partnership else 0.75
    if hard:
        nil_limit += 0.1
    if view.partnership and not partner_nil and BID_BASE in legal:
        partner_bid = view.bids[view.partner]
        if est < 1.6 and risk < nil_limit and (partner_bid is None or bid_target(partner_bid) >= 3):
            return BID_BASE
        # the team's contract: shave a point when the two together already claim a lot
        if partner_bid is not None and not is_nil(partner_bid) and bid_target(partner_bid) + bid >= 11:
            bid = max(1, bid - 1)
    elif not view.partnership and BID_BASE in legal and est < 1.4 and risk < nil_limit:
        return BID_BASE
    if hard:
        bid = _table_adjust(view, bid, est)
    if partner_nil:
        bid = max(bid, int(est + 0.6))
    if CODE_SM in legal and est >= 14.5:
        return CODE_SM
    if bid == 1 and CODE_1F in legal:
        return CODE_1F
    if bid == 2 and CODE_2F in legal:
        return CODE_2F
    code = BID_BASE + bid
    if code not in legal:
        code = max(c for c in legal if BID_BASE <= c < BID_BASE + 56)
    return code


def _table_adjust(view: View, bid: int, est: float) -> int:
    """Hard: trim a bid when the table already claims nearly every trick."""
    tricks = sum(view.obs["dealt_sizes"]) // view.n
    claimed = sum(bid_target(b) for b in view.bids if b is not None and not is_nil(b))
    if claimed + bid > tricks + 1 and bid > 1 and est - bid < 0.3:
        return bid - 1
    return bid


def _blind_choice(view: View) -> int:
    """Face down: blind six or blind nil only when far behind and they pay; else look."""
    obs = view.obs
    scores = list(obs["scores"])
    me = scores[view.side(view.seat)]
    top = max(scores)
    behind = top - me
    target = int(view.rules.target)
    if CODE_BN in view.legal and behind >= 250 and top >= target - 100:
        return CODE_BN
    if CODE_B6 in view.legal and view.n == 3 and behind >= 120:
        return CODE_B6
    return LOOK
