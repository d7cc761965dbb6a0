"""Computer players for Run Fast (``docs/rules.md``): easy, normal and hard.

- easy leads its lowest legal combination and answers with the lowest play that beats;
- normal plans its hand as few plays as possible (``plan``), goes out when it can,
  presses opponents close to going out and weighs bomb bonuses and held penalties;
- hard samples deals consistent with its view, pass inference included (``sampler``),
  and plays each candidate out on them (``search``).

Every level is a function of the seat's observation and its seed only.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any, cast

from tapete.bots.base import Observation
from tapete.bots.budget import Deadline, time_budget
from tapete.bots.runfast.policy import easy_choose, normal_choose
from tapete.bots.runfast.sampler import Sampler, sample_deals
from tapete.bots.runfast.search import hard_choose
from tapete.bots.runfast.view import View, read_view
from tapete.engine.runfast.observation import RunFastObservation
from tapete.families.registry import Bot

DEFAULT_SAMPLES = 32
"""Hard: sampled deals per decision."""
DEFAULT_CANDIDATES = 5
"""Hard: the normal policy's best plays that the search compares."""
DEFAULT_STEPS = 6000
"""Hard: playout actions per decision at most (checked after each sampled deal)."""


def decision_rng(seed: int, observation: Observation) -> random.Random:
    """A generator fixed by the bot's seed and the observation: same input, same decision."""
    text = json.dumps([seed, observation], sort_keys=True, default=str)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


class RunFastBot:
    """One Run Fast bot of a level; ``act`` maps an observation to a legal action."""

    def __init__(self, level: str, seed: int = 0, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.level = level
        self.seed = seed
        self.samples = int(params.pop("samples", DEFAULT_SAMPLES))
        self.candidates = int(params.pop("candidates", DEFAULT_CANDIDATES))
        self.steps = int(params.pop("steps", DEFAULT_STEPS))
        self.time_budget = time_budget(params.pop("time_budget", None))
        params.pop("rollouts", None)
        params.pop("simulations", None)
        if params:
            raise ValueError(f"unknown bot parameters: {', '.join(sorted(params))}")

    def choose(self, view: View) -> int:
        legal = list(view.legal)
        if self.level == "easy":
            return easy_choose(legal)
        if self.level == "normal":
            return normal_choose(view.seat, view.hand, legal, view.cur_key, view.sizes, view.out)
        rng = decision_rng(self.seed, view.obs)
        deadline = Deadline.after(self.time_budget)
        return hard_choose(view, rng, self.samples, self.candidates, self.steps, deadline)

    def act(self, observation: Observation) -> dict[str, Any]:
        view = read_view(cast(RunFastObservation, observation))  # the family's own observation
        if not view.legal:
            raise ValueError("this observation has no legal actions: it is not this seat's turn")
        mask = self.choose(view)
        if mask not in view.legal:  # never happens; a bug must not make the bot cheat or stall
            mask = next(iter(view.legal))
        return dict(view.legal[mask])


def make_runfast_bot(level: str, seed: int, params: Mapping[str, Any]) -> Bot:
    """The Run Fast family factory (``ismcts`` plays as hard)."""
    return RunFastBot(level, seed, params)


__all__ = ["RunFastBot", "Sampler", "decision_rng", "make_runfast_bot", "read_view", "sample_deals"]
