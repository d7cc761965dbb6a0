"""Statistics of Run Fast, per seat and finished deal of the replay report:

- *deals won*: the seat went out first (the settlement's ``winner``);
- *settlement*: the seat's score change of the deal (``settlement_avg`` per deal);
- *springs*: deals the seat won while an opponent had not played a card;
- *bombs*: bombs the seat played (a rank of four, or A-A-A), standing or beaten.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tapete.engine.base import JSON
from tapete.engine.runfast.actions import action_of
from tapete.engine.runfast.combos import classify, is_bomb
from tapete.stats import StatsFunctions, ratio

COUNTS: Final = ("deals", "deals_won", "settlement", "springs", "bombs")


def _is_bomb(cards: Sequence[str]) -> bool:
    key = classify(int(action_of(cards)))
    return key is not None and is_bomb(key)


def game(report: Mapping[str, Any], seat: int, rules: Any) -> dict[str, JSON]:
    """The numbers ``seat`` contributes from one game's replay report."""
    n: dict[str, float] = dict.fromkeys(COUNTS, 0)
    for deal in report.get("hands", []):
        n["bombs"] += sum(1 for p in deal["plays"] if p["seat"] == seat and "cards" in p and _is_bomb(p["cards"]))
        s = deal.get("settlement")
        if s is None:
            continue
        n["deals"] += 1
        n["settlement"] += s["score_change"][seat]
        if s["winner"] == seat:
            n["deals_won"] += 1
            n["springs"] += int(any(s["spring"]))
    return dict(n.items())


def summary(games: Sequence[Mapping[str, Any]], rules: Any) -> dict[str, JSON]:
    """The profile's Run Fast statistics over its games."""
    t = {k: sum(float(g.get(k, 0)) for g in games) for k in COUNTS}
    return {
        "deals": int(t["deals"]),
        "deals_won": int(t["deals_won"]),
        "settlement_avg": ratio(t["settlement"], t["deals"]),
        "springs": int(t["springs"]),
        "bombs": int(t["bombs"]),
    }


STATS: Final = StatsFunctions(game, summary)
"""What the family registers as its ``load_stats``."""

__all__ = ["STATS", "game", "summary"]
