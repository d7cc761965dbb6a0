"""The expert level's play: sampled deals solved double-dummy (PIMC over ``engine/spades/dds``).

Deals consistent with everything the seat has seen are drawn by the hard level's
sampler (bid-weighted); on each, the solver gives every legal card's tricks for the
seat's team. A card scores, summed over the deals, what the hand would then be worth as
the hard level counts it: the team's score change minus the other team's
(``trick_utilities``: the profile's own scoring, so a set, a bag penalty or the
opponents' failed contract all count). A nil that has failed is over: the rest is the
teams' tricks. While a nil is open (its bidder has taken no trick) tricks are not all
alike; with ``nil_cards`` set, each deal is then searched for that worth itself
(``engine/spades/score_search``, over ``nil_worth``: keeping or breaking the nil and the
teams' tricks in one answer). By default hard decides there: the worth search measured
no better.

Each decision has a node budget shared by its deals; deals past it are left out, and
when the hand is still too big to solve (``dds_cards``, or ``nil_cards`` with a nil
open) or fewer deals were solved than ``MIN_DEALS`` (too few to read a card's value
from), the hard level's search decides instead.

In the individual profiles (every seat for itself) the trick solver could only give a
seat's tricks against all the others together (the paranoid reading), and cards chosen
by it played measurably worse than hard's (Cutthroat, 300 duplicate deals: −3.3 points a
hand [−5.6, −1.0]), so there hard decides. With ``maxn_cards`` set, once the hands
hold that many cards or fewer together, each sampled deal is searched max^n instead
(``engine/spades/maxn``): every seat plays for its own worth as the hard level values it
(its points less the mean of the others', ``seat_worth``), and a card scores the seat's
own worth summed over the deals. That measured no better than hard either (Cutthroat,
150 duplicate deals with the bots' seeds shared: −0.8 [−2.1, 0.5]), so it is off by
default.

Bidding is the hard level's (``bidding.hard_bid``), with one question put to the solver
where every seat plays for itself: before bidding a nil, can the nil be kept? On the
first sampled deals (bids made, at the first lead) the worth search is asked whether the
bidder keeps it against the two (or more) others all trying to set it, every card seen
(``nil_holds``). Unless it is kept on at least ``DEFAULT_NIL_KEEP`` of them (``nil_keep``), the best bid that is
not a nil is made instead. Hard's playouts never try to set a nil, so they value nils
that opponents who try to set them mostly break (between hard bots in Cutthroat, most
nils bid are lost, each costing about 70 to 80 points a hand, ``benchmarks/nil_cost.py``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.search import candidate_plays, hand_worth, seat_utilities
from tapete.bots.spades.view import View, is_nil
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.determinize import FastHand
from tapete.engine.spades.maxn import MaxnSearch, Worth
from tapete.engine.spades.score_search import ScoreSearch
from tapete.engine.spades.scoring import score_hand

Answer = TypeVar("Answer")
"""What a search answers for one card."""

DEFAULT_EXPERT_SAMPLES = 48
"""Deals drawn per decision (twice the 24 first chosen: it measured stronger against hard
over 900 duplicate spades deals, ``docs/analysis.md``)."""
DEFAULT_EXPERT_NODES = 800_000
"""Search nodes per decision, shared by its deals (at most about a second of the compiled
solver; the decision's time budget bounds it too)."""
SAMPLE_BATCH = 24
"""Deals drawn from the sampler in one go."""
DEFAULT_DDS_CARDS = 9
"""The solver plays once no hand holds more cards than this (before: the hard level)."""
DEFAULT_NIL_CARDS = 0
"""With a nil open, the worth search plays once no hand holds more cards than this (0:
never, hard decides). From 7 cards it measured no better than leaving open nils to hard
(600 duplicate spades deals, ``docs/analysis.md``); its table holds exact positions only,
so it costs more nodes than the trick solver (about 33,000 for a 7-card ending at the
median, 140,000 for an 8-card one)."""
DEFAULT_MAXN_CARDS = 0
"""Where each seat plays for itself, the max^n search plays once the hands hold no more
than this many cards together (before: the hard level; 0: never, the default). From 15
(five a hand at three seats) it measured no better than hard (150 duplicate Cutthroat
deals with the bots' seeds shared: −0.8 [−2.1, 0.5] points a hand, ``docs/analysis.md``).
Max^n cannot prune as alpha-beta does, so its cost grows with the cards of every hand
(5 seats, 4 cards each: about 19,000 nodes at the median, 5 cards: 450,000;
``benchmarks/maxn_bench.py``)."""
MIN_DEALS = 8
"""Fewer deals solved within the budget than this (or than the deals asked for): hard decides."""
DEFAULT_NIL_KEEP = 0.5
"""Where every seat plays for itself, the share of sampled deals on which a nil must be kept
double-dummy for the expert level to bid it (0: hard's bid stands)."""
NIL_NODES = 25_000
"""Search nodes for one deal's nil question; a deal not answered within them counts as lost."""


def side_mask(view: View) -> int:
    """The seats playing for the observer: its team, or itself alone."""
    return sum(1 << s for s in range(view.n) if view.side(s) == view.side(view.seat))


def open_nil_seats(view: View) -> int:
    """The seats (a mask) that bid nil (or blind nil) and have taken no trick yet: their
    nils are still being played."""
    return sum(1 << s for s in range(view.n) if is_nil(view.bids[s]) and view.tricks_won[s] == 0)


def nil_worth(view: View, f: FastHand, side: int, watched: int, left: int, lasting: bool = False) -> list[int]:
    """The worth table of ``ScoreSearch`` for the observer's team (``side``) with open nils
    (``watched``): for each mask of watched seats that take a trick and each number ``t``
    of the ``left`` tricks the team takes (the other team the rest), the team's score
    change minus the other team's, scored by the profile. A watched seat that takes a
    trick is given one, its team's other tricks go to a seat whose nil is not open;
    combinations no play reaches are worth 0. ``lasting``: bags charged (``search.hand_worth``)."""
    stride = left + 1
    out = [0] * ((1 << view.n) * stride)
    mine = view.side(view.seat)
    broken = watched
    while True:  # every subset of the watched seats, down to none
        for t in range(left + 1):
            tricks = list(view.tricks_won)
            reachable = True
            for team, count in ((side, t), (((1 << view.n) - 1) & ~side, left - t)):
                seats = [s for s in range(view.n) if (team >> s) & 1]
                hit = [s for s in seats if (broken >> s) & 1]
                takers = [s for s in seats if not (watched >> s) & 1 or (broken >> s) & 1]
                if len(hit) > count or (count and not takers):
                    reachable = False
                    break
                for s in hit:
                    tricks[s] += 1
                if count > len(hit):
                    tricks[takers[0]] += count - len(hit)
            if reachable:
                change = hand_worth(score_hand(f.rules, f.bids, tricks, f.bags, f.jack_winners), lasting)
                out[broken * stride + t] = change[mine] - change[1 - mine]  # two teams
        if broken == 0:
            return out
        broken = (broken - 1) & watched


def trick_utilities(view: View, f: FastHand, side: int, left: int, lasting: bool = False) -> list[float]:
    """For each number ``t`` (0 … ``left``) of the remaining tricks the observer's team
    (``side``) takes, the other team taking the rest: the hand's worth to the observer —
    its team's score change minus the other team's, in hundreds
    (``search.seat_utilities``), scored by the profile (``score_hand``; with ``lasting``
    each bag charged its share of a penalty, ``search.hand_worth``)."""
    ours = next(s for s in range(view.n) if (side >> s) & 1)
    theirs = next(s for s in range(view.n) if not (side >> s) & 1)
    side_of = [view.side(s) for s in range(view.n)]
    out: list[float] = []
    for t in range(left + 1):
        tricks = list(view.tricks_won)
        tricks[ours] += t
        tricks[theirs] += left - t
        change = hand_worth(score_hand(f.rules, f.bids, tricks, f.bags, f.jack_winners), lasting)
        out.append(seat_utilities(change, side_of, view.rules.sides)[view.seat])
    return out


def sampled_deals(view: View, rng: random.Random, count: int, deadline: Deadline) -> Iterator[list[int]]:
    """``count`` deals from the hard level's sampler, drawn ``SAMPLE_BATCH`` at a time: no
    further draw once ``deadline`` has passed."""
    sampler = Sampler(view)
    left = count
    while left > 0:
        n = min(left, SAMPLE_BATCH)
        yield from sampler.weighted(rng, n)
        left -= n
        if deadline.expired():
            return


class Searcher(Protocol[Answer]):
    """A double-dummy search with a node budget: the trick solver, the worth search, max^n."""

    budget: int
    nodes: int

    def card_values(self, state: FastHand, /) -> dict[int, Answer]: ...


def within_budget(searcher: Searcher[Answer], f: FastHand, budget: int) -> tuple[dict[int, Answer] | None, int]:
    """Every legal card's answer (tricks, worth, or every seat's worth) on one deal within
    ``budget`` nodes (``None`` past it), and the nodes it took."""
    searcher.budget = budget
    start = searcher.nodes
    try:
        return searcher.card_values(f), searcher.nodes - start
    except SearchLimit:
        return None, searcher.nodes - start


def seat_worth(view: View, f: FastHand, lasting: bool = False) -> Worth:
    """What an ending is worth to each seat where each plays for itself: the tricks and
    prize jacks it adds to those already taken, the hand scored by the profile, each
    seat's points less the mean of the others' (``search.seat_utilities``: the hard
    level's own valuation; with ``lasting`` each bag charged its share of a penalty)."""
    side_of = [view.side(s) for s in range(view.n)]
    sides = view.rules.sides
    before = list(view.tricks_won)
    fallen = list(f.jack_winners)

    def worth(tricks: Sequence[int], jacks: Sequence[tuple[str, int]]) -> list[float]:
        total = [a + b for a, b in zip(before, tricks, strict=True)]
        change = hand_worth(score_hand(f.rules, f.bids, total, f.bags, [*fallen, *jacks]), lasting)
        return seat_utilities(change, side_of, sides)

    return worth


def nil_holds(starts: Sequence[FastHand], seat: int, keep: float, deadline: Deadline = NO_DEADLINE) -> bool:
    """Whether ``seat``'s nil is kept on at least ``keep`` of ``starts`` (sampled deals at the
    first lead), each searched double-dummy with every other seat trying to set it (the worth
    search, worth 1 for a nil kept, 0 for one lost); a deal not answered within
    ``NIL_NODES``, or not reached before ``deadline``, counts as lost."""
    kept = 0
    for f in starts:
        if deadline.expired():
            break
        worth = [0] * ((1 << f.num_players) * (f.tricks_left + 1))
        worth[0] = 1  # no watched seat took a trick (and the bidder none)
        search = ScoreSearch(f.num_players, 1 << seat, 1 << seat, worth, budget=NIL_NODES)
        with contextlib.suppress(SearchLimit):
            kept += search.value(f)
    return bool(starts) and kept >= keep * len(starts)


def individual_play(
    view: View,
    rng: random.Random,
    cands: list[int],
    samples: int,
    nodes: int,
    deadline: Deadline = NO_DEADLINE,
    lasting: bool = False,
) -> int | None:
    """Where each seat plays for itself: the card worth most to the seat summed over sampled
    deals, each searched max^n (every seat plays for its own score, ``engine/spades/maxn``),
    or ``None`` (hard decides) when fewer deals than ``MIN_DEALS`` fit the node budget."""
    search: MaxnSearch | None = None
    totals = dict.fromkeys(cands, 0.0)
    solved = 0
    spent = 0
    me = view.seat
    for hands in sampled_deals(view, rng, samples, deadline):
        if spent >= nodes or (solved and deadline.expired()):
            break
        f = FastHand.from_observation(view.obs, hands)
        if search is None:
            search = MaxnSearch(view.n, seat_worth(view, f, lasting))
        search.clear()
        answers, used = within_budget(search, f, nodes - spent)
        spent += used
        if answers is None:
            break
        solved += 1
        for c in cands:
            totals[c] += answers[c][me]
    if solved < min(MIN_DEALS, samples):
        return None
    return max(cands, key=lambda c: (totals[c], -c))


def expert_play(
    view: View,
    rng: random.Random,
    samples: int,
    nodes: int,
    dds_cards: int,
    deadline: Deadline = NO_DEADLINE,
    nil_cards: int = DEFAULT_NIL_CARDS,
    lasting: bool = False,
    maxn_cards: int = DEFAULT_MAXN_CARDS,
) -> int | None:
    """The card with the best summed value over solved deals, or ``None`` to defer to hard."""
    cands = candidate_plays(view)
    if len(cands) == 1:
        return cands[0]
    if not view.partnership:
        if sum(view.hand_sizes) > maxn_cards:
            return None
        return individual_play(view, rng, cands, samples, nodes, deadline, lasting)
    if max(view.hand_sizes) > dds_cards:
        return None
    side = side_mask(view)
    watched = open_nil_seats(view)
    if watched and max(view.hand_sizes) > nil_cards:
        return None
    solver = Solver(view.n, side)
    search: ScoreSearch | None = None
    utilities: list[float] = []
    totals = dict.fromkeys(cands, 0.0)
    solved = 0
    spent = 0
    for hands in sampled_deals(view, rng, samples, deadline):
        if spent >= nodes or (solved and deadline.expired()):
            break
        f = FastHand.from_observation(view.obs, hands)
        if watched:  # an open nil: each card's worth from one search of the hand's score
            if search is None:
                search = ScoreSearch(view.n, side, watched, nil_worth(view, f, side, watched, f.tricks_left, lasting))
            search.clear()
            answers, used = within_budget(search, f, nodes - spent)
        else:
            if not utilities:
                utilities = trick_utilities(view, f, side, f.tricks_left, lasting)  # the trick in progress included
            answers, used = within_budget(solver, f, nodes - spent)
        spent += used
        if answers is None:
            break
        solved += 1
        for c in cands:
            totals[c] += answers[c] / 100.0 if watched else utilities[answers[c]]
    if solved < min(MIN_DEALS, samples):
        return None
    return max(cands, key=lambda c: (totals[c], -c))


__all__ = [
    "DEFAULT_DDS_CARDS",
    "DEFAULT_EXPERT_NODES",
    "DEFAULT_EXPERT_SAMPLES",
    "DEFAULT_MAXN_CARDS",
    "DEFAULT_NIL_CARDS",
    "DEFAULT_NIL_KEEP",
    "MIN_DEALS",
    "NIL_NODES",
    "expert_play",
    "nil_holds",
    "nil_worth",
    "open_nil_seats",
    "sampled_deals",
    "side_mask",
    "trick_utilities",
    "within_budget",
]
