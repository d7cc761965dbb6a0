"""Helpers for building positions in tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import tapete
from tapete.cards import Card


def build_deal(
    profile: str,
    dealer: int,
    fixed: Mapping[int, Iterable[str]] | None = None,
    *,
    void: Mapping[int, str] | None = None,
    options: Mapping[str, object] | None = None,
) -> list[list[str]]:
    """A legal deal giving ``fixed`` cards to their seats; the rest fill the hands.

    The rest go in deck order (suits some seat is void in first), each to the seat with
    the most room that is not ``void`` in the card's suit (``{seat: "CS"}``; jokers count as spades).
    """
    rules = tapete.load_profile(profile, options)
    sizes = rules.hand_sizes(dealer)
    hands: list[list[str]] = [[] for _ in range(rules.players)]
    used: set[str] = set()
    for seat, cards in (fixed or {}).items():
        for c in cards:
            name = str(Card.parse(c))
            assert name not in used, name
            hands[seat].append(name)
            used.add(name)
    voids = void or {}

    def suit(name: str) -> str:
        return "S" if name.endswith("J") else name[1]

    def eligible(name: str) -> list[int]:
        return [s for s in range(rules.players) if suit(name) not in voids.get(s, "")]

    rest = [str(c) for c in rules.deck if str(c) not in used]
    rest.sort(key=lambda name: len(eligible(name)))  # stable: constrained suits first, else deck order
    for name in rest:
        room = [s for s in eligible(name) if len(hands[s]) < sizes[s]]
        assert room, f"cannot place {name}"
        seat = max(room, key=lambda s: sizes[s] - len(hands[s]))
        hands[seat].append(name)
    assert [len(h) for h in hands] == sizes
    return hands


def bid_all(game: Any, bids: Sequence[object]) -> None:
    """Bid for every seat in turn; ``bids`` is indexed by seat."""
    for _ in range(game.num_players):
        seat = game.to_act
        game.apply({"seat": seat, "bid": bids[seat]})


def play(game: Any, *cards: str) -> None:
    for card in cards:
        game.apply({"seat": game.to_act, "play": card})


def random_playout(game: Any, rng: random.Random, max_actions: int = 100_000) -> int:
    """Random legal actions until the game ends (or ``max_actions``); returns the count."""
    n = 0
    while not game.is_over() and n < max_actions:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def sensible_random_action(game: Any, rng: random.Random) -> Any:
    """A random legal action; Spades-family bids lean low so contracts are made and games end."""
    legal = game.legal_actions()
    if getattr(game, "phase", None) is not None and game.phase.name == "BID":
        low = [a for a in legal if a.is_bid and isinstance(a.bid, int) and 1 <= a.bid <= 3]
        if low and rng.random() < 0.8:
            return rng.choice(low)
    return rng.choice(legal)
