"""The ``hint`` message: the normal bot's suggestion and a short reason read off the observation.

The suggestion is computed like a bot move (in the worker pool, never on the event loop);
the reason is a plain rule of thumb derived from the observation and the suggested action,
returned as an English msgid that the caller translates.

>>> obs = {"game": "spades", "phase": "play", "hand": ["AS", "3H", "9H"], "trick": {"cards": ["5H"], "seats": [1]},
...        "tricks": [], "players": 3}
>>> hint_reason(obs, {"seat": 0, "play": "3H"})
'You cannot win this trick: play your lowest card of the suit.'
>>> hint_reason(obs, {"seat": 0, "play": "9H"})
'Win the trick as cheaply as you can.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tapete.families import family_of

RANKS: Final = "23456789TJQKA"
DEFAULT_REASON: Final = "The normal bot would play this."
"""The reason given when nothing more specific applies (or the family has no hints)."""


def _rank(card: str) -> int:
    return RANKS.index(card[0]) if card[0] in RANKS else 20


def _suit(card: str) -> str:
    return card[1] if len(card) == 2 and card[1] != "J" else "S"  # jokers count as spades


def _played(obs: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for trick in obs.get("tricks") or []:
        out.update(trick.get("cards") or [])
    trick = obs.get("trick") or {}
    out.update(trick.get("cards") or [])
    return out


def _is_master(card: str, obs: Mapping[str, Any], hand: Sequence[str]) -> bool:
    """No unseen card of ``card``'s suit ranks above it (jokers aside)."""
    if card[1:] == "J":
        return False
    gone = _played(obs) | set(hand)
    suit = card[1]
    removed = set(((obs.get("rules") or {}).get("removed")) or [])
    return all(f"{r}{suit}" in gone or f"{r}{suit}" in removed for r in RANKS[_rank(card) + 1 :])


def spades_reason(obs: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    """Why the normal bot's Spades-family move is a good one (an English msgid)."""
    hand: list[str] = list(obs.get("hand") or [])
    if "look" in action:
        return "Look at your cards before you bid."
    if "bid" in action:
        bid = action["bid"]
        if bid in ("BN", "B6") or obs.get("hand_face_down"):
            return "A blind bid is worth the risk when you are behind."
        if bid in (0, "nil"):
            return "Your hand is weak enough to try nil."
        return "Bid from your aces, kings and spades."
    card = action.get("play")
    if not isinstance(card, str):
        return DEFAULT_REASON
    trick = obs.get("trick") or {}
    cards: list[str] = list(trick.get("cards") or [])
    if not cards:
        if _is_master(card, obs, hand):
            return "You hold the master: it wins the trick."
        return "Lead a low card and keep your winners."
    led = _suit(cards[0])
    if _suit(card) != led:
        if _suit(card) == "S":
            return "You are out of the suit led: trump with a spade."
        return "You are out of the suit led: throw away a low card."
    # following suit: does it beat what is there?
    trumped = any(_suit(c) == "S" for c in cards) and led != "S"
    best = max((_rank(c) for c in cards if _suit(c) == led), default=-1)
    same = sorted(_rank(c) for c in hand if _suit(c) == led)
    if not trumped and _rank(card) > best:
        return "Win the trick as cheaply as you can."
    if same and _rank(card) == same[0] and (best > _rank(card) or trumped):
        return "You cannot win this trick: play your lowest card of the suit."
    return "Follow suit with your lowest card."


def runfast_reason(obs: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    """Why the normal bot's Run Fast move is a good one (an English msgid)."""
    if action.get("pass"):
        return "You cannot beat this play: pass."
    cards = action.get("play")
    if not isinstance(cards, list) or not cards:
        return DEFAULT_REASON
    if len(cards) == 4 and len({c[0] for c in cards}) == 1:
        return "A bomb beats anything and earns a bonus."
    if len(cards) >= 2:
        return "Shed several cards in one play."
    return "Get rid of your lowest cards first."


def hint_reason(obs: Mapping[str, Any], action: Mapping[str, Any]) -> str:
    """An English msgid explaining ``action`` in ``obs`` (see :mod:`tapete.web.strings`), by its family's hint."""
    reason = family_of(obs).hint()
    return reason(obs, action) if reason is not None else DEFAULT_REASON


__all__ = ["DEFAULT_REASON", "hint_reason", "runfast_reason", "spades_reason"]
