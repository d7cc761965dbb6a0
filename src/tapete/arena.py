"""``tapete arena``: duplicate matches between bot levels, with confidence intervals.

Every sampled deal is played once for each rotation of the line-up through the seats
(partnership Spades: the teams swap), so the luck of the cards cancels. A level's score
is its side's points per hand; differences are computed over deal-level paired values.

With ``same_seeds`` the luck of the bots' own random draws cancels too (common random
numbers): the bot in a seat draws from the same seed in every rotation of a deal, so two
levels that decide alike in a position decide identically there, and the difference
between them comes only from the positions where their methods differ.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

import tapete
from tapete.bots import LEVELS, make_bot
from tapete.families import family

MAX_HANDS_PER_GAME = 400
Z95 = 1.959964


@dataclass(frozen=True)
class Match:
    """What every worker needs to play one deal under every rotation."""

    profile: str
    lineups: tuple[tuple[str, ...], ...]
    seed: int
    games: bool
    params: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    same_seeds: bool = False


def bot_seed(match: Match, deal: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for one rotation of a deal (the same in every
    rotation with ``same_seeds``)."""
    game_seed = match.seed * 1_000_003 + deal
    return (game_seed * 31 + (0 if match.same_seeds else rotation)) * 17 + seat


def seat_lineup(levels: Sequence[str], players: int) -> list[str]:
    """The levels by seat: the list is repeated to fill the table (spades: partners alike)."""
    return [levels[s % len(levels)] for s in range(players)]


def rotations(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct rotation of a line-up through the seats."""
    out: list[tuple[str, ...]] = []
    n = len(lineup)
    for r in range(n):
        rot = tuple(lineup[(s - r) % n] for s in range(n))
        if rot not in out:
            out.append(rot)
    return out


def play_deal(match: Match, deal: int) -> dict[str, list[float]]:
    """Play deal number ``deal`` under every rotation; each level's per-seat points per hand."""
    params = {name: dict(p) for name, p in match.params}
    out: dict[str, list[float]] = {}
    game_seed = match.seed * 1_000_003 + deal
    fam = family(tapete.profile_info(match.profile).family)
    rules = tapete.load_profile(match.profile)
    for r, lineup in enumerate(match.lineups):
        g = tapete.new_game(match.profile, seed=game_seed)
        bots = [
            make_bot(level, seed=bot_seed(match, deal, r, s), **params.get(level, {})) for s, level in enumerate(lineup)
        ]
        while not g.is_over():
            done = len(fam.hand_changes(g))
            if (not match.games and done >= 1) or (match.games and done > MAX_HANDS_PER_GAME):
                break
            seat = g.to_act
            assert seat is not None
            g.apply(bots[seat].act(g.observation(seat)))
        changes = fam.hand_changes(g)
        if not match.games:
            changes = changes[:1]
        for s, level in enumerate(lineup):
            side = fam.side_of(rules, s)
            total = sum(change[side] for change in changes)
            out.setdefault(level, []).append(total / max(1, len(changes)))
            if match.games:
                out.setdefault(f"{level}:wins", []).append(1.0 if g.winner() == side else 0.0)
    return out


def _play_deal_star(args: tuple[Match, int]) -> dict[str, list[float]]:
    return play_deal(*args)


RAY_CHUNK = 8
"""Deals per Ray task (one task per deal would cost more in scheduling than in play)."""


def _play_chunk(chunk: list[tuple[Match, int]]) -> list[dict[str, list[float]]]:
    return [play_deal(*t) for t in chunk]


def run_on_ray(tasks: Sequence[tuple[Match, int]], address: str, bar: Any = None) -> list[dict[str, list[float]]]:
    """Play ``tasks`` as Ray tasks (``address``: a cluster's address, or ``"local"``), results in deal order."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise SystemExit("tapete arena --ray: ray is not installed (pip install 'tapete[cluster]')") from None
    started = not ray.is_initialized()
    if started:
        where = None if address == "local" else address
        ray.init(address=where, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        remote = ray.remote(_play_chunk)
        chunks = [list(tasks[i : i + RAY_CHUNK]) for i in range(0, len(tasks), RAY_CHUNK)]
        refs = [remote.remote(c) for c in chunks]
        results: list[dict[str, list[float]]] = []
        for ref in refs:
            part = ray.get(ref)
            results.extend(part)
            if bar is not None:
                bar.update(len(part))
        return results
    finally:
        if started:
            ray.shutdown()


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def summarize(levels: Sequence[str], results: Sequence[dict[str, list[float]]], *, games: bool) -> dict[str, Any]:
    """Means with 95 % intervals per level and per pair (paired over deals)."""
    distinct = list(dict.fromkeys(levels))
    per_deal = {lv: [sum(r[lv]) / len(r[lv]) for r in results if lv in r] for lv in distinct}
    out: dict[str, Any] = {"deals": len(results), "unit": "game" if games else "hand", "levels": {}, "differences": []}
    for lv in distinct:
        mean, lo, hi = _mean_ci(per_deal[lv])
        entry: dict[str, Any] = {"mean_per_hand": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}
        if games:
            rate, rate_lo, rate_hi = _mean_ci(_deal_means(results, f"{lv}:wins"))
            entry["win_rate"] = round(rate, 4)
            entry["win_ci95"] = [round(rate_lo, 4), round(rate_hi, 4)]
        out["levels"][lv] = entry
    for i, a in enumerate(distinct):
        for b in distinct[i + 1 :]:
            diffs = [sum(r[a]) / len(r[a]) - sum(r[b]) / len(r[b]) for r in results if a in r and b in r]
            mean, lo, hi = _mean_ci(diffs)
            pair: dict[str, Any] = {"a": a, "b": b, "mean": round(mean, 3), "ci95": [round(lo, 3), round(hi, 3)]}
            if games:
                wa, wb = _deal_means(results, f"{a}:wins"), _deal_means(results, f"{b}:wins")
                rate, rate_lo, rate_hi = _mean_ci([x - y for x, y in zip(wa, wb, strict=True)])
                pair["win_rate"] = round(rate, 4)
                pair["win_ci95"] = [round(rate_lo, 4), round(rate_hi, 4)]
            out["differences"].append(pair)
    return out


def _deal_means(results: Sequence[dict[str, list[float]]], key: str) -> list[float]:
    """Each deal's mean of ``key`` over the seats that recorded it (every deal records every level)."""
    return [sum(r[key]) / len(r[key]) for r in results if r.get(key)]


def run_arena(
    profile: str,
    levels: Sequence[str],
    deals: int,
    *,
    seed: int = 1,
    jobs: int | None = None,
    games: bool = False,
    params: dict[str, dict[str, Any]] | None = None,
    progress: bool = True,
    ray_address: str | None = None,
    same_seeds: bool = False,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (or games) and summarize them.

    ``same_seeds``: each seat's bot draws from the same seed in every rotation of a deal
    (the module's docstring).

    ``ray_address``: run the deals as Ray tasks on that cluster (``"local"``: a Ray instance
    started here); the summary is the same as the local run's for the same seed.
    """
    rules = tapete.load_profile(profile)
    lineup = seat_lineup(levels, rules.players)
    match = Match(
        profile=profile,
        lineups=tuple(rotations(lineup)),
        seed=seed,
        games=games,
        params=tuple((k, tuple(sorted(v.items()))) for k, v in sorted((params or {}).items())),
        same_seeds=same_seeds,
    )
    jobs = jobs or os.cpu_count() or 1
    tasks = [(match, d) for d in range(deals)]
    results: list[dict[str, list[float]]] = []
    bar: Any = None
    if progress:
        tqdm: Any = importlib.import_module("tqdm").tqdm
        bar = tqdm(total=deals, unit="deal", file=sys.stderr, desc=f"{profile} {','.join(levels)}", mininterval=2.0)
    if ray_address is not None:
        results = run_on_ray(tasks, ray_address, bar)
    elif jobs == 1:
        for t in tasks:
            results.append(_play_deal_star(t))
            if bar is not None:
                bar.update(1)
    else:
        with Pool(jobs) as pool:
            for res in pool.imap(_play_deal_star, tasks, chunksize=max(1, min(8, deals // (jobs * 8) or 1))):
                results.append(res)
                if bar is not None:
                    bar.update(1)
    if bar is not None:
        bar.close()
    summary = summarize(lineup, results, games=games)
    summary["profile"] = profile
    summary["bots"] = list(levels)
    summary["seats"] = lineup
    summary["seed"] = seed
    summary["same_seeds"] = same_seeds
    return summary


def render_table(summary: dict[str, Any]) -> str:
    """The summary as a plain-text table."""
    unit = summary["unit"]
    lines = [
        f"tapete arena {summary['profile']}  bots {','.join(summary['bots'])}  "
        f"{summary['deals']} duplicate {unit}s  seed {summary['seed']}"
        + ("  same seeds" if summary.get("same_seeds") else ""),
        "",
        f"{'level':<10} {'points/hand':>12}  {'95% CI':>20}" + ("  win rate  95% CI" if unit == "game" else ""),
    ]
    for name, e in summary["levels"].items():
        lo, hi = e["ci95"]
        row = f"{name:<10} {e['mean_per_hand']:>12.2f}  [{lo:>8.2f}, {hi:>8.2f}]"
        if "win_rate" in e:
            row += f"  {_win_cell(e)}"
        lines.append(row)
    if summary["differences"]:
        head = f"{'difference':<18} {'mean':>8}  {'95% CI':>20}"
        lines += ["", head + ("  win rate  95% CI" if unit == "game" else "")]
        for d in summary["differences"]:
            lo, hi = d["ci95"]
            mark = " *" if _off_zero(d["ci95"]) else ""
            row = f"{d['a'] + ' - ' + d['b']:<18} {d['mean']:>8.2f}  [{lo:>8.2f}, {hi:>8.2f}]{mark}"
            if "win_rate" in d:
                row += f"  {_win_cell(d, marked=True)}"
            lines.append(row)
        intervals = [iv for d in summary["differences"] for iv in (d["ci95"], d.get("win_ci95"))]
        if any(iv is not None and _off_zero(iv) for iv in intervals):
            lines.append("(* the interval excludes zero)")
    return "\n".join(lines)


def _off_zero(interval: Sequence[float]) -> bool:
    """Whether a 95 % interval lies wholly on one side of zero."""
    lo, hi = interval
    return lo > 0 or hi < 0


def _win_cell(e: dict[str, Any], *, marked: bool = False) -> str:
    """A win rate with its interval, ``0.575 [0.498, 0.652]``; ``marked``: ``*`` when off zero."""
    lo, hi = e["win_ci95"]
    mark = " *" if marked and _off_zero(e["win_ci95"]) else ""
    return f"{e['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]{mark}"


def render_svg(summary: dict[str, Any]) -> str:
    """An SVG chart of each level's mean points per hand with its 95 % interval."""
    items = list(summary["levels"].items())
    values: list[float] = [float(v) for _, e in items for v in (*e["ci95"], e["mean_per_hand"])] + [0.0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    lo, hi = lo - 0.08 * span, hi + 0.08 * span
    width, left, right, row = 640, 110, 30, 44
    height = 70 + row * len(items)

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (width - left - right)

    title = f"{summary['profile']}: points per {summary['unit']} ({summary['deals']} duplicate deals, 95% CI)"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="14">{_esc(title)}</text>',
        f'<line x1="{x(0):.1f}" y1="34" x2="{x(0):.1f}" y2="{height - 24}" stroke="#999" stroke-dasharray="4 3"/>',
        f'<text x="{x(0):.1f}" y="{height - 8}" text-anchor="middle" fill="#555">0</text>',
    ]
    for i, (name, e) in enumerate(items):
        y = 50 + row * i + row / 2
        m = e["mean_per_hand"]
        a, b = e["ci95"]
        parts += [
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{_esc(name)}</text>',
            f'<rect x="{min(x(0), x(m)):.1f}" y="{y - 10:.1f}" width="{abs(x(m) - x(0)):.1f}" height="20" '
            'fill="#7aa6d8"/>',
            f'<line x1="{x(a):.1f}" y1="{y:.1f}" x2="{x(b):.1f}" y2="{y:.1f}" stroke="black" stroke-width="2"/>',
            f'<line x1="{x(a):.1f}" y1="{y - 7:.1f}" x2="{x(a):.1f}" y2="{y + 7:.1f}" stroke="black" stroke-width="2"/>',
            f'<line x1="{x(b):.1f}" y1="{y - 7:.1f}" x2="{x(b):.1f}" y2="{y + 7:.1f}" stroke="black" stroke-width="2"/>',
            f'<text x="{x(max(b, m)) + 6:.1f}" y="{y + 4:.1f}">{m:.1f}</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def parse_bot_params(text: str | None) -> dict[str, dict[str, Any]]:
    """``hard.rollouts=200,ismcts.simulations=500`` → per-level bot parameters."""
    out: dict[str, dict[str, Any]] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        key, _, value = item.partition("=")
        level, _, name = key.strip().partition(".")
        out.setdefault(level, {})[name] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return out


def cmd_arena(args: argparse.Namespace) -> int:
    levels = [x.strip() for x in args.bots.split(",") if x.strip()]
    bad = [x for x in levels if x not in LEVELS]
    if bad or not levels:
        print(f"tapete arena: unknown level(s) {', '.join(bad) or '(none)'}: use {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    if args.profile not in tapete.profile_names():
        print(f"tapete arena: no profile {args.profile!r} (see 'tapete profiles')", file=sys.stderr)
        return 2
    offered = family(tapete.profile_info(args.profile).family).bot_levels
    if any(x not in offered for x in levels):
        print(f"tapete arena: {args.profile!r} has bots of the levels {', '.join(offered)}", file=sys.stderr)
        return 2
    deals = args.games if args.games else args.hands
    summary = run_arena(
        args.profile,
        levels,
        deals,
        seed=args.seed,
        jobs=args.jobs,
        games=bool(args.games),
        params=parse_bot_params(args.bot_params),
        progress=not args.quiet,
        ray_address=args.ray,
        same_seeds=args.same_seeds,
    )
    if args.plot:
        with open(args.plot, "w", encoding="utf-8") as f:
            f.write(render_svg(summary))
    print(json.dumps(summary) if args.json else render_table(summary))
    return 0


def add_arena_parser(sub: Any) -> None:
    """Register ``tapete arena`` on the CLI's subparsers."""
    p = sub.add_parser("arena", help="duplicate matches between computer players, with confidence intervals")
    p.add_argument("profile", help="rule profile (see 'tapete profiles')")
    p.add_argument("--bots", required=True, help="levels by seat, repeated to fill the table, e.g. hard,normal")
    p.add_argument("--hands", type=int, default=200, help="duplicate deals, scoring each deal's first hand")
    p.add_argument("--games", type=int, default=0, help="play this many whole games per rotation instead of hands")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots (default 1)")
    p.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--plot", help="write an SVG chart of the means and intervals to this file")
    p.add_argument("--bot-params", help="search budgets, e.g. 'hard.rollouts=300,ismcts.simulations=1000'")
    p.add_argument(
        "--same-seeds",
        action="store_true",
        help="a seat's bot draws the same random numbers in every rotation of a deal, so only different choices differ",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="play the deals as Ray tasks: on the cluster at ADDRESS, or a local Ray instance (the 'cluster' extra)",
    )
    p.set_defaults(func=cmd_arena)
