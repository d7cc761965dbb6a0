"""Hand scoring for the Spades family — a pure function of bids, tricks and bags.

>>> from tapete.engine.spades.rules import SpadesRules
>>> cutthroat = SpadesRules(players=3)
>>> r = score_hand(cutthroat, bids=[5, 6, 4], tricks=[7, 6, 4], bags_before=[9, 0, 0])
>>> r.change, r.bags, r.penalty
((-48, 60, 40), (1, 0, 0), (-100, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tapete.engine.spades.rules import SpadesRules

Bid = int | str
"""An ordinary bid (0 is nil) or a special bid: ``"1F" "2F" "B6" "BN" "SM"``."""

BAG_PENALTY = 10
"""Points each bag costs once its penalty is paid, under every bag rule that has one:
100 for 10 bags (``accumulate``), 10 a bag of the count that reaches the limit
(``limit``), 10 a bag at once (``per_hand``)."""


class SeatResult(NamedTuple):
    """What one seat's bid earned: ``points`` for the bid, ``bags`` added by it."""

    points: int
    bags: int
    made: bool


class HandScore(NamedTuple):
    """One hand's result per scoring side (a seat, or a team in a partnership)."""

    contract: tuple[int, ...]
    """Points from bids (contracts, nils, special bids)."""
    prizes: tuple[int, ...]
    """Points from prize jacks."""
    bags_added: tuple[int, ...]
    """Bags this hand added, after any J♥ prize took one off."""
    penalty: tuple[int, ...]
    """Bag penalties (≤ 0)."""
    change: tuple[int, ...]
    """``contract + prizes + penalty``: the side's score change for the hand."""
    bags: tuple[int, ...]
    """Each side's bag count after the hand."""


def score_bid(bid: Bid, tricks: int) -> SeatResult:
    """Points and bags of one individually scored bid.

    >>> score_bid(5, 7), score_bid("1F", 3).points, score_bid("B6", 5).points
    (SeatResult(points=52, bags=2, made=True), 12, -100)
    """
    if bid == 0:
        return SeatResult(100, 0, True) if tricks == 0 else SeatResult(-100, tricks, False)
    if bid == "BN":
        return SeatResult(200, 0, True) if tricks == 0 else SeatResult(-200, tricks, False)
    if bid == "1F":
        if tricks == 1:
            return SeatResult(50, 0, True)
        return SeatResult(10 + tricks - 1, tricks - 1, True) if tricks > 1 else SeatResult(-50, 0, False)
    if bid == "2F":
        if tricks == 2:
            return SeatResult(40, 0, True)
        return SeatResult(20 + tricks - 2, tricks - 2, True) if tricks > 2 else SeatResult(-40, 0, False)
    if bid == "B6":
        return SeatResult(100 + tricks - 6, tricks - 6, True) if tricks >= 6 else SeatResult(-100, 0, False)
    if bid == "SM":
        return SeatResult(150, 0, True) if tricks >= 14 else SeatResult(-150, 0, False)
    if isinstance(bid, int) and bid > 0:
        return (
            SeatResult(10 * bid + tricks - bid, tricks - bid, True)
            if tricks >= bid
            else SeatResult(-10 * bid, 0, False)
        )
    raise ValueError(f"not a bid: {bid!r}")


def _partnership_contract(bids: Sequence[Bid], tricks: Sequence[int], team: int) -> tuple[int, int]:
    """Points and bags of one team: nil bonuses plus the combined contract."""
    points = 0
    contract = 0
    taken = 0
    for seat in range(team, len(bids), 2):
        bid = bids[seat]
        won = tricks[seat]
        taken += won
        if type(bid) is int and bid > 0:
            contract += bid
        elif bid == 0 or bid == "BN":
            value = 100 if bid == 0 else 200
            points += value if won == 0 else -value
        else:
            raise ValueError(f"partnership scoring has no special bid {bid!r}")
    if taken >= contract:
        return points + 10 * contract + taken - contract, taken - contract
    return points - 10 * contract, 0


def score_hand(
    rules: SpadesRules,
    bids: Sequence[Bid],
    tricks: Sequence[int],
    bags_before: Sequence[int],
    jack_winners: Sequence[tuple[str, int]] = (),
) -> HandScore:
    """Score one complete hand.

    ``bids`` and ``tricks`` are per seat; ``bags_before`` per side; ``jack_winners``
    lists ``(jack, seat)`` for each prize jack of the profile and the seat that won the
    trick holding it.
    """
    sides = rules.sides
    contract = [0] * sides
    added = [0] * sides
    moon = [False] * sides
    if rules.partnership:
        for team in range(2):
            contract[team], added[team] = _partnership_contract(bids, tricks, team)
    else:
        for seat, bid in enumerate(bids):
            result = score_bid(bid, tricks[seat])
            contract[seat] = result.points
            added[seat] = result.bags
            moon[seat] = bid == "SM" and result.made

    prizes = [0] * sides
    hearts = [0] * sides
    for jack, seat in jack_winners:
        if jack not in rules.prize_jacks:
            continue
        side = rules.side_of(seat)
        if jack == "JH":
            hearts[side] += 1
        else:
            prizes[side] += 10

    penalty = [0] * sides
    bags_after = [0] * sides
    for side in range(sides):
        if moon[side]:  # a made shoot-the-moon adds no bags and pays no penalty this hand
            kept = bags_before[side] if rules.bag_rule != "per_hand" else 0
            count = max(0, kept - hearts[side])  # a J♥ prize still takes a bag off
            added[side] = count - kept
            bags_after[side] = count
            continue
        if rules.bag_rule == "none":
            added[side] = 0
            continue
        if rules.bag_rule == "per_hand":
            added[side] = max(0, added[side] - hearts[side])
            penalty[side] = -BAG_PENALTY * added[side]
            continue
        count = max(0, bags_before[side] + added[side] - hearts[side])
        added[side] = count - bags_before[side]
        limit = rules.bag_limit
        if rules.bag_rule == "limit":
            if count >= limit:
                penalty[side] = -BAG_PENALTY * count
                count = 0
        else:
            while count >= limit:
                penalty[side] -= BAG_PENALTY * limit
                count -= limit
        bags_after[side] = count

    change = tuple(contract[i] + prizes[i] + penalty[i] for i in range(sides))
    return HandScore(
        contract=tuple(contract),
        prizes=tuple(prizes),
        bags_added=tuple(added),
        penalty=tuple(penalty),
        change=change,
        bags=tuple(bags_after),
    )


def lasting_change(score: HandScore) -> tuple[int, ...]:
    """Each side's change with every bag the hand added charged its share of a penalty
    (``BAG_PENALTY``) and this hand's penalty left out: what the hand is worth over a game
    that goes on until every bag is paid for. The bag count a side brought in then no
    longer matters (the ninth bag costs what the first does), and a bag taken off (a J♥
    prize, a made shoot-the-moon) is worth as much.

    >>> from tapete.engine.spades.rules import SpadesRules
    >>> r = score_hand(SpadesRules(players=3), bids=[5, 6, 4], tricks=[7, 6, 4], bags_before=[9, 0, 0])
    >>> r.change, lasting_change(r)
    ((-48, 60, 40), (32, 60, 40))
    """
    return tuple(
        c + p - BAG_PENALTY * b for c, p, b in zip(score.contract, score.prizes, score.bags_added, strict=True)
    )
