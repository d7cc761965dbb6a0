"""Helpers for the Run Fast bot tests: random positions and hand-made observations."""

from __future__ import annotations

import random
from typing import Any

import tapete
from tapete.engine.runfast.actions import RunFastAction, action_of, card_names
from tapete.engine.runfast.combos import classify, describe, lead_plays, responses
from tapete.engine.runfast.game import RunFastGame


def random_position(seed: int, max_actions: int = 80) -> RunFastGame:
    """A game advanced by a random number of random legal actions (not over)."""
    rng = random.Random(seed)
    g: RunFastGame = tapete.new_game("runfast", seed=seed)
    for _ in range(rng.randrange(0, max_actions)):
        legal = g.legal_actions()
        nxt = g.clone()
        nxt.apply(rng.choice(legal))
        if nxt.is_over():
            break
        g = nxt
    return g


def observation(
    hand: str,
    *,
    current: str | None = None,
    current_seat: int = 2,
    sizes: tuple[int, int, int] = (16, 16, 16),
    seat: int = 0,
) -> dict[str, Any]:
    """A hand-made observation of ``seat`` after the opening (no earlier plays needed)."""
    mask = action_of(hand.split())
    sizes_l = list(sizes)
    sizes_l[seat] = mask.bit_count()
    cur = None
    if current is None:
        legal = [RunFastAction(a).to_record(seat) for a in lead_plays(mask)]
    else:
        cm = action_of(current.split())
        key = classify(cm)
        assert key is not None
        cur = {"seat": current_seat, "cards": card_names(cm), "combination": describe(key)}
        legal = [a.to_record(seat) for a in responses(mask, key)] or [{"seat": seat, "pass": True}]
    return {
        "game": "runfast",
        "profile": "runfast",
        "options": {},
        "rules": {"first_lead": "3H"},
        "seat": seat,
        "players": 3,
        "phase": "play",
        "to_act": seat,
        "first_leader": 1,
        "hand": card_names(mask),
        "hand_sizes": sizes_l,
        "has_played": [True, True, True],
        "plays": [],
        "current": cur,
        "passed": [],
        "pending_bomb": None,
        "bomb_bonuses": [],
        "bonus": [0, 0, 0],
        "scores": [0, 0, 0],
        "settlement": None,
        "winner": None,
        "legal_actions": legal,
    }


def played(action: dict[str, Any]) -> list[str]:
    return list(action.get("play", []))
