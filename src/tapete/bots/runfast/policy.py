"""The easy and normal Run Fast policies, as pure functions of what a seat knows.

Both take the seat's hand and legal plays as card masks (``0`` is a pass), the play to
beat (its key, ``-1`` when leading), the hand sizes and ``out``: the cards neither in the
hand nor played yet (what the opponents hold between them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tapete.bots.runfast.plan import counts_of, plan_cost, plan_size
from tapete.engine.runfast.actions import ACE, TWO, TWO_OF_SPADES
from tapete.engine.runfast.combos import ACE_BOMB, PAIR, SINGLE, STRAIGHT, TRIPLE, classify

LEAD_BOMB_MALUS: Final = 0.6
"""Leading a bomb earns no bonus and gives the control away."""
BOMB_RESPONSE_BONUS: Final = 0.4
"""A response bomb usually stands: 20 points and the lead (more against a high play)."""
PENALTY_DUMP: Final = 1.5
"""When an opponent is about to go out, a held bomb or 2♠ costs 10: get rid of it."""
FINISH: Final = 5.0


def key_of(mask: int) -> int:
    key = classify(mask)
    return -1 if key is None else key


def _low_order(mask: int) -> tuple[int, int, int]:
    key = key_of(mask)
    bomb = 0 <= key < 16
    return (1 if bomb else 0, key if bomb else key & 15, mask.bit_count())


def easy_choose(legal: Sequence[int]) -> int:
    """The lowest legal combination (ordinary before bombs, lower rank, fewer cards);
    a pass only when it is the only action."""
    plays = [m for m in legal if m]
    if not plays:
        return 0
    return min(plays, key=_low_order)


def _master(out: int, key: int) -> bool:
    """Whether no ordinary play of the cards out beats it (a bomb among them is a gamble:
    both opponents' cards are lumped together). Counted on ranks: no suit combinations."""
    counts = counts_of(out)
    if key < 16:
        if key >= ACE_BOMB:
            return True
        return not (any(counts[r] == 4 for r in range(key + 1, ACE)) or counts[ACE] == 3)
    kind = key >> 8
    top = key & 15
    if kind in (SINGLE, PAIR, TRIPLE):
        need = kind
        last = ACE - 1 if kind == TRIPLE else TWO  # three aces are a bomb, not a triple
        return not any(counts[r] >= need for r in range(top + 1, last + 1))
    length = (key >> 4) & 15
    need = 1 if kind == STRAIGHT else 2
    return not any(all(counts[r] >= need for r in range(t - length + 1, t + 1)) for t in range(top + 1, ACE + 1))


def _dedupe(legal: Sequence[int]) -> list[int]:
    """One play per rank pattern (suits never matter, except that 2♠ is the only 2)."""
    seen: set[tuple[int, ...]] = set()
    out: list[int] = []
    for m in legal:
        if not m:
            continue
        sig = counts_of(m)
        if sig not in seen:
            seen.add(sig)
            out.append(m)
    return out


def normal_scores(
    seat: int, hand: int, legal: Sequence[int], cur_key: int, sizes: Sequence[int], out: int
) -> list[tuple[float, int]]:
    """Each distinct play with its score (higher is better), best first."""
    cands = _dedupe(legal)
    danger = min(sizes[(seat + 1) % 3], sizes[(seat + 2) % 3])
    leading = cur_key < 0
    cur_top = cur_key & 15 if cur_key >= 16 else 12
    cur_len = (cur_key >> 4) & 15 if cur_key >= 16 else 4
    scored: list[tuple[float, int]] = []
    for m in cands:
        if m == hand:
            scored.append((100.0, m))
            continue
        key = key_of(m)
        bomb = key < 16
        top = key if bomb else key & 15
        rc = counts_of(hand ^ m)
        score = -plan_cost(rc)
        master = _master(out, key)
        if master and plan_size(rc) == 1:
            score += FINISH
        if leading:
            if bomb:
                score -= LEAD_BOMB_MALUS
            kind = key >> 8
            if danger == 1 and kind == SINGLE and not master:
                score -= 3.0 - 0.1 * top
            elif danger == 2 and kind == PAIR and not master:
                score -= 2.0 - 0.05 * top
            elif danger <= 2 and not master:
                score += 0.02 * m.bit_count()
        else:
            if bomb:
                score += BOMB_RESPONSE_BONUS + 0.04 * cur_top + 0.05 * cur_len
            if danger <= 2:
                score += 0.08 * top + (2.0 if bomb else 0.0)
        if danger <= 2 and (bomb or m >> TWO_OF_SPADES & 1):
            score += PENALTY_DUMP
        # ties: keep high cards, shed more cards
        score -= 0.001 * top - 0.0001 * m.bit_count()
        scored.append((score, m))
    scored.sort(key=lambda x: -x[0])
    return scored


def normal_choose(seat: int, hand: int, legal: Sequence[int], cur_key: int, sizes: Sequence[int], out: int) -> int:
    """Plan the hand as few plays as possible; go out when it can, press opponents close
    to going out, keep bombs and 2♠ for control; a pass only when it must."""
    if len(legal) == 1:
        return legal[0]
    scored = normal_scores(seat, hand, legal, cur_key, sizes, out)
    return scored[0][1] if scored else 0


__all__ = ["easy_choose", "key_of", "normal_choose", "normal_scores"]
