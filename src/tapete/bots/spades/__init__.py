"""Computer players for the Spades family (every profile of the family)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any, cast

from tapete.bots.base import Observation
from tapete.bots.budget import Deadline, time_budget
from tapete.bots.spades.bidding import NilCheck, hard_bid
from tapete.bots.spades.expert import (
    DEFAULT_DDS_CARDS,
    DEFAULT_EXPERT_NODES,
    DEFAULT_EXPERT_SAMPLES,
    DEFAULT_MAXN_CARDS,
    DEFAULT_NIL_CARDS,
    DEFAULT_NIL_KEEP,
    expert_play,
    nil_holds,
)
from tapete.bots.spades.heuristics import normal_bid
from tapete.bots.spades.play import easy_play, normal_play
from tapete.bots.spades.sampler import Sampler, sample_deal
from tapete.bots.spades.search import hard_mcts, hard_play, ismcts_play
from tapete.bots.spades.view import SUITS, View, read_view
from tapete.engine.spades.actions import BID_BASE, LOOK
from tapete.engine.spades.observation import SpadesObservation
from tapete.families.registry import Bot

DEFAULT_SAMPLES = 160
"""Hard: the pool of bid-weighted deals the search draws its determinizations from."""
DEFAULT_ROLLOUTS = 2400
"""Hard: simulations (tree search, the default) or rollouts in all (``search="pimc"``)."""
DEFAULT_SIMULATIONS = 1000
"""ISMCTS baseline: simulations."""
DEFAULT_BID_SAMPLES = 200
"""Hard: sampled deals on which the bid candidates are played out."""
DEFAULT_EPSILON = 0.5
"""Hard: probability that a playout card is random rather than the greedy policy's."""


def decision_rng(seed: int, observation: Observation) -> random.Random:
    """A generator fixed by the bot's seed and the observation: same input, same decision."""
    text = json.dumps([seed, observation], sort_keys=True, default=str)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def easy_bid(view: View) -> int:
    """Look if face down; then count aces and kings."""
    if LOOK in view.legal:
        return LOOK
    count = 0
    for s in range(3):
        top = (view.deck & SUITS[s]).bit_length() - 1
        count += (view.hand >> top) & 1
        count += (view.hand >> (top - 1)) & 1
    count += (view.hand >> 51) & 1
    count += (view.hand >> 50) & 1
    code = BID_BASE + max(1, count)
    if code not in view.legal:
        code = max(c for c in view.legal if BID_BASE <= c < BID_BASE + 56)
    return code


class SpadesBot:
    """One Spades-family bot of a level; ``act`` maps an observation to a legal action."""

    def __init__(self, level: str, seed: int = 0, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.level = level
        self.seed = seed
        self.samples = int(params.pop("samples", DEFAULT_SAMPLES))
        self.rollouts = int(params.pop("rollouts", DEFAULT_ROLLOUTS))
        self.simulations = int(params.pop("simulations", DEFAULT_SIMULATIONS))
        self.search = str(params.pop("search", "mcts"))
        self.epsilon = float(params.pop("epsilon", DEFAULT_EPSILON))
        self.c_ucb = float(params.pop("c", 0.7))
        self.bid_samples = int(params.pop("bid_samples", DEFAULT_BID_SAMPLES))
        self.time_budget = time_budget(params.pop("time_budget", None))
        self.expert_samples = int(params.pop("expert_samples", DEFAULT_EXPERT_SAMPLES))
        self.expert_nodes = int(params.pop("expert_nodes", DEFAULT_EXPERT_NODES))
        self.dds_cards = int(params.pop("dds_cards", DEFAULT_DDS_CARDS))
        self.nil_cards = int(params.pop("nil_cards", DEFAULT_NIL_CARDS))
        self.maxn_cards = int(params.pop("maxn_cards", DEFAULT_MAXN_CARDS))
        self.nil_keep = float(params.pop("nil_keep", DEFAULT_NIL_KEEP))
        self.lasting = bool(int(params.pop("lasting", 0)))
        """Value hands with every bag charged its share of a penalty (``search.hand_worth``)
        instead of by the hand's score change; off by default (docs/analysis.md, *Bags over
        a game*: it cost the expert level first hands and was not shown to win games)."""
        if self.search not in ("mcts", "pimc", "tree"):
            raise ValueError(f"unknown search {self.search!r}: choose mcts, pimc or tree")
        if params:
            raise ValueError(f"unknown bot parameters: {', '.join(sorted(params))}")

    def choose(self, view: View) -> int:
        """The action code chosen for a view."""
        deadline = Deadline.after(self.time_budget)
        if view.phase == "bid":
            if self.level == "easy":
                return easy_bid(view)
            if self.level in ("hard", "expert"):
                return hard_bid(
                    view,
                    decision_rng(self.seed, view.obs),
                    self.bid_samples,
                    deadline,
                    lasting=self.lasting,
                    nil_check=self._nil_check(view, deadline),
                )
            return normal_bid(view)
        if self.level == "easy":
            return easy_play(view)
        if self.level == "normal":
            return normal_play(view)
        rng = decision_rng(self.seed, view.obs)
        if self.level == "expert":
            card = expert_play(
                view,
                rng,
                self.expert_samples,
                self.expert_nodes,
                self.dds_cards,
                deadline,
                self.nil_cards,
                lasting=self.lasting,
                maxn_cards=self.maxn_cards,
            )
            if card is not None:
                return card
            rng = decision_rng(self.seed, view.obs)  # deferred: hard's draws, as hard would make them
        if self.level in ("hard", "expert"):
            if self.search == "tree":
                return ismcts_play(view, rng, self.simulations, greedy=True, deadline=deadline, lasting=self.lasting)
            if self.search == "pimc":
                return hard_play(view, rng, self.samples, self.rollouts, deadline, lasting=self.lasting)
            return hard_mcts(
                view,
                rng,
                self.samples,
                self.rollouts,
                epsilon=self.epsilon,
                c_ucb=self.c_ucb,
                deadline=deadline,
                lasting=self.lasting,
            )
        return ismcts_play(view, rng, self.simulations, deadline=deadline)

    def _nil_check(self, view: View, deadline: Deadline) -> NilCheck | None:
        """The expert level's question before a nil where every seat plays for itself."""
        if self.level != "expert" or view.partnership or self.nil_keep <= 0:
            return None
        keep = self.nil_keep
        return lambda starts, seat: nil_holds(starts, seat, keep, deadline)

    def act(self, observation: Observation) -> dict[str, Any]:
        view = read_view(cast(SpadesObservation, observation))  # the family's own observation
        if not view.legal:
            raise ValueError("this observation has no legal actions: it is not this seat's turn")
        code = self.choose(view)
        if code not in view.legal:  # never happens; a bug must not make the bot cheat or stall
            code = min(view.legal)
        return dict(view.legal[code])


def make_spades_bot(level: str, seed: int, params: Mapping[str, Any]) -> Bot:
    return SpadesBot(level, seed, params)


__all__ = ["Sampler", "SpadesBot", "decision_rng", "make_spades_bot", "sample_deal"]
