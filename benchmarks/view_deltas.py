"""What a state as a change saves: bytes and CPU of a view's delta against its whole JSON.

Plays ``--games`` games of each profile with random legal actions (``--seed``), and for every
action and every seat (views built together, as the server builds them) and the spectators compares the change from the view before
(``tapete.server.deltas.view_delta``) with the whole view: bytes as JSON (mean and p95) and
the time to compute the change against the time to encode the whole view with orjson.
Then, for every action, the time to find every seat's change as the server does — the
change of the public part once, joined with each seat's own part's change
(``Game.observation_parts``) — against comparing every seat's whole view.

    python benchmarks/view_deltas.py --games 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import orjson

from tapete import new_game
from tapete.server.deltas import apply_delta, joined_delta, view_delta
from tapete.server.views import spectator_view

MAX_GAMES = 50
MAX_ACTIONS = 5000


def pairs_of(profile: str, games: int, seed: int, actions: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(view before, view after) for every action, seat and the spectators over ``games`` games of
    at most ``actions`` actions each (random bids can keep a game going for a very long time)."""
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for g in range(games):
        game = new_game(profile, seed=seed + g)
        seats = range(game.num_players)
        previous: list[dict[str, Any]] | None = None
        for _ in range(actions):
            if game.is_over():
                break
            # built together, as the server builds them (their unchanged values kept from the version before)
            together = game.observations(seats)
            shown = [together[s] for s in seats] + [spectator_view(game)]
            if previous is not None:
                out.extend(zip(previous, shown, strict=True))
            previous = shown
            game.apply(game.parse_action(rng.choice(game.observation(game.to_act)["legal_actions"])))
    return out


Parts = tuple[dict[str, Any], dict[int, dict[str, Any]]]


def versions_of(profile: str, games: int, seed: int, actions: int) -> list[tuple[Parts, Parts]]:
    """(every seat's views in parts before, after) for every action of ``games`` random games."""
    rng = random.Random(seed)
    out: list[tuple[Parts, Parts]] = []
    for g in range(games):
        game = new_game(profile, seed=seed + g)
        previous: Parts | None = None
        for _ in range(actions):
            if game.is_over():
                break
            parts = game.observation_parts(range(game.num_players))
            if previous is not None:
                out.append((previous, parts))
            previous = parts
            game.apply(game.parse_action(rng.choice(game.observation(game.to_act)["legal_actions"])))
    return out


def seat_changes_timed(versions: list[tuple[Parts, Parts]]) -> tuple[float, float]:
    """Seconds a version to find every seat's change: from the whole views, and in parts."""
    wholes = [
        ({s: {**b[0], **own} for s, own in b[1].items()}, {s: {**a[0], **own} for s, own in a[1].items()})
        for b, a in versions
    ]
    t0 = time.perf_counter()
    for before, after in wholes:
        for seat, view in after.items():
            view_delta(before[seat], view)
    t1 = time.perf_counter()
    for (public_before, own_before), (public, own) in versions:
        public_change = view_delta(public_before, public)
        for seat, view in own.items():
            joined_delta(public_change, view_delta(own_before[seat], view))
    t2 = time.perf_counter()
    n = max(1, len(versions))
    return (t1 - t0) / n, (t2 - t1) / n


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--profiles", nargs="+", default=["cutthroat", "spades", "runfast"])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--actions", type=int, default=600, help="most actions played in one game")
    args = p.parse_args()
    for profile in args.profiles:
        pairs = pairs_of(profile, min(args.games, MAX_GAMES), args.seed, min(args.actions, MAX_ACTIONS))
        whole = [len(orjson.dumps(after)) for _, after in pairs]
        deltas = [view_delta(before, after) for before, after in pairs]
        sizes = [len(orjson.dumps(d)) for d in deltas]
        for (before, after), d in zip(pairs, deltas, strict=True):
            assert orjson.dumps(apply_delta(before, *d)) == orjson.dumps(after)
        t0 = time.perf_counter()
        for before, after in pairs:
            view_delta(before, after)
        t1 = time.perf_counter()
        for _, after in pairs:
            orjson.dumps(after)
        t2 = time.perf_counter()
        n = len(pairs)
        p95 = statistics.quantiles(sizes, n=20)[-1]
        print(
            f"{profile}: {n} views | whole {statistics.mean(whole):,.0f} B, change {statistics.mean(sizes):,.0f} B "
            f"(p95 {p95:,.0f}) = {statistics.mean(sizes) / statistics.mean(whole):.2f} of the bytes | "
            f"change {(t1 - t0) / n * 1e6:.1f} us, whole encoded {(t2 - t1) / n * 1e6:.1f} us"
        )
        versions = versions_of(profile, min(args.games, MAX_GAMES), args.seed, min(args.actions, MAX_ACTIONS))
        timings = [seat_changes_timed(versions) for _ in range(3)]
        whole_seats, in_parts = min(t[0] for t in timings), min(t[1] for t in timings)
        print(
            f"  every seat's change of a version ({len(versions)} versions): from whole views "
            f"{whole_seats * 1e6:.1f} us, in parts {in_parts * 1e6:.1f} us ({in_parts / whole_seats:.2f})"
        )


if __name__ == "__main__":
    main()
