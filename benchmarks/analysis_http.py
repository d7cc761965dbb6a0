"""Time of ``POST /api/analyze?hand=0`` with the server's limits, and how much of a hand it solves.

Each record is one hand of a profile played with seeded random legal actions; the server
(``create_app``, worker processes, a temporary SQLite file) analyses it within
``Limits.analysis_nodes`` per answer, ``Limits.analysis_more_seconds`` a hand to ask again
the cards not answered, and ``Limits.analysis_seconds`` in all. Printed: p50
and p95 of the request time, and per hand the answers found (the cards' kept tricks and
the sides' makeable tricks) out of all. Run it on the compiled engine to see the shipped
speed (``benchmarks/dds_bench.py`` says how)::

    python benchmarks/analysis_http.py --hands 6 --profile spades
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

import tapete
from tapete.server import create_app
from tapete.server.limits import Limits


def one_hand(profile: str, seed: int) -> dict[str, Any]:
    game = tapete.new_game(profile, seed=seed)
    rng = random.Random(seed)
    while not game.is_over() and getattr(game, "hand_number", 0) == 0:
        game.apply(rng.choice(game.legal_actions()))
    record = game.record()
    record["hands"] = record["hands"][:1]
    return record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="spades")
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=Limits().analysis_nodes)
    ap.add_argument("--seconds", type=float, default=Limits().analysis_seconds)
    ap.add_argument(
        "--more-seconds",
        type=float,
        default=Limits().analysis_more_seconds,
        help="a hand's time to ask again the cards not answered (0: the node budget alone)",
    )
    args = ap.parse_args()
    limits = Limits(
        analysis_nodes=args.nodes,
        analysis_seconds=args.seconds,
        analysis_more_seconds=args.more_seconds,
        analyses_per_client_minute=10_000,
    )
    times: list[float] = []
    answered = 0
    asked = 0
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'bench.db'}", bot_workers=2, limits=limits)
        with TestClient(app) as client:
            for seed in range(args.hands):
                body = json.dumps(one_hand(args.profile, seed))
                start = time.perf_counter()
                r = client.post("/api/analyze?hand=0", content=body)
                took = time.perf_counter() - start
                r.raise_for_status()
                times.append(took)
                analysis = r.json()["analysis"]
                hand = analysis["hands"][0]
                found = sum(p["kept"] is not None for p in hand["plays"])
                made = sum(s["makeable"] is not None for s in hand["sides"])
                answered += found + made
                asked += len(hand["plays"]) + len(hand["sides"])
                print(
                    f"seed {seed}: {took:.2f} s, cards {found}/{len(hand['plays'])}, "
                    f"makeable {made}/{len(hand['sides'])}, out of time {analysis['out_of_time']}"
                )
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(
        f"{args.profile}: {len(times)} hands, nodes {args.nodes}, seconds {args.seconds:g}, "
        f"more seconds {args.more_seconds:g}: p50 {statistics.median(times):.2f} s, p95 {p95:.2f} s, "
        f"unknown {asked - answered} of {asked} answers"
    )


if __name__ == "__main__":
    main()
