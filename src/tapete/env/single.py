"""A Gymnasium single-agent environment: one seat is the agent, the others tapete bots.

The agent's observation is the same dict as in the AEC env. After the agent acts, the
bots act (each on its own seat's observation) until it is the agent's turn again or the
game is over. The reward is the agent side's score change of every hand that ended. An
action outside the mask changes nothing: it is reported in ``info["illegal_action"]``
and costs ``illegal_action_penalty``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

import tapete
from tapete.engine.base import Game
from tapete.env.aec import finished_hand_changes, side_of
from tapete.env.encoding import Encoder, encoder_for, mask_of


class SingleAgentEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium declares it as an instance variable

    def __init__(
        self,
        profile: str = "cutthroat",
        *,
        opponents: str = "normal",
        seat: int = 0,
        options: dict[str, object] | None = None,
        max_hands: int | None = None,
        illegal_action_penalty: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        self.profile = profile
        self.options = dict(options or {})
        self.rules = tapete.load_profile(profile, self.options)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be from 0 to {self.rules.players - 1}")
        self.seat = seat
        self.opponents = opponents
        self.max_hands = max_hands
        self.illegal_action_penalty = illegal_action_penalty
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.rules)
        self.observation_space = gym.spaces.Dict(  # type: ignore[assignment]
            {
                "observation": gym.spaces.Box(-10.0, 10.0, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": gym.spaces.Box(0, 1, shape=(self.encoder.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = gym.spaces.Discrete(self.encoder.num_actions)
        self._game: Game | None = None
        self._bots: dict[int, Any] = {}
        self._hands_done = 0

    @property
    def game(self) -> Game:
        """The game of the current episode (``reset`` starts one)."""
        if self._game is None:
            raise RuntimeError("call reset() first")
        return self._game

    def _observe(self) -> dict[str, np.ndarray]:
        obs = self.game.observation(self.seat)
        legal = self.encoder.legal(obs) if obs["legal_actions"] else {}
        return {"observation": self.encoder.encode(obs), "action_mask": mask_of(self.encoder, legal)}

    def _reward(self) -> float:
        finished = finished_hand_changes(self.game)
        side = side_of(self.rules, self.seat)
        reward = sum(float(change[side]) for change in finished[self._hands_done :])
        self._hands_done = len(finished)
        return reward

    def _run_bots(self) -> float:
        reward = 0.0
        while not self.game.is_over() and self.game.to_act != self.seat:
            seat = self.game.to_act
            assert seat is not None  # the game is not over
            self.game.apply(self._bots[seat].act(self.game.observation(seat)))
            reward += self._reward()
            if self._truncated():
                break
        return reward

    def _truncated(self) -> bool:
        return self.max_hands is not None and self._hands_done >= self.max_hands and not self.game.is_over()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        from tapete.bots import make_bot

        game_seed = int(self.np_random.integers(1 << 31))
        self._game = tapete.new_game(self.profile, seed=game_seed, options=self.options)
        rng = random.Random(game_seed)
        self._bots = {
            s: make_bot(self.opponents, seed=rng.randrange(1 << 31))
            for s in range(self.rules.players)
            if s != self.seat
        }
        self._hands_done = 0
        self._run_bots()
        self._reward()
        return self._observe(), {}

    def step(self, action: np.int64 | int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.game.is_over():
            raise RuntimeError("the game is over: call reset()")
        legal = self.encoder.legal(self.game.observation(self.seat))
        info: dict[str, Any] = {}
        if int(action) not in legal:
            info["illegal_action"] = True
            return self._observe(), -self.illegal_action_penalty, False, False, info
        self.game.apply(legal[int(action)])
        reward = self._reward()
        if not self._truncated():
            reward += self._run_bots()
        terminated = bool(self.game.is_over())
        truncated = self._truncated()
        return self._observe(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from tapete.records import report_of
        from tapete.render import replay_report_text

        return replay_report_text(report_of(self.game, self.profile, None))


def single_agent(profile: str = "cutthroat", opponents: str = "normal", seat: int = 0, **kwargs: Any) -> SingleAgentEnv:
    """A Gymnasium env where ``seat`` is the agent and the other seats are bots of ``opponents`` level."""
    return SingleAgentEnv(profile, opponents=opponents, seat=seat, **kwargs)
