"""Run Fast actions: a set of cards as one int bitmask; the empty set is a pass.

Bit ``c`` of an action is the card int ``c`` of ``tapete.cards`` (``suit * 13 + rank``).
Cards inside a play are listed from low to high in Run Fast order (3 … A, 2), and within
a rank in the order ♠ ♥ ♦ ♣.

>>> a = action_of(["9H", "9S"])
>>> a, str(a), a.to_record(1)
(RunFastAction('play 9S 9H'), 'play 9♠ 9♥', {'seat': 1, 'play': ['9S', '9H']})
>>> PASS, PASS.to_record(0)
(RunFastAction('pass'), {'seat': 0, 'pass': True})
>>> RunFastAction.from_record({"seat": 1, "play": ["9S", "9H"]}) == (1, a)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Final

from tapete.cards import CARDS, Card, CardError, card_name, card_symbol, iter_bits, mask_of, mask_of_names
from tapete.errors import IllegalAction

RF_RANK_NAMES: Final = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
"""Run Fast ranks from low to high; index ``i`` is the Run Fast rank ``i``."""
NUM_RANKS: Final = 13
ACE: Final = 11
TWO: Final = 12

_SUIT_ORDER: Final = (3, 2, 1, 0)  # clubs, diamonds, hearts, spades → ♠ first


def rf_rank(card: int) -> int:
    """The Run Fast rank of a card int: 0 for a 3 … 11 for an ace, 12 for a 2.

    >>> rf_rank(int(Card.parse("3H"))), rf_rank(int(Card.parse("AS"))), rf_rank(int(Card.parse("2S")))
    (0, 11, 12)
    """
    return (card % 13 + 12) % 13


DECK: Final = tuple(c for c in range(52) if c % 13 != 0 or c == int(Card.parse("2S")) if c != int(Card.parse("AH")))
"""The 48 cards of Run Fast, lowest card int first (no A♥, no 2♣ 2♦ 2♥)."""
DECK_MASK: Final = sum(1 << c for c in DECK)
DECK_15: Final = tuple(c for c in DECK if c not in {int(Card.parse(n)) for n in ("AC", "AD", "KS")})
"""The 45 cards of a 15-card deal: the 48 without A♣, A♦ and K♠ (A♠ and 2♠ stay)."""
TWO_OF_SPADES: Final = int(Card.parse("2S"))

SORT_KEY: Final = tuple(rf_rank(c) * 4 + _SUIT_ORDER[c // 13] for c in range(52))
"""Display order of a card: Run Fast rank, then ♠ ♥ ♦ ♣."""


def sorted_cards(mask: int) -> list[int]:
    """The cards of a mask, low to high in Run Fast order.

    >>> [card_name(c) for c in sorted_cards(action_of(["2S", "3C", "AS", "3S"]))]
    ['3S', '3C', 'AS', '2S']
    """
    return sorted(iter_bits(mask), key=SORT_KEY.__getitem__)


def card_names(mask: int) -> list[str]:
    """Canonical names of the cards of a mask, low to high in Run Fast order."""
    return list(_names_of(mask))


@lru_cache(maxsize=4096)
def _names_of(mask: int) -> tuple[str, ...]:
    """``card_names`` kept: every observation lists every play of the deal again."""
    return tuple(card_name(c) for c in sorted_cards(mask))


def card_symbols(mask: int) -> str:
    """The cards as people write them (``9♠ 9♥``), low to high."""
    return " ".join(card_symbol(c) for c in sorted_cards(mask))


class RunFastAction(int):
    """One Run Fast action: the bitmask of the cards played; ``0`` is a pass.

    Compare and hash like its int.
    """

    __slots__ = ()

    @property
    def is_pass(self) -> bool:
        return self == 0

    @property
    def cards(self) -> list[Card]:
        """The cards played, low to high in Run Fast order."""
        return [CARDS[c] for c in sorted_cards(self)]

    def names(self) -> list[str]:
        return card_names(self)

    def to_record(self, seat: int) -> dict[str, object]:
        """The action in the record format (``docs/records.md``); ``from_record`` reads it back."""
        if self == 0:
            return {"seat": seat, "pass": True}
        return {"seat": seat, "play": card_names(self)}

    @staticmethod
    def from_record(obj: object, players: int = 3) -> tuple[int, RunFastAction]:
        """``(seat, action)`` of a record-format action; ``IllegalAction('bad_record')`` if malformed."""
        if not isinstance(obj, Mapping):
            raise IllegalAction(
                "bad_record",
                f'an action must be an object such as {{"seat": 0, "play": ["9S", "9H"]}}, not {obj!r}',
            )
        seat = obj.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise IllegalAction("bad_record", f"'seat' must be a seat from 0 to {players - 1}, not {seat!r}")
        kinds = [k for k in ("play", "pass") if k in obj]
        if len(kinds) != 1 or set(obj) - {"seat", "play", "pass"}:
            raise IllegalAction("bad_record", "an action has 'seat' and exactly one of 'play' or 'pass'")
        if kinds[0] == "pass":
            if obj["pass"] is not True:
                raise IllegalAction("bad_record", "'pass' must be true")
            return seat, PASS
        return seat, RunFastAction(_play_mask(obj["play"]))

    def __str__(self) -> str:
        return "pass" if self == 0 else "play " + card_symbols(self)

    def __repr__(self) -> str:
        return "RunFastAction('pass')" if self == 0 else f"RunFastAction('play {' '.join(card_names(self))}')"


PASS: Final = RunFastAction(0)


def action_of(cards: Iterable[str | int]) -> RunFastAction:
    """The play of some cards given by name or int (no checks beyond parsing)."""
    items = list(cards)
    names = [c for c in items if isinstance(c, str)]
    return RunFastAction(mask_of_names(names) | mask_of(int(c) for c in items if not isinstance(c, str)))


def _play_mask(value: object) -> int:
    """The cards of a record's ``play`` (a list of names, or one string of them), each once."""
    items: list[object]
    if isinstance(value, str):
        items = list(value.replace(",", " ").split())
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise IllegalAction("bad_record", f'\'play\' must be a list of cards such as ["9S", "9H"], not {value!r}')
    if not items:
        raise IllegalAction("bad_record", 'a play needs at least one card; to pass write {"pass": true}')
    mask = 0
    for item in items:
        if not isinstance(item, str):
            raise IllegalAction("bad_record", f"{item!r} is not a card (write cards such as '9S' or '10♥')")
        try:
            card = int(Card.parse(item))
        except CardError as exc:
            raise IllegalAction("bad_record", str(exc)) from exc
        if mask >> card & 1:
            raise IllegalAction("bad_record", f"{card_symbol(card)} is twice in one play")
        mask |= 1 << card
    return mask


__all__ = [
    "ACE",
    "DECK",
    "DECK_15",
    "DECK_MASK",
    "NUM_RANKS",
    "PASS",
    "RF_RANK_NAMES",
    "SORT_KEY",
    "TWO",
    "TWO_OF_SPADES",
    "RunFastAction",
    "action_of",
    "card_names",
    "card_symbols",
    "rf_rank",
    "sorted_cards",
]
