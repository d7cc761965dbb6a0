"""The ``tapete`` command: ``replay``, ``profiles``, ``demo``, ``serve``."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from tapete import __version__, new_game, profile_info, profile_names
from tapete.analysis import add_analyze_parser
from tapete.arena import add_arena_parser
from tapete.errors import TapeteError
from tapete.records import replay, replay_text
from tapete.render import replay_report_text


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = _read_source(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tapete replay: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    result = replay_text(text)
    if args.json:
        print(json.dumps(result.report, ensure_ascii=False))
    else:
        print(replay_report_text(result.report))
    return result.exit_status


def cmd_profiles(args: argparse.Namespace) -> int:
    names = profile_names()
    width = max(map(len, names))
    for name in names:
        info = profile_info(name)
        print(f"{name.ljust(width)}  {info.description}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Play a seeded game with random legal actions; print it (and write its record)."""
    try:
        options = json.loads(args.options) if args.options else None
        game = new_game(args.profile, seed=args.seed, options=options)
    except (TapeteError, json.JSONDecodeError) as exc:
        print(f"tapete demo: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    hands = 0
    while not game.is_over():
        hand = getattr(game, "hand_number", 0)
        game.apply(rng.choice(game.legal_actions()))
        if getattr(game, "hand_number", 0) != hand:
            hands += 1
            if hands >= args.hands:
                break
    record = game.record()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False, indent=1)
    print(replay_report_text(replay(record).report))
    if args.out:
        print(f"\nrecord written to {args.out} — check it with: tapete replay {args.out}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the game server (``tapete.server``)."""
    from tapete.server import serve

    return serve(
        args.host,
        args.port,
        args.db,
        args.bot_delay,
        redis_url=args.redis,
        node_id=args.node_id,
        table_prefix=args.table_prefix,
        redis_prefix=args.redis_prefix,
        remote_bots=args.remote_bots,
        next_hand_wait=args.next_hand_wait,
        forwarded_allow_ips=args.forwarded_allow_ips,
        limits=args.limit,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tapete", description="tapete — Spades family and Run Fast card games")
    parser.add_argument("--version", action="version", version=f"tapete {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record through the rules engine and report it")
    p.add_argument("file", help="a tapete-record/1 JSON file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("profiles", help="list the rule profiles")
    p.set_defaults(func=cmd_profiles)

    p = sub.add_parser("demo", help="play a seeded game with random legal moves and show it")
    p.add_argument("profile", nargs="?", default="cutthroat", help="rule profile (see 'tapete profiles')")
    p.add_argument("--seed", type=int, default=1, help="deal seed (default 1)")
    p.add_argument("--hands", type=int, default=1, help="stop after this many hands (default 1)")
    p.add_argument("--options", help="JSON object of option overrides, e.g. '{\"target\": 300}'")
    p.add_argument("--out", help="write the game record to this file")
    p.set_defaults(func=cmd_demo)

    add_arena_parser(sub)
    add_analyze_parser(sub)

    from tapete.rulebook.cli import add_rules_parser

    add_rules_parser(sub)

    p = sub.add_parser("serve", help="run the game server (tables, bots, WebSocket protocol)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", help="database URL (default: a SQLite file in the user's data folder)")
    p.add_argument("--bot-delay", type=float, default=0.6, help="minimum seconds per bot move (default 0.6)")
    p.add_argument(
        "--next-hand-wait", type=float, default=30.0, help="seconds bots wait after a hand for the people (default 30)"
    )
    p.add_argument("--table-prefix", default="", help="prefix of the log's table names in the database")
    p.add_argument("--redis", help="Redis URL: run as one node of several sharing the PostgreSQL --db (docs/deploy.md)")
    p.add_argument("--node-id", default="", help="this node's name in the cluster (default: a random one)")
    p.add_argument("--redis-prefix", default="tapete:", help="prefix of the cluster's Redis keys (default tapete:)")
    p.add_argument("--remote-bots", action="store_true", help="bots decide in 'tapete worker' processes via Redis")
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="proxies (addresses or networks, comma-separated; '*' for any) whose X-Forwarded-For header names the "
        "client, for the per-address limits (default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)",
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits, e.g. --limit open_tables=2000 (repeatable; docs/operations.md)",
    )
    p.set_defaults(func=cmd_serve)

    from tapete.cluster_worker import add_worker_parser

    add_worker_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
