"""Double-dummy analysis of a game record (``tapete analyze``).

For each hand of a Spades-family record: the tricks each side could make at the start
of play against best defence with every card seen (``engine/spades/dds.py``; teams in
a partnership, else each seat against all the others — the solver's "paranoid"
reading), the bids set against those numbers, and for every card played the tricks its
side could still make before and after it: a card that lowered them cost its side
tricks ("trick 5, seat 2 played K♥: −1, Q♥ kept 7").

Each answer has a node budget (``--nodes``; ``--lead-nodes`` for the makeable tricks at
the first lead): a position too big for it is reported as not analysed rather than
making the command run for minutes. Kept tricks count the
tricks the side has already won in the hand. The hands are independent questions, so
``--jobs`` analyses them in that many processes at once, with the same answers; a
single hand with no budget for its first lead (``--lead-nodes 0``) gets the spare
processes for the makeable tricks instead (``tapete.parallel_solve``), as each of those
solves is a full deal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from tapete.cards import Card, card_name, card_symbol
from tapete.engine.base import Game
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.trick import TrickState
from tapete.errors import BadRecord, IllegalAction
from tapete.parallel_solve import ParallelSolver
from tapete.records import Record, new_record_game, parse_json, read_record

JSON = Any
DEFAULT_NODES = 400_000
"""Nodes each answer may visit by default (about a second of the pure-Python solver)."""
DEEPEN = 8
"""How many times more nodes each round of asking again the cards not answered yet gives
each of them, while a hand's ``more_seconds`` last (``HandAnalysis._deepen``)."""


def side_masks(game: Game) -> list[int]:
    """The scoring sides of ``game`` as masks of seats (teams, or one seat each)."""
    rules: Any = game.rules
    masks = [0] * rules.sides
    for seat in range(rules.players):
        masks[rules.side_of(seat)] |= 1 << seat
    return masks


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if (mask >> s) & 1]


def _won(state: TrickState, mask: int) -> int:
    return sum(state.tricks_won[s] for s in _seats(mask))


def _bid_number(bid: Any) -> int | None:
    if isinstance(bid, int) and not isinstance(bid, bool):
        return bid
    return None


class HandAnalysis:
    """The analysis of one hand: its positions gathered as it is replayed, then solved."""

    def __init__(
        self,
        game: Game,
        index: int,
        nodes: int,
        lead_nodes: int | None = None,
        processes: int = 1,
        more_seconds: float = 0.0,
    ) -> None:
        self.index = index
        self.more_seconds = more_seconds
        """Seconds the hand may go on asking again the cards not answered within ``nodes``."""
        self.processes = processes
        """Processes for the makeable tricks when they have no node budget (``ParallelSolver``)."""
        self.sides = side_masks(game)
        n = int(game.rules.players)
        self.nodes = nodes
        self.lead_nodes = nodes if lead_nodes is None else lead_nodes
        self.solvers = [Solver(n, m, nodes) for m in self.sides]
        self.makeable: list[int | None] | None = None
        self.first_lead: TrickState | None = None
        self.positions: list[tuple[dict[str, JSON], TrickState, int]] = []
        self.plays: list[dict[str, JSON]] = []
        self.started = 0.0
        """When ``solve`` began (``time.monotonic()``), and the solvers' node count then:
        the rate its solves run at sets the budgets a time budget affords."""
        self.nodes_before = 0
        self.bids: list[Any] = []

    def side_of(self, seat: int) -> int:
        return next(i for i, m in enumerate(self.sides) if (m >> seat) & 1)

    def start(self, state: TrickState) -> None:
        """At the first lead (a position of its own): its makeable tricks are asked for."""
        self.first_lead = state
        self.makeable = [None] * len(self.sides)

    def add_card(self, trick: int, seat: int, card: int, before: TrickState) -> None:
        """A card played from ``before`` (a position kept to be solved later)."""
        play: dict[str, JSON] = {"trick": trick, "seat": seat, "card": card_name(card)}
        play.update(kept=None, best=None, loss=None, best_cards=[])
        self.plays.append(play)
        self.positions.append((play, before, card))

    def solve(self, clock: Clock, share: int = 1) -> None:
        """Solve the positions while ``clock`` allows: each card, the last first, then the first lead.

        Endings are cheap and fill the solvers' tables for the earlier positions; a side
        whose answers went over the node budget twice is not asked about its earlier
        (larger) positions. The makeable tricks get ``lead_nodes`` each, or with a time
        budget what is left of this hand's ``1/share`` of it at the rate the cards were solved.
        Then, for ``more_seconds`` at most (and within this hand's share of a time budget),
        the cards not answered are asked again with larger budgets (``_deepen``).
        """
        self.started = time.monotonic()
        self.nodes_before = sum(s.nodes for s in self.solvers)
        left_at_start = clock.left()
        self._solve_cards(reversed(self.positions), clock, self.nodes, None)
        if self.first_lead is not None and self.makeable is not None:
            self._solve_makeable(clock, share)
        if self.more_seconds > 0 and self.nodes > 0:
            end = time.monotonic() + self.more_seconds
            if left_at_start is not None:
                end = min(end, self.started + left_at_start / share)
            self._deepen(clock, end)

    def _nodes_per_second(self) -> float | None:
        """The rate this hand's solves have run at since ``solve`` began (``None``: none yet)."""
        spent = time.monotonic() - self.started
        done = sum(s.nodes for s in self.solvers) - self.nodes_before
        return done / spent if spent > 0 and done > 0 else None

    def _solve_cards(
        self, positions: Iterable[tuple[dict[str, JSON], TrickState, int]], clock: Clock, budget: int, end: float | None
    ) -> None:
        """Each position's card values with ``budget`` nodes each, the positions in the order
        given (latest first), while ``clock`` runs and until ``end`` (a ``time.monotonic()``);
        a side that goes over the budget twice is not asked about its remaining positions."""
        over = [0] * len(self.sides)
        for play, state, card in positions:
            if not clock.running() or (end is not None and time.monotonic() >= end):
                return
            side = self.side_of(state.turn)
            if over[side] >= 2:
                continue
            solver = self.solvers[side]
            solver.budget = budget
            try:
                values = solver.card_values(state)
            except SearchLimit:
                over[side] += 1
                continue
            finally:
                solver.budget = self.nodes
            won = _won(state, self.sides[side])
            best = max(values.values())
            play.update(
                kept=won + values[card],
                best=won + best,
                loss=best - values[card],
                best_cards=[card_name(c) for c in sorted(values) if values[c] == best],
            )

    def _deepen(self, clock: Clock, end: float) -> None:
        """The cards not answered within the node budget, asked again with ``DEEPEN`` times
        the budget each round, latest first, until each is answered or the hand's time
        (``end``) is spent. A round's budget is held to what the time left affords at the
        rate this hand's solves have run, so one answer does not run far past ``end``."""
        budget = self.nodes
        while True:
            missing = [p for p in reversed(self.positions) if p[0]["kept"] is None]
            now = time.monotonic()
            if not missing or now >= end or not clock.running():
                return
            rate = self._nodes_per_second()
            affordable = int((end - now) * rate) if rate is not None else budget * DEEPEN
            if affordable <= budget:
                return  # no answer missed at this budget is in reach of the time left
            budget = min(budget * DEEPEN, affordable)
            self._solve_cards(missing, clock, budget, end)

    def _solve_makeable(self, clock: Clock, share: int) -> None:
        """Each side's makeable tricks at the first lead (see ``solve``)."""
        assert self.first_lead is not None and self.makeable is not None
        for i, solver in enumerate(self.solvers):
            if not clock.running():
                return
            budget = self.lead_nodes
            left = clock.left()
            rate = self._nodes_per_second()
            if left is not None and rate is not None:
                affordable = int(left / share * rate / (len(self.solvers) - i))
                budget = max(self.nodes, min(budget, affordable))
            solver.budget = budget
            try:
                if budget == 0 and self.processes > 1 and clock.left() is None:
                    with ParallelSolver(solver.players, solver.side, self.processes) as parallel:
                        self.makeable[i] = parallel.solve(self.first_lead)
                    continue
                self.makeable[i] = solver.solve(self.first_lead)
            except SearchLimit:
                pass
            finally:
                solver.budget = self.nodes

    def report(self) -> dict[str, JSON]:
        sides: list[dict[str, JSON]] = []
        for i, mask in enumerate(self.sides):
            seats = _seats(mask)
            numbers = [_bid_number(self.bids[s]) if s < len(self.bids) else None for s in seats]
            bid = sum(b for b in numbers if b is not None) if any(b is not None for b in numbers) else None
            makeable = self.makeable[i] if self.makeable else None
            sides.append(
                {
                    "side": i,
                    "seats": seats,
                    "bids": [self.bids[s] if s < len(self.bids) else None for s in seats],
                    "bid": bid,
                    "makeable": makeable,
                    "margin": makeable - bid if makeable is not None and bid is not None else None,
                }
            )
        costly = [p for p in self.plays if p["loss"]]
        return {"hand": self.index, "sides": sides, "plays": self.plays, "costly": costly}


class Clock:
    """The analysis' time budget: answers are asked for only while it runs (``None``: no limit)."""

    def __init__(self, seconds: float | None) -> None:
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.expired = False

    def running(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.expired = True
        return not self.expired

    def left(self) -> float | None:
        """Seconds left (``None``: no limit)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


def analyze(
    obj: JSON,
    *,
    nodes: int = DEFAULT_NODES,
    lead_nodes: int | None = None,
    hands: Collection[int] | None = None,
    seconds: float | None = None,
    jobs: int = 1,
    more_seconds: float = 0.0,
) -> dict[str, JSON]:
    """The analysis of a record object (``{"profile", "hands": [...], "error", "out_of_time"}``), by its family's analyser.

    ``lead_nodes``: the node budget of the makeable tricks at the first lead (default
    ``nodes``); ``hands``: the indexes of the hands to analyse (default all; the others are only
    replayed); ``seconds``: a time budget, after which the answers not found yet are
    reported as not analysed (``out_of_time``); ``jobs``: processes analysing hands at
    once (without a time budget only: node budgets give the same answers in any process);
    ``more_seconds``: how long each hand may then go on asking again, with more nodes, the
    cards not answered within ``nodes`` (0: not at all; answers found so depend on time).
    """
    record = read_record(obj)
    if record.family.load_analysis is None:
        raise BadRecord(f"profile {record.profile!r} is not a trick-taking game: nothing to analyse double-dummy")
    processes = 1
    if jobs > 1 and seconds is None:
        indexes = sorted(set(hands)) if hands is not None else list(range(len(record.hands)))
        if len(indexes) > 1:
            return _analyze_in_processes(obj, nodes, lead_nodes, indexes, jobs, more_seconds)
        processes = jobs  # one hand: the cores go to its full-deal solves
    analyser: Callable[..., dict[str, JSON]] = record.family.load_analysis()
    options: dict[str, Any] = {"processes": processes} if processes > 1 else {}
    if more_seconds > 0:
        options["more_seconds"] = more_seconds
    return analyser(record, nodes, lead_nodes=lead_nodes, hands=hands, seconds=seconds, **options)


def _analyze_one_hand(task: tuple[JSON, int, int | None, int, float]) -> dict[str, JSON]:
    obj, nodes, lead_nodes, hand, more_seconds = task
    return analyze(obj, nodes=nodes, lead_nodes=lead_nodes, hands=[hand], more_seconds=more_seconds)


def _analyze_in_processes(
    obj: JSON, nodes: int, lead_nodes: int | None, indexes: Sequence[int], jobs: int, more_seconds: float = 0.0
) -> dict[str, JSON]:
    """Each hand of ``indexes`` analysed in its own task; the reports joined as one analysis
    of them all would give (up to the first hand a record error stops)."""
    tasks = [(obj, nodes, lead_nodes, h, more_seconds) for h in indexes]
    with Pool(min(jobs, len(tasks))) as pool:
        parts = pool.map(_analyze_one_hand, tasks, chunksize=1)
    out: list[JSON] = []
    error: JSON = None
    for part in parts:
        out.extend(part["hands"])
        error = part["error"]
        if error is not None:
            break  # the hands after it were never reached
    return {"profile": parts[0]["profile"], "hands": out, "error": error, "out_of_time": False}


Analyser = Callable[[Record, int], dict[str, JSON]]
"""``analyse(record, nodes, *, lead_nodes=None, hands=None, seconds=None[, processes, more_seconds])``
→ the report (a family's ``load_analysis``); ``processes`` and ``more_seconds`` are passed only when
they are not their defaults (1 and 0)."""


def analyze_spades_record(
    record: Record,
    nodes: int,
    *,
    lead_nodes: int | None = None,
    hands: Collection[int] | None = None,
    seconds: float | None = None,
    processes: int = 1,
    more_seconds: float = 0.0,
) -> dict[str, JSON]:
    """The Spades family's analysis: the game is replayed on the trick core, solved double-dummy
    (``processes``: for the makeable tricks when they have no node budget)."""
    game = new_record_game(record)
    assert isinstance(game, TrickState), "the Spades family's games are trick-core states"
    clock = Clock(seconds)
    wanted = None if hands is None else set(hands)
    out: list[dict[str, JSON]] = []
    error: dict[str, JSON] | None = None
    for h, rec_hand in enumerate(record.hands):
        if game.is_over() or not rec_hand.actions:
            break
        if wanted is not None and h > max(wanted, default=-1):
            break
        current = (
            HandAnalysis(game, h, nodes, lead_nodes, processes, more_seconds) if wanted is None or h in wanted else None
        )
        for i, raw in enumerate(rec_hand.actions):
            seat = game.to_act
            playing = game.phase.name == "PLAY"
            before = game.clone() if playing and current is not None else None
            if before is not None and current is not None and current.makeable is None:
                current.bids = list(game.replay_summary()["hands"][-1].get("bids") or [])
                current.start(before)
            trick = sum(game.tricks_won) + 1
            try:
                if not isinstance(raw, Mapping):
                    raise IllegalAction("bad_record", "an action must be an object")
                game.apply(game.parse_action(raw))
            except IllegalAction as exc:
                error = {"hand": h, "action": i, "code": exc.code, "message": exc.message}
                break
            if before is not None and current is not None and seat is not None:
                current.add_card(trick, seat, int(Card.parse(str(raw["play"]))), before)
        if current is not None:
            later = [k for k in range(h, len(record.hands)) if wanted is None or k in wanted]
            current.solve(clock, share=max(1, len(later)))
            out.append(current.report())
        if error is not None:
            break
    return {"profile": record.profile, "hands": out, "error": error, "out_of_time": clock.expired}


def analyze_text(report: Mapping[str, JSON]) -> str:
    """The analysis as text, one block per hand."""
    out: list[str] = [f"{report['profile']}: double-dummy analysis"]
    for hand in report["hands"]:
        out.append(f"hand {hand['hand'] + 1}")
        parts = []
        for side in hand["sides"]:
            who = "seat" if len(side["seats"]) == 1 else "seats"
            seats = ", ".join(str(s) for s in side["seats"])
            made = side["makeable"] if side["makeable"] is not None else "? (over the node budget)"
            bid = side["bid"]
            margin = side["margin"]
            bid_text = f", bid {bid}" + (f" ({margin:+d})" if margin is not None else "") if bid is not None else ""
            parts.append(f"{who} {seats}: makeable {made}{bid_text}")
        out.append("  at the first lead: " + "; ".join(parts))
        costly = hand["costly"]
        skipped = sum(1 for p in hand["plays"] if p["loss"] is None)
        for p in costly:
            best = ", ".join(_symbol(c) for c in p["best_cards"][:3])
            out.append(
                f"  trick {p['trick']}, seat {p['seat']} played {_symbol(p['card'])}: "
                f"−{p['loss']}, {best} kept {p['best']}"
            )
        if not costly:
            out.append("  no card cost its side a trick" + (" (among the cards analysed)" if skipped else ""))
        if skipped:
            out.append(f"  {skipped} cards not analysed (positions over the node budget)")
    if report.get("error"):
        err = report["error"]
        out.append(f"stopped at hand {err['hand'] + 1}, action {err['action']}: {err['message']}")
    return "\n".join(out)


def _symbol(name: str) -> str:
    return card_symbol(Card.parse(name))


def cmd_analyze(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tapete analyze: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
        report = analyze(
            parse_json(text),
            nodes=args.nodes,
            lead_nodes=args.lead_nodes,
            jobs=max(1, jobs),
            more_seconds=max(0.0, args.more_seconds),
        )
    except BadRecord as exc:
        print(f"tapete analyze: {exc.message}", file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False) if args.json else analyze_text(report))
    return 1 if report["error"] else 0


def add_analyze_parser(sub: Any) -> None:
    """Register ``tapete analyze`` on the CLI's subparsers."""
    p = sub.add_parser("analyze", help="double-dummy analysis of a record: makeable tricks, bids, costly cards")
    p.add_argument("file", help="a tapete-record/1 file (- for standard input)")
    p.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    p.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="node budget of each answer (0: none)")
    p.add_argument(
        "--lead-nodes",
        type=int,
        default=None,
        help="node budget of the makeable tricks at the first lead (default: --nodes)",
    )
    p.add_argument("--jobs", type=int, default=None, help="processes analysing hands at once (default: every core)")
    p.add_argument(
        "--more-seconds",
        type=float,
        default=0.0,
        help="seconds each hand may go on asking again, with more nodes, the cards not answered within --nodes",
    )
    p.set_defaults(func=cmd_analyze)


__all__ = ["DEFAULT_NODES", "add_analyze_parser", "analyze", "analyze_text", "side_masks"]
