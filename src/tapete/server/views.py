"""What each client may see.

A seat gets the engine's ``observation(seat)``. A spectator gets a view built opt-in:
only the fields its family lists as public (``Family.public_fields``) are copied from an
observation, the hand is never copied, and fields a future engine adds stay private
until they are listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from tapete.engine.base import JSON, Game
from tapete.families import family_of


class ViewParts(NamedTuple):
    """The views of the watched seats at one version, as ``Game.observation_parts`` gives them:
    the public part every seat shares and each seat's own part (read them only)."""

    version: int
    public: Mapping[str, JSON]
    own: Mapping[int, Mapping[str, JSON]]

    def view(self, seat: int) -> dict[str, JSON]:
        """The whole view of ``seat`` (one of the seats the parts were built for)."""
        return {**self.public, **self.own[seat]}


def spectator_view(game: Game) -> dict[str, JSON]:
    """Public facts only: no hand, no legal actions, ``seat`` is ``None``."""
    # the observation of a seat that is not to act carries no legal actions; its hand is
    # simply not copied
    seat = 0 if game.to_act != 0 else 1
    return family_of(game).public_view(game.observation(seat))


def hand_summary(game: Game, finished_hand: int) -> dict[str, JSON] | None:
    """The result of a finished hand (families with ``hand_results``), from public facts."""
    obs = spectator_view(game)
    last = obs.get("last_hand")
    out: dict[str, JSON] = {"hand": finished_hand, "result": last, "scores": obs.get("scores"), "bags": obs.get("bags")}
    # the finished hand's bids and tricks won per seat (public once the hand is over)
    hands = game.replay_summary(last_hands=2).get("hands") or []  # the finished hand and the one dealt after it
    done = [h for h in hands if h.get("score_change") is not None]
    if done:
        out["bids"] = done[-1].get("bids")
        out["tricks_won"] = done[-1].get("tricks_won")
    return out


def game_summary(game: Game) -> dict[str, JSON]:
    """Final scores and winner, with the end-of-game facts the public view holds (settlement, tokens, …)."""
    obs = spectator_view(game)
    out: dict[str, JSON] = {"scores": list(game.scores()), "winner": game.winner()}
    for key in ("settlement", "tokens", "bags", "last_hand", "match"):
        if key in obs:
            out[key] = obs[key]
    return out
