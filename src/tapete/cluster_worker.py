"""``tapete worker``: answer bot decisions for the nodes of a cluster, from a Redis stream.

Run as many as the bots need, on any machine that reaches the Redis; each takes one
decision at a time (:mod:`tapete.server.cluster.botqueue`). Nodes send their decisions
there when started with ``tapete serve --remote-bots``. A worker exits with status 2 when
its Redis URL is bad or Redis does not answer at the start; once started, it waits out a
Redis that fails. On SIGTERM it answers the decision in hand, leaves the consumer group and exits
with status 0.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any


def cmd_worker(args: argparse.Namespace) -> int:
    try:
        import redis
    except ImportError:
        print("tapete worker: the redis package is missing (pip install 'tapete[cluster]')", file=sys.stderr)
        return 2
    from tapete.server.cluster.botqueue import default_worker_name, serve_decisions
    from tapete.server.run import log_to_stderr

    try:
        redis.Redis.from_url(args.redis).close()
    except ValueError as exc:
        print(f"tapete worker: bad Redis URL {args.redis!r}: {str(exc)[:200]}", file=sys.stderr)
        return 2
    log_to_stderr()
    name = args.name or default_worker_name()
    print(f"tapete worker {name}: answering bot decisions from {args.redis}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # the job in hand is answered first
    try:
        serve_decisions(args.redis, args.redis_prefix, name, stop_after=args.seconds, stop=stop)
    except KeyboardInterrupt:
        return 0
    except redis.RedisError as exc:
        print(f"tapete worker: Redis failed: {str(exc)[:200]}", file=sys.stderr)
        return 2
    return 0


def add_worker_parser(sub: Any) -> None:
    """Register ``tapete worker`` on the CLI's subparsers."""
    p = sub.add_parser("worker", help="answer bot decisions for the nodes of a cluster (Redis stream)")
    p.add_argument("--redis", required=True, help="the cluster's Redis URL, e.g. redis://127.0.0.1:6379/0")
    p.add_argument("--redis-prefix", default="tapete:", help="prefix of the cluster's Redis keys (default tapete:)")
    p.add_argument("--name", default="", help="this worker's name in the consumer group (default host-pid)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this many seconds (default: never)")
    p.set_defaults(func=cmd_worker)


__all__ = ["add_worker_parser", "cmd_worker"]
