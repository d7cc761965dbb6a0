"""Hand planning: the cheapest decomposition of a hand into Run Fast plays.

A hand is summed up by its rank counts (Run Fast rank 0 = 3 … 11 = A, 12 = 2). The
planner splits the counts into straights, pair runs, triples, pairs, singles and bombs,
minimizing a cost that is mostly the number of plays (each ordinary play costs about
one, low plays a little more; bombs and 2♠ cost little since they win the lead back).

>>> from tapete.engine.runfast.actions import action_of
>>> plan_plays(counts_of(action_of("3S 4S 5H 6D 7C 9S 9H 9D 9C KS".split())))
[(0, 4, 1, 4), (6, 6, 4, 0), (10, 10, 1, 1)]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from tapete.engine.runfast.actions import ACE, TWO

_RANK_MASKS: Final = tuple(sum(1 << (s * 13 + (rf + 1) % 13) for s in range(4)) for rf in range(13))
"""``_RANK_MASKS[rf]``: the four card bits of Run Fast rank ``rf``."""

BOMB_COST: Final = 0.25
TWO_COST: Final = 0.5
LOW_STEP: Final = 0.03

Counts = tuple[int, ...]
Play = tuple[int, int, int, int]
"""``(low rank, top rank, cards per rank, kind)``; kind 1 single … 5 pair run, 0 bomb."""


def counts_of(mask: int) -> Counts:
    """The number of cards of each Run Fast rank in a hand."""
    return tuple((mask & m).bit_count() for m in _RANK_MASKS)


def rank_mask(rf: int) -> int:
    return _RANK_MASKS[rf]


def play_cost(play: Play) -> float:
    _low, top, _per, kind = play
    if kind == 0:
        return BOMB_COST
    if top == TWO:
        return TWO_COST
    return 1.0 + LOW_STEP * (ACE - top)


@lru_cache(maxsize=1 << 18)
def _best(counts: Counts) -> tuple[float, tuple[Play, ...]]:
    r = 0
    while r < 13 and not counts[r]:
        r += 1
    if r == 13:
        return 0.0, ()
    c = list(counts)
    n = c[r]
    best: tuple[float, tuple[Play, ...]] = (1e9, ())

    def consider(play: Play, rest: list[int]) -> None:
        nonlocal best
        cost, plays = _best(tuple(rest))
        total = cost + play_cost(play)
        if total < best[0] - 1e-9:
            best = (total, (play, *plays))

    for k in range(1, n + 1):
        rest = c[:]
        rest[r] -= k
        bomb = k == 4 or (k == 3 and r == ACE)
        consider((r, r, k, 0 if bomb else k), rest)
    # straights from r (ranks ≤ A)
    top = r
    while top + 1 <= ACE and c[top + 1] >= 1:
        top += 1
    for t in range(r + 4, top + 1):
        rest = c[:]
        for x in range(r, t + 1):
            rest[x] -= 1
        consider((r, t, 1, 4), rest)
    if n >= 2:
        top = r
        while top + 1 <= ACE and c[top + 1] >= 2:
            top += 1
        for t in range(r + 1, top + 1):
            rest = c[:]
            for x in range(r, t + 1):
                rest[x] -= 2
            consider((r, t, 2, 5), rest)
    return best


def plan_cost(counts: Counts) -> float:
    """The cost of the cheapest decomposition of a hand (about its number of plays)."""
    return _best(counts)[0]


def plan_plays(counts: Counts) -> list[Play]:
    """The plays of the cheapest decomposition, lowest rank first."""
    return list(_best(counts)[1])


def plan_size(counts: Counts) -> int:
    return len(_best(counts)[1])


__all__ = ["Counts", "Play", "counts_of", "plan_cost", "plan_plays", "plan_size", "play_cost", "rank_mask"]
