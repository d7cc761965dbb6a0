"""What one seat knows in Run Fast, read from its observation (never from a game state)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tapete.cards import mask_of_names
from tapete.engine.base import JSON
from tapete.engine.runfast.actions import RunFastAction
from tapete.engine.runfast.combos import CELESTIAL, FOUR_THREES, classify
from tapete.engine.runfast.observation import PlayView, RunFastObservation
from tapete.engine.runfast.rules import RunFastRules


def action_mask(action: Mapping[str, object]) -> int:
    """The card mask of a legal action in the record format (``0`` for a pass), by the engine's codec."""
    return int(RunFastAction.from_record(action)[1])


def play_mask(play: PlayView) -> int:
    """The card mask of a logged play (``0`` for a pass)."""
    return mask_of_names(play.get("cards", ()))


@dataclass
class View:
    obs: RunFastObservation
    seat: int
    hand: int
    legal: dict[int, dict[str, JSON]]
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


def read_view(obs: RunFastObservation) -> View:
    """Read an observation once into a ``View``."""
    seat = obs["seat"]
    hand = mask_of_names(obs["hand"])
    legal = {action_mask(a): dict(a) for a in obs["legal_actions"]}
    log = [(p["seat"], play_mask(p)) for p in obs["plays"]]
    played = 0
    played_by = [0, 0, 0]
    for s, m in log:
        played |= m
        played_by[s] |= m
    cur = obs["current"]
    cur_key, cur_seat = -1, -1
    if cur:
        k = classify(mask_of_names(cur["cards"]))
        cur_key = -1 if k is None else k
        first_play = next((m for _, m in log if m), 0)
        if cur_key == FOUR_THREES and sum(1 for _, m in log if m) == 1 and first_play:
            cur_key = CELESTIAL
        cur_seat = cur["seat"]
    rules = RunFastRules.from_options(dict(obs["rules"]), profile=obs["profile"])
    return View(
        obs=obs,
        seat=seat,
        hand=hand,
        legal=legal,
        cur_key=cur_key,
        cur_seat=cur_seat,
        sizes=list(obs["hand_sizes"]),
        log=log,
        played=played,
        out=rules.deck_mask & ~hand & ~played,
        first_leader=obs["first_leader"],
        rules=rules,
        played_by=played_by,
    )


__all__ = ["View", "action_mask", "play_mask", "read_view"]
