"""tapete — exact rules engines, computer players and a card table for the Spades family and Run Fast.

>>> import random, tapete
>>> g = tapete.new_game("cutthroat", seed=7, options={"target": 100, "floor": -100})
>>> rng = random.Random(0)
>>> while not g.is_over():
...     g.apply(rng.choice(g.legal_actions()))
>>> g.winner() in (0, 1, 2)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from tapete.cards import Card, CardSet
from tapete.engine.base import Game
from tapete.errors import BadRecord, IllegalAction, ProfileError, TapeteError
from tapete.families import family_of
from tapete.profiles import load_profile, profile_info, profile_names

__version__ = "0.1.0"

__all__ = [
    "BadRecord",
    "Card",
    "CardSet",
    "Game",
    "IllegalAction",
    "ProfileError",
    "TapeteError",
    "game_from_rules",
    "load_profile",
    "new_game",
    "profile_info",
    "profile_names",
]


def new_game(
    profile: str = "cutthroat",
    *,
    seed: int | None = None,
    deal: Sequence[Sequence[object]] | None = None,
    dealer: int | None = None,
    options: Mapping[str, object] | None = None,
    deals: Sequence[Sequence[Sequence[object]] | None] | None = None,
    draw: Sequence[object] | None = None,
) -> Game:
    """A new game of ``profile``.

    ``deal`` fixes the first hand's cards (``deals`` several hands' cards) and
    ``dealer`` the first dealer, as in a record; what is not given comes from ``seed``
    (a fresh 128-bit seed from the operating system's CSPRNG when ``None``; it is kept in
    the game's record).
    """
    rules = load_profile(profile, options)
    if seed is None:
        seed = secrets.randbits(128)  # secret: a 31-bit seed is within reach of a search from one hand
    return game_from_rules(rules, seed=seed, deal=deal, dealer=dealer, deals=deals, draw=draw)


def game_from_rules(
    rules: Any,
    *,
    seed: int,
    deal: Sequence[Sequence[object]] | None = None,
    dealer: int | None = None,
    deals: Sequence[Sequence[Sequence[object]] | None] | None = None,
    draw: Sequence[object] | None = None,
) -> Game:
    """A new game from already loaded rules (the family registry picks the engine)."""
    if deal is not None and deals is not None:
        raise ValueError("give either deal or deals, not both")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadRecord(f"the seed must be an integer, not {seed!r}")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)):
        raise BadRecord(f"the dealer must be a seat number, not {dealer!r}")
    all_deals = [deal] if deal is not None else list(deals or [])
    if any(d is not None and not isinstance(d, (list, tuple)) for d in all_deals):
        raise BadRecord("each deal must be a list of the seats' cards")
    return family_of(rules).new_game(rules, seed=seed, deals=all_deals, dealer=dealer, draw=draw)
