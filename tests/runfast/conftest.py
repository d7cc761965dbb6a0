"""Shared helpers for the Run Fast tests, offered as fixtures (``--import-mode=importlib``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tapete.cards import Card, card_name
from tapete.engine.runfast.actions import DECK, SORT_KEY
from tapete.engine.runfast.game import RunFastGame
from tapete.engine.runfast.rules import RunFastRules

Deal = list[list[str]]


def build_deal(*hands: str) -> Deal:
    """Three seats' named cards; the rest of the deck fills every hand up to 16.

    Fillers go round the seats rank by rank, so they spread each rank over the seats
    (they never make a bomb on their own).
    """
    named = [[card_name(Card.parse(x)) for x in h.split()] for h in hands]
    named += [[] for _ in range(3 - len(named))]
    used = {c for h in named for c in h}
    assert len(used) == sum(len(h) for h in named), "a card is named twice"
    rest = sorted((c for c in DECK if card_name(c) not in used), key=SORT_KEY.__getitem__)
    seat = 0
    for c in rest:
        while len(named[seat]) >= 16:
            seat = (seat + 1) % 3
        named[seat].append(card_name(c))
        seat = (seat + 1) % 3
    assert [len(h) for h in named] == [16, 16, 16]
    return named


def make_game(*hands: str, first_lead: str = "3H") -> RunFastGame:
    rules = RunFastRules.from_options({"first_lead": first_lead}, profile="runfast")
    return RunFastGame(rules, seed=0, deal=build_deal(*hands))


@pytest.fixture
def game() -> Callable[..., RunFastGame]:
    """``game("3H 3S …", "JS JH …", "9S 9H …")``: a game on a deal built from those cards."""
    return make_game


@pytest.fixture
def deal() -> Callable[..., Deal]:
    return build_deal
