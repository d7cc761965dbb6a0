"""Worked examples computed by the engine when a page is rendered.

Nothing here is written down by hand: a real deal is played through the engine (the
seed's trick, a Run Fast bomb) and the scoring and settlement functions are called with
the profile's own rules, so a changed rule changes the example.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import tapete
from tapete.cards import SPADES, Card
from tapete.engine.runfast.actions import action_of
from tapete.engine.runfast.settlement import Settlement, settle
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid, HandScore, score_bid, score_hand

LETTERS = "ABCDEFGH"


class ExampleError(RuntimeError):
    """The engine did not behave as the example expects (a rule changed: fix the page)."""


def _fill(
    deck: Iterable[str], sizes: Sequence[int], fixed: Mapping[int, Iterable[str]], avoid: Mapping[int, str]
) -> list[list[str]]:
    """Give the ``fixed`` cards to their seats; the rest fill the hands in deck order."""
    hands: list[list[str]] = [[] for _ in sizes]
    used: set[str] = set()
    for seat, cards in fixed.items():
        for c in cards:
            hands[seat].append(c)
            used.add(c)
    avoided = set("".join(avoid.values()))
    ordered = sorted(deck, key=lambda name: name[-1] not in avoided or name.endswith("J"))
    for name in ordered:  # cards of the suits some seat must not hold go first
        if name in used:
            continue
        suit = "S" if name.endswith("J") else name[1]
        seats = sorted(range(len(sizes)), key=lambda s: len(hands[s]) - sizes[s])
        for seat in seats:
            if len(hands[seat]) < sizes[seat] and suit not in avoid.get(seat, ""):
                hands[seat].append(name)
                break
        else:
            raise ExampleError(f"cannot place {name} in the example deal")
    return hands


def _is_spade(card: str) -> bool:
    return Card.parse(card).suit == SPADES


# --- Spades family: the seed's trick -------------------------------------------------------
@dataclass(frozen=True)
class TrickPlay:
    """One card of the example trick and what the engine allowed at that turn."""

    seat: int
    letter: str
    card: str
    legal: tuple[str, ...]
    hearts_held: tuple[str, ...]


@dataclass(frozen=True)
class TrickExample:
    players: int
    opening: tuple[tuple[str, str], ...]
    """A first trick played before the example (``(letter, card)``), when the 2♣ holder must lead."""
    opening_winner: str | None
    leader_spades: tuple[str, ...]
    """Spades the leader holds but may not lead yet."""
    plays: tuple[TrickPlay, ...]
    refused_card: str
    refused_code: str
    winner: str
    broken_before: bool
    broken_after: bool
    next_leader: str
    next_spade_lead: str | None
    """A spade the winner may lead next (spades are broken), if any."""


_RANKS_HIGH_FIRST: Final = "AKQJT98765432"


class _Picker:
    """Cards of the deck for the example, each once: the preferred one if the table
    still has it, otherwise the next in the given order."""

    def __init__(self, deck: Iterable[str]) -> None:
        self.free = set(deck)

    def take(self, preferred: str, suit: str, high_first: bool = False) -> str:
        ranks = _RANKS_HIGH_FIRST if high_first else _RANKS_HIGH_FIRST[::-1]
        for card in (preferred, *(r + suit for r in ranks)):
            if card in self.free:
                self.free.discard(card)
                return card
        raise ExampleError(f"no card of suit {suit} left for the example deal")


def trick_example(rules: SpadesRules) -> TrickExample:
    """A leads A♥, B (void in hearts) trumps with 2♠, C (K♥ and Q♠) must play K♥, as in the seeds
    (the next cards of those suits where the table removes one)."""
    n = rules.players
    pick = _Picker(str(card) for card in rules.deck)
    dealer = n - 1
    opening_lead = rules.first_lead == "2C"
    a = 1 if opening_lead else 0  # with a 2♣ lead, seat 0 leads 2♣ and A wins that trick with A♣
    order = [(a + i) % n for i in range(n)]
    if rules.dealer_sits_out_first_trick and not opening_lead:  # the example trick is the first one
        order.remove(dealer)
    letter = {seat: LETTERS[i] for i, seat in enumerate(order)}
    b, c = order[1], order[2]
    lead, second = pick.take("AH", "H", high_first=True), pick.take("KH", "H", high_first=True)
    trump, refused = pick.take("2S", "S"), pick.take("QS", "S", high_first=True)
    fixed: dict[int, list[str]] = {a: [lead, pick.take("3S", "S")], b: [trump], c: [second, refused]}
    for seat in order[3:]:
        fixed[seat] = [pick.take("4H", "H")]
    opening_cards: dict[int, str] = {}
    if opening_lead:
        sits_out = dealer if rules.dealer_sits_out_first_trick else -1
        pick.free.discard("2C")
        top_club = pick.take("AC", "C", high_first=True)
        for seat in range(n):
            if seat == sits_out:
                continue
            opening_cards[seat] = "2C" if seat == 0 else top_club if seat == a else pick.take("3C", "C")
            fixed[seat].append(opening_cards[seat])
    deck = [str(card) for card in rules.deck]
    deal = _fill(deck, rules.hand_sizes(dealer), fixed, {b: "H", c: "H"})
    game: Any = tapete.game_from_rules(rules, seed=0, deal=deal, dealer=dealer)
    while game.phase.name != "PLAY":
        legal = game.legal_actions()
        look = [x for x in legal if x.is_look]
        bids = [x for x in legal if x.is_bid and isinstance(x.bid, int)]
        game.apply(look[0] if look else min(bids, key=lambda x: (x.bid != 1, x.bid)))
    opening: list[tuple[str, str]] = []
    if opening_lead:
        while game.to_act in opening_cards and len(opening) < len(opening_cards):
            seat = game.to_act
            game.apply({"seat": seat, "play": opening_cards[seat]})
            opening.append((letter[seat], opening_cards[seat]))
    if game.to_act != a:
        raise ExampleError(f"seat {a} should lead the example trick, not seat {game.to_act}")
    broken_before = bool(game.spades_broken)
    hand_a = [str(x.to_record(a)["play"]) for x in game.legal_actions()]
    held_spades = tuple(card for card in deal[a] if _is_spade(card) and card not in hand_a)
    plays: list[TrickPlay] = []
    choice = {a: lead, b: trump, c: second}
    refused_code = ""
    before = list(game.tricks_won)
    for seat in order:
        legal = tuple(str(x.to_record(seat)["play"]) for x in game.legal_actions())
        hearts = tuple(card for card in legal if card.endswith("H"))
        card = choice.get(seat) or hearts[0]
        if seat == c:
            try:
                game.apply({"seat": seat, "play": refused})
            except tapete.IllegalAction as exc:
                refused_code = exc.code
            else:
                raise ExampleError("the engine let C play Q♠ while holding K♥")
        game.apply({"seat": seat, "play": card})
        plays.append(TrickPlay(seat, letter[seat], card, legal, hearts))
    won = [seat for seat in range(n) if game.tricks_won[seat] > before[seat]]
    if len(won) != 1:
        raise ExampleError("the example trick has no single winner")
    winner = won[0]
    next_legal = [str(x.to_record(winner)["play"]) for x in game.legal_actions()]
    spade_lead = next((card for card in next_legal if _is_spade(card)), None)
    return TrickExample(
        players=n,
        opening=tuple(opening),
        opening_winner=letter[a] if opening else None,
        leader_spades=held_spades,
        plays=tuple(plays),
        refused_card=refused,
        refused_code=refused_code,
        winner=letter[winner],
        broken_before=broken_before,
        broken_after=bool(game.spades_broken),
        next_leader=letter[game.to_act],
        next_spade_lead=spade_lead,
    )


# --- Spades family: the scoring example ------------------------------------------------------
@dataclass(frozen=True)
class ScoreRow:
    """One scoring side's line of the example table."""

    side: str
    bids: tuple[Bid, ...]
    tricks: tuple[int, ...]
    bags_before: int
    contract: int
    prizes: int
    bags_added: int
    penalty: int
    change: int
    bags_after: int


@dataclass(frozen=True)
class ScoringExample:
    rows: tuple[ScoreRow, ...]
    variant: ScoreRow | None
    """The first side again, starting one bag short of the penalty (not under ``per_hand``)."""
    jacks: tuple[str, ...]
    jack_row: ScoreRow | None
    """The first side again, having also won every prize jack of the profile."""


def _example_bids(rules: SpadesRules) -> tuple[list[Bid], list[int]]:
    n = rules.players
    tricks_in_hand = max(rules.hand_sizes(n - 1))
    bids: list[Bid]
    if rules.suicide:
        bids, tricks = [4, 5, 0, 0], [6, 5, 0, 2]
    elif rules.partnership:
        bids, tricks = [4, 5, 5, 0], [5, 3, 5, 0]
    elif n == 3:
        bids, tricks = [5, 6, 4], [7, 6, 4]
    elif n == 4:
        bids, tricks = [4, 3, 3, 0], [6, 3, 2, 2]
    else:
        bids = [3, 2, 2, *[2] * (n - 4), 0]
        tricks = [4, 2, 1, *[3] * (n - 4), 0]
    top = min(tricks_in_hand, rules.max_bid or tricks_in_hand)
    if rules.min_bid > 0:
        bids = [max(b, rules.min_bid) if isinstance(b, int) else b for b in bids]
    bids = [min(b, top) if isinstance(b, int) else b for b in bids]
    while sum(tricks) > tricks_in_hand:  # short hands: take the overtricks away first, then the most tricks
        seat = max(range(n), key=lambda s: (tricks[s] - _bid_value(bids[s]), tricks[s]))
        tricks[seat] -= 1
    tricks[-1] += tricks_in_hand - sum(tricks)
    return bids, tricks


def _bid_value(bid: Bid) -> int:
    return bid if isinstance(bid, int) else 0


def _rows(
    rules: SpadesRules, bids: Sequence[Bid], tricks: Sequence[int], before: Sequence[int], score: HandScore
) -> list[ScoreRow]:
    rows = []
    for side in range(rules.sides):
        seats = [s for s in range(rules.players) if rules.side_of(s) == side]
        rows.append(
            ScoreRow(
                side=" + ".join(LETTERS[s] for s in seats),
                bids=tuple(bids[s] for s in seats),
                tricks=tuple(tricks[s] for s in seats),
                bags_before=before[side],
                contract=score.contract[side],
                prizes=score.prizes[side],
                bags_added=score.bags_added[side],
                penalty=score.penalty[side],
                change=score.change[side],
                bags_after=score.bags[side],
            )
        )
    return rows


def scoring_example(rules: SpadesRules) -> ScoringExample:
    """The seeds' scoring example (5-6-4 / 7-6-4 for three), scored by ``score_hand``."""
    bids, tricks = _example_bids(rules)
    zero = [0] * rules.sides
    rows = _rows(rules, bids, tricks, zero, score_hand(rules, bids, tricks, zero))
    variant = None
    if rules.bag_rule != "per_hand" and rows[0].bags_added > 0:
        before = [rules.bag_limit - 1, *zero[1:]]
        variant = _rows(rules, bids, tricks, before, score_hand(rules, bids, tricks, before))[0]
    jacks = tuple(sorted(rules.prize_jacks, key=("JD", "JC", "JH").index))
    jack_row = None
    if jacks:
        jack_row = _rows(rules, bids, tricks, zero, score_hand(rules, bids, tricks, zero, [(j, 0) for j in jacks]))[0]
    return ScoringExample(tuple(rows), variant, jacks, jack_row)


@dataclass(frozen=True)
class BidOutcome:
    bid: Bid
    tricks: int
    points: int
    bags: int


SPECIAL_TRIALS: dict[Bid, tuple[int, ...]] = {
    0: (0, 2),
    "BN": (0, 1),
    "1F": (1, 3, 0),
    "2F": (2, 4, 1),
    "B6": (6, 8, 5),
    "SM": (14, 13),
}


def bid_outcomes(rules: SpadesRules) -> list[BidOutcome]:
    """Nil and the profile's special bids, each scored by the engine for a few trick counts."""
    out = []
    specials = [b for b in ("BN", "1F", "2F", "B6", "SM") if b in rules.special_bids]
    if rules.hand_size < 14 and "SM" in specials:
        specials.remove("SM")
    offered: list[Bid] = [*([0] if rules.min_bid == 0 else []), *specials]
    for bid in offered:
        for t in SPECIAL_TRIALS[bid]:
            r = score_bid(bid, t)
            out.append(BidOutcome(bid, t, r.points, r.bags))
    return out


# --- Run Fast ---------------------------------------------------------------------------------
SETTLEMENT_HANDS = (
    "9S 9H 9D 9C 4S 5H",
    "",
    "2S AS KS KH QS QH JS JH TS TH 8S 8H 7S 7H 6S 6H",
)


def settlement_example(deal_size: int = 16) -> Settlement:
    """The spec's example: B goes out; A (played, 6 cards, four 9s) and C (never played, 16 cards, 2♠).

    With a 15-card deal C holds 15 cards: the same hand without K♠, which is not dealt.
    """
    hands = [h.split() for h in SETTLEMENT_HANDS]
    if deal_size == 15:
        hands[2].remove("KS")
    masks = [int(action_of(h)) for h in hands]
    return settle(1, masks, [True, True, False])


@dataclass(frozen=True)
class BombExample:
    lead: tuple[str, ...]
    bomb: tuple[str, ...]
    smaller_answer: str | None
    """An ordinary single B could have played instead (a bomb is never compulsory)."""
    passes: tuple[str, ...]
    bonus: tuple[int, ...]
    next_leader: str


def bomb_example(options: Mapping[str, object] | None = None) -> BombExample:
    """A real Run Fast deal: A opens with the first-lead card, B answers with four 7s, C and A pass."""
    rules: Any = tapete.load_profile("runfast", {**dict(options or {}), "deals": 1})
    first = str(Card.parse(rules.first_lead))
    bomb = ["7S", "7H", "7D", "7C"]
    fixed = {0: [first], 1: bomb}
    size = rules.deal_size
    deck = [str(Card(c)) for c in sorted(rules.deck)]
    hands: list[list[str]] = [list(fixed.get(s, [])) for s in range(3)]
    rest = [c for c in deck if c not in {first, *bomb}]
    for i, card in enumerate(rest):  # round robin where there is room: no seat gets a second bomb
        for k in range(3):
            seat = (i + k) % 3
            if len(hands[seat]) < size:
                hands[seat].append(card)
                break
    game: Any = tapete.game_from_rules(rules, seed=0, deal=hands)
    if game.to_act != 0:
        raise ExampleError("A should hold the first-lead card")
    game.apply({"seat": 0, "play": [first]})
    singles = [x for x in game.legal_actions() if x.bit_count() == 1]
    smaller = str(x.to_record(1)["play"][0]) if (x := min(singles, default=None)) is not None else None
    game.apply({"seat": 1, "play": bomb})
    passes = []
    for seat in (2, 0):
        if [a.to_record(seat) for a in game.legal_actions()] != [{"seat": seat, "pass": True}]:
            raise ExampleError(f"seat {seat} can beat the example bomb")
        game.apply({"seat": seat, "pass": True})
        passes.append(LETTERS[seat])
    return BombExample(
        lead=(first,),
        bomb=tuple(bomb),
        smaller_answer=smaller,
        passes=tuple(passes),
        bonus=tuple(game.bonus),
        next_leader=LETTERS[game.to_act],
    )
