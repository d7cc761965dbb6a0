"""Statistics of the Spades family (partnership Spades, Cutthroat, Call Break…).

Per seat and completed hand, from the replay report's ``bids`` and ``tricks_won``:

- *contract*: an ordinary bid of 1 or more; made when the seat (in a partnership: its
  team, counting every trick of both partners against the sum of their ordinary bids)
  took at least that many tricks. A contract not made is a *set*;
- *nil* (bid 0) and *blind nil* (``BN``): made when the seat took no trick;
- *special bids* (``1F``, ``2F``, ``B6``, ``SM``, official profiles): made as the
  scoring rules say (:func:`tapete.engine.spades.scoring.score_bid`);
- *bags*: tricks over the contract (the team's in a partnership; a failed nil's tricks
  count), before any J♥ prize or penalty, per hand of the games whose options count bags
  (``None`` when none did);
- *points*: the seat's side's score change.

Percentages are ``None`` when the player never tried the bid (or the profile has none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tapete.engine.base import JSON
from tapete.engine.spades.scoring import score_bid
from tapete.stats import StatsFunctions, ratio

SPECIAL: Final = frozenset({"1F", "2F", "B6", "SM"})

COUNTS: Final = (
    "hands",
    "points",
    "contracts",
    "contracts_made",
    "nils",
    "nils_made",
    "blind_nils",
    "blind_nils_made",
    "specials",
    "specials_made",
    "bags",
    "bag_hands",
)


def game(report: Mapping[str, Any], seat: int, rules: Any) -> dict[str, JSON]:
    """The numbers ``seat`` contributes from one game's replay report."""
    n: dict[str, float] = dict.fromkeys(COUNTS, 0)
    side = rules.side_of(seat)
    team = [s for s in range(rules.players) if rules.side_of(s) == side]
    for hand in report.get("hands", []):
        change = hand.get("score_change")
        if change is None:
            continue
        bids, won = hand["bids"], hand["tricks_won"]
        bid = bids[seat]
        n["hands"] += 1
        n["points"] += change[side]
        if isinstance(bid, int) and bid > 0:
            n["contracts"] += 1
            if rules.partnership:
                contract = sum(b for s in team if isinstance(b := bids[s], int) and b > 0)
                made = sum(won[s] for s in team) >= contract
            else:
                made = won[seat] >= bid
            n["contracts_made"] += int(made)
        elif bid == 0:
            n["nils"] += 1
            n["nils_made"] += int(won[seat] == 0)
        elif bid == "BN":
            n["blind_nils"] += 1
            n["blind_nils_made"] += int(won[seat] == 0)
        elif bid in SPECIAL:
            n["specials"] += 1
            n["specials_made"] += int(score_bid(bid, won[seat]).made)
        if rules.bag_rule != "none":
            n["bags"] += _bags(rules, bids, won, seat, team)
            n["bag_hands"] += 1
    return {k: v for k, v in n.items()}


def _bags(rules: Any, bids: Sequence[Any], won: Sequence[int], seat: int, team: Sequence[int]) -> int:
    if rules.partnership:
        contract = sum(b for s in team if isinstance(b := bids[s], int) and b > 0)
        taken = sum(won[s] for s in team)
        return taken - contract if taken >= contract else 0
    return score_bid(bids[seat], won[seat]).bags


def summary(games: Sequence[Mapping[str, Any]], rules: Any) -> dict[str, JSON]:
    """The profile's Spades statistics over its games.

    Whether a bid or bags apply is read from the games themselves (each was scored by its
    own table's options), not from the profile's defaults: a rate is ``None`` when no game
    gave the player a try at it.
    """
    t = {k: sum(float(g.get(k, 0)) for g in games) for k in COUNTS}
    hands = t["hands"]
    return {
        "hands": int(hands),
        "points_per_hand": ratio(t["points"], hands),
        "contracts_pct": ratio(t["contracts_made"], t["contracts"], 100),
        "nil_pct": ratio(t["nils_made"], t["nils"], 100),
        "blind_nil_pct": ratio(t["blind_nils_made"], t["blind_nils"], 100),
        "special_pct": ratio(t["specials_made"], t["specials"], 100),
        "bags_per_hand": ratio(t["bags"], t["bag_hands"]),
        "sets": int(t["contracts"] - t["contracts_made"]),
    }


STATS: Final = StatsFunctions(game, summary)
"""What the family registers as its ``load_stats``."""

__all__ = ["STATS", "game", "summary"]
