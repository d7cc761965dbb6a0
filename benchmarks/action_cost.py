"""The engine's part of one accepted action in the server, early in a game and deep into it.

For each action the server parses it, clones the game (the old one is kept until the log
write succeeds), applies it, builds every seat's observation (``observations``, all at
once) and encodes each state message.
This script times those steps on games played by random legal actions, over the actions
of the first hand and over actions taken after ``--deep`` actions; the ratio deep/early
shows whether the work grows with the length of the game (it should stay near 1).

    python benchmarks/action_cost.py --profile cutthroat --deep 3000 --actions 2000
    python benchmarks/action_cost.py --profile runfast --deep 20   # a Run Fast deal is about 40 actions
    PYTHONPATH=/tmp/before/src python benchmarks/action_cost.py   # an older tree
"""

from __future__ import annotations

import argparse
import random
import time

import tapete
from tapete.server.protocol import Shared, encode

PARTS = ("parse", "clone", "apply", "observe", "encode")
SEEDS = 50
"""Seeds ``long_game`` tries before it gives up."""


def measure(game: tapete.Game, actions: int, rng: random.Random) -> dict[str, float]:
    """Microseconds per action of each part over ``actions`` actions from ``game`` (played on)."""
    spent = dict.fromkeys(PARTS, 0.0)
    done = 0
    clock = time.perf_counter
    while done < actions and not game.is_over():
        seat = game.to_act
        assert seat is not None
        legal = game.observation(seat)["legal_actions"]
        t0 = clock()
        parsed = game.parse_action(rng.choice(legal))
        record_form = game.action_to_record(parsed, seat)
        t1 = clock()
        new = game.clone()
        t2 = clock()
        new.apply(parsed)
        t3 = clock()
        together = new.observations(range(new.num_players))
        views = [together[s] for s in range(new.num_players)]
        t4 = clock()
        for s, view in enumerate(views):
            encode(
                Shared(
                    {
                        "type": "state",
                        "table": "t",
                        "version": done,
                        "seat": s,
                        "last_action": record_form,
                        "view": view,
                    }
                )
            )
        t5 = clock()
        for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            spent[part] += dt
        game = new
        done += 1
    return {part: 1e6 * spent[part] / max(1, done) for part in PARTS}


def long_game(profile: str, seed: int, deep: int, rng: random.Random) -> tapete.Game:
    """A game ``deep`` actions in (a new seed whenever one ends first; at most ``SEEDS`` of them)."""
    for s in range(seed, seed + SEEDS):
        game = tapete.new_game(profile, seed=s)
        for _ in range(deep):
            if game.is_over():
                break
            seat = game.to_act
            assert seat is not None
            game.apply(game.parse_action(rng.choice(game.observation(seat)["legal_actions"])))
        if not game.is_over():
            return game
    raise SystemExit(f"no game of {profile} lasted {deep} actions in {SEEDS} seeds: give a smaller --deep")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="cutthroat")
    ap.add_argument("--deep", type=int, default=3000, help="actions already played in the deep game (default 3000)")
    ap.add_argument("--actions", type=int, default=2000, help="actions timed at each depth (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    early: dict[str, list[float]] = {p: [] for p in PARTS}
    deep: dict[str, list[float]] = {p: [] for p in PARTS}
    for k in range(4):  # alternate, the machine is noisy
        for part, v in measure(tapete.new_game(args.profile, seed=args.seed + k), args.actions // 4, rng).items():
            early[part].append(v)
        game = long_game(args.profile, args.seed + 100 + k, args.deep, rng)
        for part, v in measure(game, args.actions // 4, rng).items():
            deep[part].append(v)
    print(f"{args.profile}: µs per action, early in a game / after {args.deep} actions (median of 4 rounds)")
    total_e = total_d = 0.0
    for part in PARTS:
        e = sorted(early[part])[1]
        d = sorted(deep[part])[1]
        total_e += e
        total_d += d
        print(f"  {part:8s} {e:8.1f} {d:8.1f}   ×{d / e:.2f}")
    print(f"  {'total':8s} {total_e:8.1f} {total_d:8.1f}   ×{total_d / total_e:.2f}")


if __name__ == "__main__":
    main()
