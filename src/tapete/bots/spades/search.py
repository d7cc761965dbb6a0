"""The search levels: hard (information-set MCTS over bid-weighted deals) and the ISMCTS baseline."""

from __future__ import annotations

import math
import random

from tapete.bots.budget import NO_DEADLINE, Deadline
from tapete.bots.spades.heuristics import normal_bid
from tapete.bots.spades.rollout import greedy_rollout, mixed_rollout, random_rollout, seat_targets
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.view import SUITS, View, low_bit
from tapete.cards import mask_of
from tapete.engine.spades.determinize import FastHand
from tapete.engine.spades.scoring import HandScore, lasting_change
from tapete.engine.spades.trick import prize_masks


def distinct_plays(view: View, legal: int) -> list[int]:
    """Legal cards with equivalent ones merged (touching cards: no unseen card between)."""
    prize = sum(m for _, m in prize_masks(view.rules.prize_jacks))
    out: list[int] = []
    for s in range(4):
        part = legal & SUITS[s]
        prev = -1
        while part:
            c = low_bit(part)
            part ^= 1 << c
            between = ((1 << c) - 1) & ~((2 << prev) - 1) if prev >= 0 else 0
            same = prev >= 0 and not (view.unseen & between) and not (prize >> c) & 1 and not (prize >> prev) & 1
            if not same:
                out.append(c)
            prev = c
    return out


def candidate_plays(view: View) -> list[int]:
    """The distinct legal cards worth searching (one when the choice is forced)."""
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:
        return [low_bit(legal)]
    return distinct_plays(view, legal)


def hand_worth(score: HandScore, lasting: bool) -> tuple[int, ...]:
    """The sides' points a finished hand is valued at: its score change or, with
    ``lasting``, the change with every bag charged its share of a penalty
    (``scoring.lasting_change``: a bag costs as much with one bag banked as with nine)."""
    return lasting_change(score) if lasting else score.change


def side_weights(view: View) -> list[float]:
    """How the hard level values each side's points: its own +1, opponents −λ."""
    rules = view.rules
    sides = rules.sides
    mine = view.side(view.seat)
    scores = list(view.obs["scores"])
    lam = 0.6 if view.partnership else 0.35
    threat = max((scores[s] for s in range(sides) if s != mine), default=0)
    if threat >= rules.target - 120:
        lam += 0.3
    w = [-lam / max(1, sides - 1) * (2 if view.partnership else 1) for _ in range(sides)]
    w[mine] = 1.0
    return w


def hard_play(
    view: View,
    rng: random.Random,
    samples: int,
    rollouts: int,
    deadline: Deadline = NO_DEADLINE,
    *,
    lasting: bool = False,
) -> int:
    """Determinized search: every candidate card over the same sampled deals, greedy rollouts."""
    cands = candidate_plays(view)
    if len(cands) == 1:
        return cands[0]
    sampler = Sampler(view)
    deals = sampler.weighted(rng, samples, deadline=deadline)
    template = FastHand.from_observation(view.obs, deals[0])
    targets, nil = seat_targets(template.bids, view.partnership)
    weights = side_weights(view)
    per_action = max(2, min(samples, rollouts // len(cands)))
    totals = dict.fromkeys(cands, 0.0)
    for i in range(per_action):
        if deadline.stop(i):
            break
        hands = deals[i % samples]
        for c in cands:
            f = template.copy()
            f.hands = list(hands)
            f.play(c)
            greedy_rollout(f, targets, nil, view.partnership)
            change = hand_worth(f.result(), lasting)
            totals[c] += sum(weights[k] * change[k] for k in range(len(change)))
    return max(cands, key=lambda c: (totals[c], -c))


class _Node:
    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[int, _Node] = {}


def _untried(moves: int, children: dict[int, _Node]) -> list[int]:
    """The cards of ``moves`` that have no child node yet."""
    out = []
    while moves:
        low = moves & -moves
        c = low.bit_length() - 1
        moves ^= low
        if c not in children:
            out.append(c)
    return out


def seat_utilities(change: tuple[int, ...] | list[int], side_of: list[int], sides: int) -> list[float]:
    """Per seat: its side's points minus the mean of the other sides' points, in hundreds."""
    total = sum(change)
    k = max(1, sides - 1)
    per_side = [(c - (total - c) / k) / 100.0 for c in change]
    return [per_side[s] for s in side_of]


def hard_mcts(
    view: View,
    rng: random.Random,
    samples: int,
    simulations: int,
    *,
    epsilon: float = 0.5,
    c_ucb: float = 0.7,
    deadline: Deadline = NO_DEADLINE,
    lasting: bool = False,
) -> int:
    """Information-set MCTS for the hard level.

    Determinizations come from a pool of ``samples`` deals drawn in proportion to how
    well they fit the bids (voids respected); the root only considers distinct cards;
    every seat in the tree maximizes its side's points minus the other sides' (the real
    hand score: contracts, nils, bags, prizes; with ``lasting`` each bag charged its
    share of a penalty, ``hand_worth``); playouts are epsilon-greedy.
    """
    cands = candidate_plays(view)
    if len(cands) == 1:
        return cands[0]
    root_mask = mask_of(cands)
    sampler = Sampler(view)
    pool = sampler.weighted(rng, max(1, samples), deadline=deadline)
    template = FastHand.from_observation(view.obs, pool[0])
    targets, nil = seat_targets(template.bids, view.partnership)
    side_of = [view.side(s) for s in range(view.n)]
    sides = view.rules.sides
    partnership = view.partnership
    root = _Node(-1)
    log = math.log
    sqrt = math.sqrt
    npool = len(pool)
    for i in range(simulations):
        if deadline.stop(i):
            break
        f = template.copy()
        f.hands = list(pool[i % npool])
        node = root
        path = [root]
        first = True
        while not f.done:
            moves = root_mask if first else f.playable()
            first = False
            children = node.children
            untried = _untried(moves, children)
            if untried:
                c = untried[rng.randrange(len(untried))]
                child = children[c] = _Node(f.turn)
                f.play(c)
                path.append(child)
                break
            best_c, best_v = -1, -math.inf
            m = moves
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                ch = children[c]
                ch.avail += 1
                v = ch.reward / ch.visits + c_ucb * sqrt(log(ch.avail) / ch.visits)
                if v > best_v:
                    best_c, best_v = c, v
            node = children[best_c]
            f.play(best_c)
            path.append(node)
        if not f.done:
            mixed_rollout(f, rng, epsilon, targets, nil, partnership)
        reward = seat_utilities(hand_worth(f.result(), lasting), side_of, sides)
        for nd in path:
            nd.visits += 1
            if nd.player >= 0:
                nd.reward += reward[nd.player]
    return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward / kv[1].visits, -kv[0]))[0]


def ismcts_play(
    view: View,
    rng: random.Random,
    simulations: int,
    c_ucb: float = 0.7,
    *,
    greedy: bool = False,
    deadline: Deadline = NO_DEADLINE,
    lasting: bool = False,
) -> int:
    """Single-observer information-set MCTS: uniform determinizations, random rollouts.

    With ``greedy`` the determinizations are weighted by the bids and the rollouts use
    the greedy policy (the tree variant of the hard level); ``lasting`` values hands as
    ``hand_worth`` does.
    """
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    sampler = Sampler(view)
    template = FastHand.from_observation(view.obs, sampler.sample(rng))
    targets, nil = seat_targets(template.bids, view.partnership)
    pool = sampler.weighted(rng, max(8, simulations // 8), deadline=deadline) if greedy else []
    root = _Node(-1)
    side_of = [view.side(s) for s in range(view.n)]
    for i in range(simulations):
        if deadline.stop(i):
            break
        f = template.copy()
        f.hands = list(pool[rng.randrange(len(pool))]) if greedy else sampler.sample(rng)
        node = root
        path = [root]
        while not f.done:
            moves = f.playable()
            untried = _untried(moves, node.children)
            if untried:
                c = untried[rng.randrange(len(untried))]
                child = node.children[c] = _Node(f.turn)
                f.play(c)
                path.append(child)
                break
            best_c, best_v = -1, -math.inf
            log_term = 0.0
            m = moves
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                ch = node.children[c]
                ch.avail += 1
                log_term = math.log(ch.avail)
                v = ch.reward / ch.visits + c_ucb * math.sqrt(log_term / ch.visits)
                if v > best_v:
                    best_c, best_v = c, v
            node = node.children[best_c]
            f.play(best_c)
            path.append(node)
        if not f.done:
            if greedy:
                greedy_rollout(f, targets, nil, view.partnership)
            else:
                random_rollout(f, rng)
        change = hand_worth(f.result(), lasting)
        reward = [change[side_of[s]] / 100.0 for s in range(view.n)]
        for nd in path:
            nd.visits += 1
            if nd.player >= 0:
                nd.reward += reward[nd.player]
    return max(root.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))[0]


__all__ = ["distinct_plays", "hand_worth", "hard_mcts", "hard_play", "ismcts_play", "normal_bid", "seat_utilities"]
