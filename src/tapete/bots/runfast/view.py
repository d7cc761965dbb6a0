"""What one seat knows in Run Fast, read from its observation (never from a game state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tapete.bots.base import Observation
from tapete.cards import Card
from tapete.engine.runfast.actions import DECK_MASK
from tapete.engine.runfast.combos import CELESTIAL, FOUR_THREES, classify
from tapete.engine.runfast.rules import RunFastRules


def mask_of_names(names: Any) -> int:
    mask = 0
    for name in names:
        mask |= 1 << int(Card.parse(str(name)))
    return mask


def action_mask(action: Any) -> int:
    """The card mask of a legal action or a logged play (``0`` for a pass)."""
    cards = action.get("play", action.get("cards"))
    return 0 if not cards else mask_of_names(cards)


@dataclass
class View:
    obs: Observation
    seat: int
    hand: int
    legal: dict[int, dict[str, Any]]
    """Each legal action's card mask (``0``: pass) → the action as the engine wrote it."""
    cur_key: int
    cur_seat: int
    sizes: list[int]
    log: list[tuple[int, int]]
    played: int
    out: int
    first_leader: int
    rules: RunFastRules
    played_by: list[int] = field(default_factory=lambda: [0, 0, 0])


def read_view(obs: Observation) -> View:
    seat = int(obs["seat"])
    hand = mask_of_names(obs["hand"])
    legal = {action_mask(a): dict(a) for a in obs.get("legal_actions") or []}
    log = [(int(p["seat"]), action_mask(p)) for p in obs.get("plays") or []]
    played = 0
    played_by = [0, 0, 0]
    for s, m in log:
        played |= m
        played_by[s] |= m
    cur = obs.get("current")
    cur_key, cur_seat = -1, -1
    if cur:
        k = classify(mask_of_names(cur["cards"]))
        cur_key = -1 if k is None else k
        first_play = next((m for _, m in log if m), 0)
        if cur_key == FOUR_THREES and sum(1 for _, m in log if m) == 1 and first_play:
            cur_key = CELESTIAL
        cur_seat = int(cur["seat"])
    options = obs.get("rules") or {}
    rules = RunFastRules.from_options(dict(options), profile=str(obs.get("profile", "runfast")))
    return View(
        obs=obs,
        seat=seat,
        hand=hand,
        legal=legal,
        cur_key=cur_key,
        cur_seat=cur_seat,
        sizes=[int(x) for x in obs["hand_sizes"]],
        log=log,
        played=played,
        out=DECK_MASK & ~hand & ~played,
        first_leader=int(obs.get("first_leader", 0)),
        rules=rules,
        played_by=played_by,
    )


__all__ = ["View", "action_mask", "mask_of_names", "read_view"]
