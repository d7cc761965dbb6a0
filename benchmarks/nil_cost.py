"""What the nils a level bids are worth where every seat plays for itself.

Deals are dealt one after the other (``--seed`` on) and bid by hard bots. On each deal
where a seat bids nil, the hand is played out by hard bots twice: as bid, and with that
seat bidding normal's bid instead (the seats after it bidding again; the same bots and
seeds). Each time the seat scores its score change less the mean of the others' (the
hard level's own valuation), and the script prints the mean difference, nil minus the
other bid, with its 95 % interval, and how many of the nils were kept. ``--level expert``
also asks the expert level what it bids in the nil seat's place (it bids nil only where
the others cannot set it on most sampled deals). Example (compiled engine)::

    PYTHONPATH=/compiled/tree/src python benchmarks/nil_cost.py --profile cutthroat --deals 600 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import tapete
from tapete.bots import make_bot
from tapete.bots.spades.heuristics import normal_bid
from tapete.bots.spades.view import is_nil, read_view
from tapete.engine.spades.game import SpadesGame


def bot_seed(deal: int, seat: int) -> int:
    return deal * 10 + seat


def play(
    profile: str, deal: int, instead: int | None = None
) -> tuple[list[Any], dict[str, Any] | None, dict[int, Any]]:
    """The deal's bids, its first hand's summary and each seat's observation at its bid,
    hard bots throughout; ``instead``: the seat that bids normal's bid. Without ``instead``
    a deal with no nil is not played."""
    g = tapete.new_game(profile, seed=deal)
    assert isinstance(g, SpadesGame)
    bots = [make_bot("hard", seed=bot_seed(deal, s)) for s in range(g.rules.players)]
    asked: dict[int, Any] = {}
    while g.phase.name != "PLAY":
        seat = g.to_act
        assert seat is not None
        obs = asked[seat] = g.observation(seat)
        if seat == instead:
            view = read_view(obs)
            g.apply(dict(view.legal[normal_bid(view)]))
        else:
            g.apply(g.parse_action(bots[seat].act(obs)))
    bids = list(g.observation(0)["bids"])
    if instead is None and not any(is_nil(b) for b in bids):
        return bids, None, asked
    hand = g.hand_number
    while not g.is_over() and g.hand_number == hand:
        seat = g.to_act
        assert seat is not None
        g.apply(g.parse_action(bots[seat].act(g.observation(seat))))
    return bids, g.replay_summary(last_hands=2)["hands"][0], asked


def relative(change: list[int], seat: int) -> float:
    """The seat's score change less the mean of the others'."""
    return change[seat] - (sum(change) - change[seat]) / (len(change) - 1)


def one_deal(job: tuple[str, int, bool]) -> list[tuple[int, int, bool, float, float, Any]]:
    """Each nil of the deal: (deal, seat, kept, nil's value, the other bid's value, expert's bid)."""
    profile, deal, ask_expert = job
    bids, summary, asked = play(profile, deal)
    if summary is None:
        return []
    out = []
    for seat, bid in enumerate(bids):
        if not is_nil(bid):
            continue
        _, other, _ = play(profile, deal, instead=seat)
        assert other is not None
        kept = summary["tricks_won"][seat] == 0
        # the expert level in the nil's place, the seats before it having bid as hard did
        theirs = make_bot("expert", seed=bot_seed(deal, seat)).act(asked[seat]).get("bid") if ask_expert else None
        out.append(
            (deal, seat, kept, relative(summary["score_change"], seat), relative(other["score_change"], seat), theirs)
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="cutthroat")
    ap.add_argument("--deals", type=int, default=200, help="deals bid (only those with a nil are played)")
    ap.add_argument("--seed", type=int, default=2000, help="the first deal's seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--level", choices=("hard", "expert"), default="hard", help="expert: ask its bid too")
    args = ap.parse_args()
    jobs = [(args.profile, args.seed + i, args.level == "expert") for i in range(args.deals)]
    rows: list[tuple[int, int, bool, float, float, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for found in pool.map(one_deal, jobs):
            for row in found:
                deal, seat, kept, nil, other, theirs = row
                extra = f", expert bids {theirs}" if args.level == "expert" else ""
                print(
                    f"deal {deal} seat {seat}: nil {'kept' if kept else 'lost'}, {nil:+.1f} against {other:+.1f}{extra}"
                )
                rows.append(row)
    if len(rows) < 2:
        print(f"{len(rows)} nil(s) in {args.deals} deals: too few to compare")
        return
    diffs = [nil - other for _, _, _, nil, other, _ in rows]
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    kept_count = sum(1 for r in rows if r[2])
    print(
        f"{args.profile}: {len(rows)} nils bid by hard in {args.deals} deals, {kept_count} kept; "
        f"nil minus normal's bid {mean:+.1f} [{mean - half:+.1f}, {mean + half:+.1f}] points a hand"
    )
    if args.level == "expert":
        nils = sum(1 for r in rows if is_nil(r[5]))
        print(f"the expert level bids nil in {nils} of those {len(rows)} places")


if __name__ == "__main__":
    main()
