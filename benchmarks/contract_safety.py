"""How often the hard level's card is less sure to make the seat's bid than another card.

Where every seat plays for itself (Cutthroat and the like), the trick solver answers one
question exactly: how many tricks a seat can make against all the others together (the
"paranoid" count). A card after which that count still reaches the seat's bid, on a
sampled deal, keeps the contract whatever the others do. This plays hands between hard
bots and, at each of their play decisions once no hand holds more than ``--cards`` cards
and the seat still needs tricks for its bid, draws ``--deals`` deals from the seat's
view (the expert level's sampler) and counts, for each card, the deals on which it keeps
the contract so. It prints how often hard's card keeps it on fewer deals than the best
card does, and by how much: a rule that overrules hard where a card is surer could only
change those decisions. Compiled engine recommended (``benchmarks/dds_bench.py`` says how)::

    python benchmarks/contract_safety.py --profile cutthroat --hands 12
"""

from __future__ import annotations

import argparse
import random
import time

import tapete
from tapete.bots.budget import NO_DEADLINE
from tapete.bots.spades import SpadesBot
from tapete.bots.spades.expert import sampled_deals, within_budget
from tapete.bots.spades.search import candidate_plays
from tapete.bots.spades.view import View, bid_target, is_nil, read_view
from tapete.engine.spades.dds import Solver
from tapete.engine.spades.determinize import FastHand

GAPS = (0.0, 0.25, 0.5)
"""Shares of the deals by which hard's card may fall short of the surest card, counted."""


def tricks_needed(view: View) -> int:
    """Tricks the seat still needs for its bid (0 for a nil, or once made)."""
    bid = view.bids[view.seat]
    if bid is None or is_nil(bid):
        return 0
    return max(0, bid_target(bid) - view.tricks_won[view.seat])


def shortfall(view: View, chosen: int, deals: int, nodes: int, rng: random.Random) -> float | None:
    """By what share of the sampled deals ``chosen`` keeps the contract less often than the
    surest card (``None``: no deal solved within ``nodes``)."""
    need = tricks_needed(view)
    solver = Solver(view.n, 1 << view.seat)
    cards = candidate_plays(view)
    kept = dict.fromkeys(cards, 0)
    solved = 0
    for hands in sampled_deals(view, rng, deals, NO_DEADLINE):
        answers, _ = within_budget(solver, FastHand.from_observation(view.obs, hands), nodes)
        if answers is None:
            continue
        solved += 1
        for c in cards:
            kept[c] += answers[c] >= need
    if not solved or chosen not in kept:
        return None
    return (max(kept.values()) - kept[chosen]) / solved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="cutthroat")
    ap.add_argument("--hands", type=int, default=12, help="hands played (each a new game's first)")
    ap.add_argument("--cards", type=int, default=9, help="most cards a hand when decisions are checked")
    ap.add_argument("--deals", type=int, default=48, help="sampled deals a decision")
    ap.add_argument("--nodes", type=int, default=400_000, help="solver nodes a deal")
    ap.add_argument("--seed", type=int, default=500)
    args = ap.parse_args()
    decisions = checked = 0
    short = dict.fromkeys(GAPS, 0)
    start = time.monotonic()
    for h in range(args.hands):
        game = tapete.new_game(args.profile, seed=args.seed + h)
        bots = [SpadesBot("hard", seed=h * 10 + s) for s in range(game.num_players)]
        hand = game.hand_number
        while not game.is_over() and game.hand_number == hand:
            seat = game.to_act
            assert seat is not None
            view = read_view(game.observation(seat))
            code = bots[seat].choose(view)
            if view.phase == "play":
                decisions += 1
                if tricks_needed(view) and len(candidate_plays(view)) > 1 and max(view.hand_sizes) <= args.cards:
                    gap = shortfall(view, code, args.deals, args.nodes, random.Random(args.seed + decisions))
                    if gap is not None:
                        checked += 1
                        for g in GAPS:
                            short[g] += gap > g if g == 0.0 else gap >= g
            game.apply(dict(view.legal[code]))
    took = time.monotonic() - start
    print(f"{args.profile}: {args.hands} hands, {decisions} play decisions, {checked} checked ({took:.0f} s)")
    for g in GAPS:
        by = "" if g == 0.0 else f", by {g:.0%} of them or more"
        print(f"  hard's card keeps the contract on fewer deals than the surest card{by}: {short[g]}")


if __name__ == "__main__":
    main()
