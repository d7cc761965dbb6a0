"""Spades-family actions: small ints with a readable form.

Codes: ``0…54`` play that card; ``64 + n`` bid n (0 is nil); ``128…132`` the special
bids ``1F 2F B6 BN SM``; ``140`` look at one's face-down hand. Every action is a cached
singleton, so producing the legal actions allocates nothing but the list.

>>> ACTIONS[51], bid_action(4), special_action("BN"), LOOK_ACTION
(SpadesAction('play AS'), SpadesAction('bid 4'), SpadesAction('bid BN'), SpadesAction('look'))
>>> bid_action(0).to_record(2)
{'seat': 2, 'bid': 0}
>>> SpadesAction.from_record({"seat": 1, "play": "10♥"}, players=4)
(1, SpadesAction('play TH'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tapete.cards import CARDS, NUM_CARDS, Card, CardError, card_name
from tapete.engine.spades.rules import SPECIAL_BIDS
from tapete.errors import IllegalAction

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
        """The action in the record format (``docs/records.md``); ``from_record`` reads it back."""
        if self < NUM_CARDS:
            return {"seat": seat, "play": card_name(self)}
        if self == LOOK:
            return {"seat": seat, "look": True}
        return {"seat": seat, "bid": self.bid}

    @staticmethod
    def from_code(code: object) -> SpadesAction:
        """The action of an int code; ``IllegalAction('bad_record')`` for anything else."""
        action = (
            ACTIONS[code] if isinstance(code, int) and not isinstance(code, bool) and 0 <= code < NUM_CODES else None
        )
        if action is None:
            raise IllegalAction("bad_record", f"{code!r} is not an action code")
        return action

    @staticmethod
    def from_record(obj: object, players: int) -> tuple[int, SpadesAction]:
        """``(seat, action)`` of a record-format action at a table of ``players`` seats.

        Forgiving where records are (``"nil"``, ``"10♥"``, ``"bn"``); anything malformed
        raises ``IllegalAction`` (``bad_record``, ``bid_out_of_range``, ``bid_not_allowed``).
        """
        if not isinstance(obj, Mapping):
            raise IllegalAction(
                "bad_record", f'an action must be an object such as {{"seat": 0, "play": "AS"}}, not {obj!r}'
            )
        seat = obj.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise IllegalAction("bad_record", f"'seat' must be a seat from 0 to {players - 1}, not {seat!r}")
        if len(obj) == 2 and "play" in obj:  # the common case, as the full check below reads it
            return seat, _play_of(obj["play"])
        kinds = [k for k in ("play", "bid", "look") if k in obj]
        if len(kinds) != 1 or set(obj) - {"seat", "play", "bid", "look"}:
            raise IllegalAction("bad_record", "an action has 'seat' and exactly one of 'play', 'bid' or 'look'")
        value = obj[kinds[0]]
        if kinds[0] == "play":
            return seat, _play_of(value)
        if kinds[0] == "look":
            if value is not True:
                raise IllegalAction("bad_record", "'look' must be true")
            return seat, LOOK_ACTION
        return seat, _bid_of(value)

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


def action_of_code(code: int) -> SpadesAction:
    """The cached action of a code known to be valid (a ``ValueError`` otherwise)."""
    action = _ALL[code] if 0 <= code < NUM_CODES else None
    if action is None:
        raise ValueError(f"{code} is not an action code")
    return action


LOOK_ACTION: Final = action_of_code(LOOK)


def _play_of(value: object) -> SpadesAction:
    if not isinstance(value, str):
        raise IllegalAction("bad_record", f"'play' must be a card such as 'AS', not {value!r}")
    try:
        return action_of_code(Card.parse(value))
    except CardError as exc:
        raise IllegalAction("bad_record", str(exc)) from exc


def _bid_of(value: object) -> SpadesAction:
    if value == "nil":
        value = 0
    if isinstance(value, bool):
        raise IllegalAction("bad_record", f"'bid' must be a number, 'nil' or a special bid, not {value!r}")
    if isinstance(value, int):
        if not 0 <= value <= MAX_BID:
            raise IllegalAction("bid_out_of_range", f"a bid is a number of tricks from 0 up, not {value}")
        return action_of_code(BID_BASE + value)
    if isinstance(value, str) and value.upper() in SPECIAL_CODE:
        return action_of_code(SPECIAL_CODE[value.upper()])
    raise IllegalAction("bid_not_allowed", f"{value!r} is not a bid (a number, 'nil', 1F, 2F, B6, BN or SM)")


def bid_action(n: int) -> SpadesAction:
    if not 0 <= n <= MAX_BID:
        raise ValueError(f"no bid of {n}")
    return action_of_code(BID_BASE + n)


def special_action(name: str) -> SpadesAction:
    return action_of_code(SPECIAL_CODE[name])


def play_action(card: int) -> SpadesAction:
    return action_of_code(card)


def bid_code(bid: int | str) -> int:
    """The action code of a bid as records write it (a number, 0 for nil, or a special bid)."""
    return _bid_of(bid)
