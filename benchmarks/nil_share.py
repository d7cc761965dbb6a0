"""How much of a partnership hand the expert level's solver can play: nils bid, kept, and open late.

The expert level solves a position only when no hand holds more than ``dds_cards`` cards
and no nil is still open (``bots/spades/expert.py``); otherwise the hard level decides.
This script plays hands between bots of one level and counts, per hand, whether a nil
was bid and kept, and at the first position where no hand holds more than ``--dds-cards``
cards whether a nil was open there (hard decides), had already failed (the solver plays)
or there was none. Bids and play are the bots' own; nothing is timed. Example::

    PYTHONPATH=/compiled/tree/src python benchmarks/nil_share.py --hands 60 --seed 1000
"""

from __future__ import annotations

import argparse
from collections import Counter

import tapete
from tapete.bots import make_bot
from tapete.bots.spades.expert import DEFAULT_DDS_CARDS
from tapete.bots.spades.view import is_nil
from tapete.engine.spades.game import SpadesGame


def play_hand(profile: str, level: str, seed: int, dds_cards: int) -> tuple[list[bool], str]:
    """One hand: for each nil bid whether it was kept, and the nils' state once no hand
    holds more than ``dds_cards`` cards (``"none"``, ``"open"`` or ``"failed"``)."""
    g = tapete.new_game(profile, seed=seed)
    assert isinstance(g, SpadesGame)
    n = g.rules.players
    bots = [make_bot(level, seed=seed * 10 + s) for s in range(n)]
    while g.phase.name != "PLAY":
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].act(g.observation(seat)))
    log = g.log
    bids = list(g.observation(0)["bids"])
    nils = [s for s in range(n) if is_nil(bids[s])]
    late = ""
    while g.phase.name == "PLAY":
        if not late and max(h.bit_count() for h in g.hands) <= dds_cards:
            won = g.observation(0)["tricks_won"]
            late = "none" if not nils else "open" if any(won[s] == 0 for s in nils) else "failed"
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].act(g.observation(seat)))
    kept = [not any(t.winner == s for t in log.tricks) for s in nils]
    return kept, late


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="spades", help="a partnership profile")
    ap.add_argument("--level", default="hard")
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1000, help="the first hand's seed (one seed a hand)")
    ap.add_argument("--dds-cards", type=int, default=DEFAULT_DDS_CARDS)
    args = ap.parse_args()
    kept: list[bool] = []
    with_nil = 0
    late: Counter[str] = Counter()
    for i in range(args.hands):
        k, state = play_hand(args.profile, args.level, args.seed + i, args.dds_cards)
        kept += k
        with_nil += bool(k)
        late[state] += 1
    hands = args.hands
    seats = hands * tapete.load_profile(args.profile).players
    print(f"{args.profile}, {args.level} bots, {hands} hands (seeds {args.seed}..{args.seed + hands - 1})")
    print(
        f"nil bids: {len(kept)} of {seats} seat-hands ({len(kept) / seats:.0%}); kept {sum(kept)} ({sum(kept) / max(1, len(kept)):.0%})"
    )
    print(f"hands with a nil: {with_nil} ({with_nil / hands:.0%})")
    print(
        f"at {args.dds_cards} cards a hand: no nil {late['none']} ({late['none'] / hands:.0%}), "
        f"a nil open {late['open']} ({late['open'] / hands:.0%}), every nil failed {late['failed']} "
        f"({late['failed'] / hands:.0%})"
    )


if __name__ == "__main__":
    main()
