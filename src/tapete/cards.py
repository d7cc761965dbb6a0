"""Cards as small ints and sets of cards as one int bitmask.

A card is an ``int`` from 0 to 54: ``suit * 13 + rank`` for the 52 ordinary cards,
with suits clubs=0, diamonds=1, hearts=2, spades=3 and ranks 2=0 … A=12, followed by
the jokers ``XJ`` (52, the extra joker), ``BJ`` (53, little/black) and ``RJ`` (54,
big/red).  So a higher int is a higher card within a suit, and spades plus jokers are
one contiguous run of bits (39…54) — the trump run of the Spades family.

>>> Card.parse("10♥")
Card('TH')
>>> str(Card.parse("qs"))
'QS'
>>> hand = CardSet.parse("AS KH 2c")
>>> len(hand), Card.parse("KH") in hand
(3, True)
>>> str(hand)
'AS KH 2C'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
XJ, BJ, RJ = 52, 53, 54
JOKER_NAMES: Final = {XJ: "XJ", BJ: "BJ", RJ: "RJ"}
NUM_CARDS: Final = 55

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

_SYMBOL_TO_SUIT: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}

SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
JOKER_MASK: Final = (1 << XJ) | (1 << BJ) | (1 << RJ)
TRUMP_MASK: Final = SUIT_MASKS[SPADES] | JOKER_MASK
TRUMP_START: Final = 39
"""The first trump of the Spades family (2♠): every card int from here up is a trump."""
FULL_DECK_MASK: Final = (1 << 52) - 1


class CardError(ValueError):
    """A string that is not a card, or a card that is not of the deck in use."""


class Card(int):
    """One card; an ``int`` with a readable form.

    ``Card.parse`` is forgiving (``10♥``, ``qs``, ``T♠``); ``str()`` is canonical (``TH``).
    """

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in the notation of the game records (forgiving input)."""
        card = _BY_NAME.get(text) if type(text) is str else None
        if card is not None:
            return card  # the canonical name, as clients send it
        if not isinstance(text, str):
            raise CardError(f"a card is a string such as 'AS', not {text!r}")
        t = text.strip().upper()
        for symbol, letter in _SYMBOL_TO_SUIT.items():
            t = t.replace(symbol, letter)
        if t in _JOKER_BY_NAME:
            return CARDS[_JOKER_BY_NAME[t]]
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
            raise CardError(f"{text!r} is not a card (write rank then suit, e.g. 'AS', '10♥', 'qd')")
        return CARDS[SUIT_CHARS.index(t[1]) * 13 + RANK_CHARS.index(t[0])]

    @property
    def is_joker(self) -> bool:
        return self >= XJ

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades; jokers count as spades."""
        return SPADES if self >= XJ else self // 13

    @property
    def rank(self) -> int:
        """0 for a 2 … 12 for an ace; jokers rank above aces (13, 14, 15)."""
        return 13 + (self - XJ) if self >= XJ else self % 13

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({_NAMES[self]!r})"

    def symbol(self) -> str:
        """The card with a suit symbol, as people write it: ``10♥``, ``A♠``, ``RJ``."""
        if self >= XJ:
            return _NAMES[self]
        return RANK_NAMES[self % 13] + SUIT_SYMBOLS[self // 13]


def _name(c: int) -> str:
    return JOKER_NAMES[c] if c >= XJ else RANK_CHARS[c % 13] + SUIT_CHARS[c // 13]


_NAMES: Final = tuple(_name(c) for c in range(NUM_CARDS))
_JOKER_BY_NAME: Final = {name: c for c, name in JOKER_NAMES.items()}
CARDS: Final = tuple(int.__new__(Card, c) for c in range(NUM_CARDS))
"""Every card, indexed by its int: ``CARDS[51]`` is ``AS``."""
_BY_NAME: Final = {name: CARDS[c] for c, name in enumerate(_NAMES)}
"""Each card by its canonical name (``str()``): ``Card.parse``'s quick path."""


def card_name(card: int) -> str:
    """Canonical two-character name of a card int."""
    return _NAMES[card]


def card_symbol(card: int) -> str:
    return CARDS[card].symbol()


def make_card(rank: int, suit: int) -> Card:
    return CARDS[suit * 13 + rank]


def parse_cards(items: Iterable[str]) -> list[Card]:
    return [Card.parse(x) for x in items]


def iter_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_of_names(names: Iterable[str]) -> int:
    """The bitmask of some cards given by name (forgiving, as ``Card.parse``); ``CardError`` on a bad name.

    >>> mask_of_names(["2C", "4c"]), mask_of_names([])
    (5, 0)
    """
    m = 0
    for name in names:
        m |= 1 << Card.parse(name)
    return m


def names_of_mask(mask: int) -> list[str]:
    """Canonical names of the cards of a bitmask, lowest card int first.

    >>> names_of_mask(mask_of_names(["AS", "2C", "RJ"]))
    ['2C', 'AS', 'RJ']
    """
    return [_NAMES[c] for c in iter_bits(mask)]


class CardSet:
    """A set of cards behind one int bitmask, with the ``set`` API.

    Iteration runs from the lowest card int up. ``CardSet`` objects are mutable like
    ``set``; ``int(cs)`` and ``cs.mask`` give the bitmask.

    >>> s = CardSet.parse("2C 3C AS")
    >>> s.add(Card.parse("KH")); sorted(map(str, s))
    ['2C', '3C', 'AS', 'KH']
    >>> str(s & CardSet.suit(3))
    'AS'
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | int | CardSet = 0) -> None:
        if isinstance(cards, CardSet):
            self.mask: int = cards.mask
        elif isinstance(cards, int):
            if cards < 0 or cards >> NUM_CARDS:
                raise CardError(f"{cards:#x} is not a card bitmask")
            self.mask = cards
        else:
            m = 0
            for c in cards:
                if not 0 <= c < NUM_CARDS:
                    raise CardError(f"{c!r} is not a card")
                m |= 1 << c
            self.mask = m

    # --- construction -----------------------------------------------------------
    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Cards from ``"AS KH 10♦"`` (spaces or commas) or from a list of names."""
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return cls(Card.parse(x) for x in items)

    @classmethod
    def suit(cls, suit: int) -> CardSet:
        return cls(SUIT_MASKS[suit])

    # --- the set API ------------------------------------------------------------
    def __iter__(self) -> Iterator[Card]:
        for c in iter_bits(self.mask):
            yield CARDS[c]

    def __reversed__(self) -> Iterator[Card]:
        m = self.mask
        while m:
            c = m.bit_length() - 1
            yield CARDS[c]
            m ^= 1 << c

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_CARDS and bool(self.mask >> card & 1)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, (set, frozenset)):
            return self == CardSet(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    @staticmethod
    def _m(other: CardSet | Iterable[int] | int) -> int:
        return other.mask if isinstance(other, CardSet) else CardSet(other).mask

    def __or__(self, other: CardSet | Iterable[int] | int) -> CardSet:
        return CardSet(self.mask | self._m(other))

    def __and__(self, other: CardSet | Iterable[int] | int) -> CardSet:
        return CardSet(self.mask & self._m(other))

    def __sub__(self, other: CardSet | Iterable[int] | int) -> CardSet:
        return CardSet(self.mask & ~self._m(other))

    def __xor__(self, other: CardSet | Iterable[int] | int) -> CardSet:
        return CardSet(self.mask ^ self._m(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~self._m(other) == 0

    def __ge__(self, other: CardSet) -> bool:
        return self._m(other) & ~self.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        return self <= other and self.mask != self._m(other)

    def __gt__(self, other: CardSet) -> bool:
        return self >= other and self.mask != self._m(other)

    def issubset(self, other: CardSet | Iterable[int]) -> bool:
        return self.mask & ~self._m(other) == 0

    def issuperset(self, other: CardSet | Iterable[int]) -> bool:
        return self._m(other) & ~self.mask == 0

    def isdisjoint(self, other: CardSet | Iterable[int]) -> bool:
        return self.mask & self._m(other) == 0

    def union(self, *others: CardSet | Iterable[int]) -> CardSet:
        m = self.mask
        for o in others:
            m |= self._m(o)
        return CardSet(m)

    def intersection(self, *others: CardSet | Iterable[int]) -> CardSet:
        m = self.mask
        for o in others:
            m &= self._m(o)
        return CardSet(m)

    def difference(self, *others: CardSet | Iterable[int]) -> CardSet:
        m = self.mask
        for o in others:
            m &= ~self._m(o)
        return CardSet(m)

    def symmetric_difference(self, other: CardSet | Iterable[int]) -> CardSet:
        return CardSet(self.mask ^ self._m(other))

    def copy(self) -> CardSet:
        return CardSet(self.mask)

    def add(self, card: int) -> None:
        if not 0 <= card < NUM_CARDS:
            raise CardError(f"{card!r} is not a card")
        self.mask |= 1 << card

    def discard(self, card: int) -> None:
        if 0 <= card < NUM_CARDS:
            self.mask &= ~(1 << card)

    def remove(self, card: int) -> None:
        if card not in self:
            raise KeyError(card)
        self.mask &= ~(1 << card)

    def pop(self) -> Card:
        if not self.mask:
            raise KeyError("pop from an empty CardSet")
        low = (self.mask & -self.mask).bit_length() - 1
        self.mask &= self.mask - 1
        return CARDS[low]

    def clear(self) -> None:
        self.mask = 0

    def update(self, *others: CardSet | Iterable[int]) -> None:
        for o in others:
            self.mask |= self._m(o)

    def intersection_update(self, *others: CardSet | Iterable[int]) -> None:
        for o in others:
            self.mask &= self._m(o)

    def difference_update(self, *others: CardSet | Iterable[int]) -> None:
        for o in others:
            self.mask &= ~self._m(o)

    def symmetric_difference_update(self, other: CardSet | Iterable[int]) -> None:
        self.mask ^= self._m(other)

    # --- card-game helpers --------------------------------------------------------
    def in_suit(self, suit: int) -> CardSet:
        """The cards of one suit (jokers go with spades)."""
        return CardSet(self.mask & (TRUMP_MASK if suit == SPADES else SUIT_MASKS[suit]))

    def names(self) -> list[str]:
        """Canonical names, lowest card int first."""
        return names_of_mask(self.mask)

    def sorted_for_display(self) -> list[Card]:
        """Spades (jokers first), hearts, clubs, diamonds — high to low within each."""
        order = (SPADES, HEARTS, CLUBS, DIAMONDS)
        out: list[Card] = []
        for s in order:
            out.extend(reversed(CardSet(self.mask & (TRUMP_MASK if s == SPADES else SUIT_MASKS[s]))))
        return out

    def __str__(self) -> str:
        return " ".join(_NAMES[c] for c in reversed(list(iter_bits(self.mask)))) if self.mask else ""

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
