"""The Spades-family game: dealing, bidding, tricks, scoring, games and tourneys.

A ``SpadesGame`` is created from ``SpadesRules`` plus a seed (or explicit deals). It is
a state machine with per-phase dispatch (``Phase.BID``, ``Phase.PLAY``, ``Phase.OVER``);
dealing is a chance step resolved from the seed (or the record's deals) between hands.

>>> from tapete.engine.spades.rules import SpadesRules
>>> g = SpadesGame(SpadesRules(players=3), seed=1, dealer=2)
>>> g.phase.name, g.to_act, len(g.legal_actions())
('BID', 0, 18)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tapete.cards import (
    CARDS,
    NUM_CARDS,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMP_MASK,
    Card,
    CardError,
    card_name,
    card_symbol,
    iter_bits,
)
from tapete.engine import dealing
from tapete.engine.base import JSON, Phase
from tapete.engine.spades.actions import (
    ACTIONS,
    BID_BASE,
    BLIND_CODES,
    CODE_B6,
    CODE_BN,
    CODE_SM,
    LOOK,
    LOOK_ACTION,
    MAX_BID,
    SPECIAL_CODE,
    SpadesAction,
)
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid, HandScore, score_hand
from tapete.errors import BadRecord, IllegalAction

TWO_OF_CLUBS: Final = 0
PRIZE_JACK_CARDS: Final = {"JC": 9, "JD": 22, "JH": 35}
NO_BID: Final = -1
_TRUMP_START: Final = 39  # the first spade; every card int ≥ 39 is a trump


# --- play actions from a mask, by 13-bit chunks -------------------------------------
def _chunk_table(base: int, bits: int) -> tuple[tuple[SpadesAction, ...], ...]:
    """For every pattern of ``bits`` bits, the actions of cards ``base + bit``."""
    table: list[tuple[SpadesAction, ...]] = [()]
    for b in range(bits):
        action = ACTIONS[base + b]
        assert action is not None
        table += [(*t, action) for t in table]
    return tuple(table)


_SUIT_TABLES: Final = tuple(_chunk_table(13 * suit, 13) for suit in range(4))
_JOKER_TABLE: Final = _chunk_table(52, 3)
_C, _D, _H, _S = _SUIT_TABLES


_BITS: Final = tuple(1 << c for c in range(NUM_CARDS))


def play_actions(mask: int) -> tuple[SpadesAction, ...]:
    """The play actions for a mask of cards, lowest card first.

    >>> play_actions(0b101)
    (SpadesAction('play 2C'), SpadesAction('play 4C'))
    """
    return (
        _C[mask & 0x1FFF]
        + _D[(mask >> 13) & 0x1FFF]
        + _H[(mask >> 26) & 0x1FFF]
        + _S[(mask >> 39) & 0x1FFF]
        + _JOKER_TABLE[mask >> 52]
    )


_BID_ACTIONS: dict[tuple[frozenset[str], bool, bool, int], tuple[SpadesAction, ...]] = {}


def _bid_choices(specials: frozenset[str], blind: bool, blind_six_ok: bool, size: int) -> tuple[SpadesAction, ...]:
    """The bids of a seat: blind choices while its cards are face down, else the rest."""
    out: list[SpadesAction | None] = []
    if blind:
        if "BN" in specials:
            out.append(ACTIONS[CODE_BN])
        if blind_six_ok:
            out.append(ACTIONS[CODE_B6])
        out.append(LOOK_ACTION)
    else:
        out += [ACTIONS[BID_BASE + n] for n in range(size + 1)]
        out += [ACTIONS[SPECIAL_CODE[name]] for name in ("1F", "2F") if name in specials]
        if "SM" in specials and size >= 14:
            out.append(ACTIONS[CODE_SM])
    return tuple(a for a in out if a is not None)


def suit_of(card: int) -> int:
    return SPADES if card >= _TRUMP_START else card // 13


def _suit_mask(suit: int) -> int:
    return TRUMP_MASK if suit == SPADES else SUIT_MASKS[suit]


# --- the deal -----------------------------------------------------------------------
def deal_from_seed(rules: SpadesRules, seed: int, hand_index: int, dealer: int) -> list[list[int]]:
    """The seeded deal of one hand: shuffled deck, one card at a time from the dealer's left."""
    deck = list(rules.deck_ints)
    dealing.shuffle(deck, dealing.stream(seed, "deal", hand_index))
    n = rules.players
    # card i goes to seat (dealer + 1 + i) % n, so seat s takes every n-th card from its offset
    return [deck[(seat - dealer - 1) % n :: n] for seat in range(n)]


def check_deal(rules: SpadesRules, cards: Sequence[Sequence[object]], dealer: int) -> list[list[int]]:
    """Read and check an explicit deal; raise ``BadRecord`` saying what is wrong."""
    n = rules.players
    if not isinstance(cards, (list, tuple)) or len(cards) != n:
        raise BadRecord(f"a deal must list the cards of {n} seats")
    sizes = rules.hand_sizes(dealer)
    deck = {int(c) for c in rules.deck}
    seen: set[int] = set()
    out: list[list[int]] = []
    for seat, hand in enumerate(cards):
        if not isinstance(hand, (list, tuple)):
            raise BadRecord(f"seat {seat}'s cards must be a list")
        if len(hand) != sizes[seat]:
            raise BadRecord(f"seat {seat} was dealt {len(hand)} cards; this profile deals {sizes[seat]}")
        parsed: list[int] = []
        for item in hand:
            try:
                card = Card.parse(item) if isinstance(item, str) else Card.parse(str(item))
            except CardError as exc:
                raise BadRecord(str(exc)) from exc
            if card not in deck:
                raise BadRecord(f"{card} is not in this profile's deck")
            if card in seen:
                raise BadRecord(f"{card} is dealt twice")
            seen.add(card)
            parsed.append(int(card))
        out.append(parsed)
    return out


def _draw_rank(card: int) -> int:
    return CARDS[card].rank


def draw_seats(rules: SpadesRules, seed: int, dealer: int | None) -> tuple[list[int], int]:
    """The seating draw from the seed: ``(draw, dealer)``, ``draw[i]`` being seat i's card.

    Every player draws from the shuffled deck; equal ranks redraw. The highest card
    deals and the others sit in descending order clockwise from the dealer.
    """
    n = rules.players
    rng = dealing.stream(seed, "draw")
    while True:
        deck = [int(c) for c in rules.deck]
        dealing.shuffle(deck, rng)
        drawn = deck[:n]
        if len({_draw_rank(c) for c in drawn}) == n:
            break
    drawn.sort(key=_draw_rank, reverse=True)
    if dealer is None:
        dealer = dealing.below(dealing.stream(seed, "dealer"), n)
    draw = [0] * n
    for i, card in enumerate(drawn):
        draw[(dealer + i) % n] = card
    return draw, dealer


def check_draw(rules: SpadesRules, draw: Sequence[object], dealer: int | None) -> tuple[list[int], int]:
    """Check a recorded draw against the seating rule; return ``(draw, dealer)``."""
    n = rules.players
    if not isinstance(draw, (list, tuple)) or len(draw) != n:
        raise BadRecord(f"the draw must list one card per seat ({n})")
    try:
        cards = [int(Card.parse(x)) if isinstance(x, str) else -1 for x in draw]
    except CardError as exc:
        raise BadRecord(f"the draw has {exc}") from exc
    deck = {int(c) for c in rules.deck}
    if any(c not in deck for c in cards):
        raise BadRecord("the draw has a card that is not in this profile's deck")
    ranks = [_draw_rank(c) for c in cards]
    if len(set(ranks)) != n:
        raise BadRecord("the draw has equal ranks; equal draws are redrawn and only the decisive draw is recorded")
    top = max(range(n), key=lambda s: ranks[s])
    if dealer is not None and top != dealer:
        raise BadRecord(f"the highest card of the draw is seat {top}'s, but the record names seat {dealer} as dealer")
    for i in range(1, n):
        if ranks[(top + i) % n] > ranks[(top + i - 1) % n]:
            raise BadRecord("the draw's cards must fall in descending order clockwise from the dealer")
    return cards, top


# --- hand history ---------------------------------------------------------------------
class TrickLog:
    """One trick: who led, the cards in the order played, who sat out, who won."""

    __slots__ = ("cards", "leader", "sitting_out", "winner")

    def __init__(self, leader: int, cards: list[int], sitting_out: int = -1, winner: int | None = None) -> None:
        self.leader = leader
        self.cards = cards
        self.sitting_out = sitting_out
        self.winner = winner

    def seats(self, players: int) -> list[int]:
        """The seat that played each card, clockwise from the leader."""
        out = []
        seat = self.leader
        for _ in self.cards:
            out.append(seat)
            seat = (seat + 1) % players
            if seat == self.sitting_out:
                seat = (seat + 1) % players
        return out

    def copy(self) -> TrickLog:
        return TrickLog(self.leader, list(self.cards), self.sitting_out, self.winner)


@dataclass
class HandLog:
    """Everything one hand did, for records, replays and observations.

    Bids and looks are kept in ``bidding``; the plays are the tricks' cards in order.
    """

    game: int
    dealer: int
    cards: list[list[int]]
    bidding: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[TrickLog] = field(default_factory=list)
    result: HandScore | None = None
    scores: list[int] | None = None
    tokens: list[int] | None = None
    jack_winners: list[tuple[str, int]] = field(default_factory=list)

    def copy(self) -> HandLog:
        return HandLog(
            self.game,
            self.dealer,
            self.cards,
            list(self.bidding),
            [t.copy() for t in self.tricks],
            self.result,
            self.scores,
            self.tokens,
            list(self.jack_winners),
        )

    def actions(self, players: int) -> list[tuple[int, int]]:
        """``(seat, action code)`` of every action of the hand, in order."""
        out = list(self.bidding)
        for trick in self.tricks:
            out += zip(trick.seats(players), trick.cards, strict=True)
        return out


# --- the game -----------------------------------------------------------------------
class SpadesGame:
    """One game (or tourney) of a Spades-family profile."""

    __slots__ = (
        "_deals",
        "_legal_mask",
        "_prize_all",
        "_prize_masks",
        "bags_",
        "best_card",
        "best_seat",
        "bids",
        "blind_six_ok",
        "blind_six_used",
        "dealer",
        "dealt_sizes",
        "draw",
        "face_down",
        "game_number",
        "game_winners",
        "hand_number",
        "hands",
        "lead_mask",
        "log",
        "logs",
        "looked",
        "must_lead_2c",
        "num_players",
        "phase",
        "rules",
        "scores_",
        "seed",
        "sitting_out",
        "spades_broken",
        "to_act_",
        "tokens_",
        "trick",
        "trick_size",
        "tricks_left",
        "tricks_won",
        "winner_",
    )

    def __init__(
        self,
        rules: SpadesRules,
        *,
        seed: int = 0,
        deals: Sequence[Sequence[Sequence[object]] | None] = (),
        dealer: int | None = None,
        draw: Sequence[object] | None = None,
        copy_of: SpadesGame | None = None,
    ) -> None:
        if copy_of is not None:
            self._copy_state(copy_of)
            return
        n = rules.players
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n):
            raise BadRecord(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.rules: SpadesRules = rules
        self.num_players: int = n
        self.seed: int = seed
        self._deals = [None if d is None else [list(hand) for hand in d] for d in deals]
        self.draw: list[int] | None = None
        if rules.seating_draw:
            if draw is not None:
                self.draw, dealer = check_draw(rules, draw, dealer)
            else:
                self.draw, dealer = draw_seats(rules, seed, dealer)
        elif draw is not None:
            raise BadRecord(f"profile {rules.profile!r} has no seating draw")
        if dealer is None:
            dealer = dealing.below(dealing.stream(seed, "dealer"), n)
        sides = rules.sides
        self.scores_: list[int] = [0] * sides
        self.bags_: list[int] = [0] * sides
        self.tokens_: list[int] = [0] * sides
        self.blind_six_used: list[int] = [0] * n
        self.game_number = 0
        self.hand_number = -1
        self.winner_: int | None = None
        self.game_winners: list[int] = []
        self.logs: list[HandLog] = []
        self._prize_masks = tuple((jack, 1 << PRIZE_JACK_CARDS[jack]) for jack in sorted(rules.prize_jacks))
        self._prize_all = sum(m for _, m in self._prize_masks)
        self.trick_size = n
        self.dealer = (dealer - 1) % n  # _start_hand rotates it to ``dealer``
        self._start_hand()

    # --- hands ----------------------------------------------------------------------
    def _start_hand(self) -> None:
        rules = self.rules
        n = self.num_players
        self.hand_number += 1
        self.dealer = dealer = (self.dealer + 1) % n
        h = self.hand_number
        explicit = self._deals[h] if h < len(self._deals) else None
        if explicit is not None:
            cards = check_deal(rules, explicit, dealer)
        else:
            cards = deal_from_seed(rules, self.seed, h, dealer)
        self.hands: list[int] = [sum(_BITS[c] for c in hand) for hand in cards]
        self.dealt_sizes: list[int] = [len(hand) for hand in cards]
        self.log = HandLog(self.game_number, dealer, cards)
        self.logs.append(self.log)
        self.bids: list[int] = [NO_BID] * n
        self.looked: list[bool] = [False] * n
        self.tricks_won: list[int] = [0] * n
        specials = rules.special_bids
        if specials:
            top = max(self.scores_)
            self.blind_six_ok: list[bool] = [
                "B6" in specials
                and self.scores_[rules.side_of(s)] <= top - rules.blind_six_margin
                and (rules.blind_six == "unlimited" or self.blind_six_used[s] == 0)
                for s in range(n)
            ]
            self.face_down: list[bool] = [("BN" in specials) or self.blind_six_ok[s] for s in range(n)]
        else:
            self.blind_six_ok = [False] * n
            self.face_down = [False] * n
        self.spades_broken = False
        self.trick: list[int] = []
        self.lead_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.tricks_left = 0
        self.sitting_out = -1
        self.must_lead_2c = False
        self.phase = Phase.BID
        self.to_act_: int | None = (dealer + 1) % n
        self._legal_mask = -1

    def _start_play(self) -> None:
        rules = self.rules
        n = self.num_players
        dealer = self.dealer
        leader = (dealer + 1) % n
        if rules.dealer_sits_out_first_trick:
            self.sitting_out = dealer
        if rules.first_lead == "2C":
            holder = next(s for s in range(n) if self.hands[s] & 1)
            if not (holder == dealer and self.sitting_out == dealer):
                leader = holder
                self.must_lead_2c = True
        self.trick_size = n - (1 if self.sitting_out >= 0 else 0)
        cards = sum(self.dealt_sizes)
        self.tricks_left = 1 + (cards - self.trick_size) // n if self.sitting_out >= 0 else cards // n
        self.phase = Phase.PLAY
        self.to_act_ = leader
        self.log.tricks.append(TrickLog(leader, self.trick, self.sitting_out))

    # --- the public surface -------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (``None`` once the game is over)."""
        return self.to_act_

    def is_over(self) -> bool:
        return self.phase is _OVER

    def scores(self) -> list[int]:
        """Current totals per scoring side (seat, or team in a partnership)."""
        return list(self.scores_)

    def bags(self) -> list[int]:
        return list(self.bags_)

    def tokens(self) -> list[int]:
        return list(self.tokens_)

    def winner(self) -> int | None:
        """The winning side once the game (or tourney) is over."""
        return self.winner_

    def legal_actions(self) -> tuple[SpadesAction, ...]:
        """Every legal action of the seat to act (empty once the game is over)."""
        if self.phase is _PLAY:
            mask = self._legal_mask
            if mask < 0:
                mask = self._legal_mask = self._playable(self.to_act_)  # type: ignore[arg-type]
            return play_actions(mask)
        if self.phase is _BID:
            return self._bid_actions(self.to_act_)  # type: ignore[arg-type]
        return ()

    def legal_mask(self) -> int:
        """The playable cards of the seat to act as a bitmask (0 outside the play phase)."""
        return self._playable(self.to_act_) if self.phase is _PLAY else 0  # type: ignore[arg-type]

    def apply(self, action: SpadesAction | int | Mapping[str, Any]) -> None:
        """Apply a legal action; an illegal one raises ``IllegalAction`` and changes nothing."""
        if type(action) is not SpadesAction:
            action = self.parse_action(action)
        card: int = action  # a plain int from here on (compiled builds unbox it once)
        if self.phase is not _PLAY or card >= NUM_CARDS:
            _APPLY[self.phase](self, self.to_act_, action)  # type: ignore[arg-type]  # None only when over
            return
        seat: int = self.to_act_  # type: ignore[assignment]  # in the play phase a seat is always to act
        mask = self._legal_mask
        if mask < 0:
            mask = self._playable(seat)
        if not (mask >> card) & 1:
            raise self._play_error(seat, card)
        # the play itself (inlined: this is the engine's hot path)
        self.hands[seat] ^= 1 << card
        self._legal_mask = -1
        trick = self.trick
        if trick:
            if card >= _TRUMP_START:
                if self.lead_mask != TRUMP_MASK:
                    self.spades_broken = True
                if card > self.best_card:
                    self.best_card = card
                    self.best_seat = seat
            elif card > self.best_card and (self.lead_mask >> card) & 1:
                self.best_card = card
                self.best_seat = seat
        else:
            self.lead_mask = TRUMP_MASK if card >= _TRUMP_START else SUIT_MASKS[card // 13]
            self.best_card = card
            self.best_seat = seat
            self.must_lead_2c = False
        trick.append(card)
        if len(trick) == self.trick_size:
            self._finish_trick()
            return
        seat += 1
        if seat == self.num_players:
            seat = 0
        if seat == self.sitting_out:
            seat = (seat + 1) % self.num_players
        self.to_act_ = seat

    def clone(self) -> SpadesGame:
        """An independent copy: the copy and the original share no mutable state."""
        return SpadesGame(self.rules, copy_of=self)

    def _copy_state(self, other: SpadesGame) -> None:
        """Become a copy of ``other`` (written out attribute by attribute: clones are hot in search)."""
        self.rules = other.rules
        self.num_players = other.num_players
        self.seed = other.seed
        self._deals = other._deals
        self.draw = other.draw
        self._prize_masks = other._prize_masks
        self._prize_all = other._prize_all
        self._legal_mask = other._legal_mask
        self.scores_ = list(other.scores_)
        self.bags_ = list(other.bags_)
        self.tokens_ = list(other.tokens_)
        self.blind_six_used = list(other.blind_six_used)
        self.game_number = other.game_number
        self.hand_number = other.hand_number
        self.winner_ = other.winner_
        self.game_winners = list(other.game_winners)
        self.logs = [log.copy() for log in other.logs]
        self.log = self.logs[-1]
        self.dealer = other.dealer
        self.hands = list(other.hands)
        self.dealt_sizes = list(other.dealt_sizes)
        self.bids = list(other.bids)
        self.looked = list(other.looked)
        self.tricks_won = list(other.tricks_won)
        self.blind_six_ok = list(other.blind_six_ok)
        self.face_down = list(other.face_down)
        self.spades_broken = other.spades_broken
        # in the play phase the current trick is the last trick log's card list
        self.trick = self.log.tricks[-1].cards if other.phase is _PLAY else list(other.trick)
        self.lead_mask = other.lead_mask
        self.best_card = other.best_card
        self.best_seat = other.best_seat
        self.trick_size = other.trick_size
        self.tricks_left = other.tricks_left
        self.sitting_out = other.sitting_out
        self.must_lead_2c = other.must_lead_2c
        self.phase = other.phase
        self.to_act_ = other.to_act_

    # --- bidding ----------------------------------------------------------------------
    def _bid_actions(self, seat: int) -> tuple[SpadesAction, ...]:
        blind = self.face_down[seat] and not self.looked[seat]
        key = (self.rules.special_bids, blind, self.blind_six_ok[seat], self.dealt_sizes[seat])
        found = _BID_ACTIONS.get(key)
        if found is None:
            found = _BID_ACTIONS[key] = _bid_choices(*key)
        return found

    def _apply_bid(self, seat: int, action: SpadesAction) -> None:
        if action not in self._bid_actions(seat):
            raise self._bid_error(seat, action)
        self.log.bidding.append((seat, int(action)))
        if action == LOOK:
            self.looked[seat] = True
            return
        if action == CODE_B6:
            self.blind_six_used[seat] += 1
        self.bids[seat] = int(action)
        nxt = (seat + 1) % self.num_players
        if self.bids[nxt] != NO_BID:
            self._start_play()
        else:
            self.to_act_ = nxt

    def _bid_error(self, seat: int, action: SpadesAction) -> IllegalAction:
        """Why ``action`` is not among the seat's legal bids, for a person."""
        specials = self.rules.special_bids
        blind_now = self.face_down[seat] and not self.looked[seat]
        if action < NUM_CARDS:
            return IllegalAction("wrong_phase", "the bidding is not over yet: bid before you play a card")
        if action == LOOK:
            why = "you have already looked at your cards" if self.looked[seat] else "your cards are face up already"
            return IllegalAction("bid_not_allowed", why)
        name = action.bid
        if isinstance(name, str) and name not in specials:
            return IllegalAction("bid_not_allowed", f"this table does not offer the bid {name}")
        if action in BLIND_CODES:
            if not blind_now:
                return IllegalAction(
                    "bid_not_allowed", f"{name} is a blind bid: it must be made before looking at your cards"
                )
            return IllegalAction("bid_not_allowed", self._why_no_blind_six(seat))
        if blind_now:
            return IllegalAction(
                "bid_not_allowed", "your cards are face down: look at them before an ordinary bid, or bid blind"
            )
        if action == CODE_SM:
            return IllegalAction("bid_not_allowed", "shoot the moon needs a hand of at least 14 cards")
        return IllegalAction(
            "bid_out_of_range", f"a bid is from 0 to {self.dealt_sizes[seat]} (the cards you hold), not {name}"
        )

    def _why_no_blind_six(self, seat: int) -> str:
        rules = self.rules
        if rules.blind_six == "once" and self.blind_six_used[seat]:
            return "you have already bid blind six in this game (once per game)"
        top = max(self.scores_)
        mine = self.scores_[rules.side_of(seat)]
        return (
            f"blind six is only for a player at least {rules.blind_six_margin} points behind "
            f"the leader: you have {mine}, the leader {top}"
        )

    # --- play -----------------------------------------------------------------------------
    def _playable(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            follow = hand & self.lead_mask
            return follow or hand
        if self.must_lead_2c:
            return 1
        if not self.spades_broken:
            return (hand & ~TRUMP_MASK) or hand
        return hand

    def _play_error(self, seat: int, card: int) -> IllegalAction:
        hand = self.hands[seat]
        name = card_symbol(card)
        if not (hand >> card) & 1:
            return IllegalAction("card_not_in_hand", f"you do not hold {name}")
        if self.trick:
            suit = suit_of(self.trick[0])
            held = " ".join(card_symbol(c) for c in reversed(list(iter_bits(hand & self.lead_mask))))
            return IllegalAction("must_follow_suit", f"you must follow {SUIT_NAMES[suit]}: you hold {held}")
        if self.must_lead_2c:
            return IllegalAction("must_lead_2c", "the holder of 2♣ must lead it to the first trick")
        return IllegalAction(
            "spades_not_broken",
            "spades are not broken yet: lead another suit (spades can be led once one has been "
            "played on another suit, or when you hold only spades)",
        )

    def _finish_trick(self) -> None:
        winner = self.best_seat
        self.tricks_won[winner] += 1
        log = self.log
        log.tricks[-1].winner = winner
        if self._prize_all:
            in_trick = sum(1 << c for c in self.trick)
            if in_trick & self._prize_all:
                for jack, m in self._prize_masks:
                    if in_trick & m:
                        log.jack_winners.append((jack, winner))
        self.tricks_left -= 1
        self.sitting_out = -1
        self.trick_size = self.num_players
        if self.tricks_left == 0:
            self._finish_hand()
            return
        self.trick = []
        log.tricks.append(TrickLog(winner, self.trick))
        self.to_act_ = winner

    def _finish_hand(self) -> None:
        rules = self.rules
        bids: list[Bid] = [ACTIONS[b].bid for b in self.bids]  # type: ignore[union-attr]
        result = score_hand(rules, bids, self.tricks_won, self.bags_, self.log.jack_winners)
        for side in range(rules.sides):
            self.scores_[side] += result.change[side]
        self.bags_ = list(result.bags)
        self.log.result = result
        self.log.scores = list(self.scores_)
        self.trick = []
        winner = self._game_winner()
        if winner is not None:
            self.tokens_[winner] += 1
            self.game_winners.append(winner)
            if rules.tokens is None or self.tokens_[winner] >= rules.tokens:
                self.log.tokens = list(self.tokens_)
                self.winner_ = winner
                self.phase = Phase.OVER
                self.to_act_ = None
                return
            self.game_number += 1
            self.scores_ = [0] * rules.sides
            self.bags_ = [0] * rules.sides
            self.blind_six_used = [0] * self.num_players
        self.log.tokens = list(self.tokens_)
        self._start_hand()

    def _game_winner(self) -> int | None:
        """The side that wins the current game now, if any (ties at the top play on)."""
        rules = self.rules
        scores = self.scores_
        ended = max(scores) >= rules.target or (rules.floor is not None and min(scores) <= rules.floor)
        if not ended:
            return None
        top = max(scores)
        leaders = [side for side, s in enumerate(scores) if s == top]
        return leaders[0] if len(leaders) == 1 else None

    def _apply_over(self, seat: int | None, action: SpadesAction) -> None:
        raise IllegalAction("wrong_phase", "the game is over: no more actions")

    def _apply_play_phase_non_card(self, seat: int, action: SpadesAction) -> None:
        raise IllegalAction("wrong_phase", "the bidding is over: play a card")

    # --- actions in the record format -------------------------------------------------
    def parse_action(self, obj: object) -> SpadesAction:
        """Read an action (a record-format dict, or an action code) for the seat to act.

        Malformed input raises ``IllegalAction('bad_record')``; another seat's action
        ``not_your_turn``; both change nothing.
        """
        if isinstance(obj, int) and not isinstance(obj, bool):
            act = ACTIONS[obj] if 0 <= obj < len(ACTIONS) else None
            if act is None:
                raise IllegalAction("bad_record", f"{obj} is not an action code")
            return act
        if not isinstance(obj, Mapping):
            raise IllegalAction(
                "bad_record", f'an action must be an object such as {{"seat": 0, "play": "AS"}}, not {obj!r}'
            )
        seat = obj.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise IllegalAction("bad_record", f"'seat' must be a seat from 0 to {self.num_players - 1}, not {seat!r}")
        kinds = [k for k in ("play", "bid", "look") if k in obj]
        extra = set(obj) - {"seat", "play", "bid", "look"}
        if len(kinds) != 1 or extra:
            raise IllegalAction("bad_record", "an action has 'seat' and exactly one of 'play', 'bid' or 'look'")
        kind = kinds[0]
        value = obj[kind]
        action: SpadesAction | None
        if kind == "play":
            if not isinstance(value, str):
                raise IllegalAction("bad_record", f"'play' must be a card such as 'AS', not {value!r}")
            try:
                card = Card.parse(value)
            except CardError as exc:
                raise IllegalAction("bad_record", str(exc)) from exc
            action = ACTIONS[card]
        elif kind == "look":
            if value is not True:
                raise IllegalAction("bad_record", "'look' must be true")
            action = LOOK_ACTION
        else:
            if value == "nil":
                value = 0
            if isinstance(value, bool):
                raise IllegalAction("bad_record", f"'bid' must be a number, 'nil' or a special bid, not {value!r}")
            if isinstance(value, int):
                if not 0 <= value <= MAX_BID:
                    raise IllegalAction("bid_out_of_range", f"a bid is a number of tricks from 0 up, not {value}")
                action = ACTIONS[BID_BASE + value]
            elif isinstance(value, str) and value.upper() in SPECIAL_CODE:
                action = ACTIONS[SPECIAL_CODE[value.upper()]]
            else:
                raise IllegalAction(
                    "bid_not_allowed", f"{value!r} is not a bid (a number, 'nil', 1F, 2F, B6, BN or SM)"
                )
        assert action is not None
        if self.phase is Phase.OVER:
            raise IllegalAction("wrong_phase", "the game is over: no more actions")
        if seat != self.to_act_:
            raise IllegalAction("not_your_turn", f"it is seat {self.to_act_}'s turn, not seat {seat}'s")
        return action

    def action_to_record(self, action: int, seat: int | None = None) -> dict[str, JSON]:
        act = ACTIONS[action]
        assert act is not None
        return act.to_record(self.to_act_ if seat is None else seat)  # type: ignore[arg-type]

    # --- what a seat sees ---------------------------------------------------------------
    def hand_visible(self, seat: int) -> bool:
        """Whether ``seat`` may see its own cards now (blind bidders may not)."""
        return not self.face_down[seat] or self.looked[seat] or self.bids[seat] != NO_BID

    def _bid_value(self, code: int) -> Bid | None:
        return None if code == NO_BID else ACTIONS[code].bid  # type: ignore[union-attr]

    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see, JSON-able; built opt-in from public facts and its own hand."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat}")
        rules = self.rules
        visible = self.hand_visible(seat)
        hand = [card_name(c) for c in _display_order(self.hands[seat])] if visible else None
        log = self.log
        tricks = [
            {
                "leader": t.leader,
                "cards": [card_name(c) for c in t.cards],
                "seats": t.seats(self.num_players),
                "winner": t.winner,
            }
            for t in log.tricks
        ]
        current = tricks.pop() if self.phase is Phase.PLAY else None
        last = self.logs[-2] if len(self.logs) >= 2 and self.phase is not Phase.OVER else None
        if self.phase is Phase.OVER:
            last = log
        obs: dict[str, JSON] = {
            "game": "spades",
            "profile": rules.profile,
            "options": rules.overrides_json(),
            "rules": rules.options_json(),
            "seat": seat,
            "players": self.num_players,
            "partnership": rules.partnership,
            "phase": self.phase.name.lower(),
            "game_number": self.game_number,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.to_act_,
            "hand": hand,
            "hand_face_down": not visible,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "dealt_sizes": list(self.dealt_sizes),
            "bids": [self._bid_value(b) for b in self.bids],
            "looked": list(self.looked),
            "blind_six_eligible": self.blind_six_ok[seat] and not self.looked[seat] and self.bids[seat] == NO_BID,
            "blind_six_used": list(self.blind_six_used),
            "tricks_won": list(self.tricks_won),
            "trick": current,
            "tricks": tricks,
            "spades_broken": self.spades_broken,
            "sitting_out": self.sitting_out if self.sitting_out >= 0 else None,
            "scores": list(self.scores_),
            "bags": list(self.bags_),
            "tokens": list(self.tokens_) if rules.tokens is not None else None,
            "last_hand": _hand_result_json(last) if last is not None else None,
            "winner": self.winner_,
            "legal_actions": ([a.to_record(seat) for a in self.legal_actions()] if seat == self.to_act_ else []),
        }
        return obs

    # --- records and replays --------------------------------------------------------------
    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        """The game as a ``tapete-record/1`` object (``spec/records.md``)."""
        hands: list[dict[str, JSON]] = []
        for i, log in enumerate(self.logs):
            actions: list[JSON] = [ACTIONS[code].to_record(s) for s, code in log.actions(self.num_players)]  # type: ignore[union-attr]
            if i == 0 and self.draw is not None:
                actions.insert(0, {"draw": [card_name(c) for c in self.draw]})
            hands.append(
                {
                    "dealer": log.dealer,
                    "cards": [[card_name(c) for c in hand] for hand in log.cards],
                    "actions": actions,
                }
            )
        rec: dict[str, JSON] = {
            "format": "tapete-record/1",
            "profile": self.rules.profile,
            "options": self.rules.overrides_json(),
        }
        if players is not None:
            rec["players"] = list(players)
        rec["seed"] = self.seed
        rec["hands"] = hands
        return rec

    def replay_summary(self) -> dict[str, JSON]:
        """The ``tapete replay --json`` fields that describe the game so far."""
        hands = []
        for log in self.logs:
            bids: list[Bid | None] = [None] * self.num_players
            for seat, code in log.bidding:
                if code >= BID_BASE and code != LOOK:
                    bids[seat] = ACTIONS[code].bid  # type: ignore[union-attr]
            won = [0] * self.num_players
            tricks = []
            for t in log.tricks:
                if t.winner is not None:
                    won[t.winner] += 1
                if t.cards or t.winner is not None:
                    tricks.append({"leader": t.leader, "cards": [card_name(c) for c in t.cards], "winner": t.winner})
            result = log.result
            hands.append(
                {
                    "game": log.game,
                    "dealer": log.dealer,
                    "bids": bids,
                    "tricks": tricks,
                    "tricks_won": won,
                    "score_change": list(result.change) if result else None,
                    "bags": list(result.bags) if result else None,
                    "contract_points": list(result.contract) if result else None,
                    "prize_points": list(result.prizes) if result else None,
                    "bag_penalty": list(result.penalty) if result else None,
                    "scores": list(log.scores) if log.scores is not None else None,
                    "prize_jacks": [{"jack": j, "seat": s} for j, s in log.jack_winners]
                    if self.rules.prize_jacks
                    else None,
                }
            )
        out: dict[str, JSON] = {
            "hands": hands,
            "scores": list(self.scores_),
            "bags": list(self.bags_),
            "finished": self.is_over(),
            "winner": self.winner_,
        }
        out["tokens"] = list(self.tokens_)
        out["partnership"] = self.rules.partnership
        if self.draw is not None:
            out["draw"] = [card_name(c) for c in self.draw]
        return out


def _display_order(mask: int) -> list[int]:
    """Spades (jokers first), hearts, clubs, diamonds; high to low within a suit."""
    out: list[int] = []
    for suit_mask in (TRUMP_MASK, SUIT_MASKS[2], SUIT_MASKS[0], SUIT_MASKS[1]):
        part = mask & suit_mask
        out.extend(reversed(list(iter_bits(part))))
    return out


def _hand_result_json(log: HandLog) -> dict[str, JSON] | None:
    if log.result is None:
        return None
    r = log.result
    return {
        "dealer": log.dealer,
        "contract": list(r.contract),
        "prizes": list(r.prizes),
        "penalty": list(r.penalty),
        "score_change": list(r.change),
        "bags": list(r.bags),
        "scores": list(log.scores or []),
    }


_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER

_APPLY: Final = {
    Phase.BID: SpadesGame._apply_bid,
    Phase.PLAY: SpadesGame._apply_play_phase_non_card,
    Phase.OVER: SpadesGame._apply_over,
}

__all__ = ["SpadesGame", "check_deal", "check_draw", "deal_from_seed", "draw_seats", "play_actions"]
