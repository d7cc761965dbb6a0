"""Run Fast combinations: classification, the beats relation and legal-move generation.

A play is summed up by one int, its *key*:

- a bomb's key is its power, below 16: four 3s … four Ks are 0 … 10, A-A-A is 11 and
  the celestial bomb (four 3s as the opening play) is 12;
- an ordinary play's key is ``(kind * 16 + length) * 16 + top``: ``kind`` is one of
  ``SINGLE PAIR TRIPLE STRAIGHT PAIR_RUN``, ``length`` the number of ranks and ``top``
  the Run Fast rank (3 = 0 … A = 11, 2 = 12) of its highest card.

So ``key >> 4`` is the shape, and two plays of one shape compare by their keys.

>>> from tapete.engine.runfast.actions import action_of
>>> k = classify(action_of(["9S", "9H"])); describe(k)
'a pair of 9s'
>>> beats(classify(action_of(["JS", "JD"])), k), beats(k, classify(action_of(["JS", "JD"])))
(True, False)
>>> describe(classify(action_of("5S 6H 7S 8D 9C".split())))
'a straight from 5 to 9'
>>> classify(action_of(["2S", "3H", "4H", "5H", "6H"])) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Final

from tapete.engine.runfast.actions import ACE, RF_RANK_NAMES, TWO, RunFastAction, card_symbols

SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
STRAIGHT: Final = 4
PAIR_RUN: Final = 5
KIND_NAMES: Final = {
    0: "bomb",
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    STRAIGHT: "straight",
    PAIR_RUN: "pair run",
}

FOUR_THREES: Final = 0
"""Key of four 3s played after the opening: the lowest bomb."""
ACE_BOMB: Final = 11
CELESTIAL: Final = 12
MIN_STRAIGHT: Final = 5
MIN_PAIR_RUN: Final = 2

_M13: Final = 0x1FFF
_STD_SEQ: Final = 0x1FFE
"""Standard ranks (bit 0 = the 2 … bit 12 = the ace) that may be in a sequence: 3 … A."""
_ACE_STD: Final = 1 << 12


def ordinary_key(kind: int, length: int, top: int) -> int:
    """The key of an ordinary play.

    >>> describe(ordinary_key(PAIR_RUN, 3, 4))
    'a pair run from 5s to 7s'
    """
    return (kind * 16 + length) * 16 + top


def is_bomb(key: int) -> bool:
    return key < 16


def kind_of(key: int) -> int:
    """``SINGLE`` … ``PAIR_RUN``, or 0 for a bomb."""
    return key >> 8


def beats(new: int, current: int) -> bool:
    """Whether a play of key ``new`` beats the play of key ``current``.

    >>> beats(ACE_BOMB, 10), beats(10, ACE_BOMB), beats(FOUR_THREES, ordinary_key(SINGLE, 1, TWO))
    (True, False, True)
    >>> beats(CELESTIAL, ACE_BOMB), beats(ACE_BOMB, CELESTIAL)
    (True, False)
    """
    if new < 16:
        return current >= 16 or new > current
    return (new >> 4) == (current >> 4) and new > current


def classify(mask: int) -> int | None:
    """The key of a set of cards, or ``None`` if it is not a Run Fast combination.

    Four 3s classify as ``FOUR_THREES``; the game makes them celestial when they are
    the opening play.

    >>> from tapete.engine.runfast.actions import action_of
    >>> describe(classify(action_of(["AS", "AD", "AC"]))), describe(classify(action_of(["3S", "3H", "3D", "3C"])))
    ('the ace bomb (A-A-A)', 'a bomb of four 3s')
    """
    if mask <= 0 or mask >> 52:
        return None
    a = mask & _M13
    b = (mask >> 13) & _M13
    c = (mask >> 26) & _M13
    d = mask >> 39
    ranks = a | b | c | d
    n = mask.bit_count()
    if ranks & (ranks - 1) == 0:
        r = ranks.bit_length() - 1
        rf = r - 1 if r else TWO
        if n == 1:
            return 0x110 + rf
        if n == 2:
            return 0x210 + rf
        if n == 3:
            return ACE_BOMB if rf == ACE else 0x310 + rf
        return rf
    if ranks & 1:
        return None
    low = ranks & -ranks
    if (ranks + low) & ranks:
        return None
    nr = ranks.bit_count()
    top = ranks.bit_length() - 2
    if n == nr:
        return (STRAIGHT * 16 + nr) * 16 + top if nr >= MIN_STRAIGHT else None
    if n == 2 * nr:
        ab = a & b
        cd = c & d
        if not (ab & (c | d)) | (cd & (a | b)):
            return (PAIR_RUN * 16 + nr) * 16 + top
    return None


def _plural(rank: int) -> str:
    return RF_RANK_NAMES[rank] + "s"


def describe(key: int | None) -> str:
    """A play's shape in words: ``'a pair of 9s'``, ``'a bomb of four Js'`` …

    >>> describe(ordinary_key(SINGLE, 1, 8)), describe(ordinary_key(TRIPLE, 1, 0)), describe(7)
    ('a single J', 'three 3s', 'a bomb of four 10s')
    """
    if key is None:
        return "no combination"
    if key < 16:
        if key == CELESTIAL:
            return "the celestial bomb (four 3s)"
        if key == ACE_BOMB:
            return "the ace bomb (A-A-A)"
        return f"a bomb of four {_plural(key)}"
    kind = key >> 8
    length = (key >> 4) & 15
    top = key & 15
    if kind == SINGLE:
        return f"a single {RF_RANK_NAMES[top]}"
    if kind == PAIR:
        return f"a pair of {_plural(top)}"
    if kind == TRIPLE:
        return f"three {_plural(top)}"
    low = top - length + 1
    if kind == STRAIGHT:
        return f"a straight from {RF_RANK_NAMES[low]} to {RF_RANK_NAMES[top]}"
    return f"a pair run from {_plural(low)} to {_plural(top)}"


def why_not_combination(mask: int) -> str:
    """Why a set of cards is not a combination, in words that teach the rule."""
    if mask == 0:
        return "a play needs at least one card (to pass, pass)"
    cards = card_symbols(mask)
    chunks = [(mask >> (13 * s)) & _M13 for s in range(4)]
    ranks = chunks[0] | chunks[1] | chunks[2] | chunks[3]
    counts = [sum((ch >> r) & 1 for ch in chunks) for r in range(13)]
    present = [n for n in counts if n]
    if ranks & 1:
        reason = "the 2 never goes in a straight or a pair run, and cards of different ranks only combine in those"
    elif max(present) >= 3:
        reason = (
            "triples and fours take no attachments (no triple with singles or pairs, no airplanes, "
            "no four with attachments)"
        )
    elif (ranks + (ranks & -ranks)) & ranks:
        reason = "the ranks are not consecutive (straights and pair runs need consecutive ranks, 3 up to A)"
    elif set(present) == {1}:
        reason = "a straight needs at least 5 consecutive ranks"
    else:
        reason = "a pair run needs exactly two cards of every rank it spans"
    return f"{cards} is not a combination: {reason}"


# --- legal-move generation -------------------------------------------------------------
# Per standard rank r (bit r of a 13-bit rank mask: 2 = 0 … A = 12): the mask of its four
# cards. ``_SUBS[k][cards]`` is every k-card subset of ``cards`` (the cards of one rank in
# a hand) as cached actions; ``_RCS[ranks]`` lists the card masks of the ranks of a 13-bit
# rank mask, low to high in Run Fast order.
_RANK_CARDS: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
_ACE_CARDS: Final = _RANK_CARDS[12]
_THREE_ACES: Final = _ACE_CARDS & ~(1 << (2 * 13 + 12))
"""A♠ A♦ A♣ (A♥ is not in the deck)."""


def _build_subs() -> tuple[dict[int, tuple[RunFastAction, ...]], ...]:
    subs: tuple[dict[int, tuple[RunFastAction, ...]], ...] = ({}, {}, {}, {}, {})
    for r in range(13):
        bits = [s * 13 + r for s in range(4)]
        for nibble in range(1, 16):
            held = [bits[s] for s in range(4) if nibble >> s & 1]
            cards = sum(1 << c for c in held)
            for k in range(1, 5):
                subs[k][cards] = tuple(RunFastAction(sum(1 << c for c in combo)) for combo in combinations(held, k))
    return subs


_SUBS: Final = _build_subs()
_RF_ORDER_STD: Final = (*range(1, 13), 0)
_RCS: Final = tuple(tuple(_RANK_CARDS[r] for r in _RF_ORDER_STD if x >> r & 1) for x in range(1 << 13))
_STD_BITS: Final = tuple(tuple(r for r in range(13) if x >> r & 1) for x in range(1 << 13))
_ABOVE: Final = tuple(sum(1 << ((rf + 1) % 13) for rf in range(top + 1, 13)) for top in range(13))
"""``_ABOVE[top]``: the standard rank mask of the Run Fast ranks above ``top``."""

_new_action: Final[Callable[[int], RunFastAction]] = RunFastAction


def _singles_of_suit(suit: int) -> list[tuple[RunFastAction, ...]]:
    """``table[pattern]``: the single-card plays of a 13-bit pattern of one suit's ranks.

    Four tables of 8192 small tuples (about 3 MB in all) make the single-card plays of a
    hand, or those above a rank, four list lookups.
    """
    singles = [_SUBS[1][1 << (13 * suit + r)][0] for r in range(13)]
    table: list[tuple[RunFastAction, ...]] = [()] * (1 << 13)
    for pattern in range(1, 1 << 13):
        low = pattern & -pattern
        table[pattern] = (singles[low.bit_length() - 1], *table[pattern ^ low])
    return table


_S0, _S1, _S2, _S3 = (_singles_of_suit(suit) for suit in range(4))
_ACE_BOMB_ACTION: Final = _SUBS[3][_THREE_ACES][0]


def rank_profile(mask: int) -> tuple[int, int, int, int]:
    """13-bit standard rank masks of the ranks held at least once, twice, three and four times."""
    a = mask & _M13
    b = (mask >> 13) & _M13
    c = (mask >> 26) & _M13
    d = mask >> 39
    ab = a & b
    cd = c & d
    aob = a | b
    cod = c | d
    return aob | cod, ab | cd | (aob & cod), (ab & cod) | (cd & aob), ab & cd


def _extend(combos: Iterable[int], nxt: tuple[RunFastAction, ...]) -> Iterable[int]:
    """Every combination of ``combos`` joined with one of ``nxt`` (the next rank's choices)."""
    if len(nxt) == 1:
        one = nxt[0]
        return [x | one for x in combos]
    return [x | y for x in combos for y in nxt]


def _window(mask: int, start: int, length: int, subs: dict[int, tuple[RunFastAction, ...]]) -> Iterable[int]:
    combos: Iterable[int] = subs[mask & _RANK_CARDS[start]]
    for r in range(start + 1, start + length):
        combos = _extend(combos, subs[mask & _RANK_CARDS[r]])
    return combos


def _all_runs(
    mask: int,
    present: int,
    starts: int,
    subs: dict[int, tuple[RunFastAction, ...]],
    min_len: int,
    out: list[RunFastAction],
) -> None:
    """Every sequence of ≥ ``min_len`` ranks of ``present`` starting at a bit of ``starts``."""
    for s in _STD_BITS[starts]:
        combos: Iterable[int] = subs[mask & _RANK_CARDS[s]]
        r = s + 1
        length = 1
        while present >> r & 1:
            combos = _extend(combos, subs[mask & _RANK_CARDS[r]])
            length += 1
            if length >= min_len:
                out += map(_new_action, combos)
            r += 1


def lead_plays(mask: int) -> list[RunFastAction]:
    """Every combination in a hand (the choices of a player who leads).

    >>> from tapete.engine.runfast.actions import action_of
    >>> sorted(str(a) for a in lead_plays(action_of(["3H", "3S", "4S"])))
    ['play 3♠', 'play 3♠ 3♥', 'play 3♥', 'play 4♠']
    """
    g1, g2, g3, g4 = rank_profile(mask)
    subs1, subs2 = _SUBS[1], _SUBS[2]
    out = [*_S0[mask & _M13], *_S1[(mask >> 13) & _M13], *_S2[(mask >> 26) & _M13], *_S3[mask >> 39]]
    if g2:
        for rc in _RCS[g2]:
            out += subs2[mask & rc]
        if g3:
            subs3 = _SUBS[3]
            for rc in _RCS[g3 & ~_ACE_STD]:
                out += subs3[mask & rc]
            if g4:
                subs4 = _SUBS[4]
                for rc in _RCS[g4]:
                    out += subs4[mask & rc]
            if g3 & _ACE_STD:
                out.append(_ACE_BOMB_ACTION)
        y = g2 & _STD_SEQ
        starts = y & (y >> 1)
        if starts:
            _all_runs(mask, y, starts, subs2, MIN_PAIR_RUN, out)
    x = g1 & _STD_SEQ
    starts = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
    if starts:
        _all_runs(mask, x, starts, subs1, MIN_STRAIGHT, out)
    return out


def plays_with(mask: int, card: int) -> list[RunFastAction]:
    """Every combination in a hand that contains ``card`` (the opening lead's choices).

    >>> from tapete.engine.runfast.actions import action_of
    >>> hand = action_of(["3H", "3S", "4S", "5S", "6S", "7S", "8S", "9H"])
    >>> sorted(str(a) for a in plays_with(hand, 27))  # 27 is 3♥
    ['play 3♠ 3♥', 'play 3♥', 'play 3♥ 4♠ 5♠ 6♠ 7♠', 'play 3♥ 4♠ 5♠ 6♠ 7♠ 8♠', 'play 3♥ 4♠ 5♠ 6♠ 7♠ 8♠ 9♥']
    """
    if not mask >> card & 1:
        return []
    rank = card % 13
    own = mask & _RANK_CARDS[rank]
    out = [a for k in range(1, 5) for a in _SUBS[k][own] if a >> card & 1]
    if rank == 0:
        return out
    g1, g2, _, _ = rank_profile(mask)
    for present, subs, min_len in ((g1 & _STD_SEQ, _SUBS[1], MIN_STRAIGHT), (g2 & _STD_SEQ, _SUBS[2], MIN_PAIR_RUN)):
        if not present >> rank & 1:
            continue
        lo = rank
        while present >> (lo - 1) & 1:
            lo -= 1
        hi = rank
        while present >> (hi + 1) & 1:
            hi += 1
        for start in range(lo, rank + 1):
            combos: list[int] = [0]
            for r in range(start, hi + 1):
                choices = subs[mask & _RANK_CARDS[r]]
                if r == rank:
                    choices = tuple(x for x in choices if x >> card & 1)
                combos = [x | y for x in combos for y in choices]
                if r >= rank and r - start + 1 >= min_len:
                    out += map(_new_action, combos)
    return out


def responses(mask: int, key: int) -> list[RunFastAction]:
    """Every play of a hand that beats the play of ``key`` (empty: the player must pass).

    >>> from tapete.engine.runfast.actions import action_of
    >>> hand = action_of(["9S", "9H", "JS", "JD", "JC", "4S", "4H", "4D", "4C"])
    >>> [str(a) for a in responses(hand, classify(action_of(["TS", "TH"])))]
    ['play J♦ J♣', 'play J♠ J♣', 'play J♠ J♦', 'play 4♠ 4♥ 4♦ 4♣']
    """
    a = mask & _M13
    b = (mask >> 13) & _M13
    c = (mask >> 26) & _M13
    d = mask >> 39
    out: list[RunFastAction]
    if key >= 16:
        kind = key >> 8
        top = key & 15
        if kind == SINGLE:
            above = _ABOVE[top]
            out = [*_S0[a & above], *_S1[b & above], *_S2[c & above], *_S3[d & above]]
        else:
            out = []
            ab = a & b
            cd = c & d
            aob = a | b
            cod = c | d
            if kind == PAIR:
                subs = _SUBS[2]
                for rc in _RCS[(ab | cd | (aob & cod)) & _ABOVE[top]]:
                    out += subs[mask & rc]
            elif kind == TRIPLE:
                subs = _SUBS[3]
                for rc in _RCS[((ab & cod) | (cd & aob)) & _ABOVE[top] & ~_ACE_STD]:
                    out += subs[mask & rc]
            else:
                length = (key >> 4) & 15
                if kind == STRAIGHT:
                    present = (aob | cod) & _STD_SEQ
                    subs = _SUBS[1]
                else:
                    present = (ab | cd | (aob & cod)) & _STD_SEQ
                    subs = _SUBS[2]
                starts = present
                for i in range(1, length):
                    starts &= present >> i
                # a window starting at standard rank s tops at Run Fast rank s + length - 2
                lowest = top + 3 - length
                if lowest > 0:
                    starts &= ~((1 << lowest) - 1)
                for s in _STD_BITS[starts]:
                    out += map(_new_action, _window(mask, s, length, subs))
        g4 = a & b & c & d
    elif key >= ACE_BOMB:
        return []
    else:
        out = []
        g4 = a & b & c & d & _ABOVE[key]
    if g4:
        subs = _SUBS[4]
        for rc in _RCS[g4]:
            out += subs[mask & rc]
    if mask & _THREE_ACES == _THREE_ACES:
        out.append(_ACE_BOMB_ACTION)
    return out


def bombs_held(mask: int) -> int:
    """How many bombs a hand holds: ranks with all four cards, plus A-A-A.

    >>> from tapete.engine.runfast.actions import action_of
    >>> bombs_held(action_of("9S 9H 9D 9C AS AD AC 3H".split()))
    2
    """
    _, _, g3, g4 = rank_profile(mask)
    return g4.bit_count() + (1 if g3 & _ACE_STD else 0)


__all__ = [
    "ACE_BOMB",
    "CELESTIAL",
    "FOUR_THREES",
    "MIN_PAIR_RUN",
    "MIN_STRAIGHT",
    "PAIR",
    "PAIR_RUN",
    "SINGLE",
    "STRAIGHT",
    "TRIPLE",
    "beats",
    "bombs_held",
    "classify",
    "describe",
    "is_bomb",
    "kind_of",
    "lead_plays",
    "ordinary_key",
    "plays_with",
    "rank_profile",
    "responses",
    "why_not_combination",
]
