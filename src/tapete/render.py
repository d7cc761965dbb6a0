"""Readable text for people: replay reports as tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tapete
from tapete.cards import Card
from tapete.errors import ProfileError
from tapete.families import family
from tapete.families.registry import HandText


def _sym(name: str) -> str:
    return Card.parse(name).symbol()


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    cells = [[str(c) for c in header]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = []
    for k, row in enumerate(cells):
        lines.append("  " + "  ".join(c.rjust(widths[i]) if i else c.ljust(widths[i]) for i, c in enumerate(row)))
        if k == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    return lines


def _signed(value: float | None) -> str:
    """``+3``, ``-2``; points in tenths (Call Break) as ``+2.1``."""
    if value is None:
        return ""
    return f"{value:+d}" if isinstance(value, int) else f"{value:+.1f}"


def _action_text(action: dict[str, Any]) -> str:
    if "play" in action:
        play = action["play"]
        return " ".join(_sym(c) for c in play) if isinstance(play, list) else _sym(play)
    if action.get("pass"):
        return "pass"
    if action.get("look"):
        return "look"
    bid = action.get("bid")
    return "nil" if bid == 0 else f"bid {bid}"


def replay_report_text(report: dict[str, Any], players: Sequence[str] | None = None) -> str:
    """The report of ``tapete replay`` as tables, one per hand."""
    lines = [f"profile {report.get('profile')}"]
    if report.get("draw"):
        lines.append("seating draw: " + " ".join(f"seat {i} {_sym(c)}" for i, c in enumerate(report["draw"])))
    err = report.get("error")
    hands = report.get("hands") or []
    hand_text = _hand_text(report)
    for h, hand in enumerate(hands):
        lines.append("")
        lines += hand_text(h, hand, report)
    lines.append("")
    if report.get("tokens") is not None:
        lines.append("tokens: " + "  ".join(f"{i}:{t}" for i, t in enumerate(report["tokens"])))
    if report.get("finished"):
        lines.append(f"finished — winner: {'team' if report.get('partnership') else 'seat'} {report.get('winner')}")
    elif report.get("to_act") is not None:
        legal = ", ".join(_action_text(a) for a in report.get("legal_actions", []))
        lines.append(f"not finished — seat {report['to_act']} to act; legal: {legal}")
    if err:
        where = "" if err.get("hand") is None else f"hand {err['hand']}, action {err['action']}: "
        lines.append(f"error: {where}{err['code']} — {err['message']}")
    return "\n".join(lines)


def _hand_text(report: Mapping[str, Any]) -> HandText:
    """The text renderer of the report's family (a report without a known profile prints none)."""
    try:
        fam = family(tapete.profile_info(report.get("profile")).family)
    except ProfileError:
        return lambda h, hand, report: []
    if fam.load_hand_text is None:
        return lambda h, hand, report: [f"hand {h + 1}"]
    return fam.load_hand_text()


def spades_hand(h: int, hand: Mapping[str, Any], report: Mapping[str, Any]) -> list[str]:
    """One Spades-family hand of a replay report: bids, tricks won, points, every trick."""
    bids = hand["bids"]
    won = hand["tricks_won"]
    lines = [f"hand {h + 1} (game {hand.get('game', 0) + 1}) — dealer seat {hand['dealer']}"]
    rows = [[f"seat {s}", "—" if b is None else ("nil" if b == 0 else b), won[s]] for s, b in enumerate(bids)]
    lines += _table(["seat", "bid", "won"], rows)
    change = hand.get("score_change")
    if change is not None:
        sides = len(change)
        label = "team" if sides != len(bids) else "seat"
        contract = hand.get("contract_points") or [None] * sides
        prizes = hand.get("prize_points") or [None] * sides
        penalty = hand.get("bag_penalty") or [None] * sides
        side_rows = [
            [
                f"{label} {i}",
                _signed(contract[i]),
                _signed(prizes[i]),
                _signed(penalty[i]),
                _signed(change[i]),
                hand["bags"][i],
                hand["scores"][i],
            ]
            for i in range(sides)
        ]
        lines.append("")
        lines += _table([label, "bids", "jacks", "penalty", "change", "bags", "total"], side_rows)
    tricks = hand.get("tricks", [])
    if tricks:
        lines.append("")
        for k, t in enumerate(tricks, 1):
            cards = " ".join(_sym(c) for c in t["cards"])
            won_by = "…" if t["winner"] is None else f"seat {t['winner']}"
            lines.append(f"  trick {k:2d}: seat {t['leader']} leads  {cards}  → {won_by}")
    return lines


def runfast_hand(h: int, hand: Mapping[str, Any], report: Mapping[str, Any]) -> list[str]:
    """The Run Fast deal of a replay report: every play, the cards left and the settlement."""
    lines = ["deal"]
    for k, play in enumerate(hand["plays"], 1):
        what = "pass" if play.get("pass") else " ".join(_sym(c) for c in play["cards"])
        lines.append(f"  {k:3d}. seat {play['seat']}: {what}")
    lines.append("")
    change = hand.get("score_change")
    rows = [
        [f"seat {s}", len(rem), " ".join(_sym(c) for c in rem), "" if change is None else _signed(change[s])]
        for s, rem in enumerate(hand.get("remaining", []))
    ]
    lines += _table(["seat", "left", "cards left", "points"], rows)
    return lines
