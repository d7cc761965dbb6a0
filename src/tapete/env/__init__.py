"""Environments for people who train agents (``pip install 'tapete[env]'``).

- ``aec_env(profile, **options)``: a PettingZoo AEC environment for every profile.
- ``single_agent(profile, opponents="normal", seat=0)``: a Gymnasium environment in
  which the other seats are tapete bots.

>>> env = aec_env("cutthroat", max_hands=1)
>>> env.reset(seed=1)
>>> obs = env.observe(env.agent_selection)
>>> obs["observation"].shape == env.observation_space("player_0")["observation"].shape
True
"""

from __future__ import annotations

from tapete.env.aec import TapeteAEC, aec_env
from tapete.env.single import SingleAgentEnv, single_agent

__all__ = ["SingleAgentEnv", "TapeteAEC", "aec_env", "single_agent"]
