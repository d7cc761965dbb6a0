"""A PettingZoo AEC environment for every tapete profile.

Agents are ``player_0 … player_{n-1}`` (seat numbers). Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` encoded from that
seat's own observation (``tapete.env.encoding``). Rewards come at the end of every
hand: each agent gets its side's score change for the hand (its team's in partnership
Spades; the settlement in Run Fast). An episode is one whole game (tourney where the
profile has tokens), or ``max_hands`` hands, after which the agents are truncated.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import tapete
from tapete.engine.base import Game
from tapete.env.encoding import Encoder, encoder_for, mask_of
from tapete.families import family_of


def finished_hand_changes(game: Game) -> list[tuple[int, ...]]:
    """The score change of every finished hand so far, per scoring side."""
    return family_of(game).hand_changes(game)


def side_of(rules: Any, seat: int) -> int:
    """The scoring side of ``seat`` (its team in partnership games)."""
    return family_of(rules).side_of(rules, seat)


class TapeteAEC(AECEnv):  # type: ignore[misc]
    """One tapete game as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tapete_v0", "is_parallelizable": False}

    def __init__(
        self,
        profile: str = "cutthroat",
        *,
        options: dict[str, object] | None = None,
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.options = dict(options or {})
        self.rules = tapete.load_profile(profile, self.options)
        self.encoder: Encoder = encoder_for(self.rules)
        self.max_hands = max_hands
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-10.0, 10.0, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(self.encoder.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seed_rng = random.Random()
        self._game: Game | None = None

    def _seat_to_act(self) -> int:
        seat = self.game.to_act
        if seat is None:
            raise RuntimeError("the game is over: nobody is to act")
        return seat

    @property
    def game(self) -> Game:
        """The game of the current episode (``reset`` starts one)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- episode --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        game_seed = self._seed_rng.randrange(1 << 31)
        self._game = tapete.new_game(self.profile, seed=game_seed, options=self.options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._hands_done = 0
        self._version = 0
        self._obs_cache: dict[tuple[int, int], dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[self._seat_to_act()]

    def _observation(self, seat: int) -> dict[str, Any]:
        """The seat's engine observation, built once per action."""
        key = (self._version, seat)
        cached = self._obs_cache.get(key)
        if cached is None:
            if len(self._obs_cache) > 16:
                self._obs_cache.clear()
            cached = self._obs_cache[key] = self.game.observation(seat)
        return cached

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        obs = self._observation(seat)
        legal = self.encoder.legal(obs) if obs["legal_actions"] else {}
        return {"observation": self.encoder.encode(obs), "action_mask": mask_of(self.encoder, legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        obs = self._observation(seat)
        legal = self.encoder.legal(obs)
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent}; use the action_mask")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(legal[int(action)])
        self._version += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        finished = finished_hand_changes(self.game)
        for change in finished[self._hands_done :]:
            for a in self.agents:
                self.rewards[a] += float(change[side_of(self.rules, self.agent_name_mapping[a])])
        self._hands_done = len(finished)
        if self.game.is_over():
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_hands is not None and self._hands_done >= self.max_hands:
            self.truncations = dict.fromkeys(self.agents, True)
        if not self.game.is_over() and not any(self.truncations.values()):
            self.agent_selection = self.possible_agents[self._seat_to_act()]
        else:
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from tapete.records import report_of
        from tapete.render import replay_report_text

        return replay_report_text(report_of(self.game, self.profile, None))

    def close(self) -> None:
        self._game = None


def aec_env(profile: str = "cutthroat", **kwargs: Any) -> TapeteAEC:
    """``aec_env("spades", max_hands=1)``: the PettingZoo AEC environment of a profile."""
    return TapeteAEC(profile, **kwargs)
