"""Seeded, version-stable shuffling.

Deals made from a seed must stay the same in every later version of tapete (like
duplicate bridge boards), so the shuffle is written here on top of Mersenne Twister's
``getrandbits`` — whose output for a given seed Python keeps stable — rather than on
``random.shuffle``.

>>> deck = list(range(10))
>>> shuffle(deck, stream(7, "deal", 0)); deck
[2, 5, 4, 9, 8, 6, 0, 3, 7, 1]
"""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence, Sequence

from tapete.cards import NUM_CARDS, Card, CardError
from tapete.errors import BadRecord


def stream(seed: int, purpose: str, index: int = 0) -> random.Random:
    """An independent random stream for one purpose (``deal`` of hand 3, ``draw`` …)."""
    return random.Random(f"tapete/{seed}/{purpose}/{index}")


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``range(n)`` by rejection sampling on ``getrandbits``."""
    if n <= 0:
        raise ValueError("n must be positive")
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def shuffle(items: MutableSequence[int], rng: random.Random) -> None:
    """Fisher–Yates in place, each swap index from one ``random()`` draw.

    ``random()`` (53 bits of Mersenne Twister output) is stable across Python versions;
    the bias of scaling it to ``i + 1`` is below 2⁻⁴⁶, far under anything measurable.
    """
    draw = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]


def read_card(item: object) -> int:
    """A dealt card: a name (``"AS"``, ``"10♥"``) or a card int; ``BadRecord`` otherwise."""
    if isinstance(item, str):
        try:
            return int(Card.parse(item))
        except CardError as exc:
            raise BadRecord(str(exc)) from exc
    if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < NUM_CARDS:
        return item
    raise BadRecord(f"{item!r} is not a card")


def read_deal(
    hands: Sequence[Sequence[object]], deck: int, deck_name: str, text: Callable[[int], str]
) -> list[list[int]]:
    """Read every seat's dealt cards: each must be a card of ``deck`` (a mask), dealt once.

    ``deck_name`` and ``text`` (a card as the messages show it) word the ``BadRecord``.
    """
    seen = 0
    out: list[list[int]] = []
    for hand in hands:
        parsed: list[int] = []
        for item in hand:
            card = read_card(item)
            if not (deck >> card) & 1:
                raise BadRecord(f"{text(card)} is not in {deck_name}")
            if (seen >> card) & 1:
                raise BadRecord(f"{text(card)} is dealt twice")
            seen |= 1 << card
            parsed.append(card)
        out.append(parsed)
    return out
