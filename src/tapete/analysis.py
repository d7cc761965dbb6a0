"""Double-dummy analysis of a game record (``tapete analyze``).

For each hand of a Spades-family record: the tricks each side could make at the start
of play against best defence with every card seen (``engine/spades/dds.py``; teams in
a partnership, else each seat against all the others — the solver's "paranoid"
reading), the bids set against those numbers, and for every card played the tricks its
side could still make before and after it: a card that lowered them cost its side
tricks ("trick 5, seat 2 played K♥: −1, Q♥ kept 7").

Each answer has a node budget (``--nodes``): a position too big for it is reported as
not analysed rather than making the command run for minutes. Kept tricks count the
tricks the side has already won in the hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tapete.cards import Card, card_name, card_symbol
from tapete.engine.base import Game
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.trick import TrickState
from tapete.errors import BadRecord, IllegalAction
from tapete.records import Record, new_record_game, parse_json, read_record

JSON = Any
DEFAULT_NODES = 400_000
"""Nodes each answer may visit by default (about a second of the pure-Python solver)."""


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
    """The analysis of one hand as it is played, position by position."""

    def __init__(self, game: Game, index: int, nodes: int) -> None:
        self.index = index
        self.sides = side_masks(game)
        n = int(game.rules.players)
        self.solvers = [Solver(n, m, nodes) for m in self.sides]
        self.makeable: list[int | None] | None = None
        self.plays: list[dict[str, JSON]] = []
        self.bids: list[Any] = []

    def side_of(self, seat: int) -> int:
        return next(i for i, m in enumerate(self.sides) if (m >> seat) & 1)

    def start(self, state: TrickState) -> None:
        """At the first lead: what each side can make."""
        self.makeable = []
        for solver in self.solvers:
            try:
                self.makeable.append(solver.solve(state))
            except SearchLimit:
                self.makeable.append(None)

    def before_card(self, state: TrickState) -> dict[int, int] | None:
        """Each legal card's kept tricks for the mover's side (``None``: over budget)."""
        side = self.side_of(state.turn)
        try:
            values = self.solvers[side].card_values(state)
        except SearchLimit:
            return None
        won = _won(state, self.sides[side])
        return {c: won + v for c, v in values.items()}

    def record_card(self, trick: int, seat: int, card: int, values: dict[int, int] | None) -> None:
        play: dict[str, JSON] = {"trick": trick, "seat": seat, "card": card_name(card)}
        if values is None:
            play.update(kept=None, best=None, loss=None, best_cards=[])
        else:
            best = max(values.values())
            play.update(
                kept=values[card],
                best=best,
                loss=best - values[card],
                best_cards=[card_name(c) for c in sorted(values) if values[c] == best],
            )
        self.plays.append(play)

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


def analyze(obj: JSON, *, nodes: int = DEFAULT_NODES) -> dict[str, JSON]:
    """The analysis of a record object (``{"profile", "hands": [...], "error"}``), by its family's analyser."""
    record = read_record(obj)
    if record.family.load_analysis is None:
        raise BadRecord(f"profile {record.profile!r} is not a trick-taking game: nothing to analyse double-dummy")
    analyser: Analyser = record.family.load_analysis()
    return analyser(record, nodes)


Analyser = Callable[[Record, int], dict[str, JSON]]
"""``analyse(record, nodes)`` → the report (a family's ``load_analysis``)."""


def analyze_spades_record(record: Record, nodes: int) -> dict[str, JSON]:
    """The Spades family's analysis: the game is replayed on the trick core, solved double-dummy."""
    game = new_record_game(record)
    assert isinstance(game, TrickState), "the Spades family's games are trick-core states"
    hands: list[dict[str, JSON]] = []
    error: dict[str, JSON] | None = None
    for h, rec_hand in enumerate(record.hands):
        if game.is_over() or not rec_hand.actions:
            break
        current = HandAnalysis(game, h, nodes)
        for i, raw in enumerate(rec_hand.actions):
            seat = game.to_act
            playing = game.phase.name == "PLAY"
            values = None
            if playing:
                if current.makeable is None:
                    current.bids = list(game.replay_summary()["hands"][-1].get("bids") or [])
                    current.start(game)
                values = current.before_card(game)
            trick = sum(game.tricks_won) + 1
            try:
                if not isinstance(raw, Mapping):
                    raise IllegalAction("bad_record", "an action must be an object")
                game.apply(game.parse_action(raw))
            except IllegalAction as exc:
                error = {"hand": h, "action": i, "code": exc.code, "message": exc.message}
                break
            if playing and seat is not None:
                current.record_card(trick, seat, int(Card.parse(str(raw["play"]))), values)
        hands.append(current.report())
        if error is not None:
            break
    return {"profile": record.profile, "hands": hands, "error": error}


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
        report = analyze(parse_json(text), nodes=args.nodes)
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
    p.set_defaults(func=cmd_analyze)


__all__ = ["DEFAULT_NODES", "add_analyze_parser", "analyze", "analyze_text", "side_masks"]
