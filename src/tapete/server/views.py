"""What each client may see.

A seat gets the engine's ``observation(seat)``. A spectator gets a view built opt-in:
only the fields listed here as public are copied from an observation, the hand is
never copied, and fields a future engine adds stay private until they are listed.
"""

from __future__ import annotations

from typing import Any, Final

from tapete.engine.base import JSON

PUBLIC_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "spades": (
        "game",
        "profile",
        "options",
        "rules",
        "players",
        "partnership",
        "phase",
        "game_number",
        "hand_number",
        "dealer",
        "to_act",
        "hand_sizes",
        "dealt_sizes",
        "bids",
        "looked",
        "blind_six_used",
        "tricks_won",
        "trick",
        "tricks",
        "spades_broken",
        "sitting_out",
        "scores",
        "bags",
        "tokens",
        "last_hand",
        "winner",
    ),
    "runfast": (
        "game",
        "profile",
        "options",
        "rules",
        "players",
        "phase",
        "to_act",
        "first_leader",
        "hand_sizes",
        "has_played",
        "plays",
        "current",
        "passed",
        "pending_bomb",
        "bomb_bonuses",
        "bonus",
        "scores",
        "settlement",
        "winner",
    ),
}


def spectator_view(game: Any) -> dict[str, JSON]:
    """Public facts only: no hand, no legal actions, ``seat`` is ``None``."""
    # the observation of a seat that is not to act carries no legal actions; its hand is
    # simply not copied
    seat = 0 if game.to_act != 0 else 1
    obs = game.observation(seat)
    family = str(obs.get("game"))
    view: dict[str, JSON] = {k: obs[k] for k in PUBLIC_FIELDS.get(family, ()) if k in obs}
    view["seat"] = None
    view["hand"] = None
    view["legal_actions"] = []
    return view


def hand_summary(game: Any, finished_hand: int) -> dict[str, JSON] | None:
    """The result of a finished Spades-family hand (public), from any seat's observation."""
    obs = spectator_view(game)
    last = obs.get("last_hand")
    out: dict[str, JSON] = {"hand": finished_hand, "result": last, "scores": obs.get("scores"), "bags": obs.get("bags")}
    # the finished hand's bids and tricks won per seat (public once the hand is over)
    summary = getattr(game, "replay_summary", None)
    if summary is not None:
        hands = summary().get("hands") or []
        done = [h for h in hands if h.get("score_change") is not None]
        if done:
            out["bids"] = done[-1].get("bids")
            out["tricks_won"] = done[-1].get("tricks_won")
    return out


def game_summary(game: Any) -> dict[str, JSON]:
    """Final scores, winner and (runfast) settlement — all public."""
    obs = spectator_view(game)
    out: dict[str, JSON] = {"scores": list(game.scores()), "winner": game.winner()}
    for key in ("settlement", "tokens", "bags", "last_hand"):
        if key in obs:
            out[key] = obs[key]
    return out
