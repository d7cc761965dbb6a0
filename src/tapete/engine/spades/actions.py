"""Spades-family actions: small ints with a readable form.

Codes: ``0…54`` play that card; ``64 + n`` bid n (0 is nil); ``128…132`` the special
bids ``1F 2F B6 BN SM``; ``140`` look at one's face-down hand. Every action is a cached
singleton, so producing the legal actions allocates nothing but the list.

>>> ACTIONS[51], bid_action(4), special_action("BN"), LOOK_ACTION
(SpadesAction('play AS'), SpadesAction('bid 4'), SpadesAction('bid BN'), SpadesAction('look'))
>>> bid_action(0).to_record(2)
{'seat': 2, 'bid': 0}
"""

from __future__ import annotations

from typing import Final

from tapete.cards import CARDS, NUM_CARDS, card_name
from tapete.engine.spades.rules import SPECIAL_BIDS

BID_BASE: Final = 64
MAX_BID: Final = 55
SPECIAL_BASE: Final = 128
LOOK: Final = 140
NUM_CODES: Final = 141

SPECIAL_CODE: Final = {name: SPECIAL_BASE + i for i, name in enumerate(SPECIAL_BIDS)}
CODE_1F, CODE_2F, CODE_B6, CODE_BN, CODE_SM = (SPECIAL_CODE[n] for n in SPECIAL_BIDS)
BLIND_CODES: Final = frozenset({CODE_B6, CODE_BN})


class SpadesAction(int):
    """One action of the Spades family. Compare and hash like its int code."""

    __slots__ = ()

    @property
    def is_play(self) -> bool:
        return self < NUM_CARDS

    @property
    def is_bid(self) -> bool:
        return BID_BASE <= self < LOOK

    @property
    def is_look(self) -> bool:
        return self == LOOK

    @property
    def card(self) -> int:
        if self >= NUM_CARDS:
            raise ValueError(f"{self} is not a card play")
        return CARDS[self]

    @property
    def bid(self) -> int | str:
        """The bid as records write it: an int (0 is nil) or a special bid's name."""
        if BID_BASE <= self <= BID_BASE + MAX_BID:
            return self - BID_BASE
        if SPECIAL_BASE <= self < SPECIAL_BASE + len(SPECIAL_BIDS):
            return SPECIAL_BIDS[self - SPECIAL_BASE]
        raise ValueError(f"{self} is not a bid")

    def to_record(self, seat: int) -> dict[str, object]:
        """The action in the record format of ``spec/records.md``."""
        if self < NUM_CARDS:
            return {"seat": seat, "play": card_name(self)}
        if self == LOOK:
            return {"seat": seat, "look": True}
        return {"seat": seat, "bid": self.bid}

    def __str__(self) -> str:
        if self < NUM_CARDS:
            return f"play {card_name(self)}"
        if self == LOOK:
            return "look"
        bid = self.bid
        return "bid nil" if bid == 0 else f"bid {bid}"

    def __repr__(self) -> str:
        return f"SpadesAction({str(self)!r})"


def _make(code: int) -> SpadesAction | None:
    valid = code < NUM_CARDS or BID_BASE <= code <= BID_BASE + MAX_BID
    valid = valid or SPECIAL_BASE <= code < SPECIAL_BASE + len(SPECIAL_BIDS) or code == LOOK
    return int.__new__(SpadesAction, code) if valid else None


_ALL: Final = tuple(_make(c) for c in range(NUM_CODES))
ACTIONS: Final = _ALL
"""``ACTIONS[code]``: the cached action of a code (``None`` for unused codes)."""
LOOK_ACTION: Final = _ALL[LOOK]


def bid_action(n: int) -> SpadesAction:
    action = _ALL[BID_BASE + n] if 0 <= n <= MAX_BID else None
    if action is None:
        raise ValueError(f"no bid of {n}")
    return action


def special_action(name: str) -> SpadesAction:
    action = _ALL[SPECIAL_CODE[name]]
    assert action is not None
    return action


def play_action(card: int) -> SpadesAction:
    action = _ALL[card]
    assert action is not None
    return action
