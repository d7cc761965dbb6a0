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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tapete.cards import (
    CARDS,
    NUM_CARDS,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMP_MASK,
    Card,
    CardError,
    card_name,
    card_symbol,
    iter_bits,
    mask_of,
)
from tapete.engine import dealing
from tapete.engine.base import JSON, PHASE_NAMES, Phase, acting_seat, check_turn, game_record
from tapete.engine.pickling import fields_of, rebuilt
from tapete.engine.spades.actions import (
    ACTIONS,
    BID_BASE,
    BLIND_CODES,
    CODE_B6,
    CODE_BN,
    CODE_SM,
    LOOK,
    LOOK_ACTION,
    SPECIAL_CODE,
    SpadesAction,
    action_of_code,
)
from tapete.engine.spades.observation import (
    HandResultView,
    SpadesObservation,
    SpadesOwnView,
    SpadesPublicView,
    TrickView,
)
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid, HandScore, score_hand
from tapete.engine.spades.trick import (
    TRICK_FIELDS,
    TWO_OF_CLUBS,
    TrickState,
    suit_of,
    trick_seats,
    tricks_in_hand,
)
from tapete.errors import BadRecord, IllegalAction

NO_BID: Final = -1


_BITS: Final = tuple(1 << c for c in range(NUM_CARDS))


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


BidKey = tuple[frozenset[str], bool, bool, bool, int, int, int, int]
_BID_ACTIONS: dict[BidKey, tuple[SpadesAction, ...]] = {}

SUICIDE_MIN: Final = 4
"""Under ``suicide`` the partner who does not bid nil bids at least this."""
FREE, FIRST, NIL_TAKEN, BID_TAKEN = 0, 1, 2, 3
"""A seat's place in suicide bidding: not suicide; first of its team; partner bid nil; partner bid ≥ 4."""


def _ordinary_bids(lo: int, hi: int, role: int) -> list[int]:
    """The ordinary bids from ``lo`` to ``hi`` that the seat's suicide role allows."""
    if role == NIL_TAKEN:
        return list(range(max(lo, SUICIDE_MIN), hi + 1))
    if role == BID_TAKEN:
        return [0]
    if role == FIRST:
        return [0, *range(max(lo, SUICIDE_MIN), hi + 1)]
    return list(range(lo, hi + 1))


def _bid_choices(
    specials: frozenset[str],
    blind: bool,
    blind_six_ok: bool,
    blind_nil_ok: bool,
    size: int,
    lo: int,
    hi: int,
    role: int,
) -> tuple[SpadesAction, ...]:
    """The bids of a seat: blind choices while its cards are face down, else the rest."""
    out: list[SpadesAction | None] = []
    if blind:
        if blind_nil_ok:
            out.append(ACTIONS[CODE_BN])
        if blind_six_ok:
            out.append(ACTIONS[CODE_B6])
        out.append(LOOK_ACTION)
    else:
        out += [ACTIONS[BID_BASE + n] for n in _ordinary_bids(lo, min(hi, size), role)]
        out += [ACTIONS[SPECIAL_CODE[name]] for name in ("1F", "2F") if name in specials]
        if "SM" in specials and size >= 14:
            out.append(ACTIONS[CODE_SM])
    return tuple(a for a in out if a is not None)


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
    for seat, hand in enumerate(cards):
        if not isinstance(hand, (list, tuple)):
            raise BadRecord(f"seat {seat}'s cards must be a list")
        if len(hand) != sizes[seat]:
            raise BadRecord(f"seat {seat} was dealt {len(hand)} cards; this profile deals {sizes[seat]}")
    return dealing.read_deal(cards, mask_of(rules.deck_ints), "this profile's deck", card_name)


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

    __slots__ = ("cards", "done", "kept", "leader", "sitting_out", "winner")

    def __init__(self, leader: int, cards: list[int], sitting_out: int = -1, winner: int | None = None) -> None:
        self.leader = leader
        self.cards = cards
        self.sitting_out = sitting_out
        self.winner = winner
        self.kept: TrickView | None = None
        """A finished trick's view, built once (it never changes again); ``kept_view`` gives it."""

    def seats(self, players: int) -> list[int]:
        """The seat that played each card, clockwise from the leader."""
        return trick_seats(self.leader, len(self.cards), players, self.sitting_out)

    def view(self, players: int) -> TrickView:
        """The trick as observations show it (a new value each time: callers may change it)."""
        if self.winner is None:
            return self._built(players)
        kept = self.kept_view(players)
        return {
            "leader": self.leader,
            "cards": list(kept["cards"]),
            "seats": list(kept["seats"]),
            "winner": self.winner,
        }

    def kept_view(self, players: int) -> TrickView:
        """``view``, but for a finished trick one value kept and given at every call, for views
        that are only read (``SpadesGame.observations``)."""
        kept = self.kept
        if kept is None:
            kept = self._built(players)
            if self.winner is not None:
                self.kept = kept
        return kept

    def _built(self, players: int) -> TrickView:
        names = [card_name(c) for c in self.cards]
        return {"leader": self.leader, "cards": names, "seats": self.seats(players), "winner": self.winner}

    def copy(self) -> TrickLog:
        return TrickLog(self.leader, list(self.cards), self.sitting_out, self.winner)

    def __reduce__(self) -> tuple[object, ...]:
        return rebuilt, (TrickLog, (self.leader, self.cards, self.sitting_out, self.winner), {"kept": self.kept})


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
    kept_result: HandResultView | None = field(default=None, compare=False, repr=False)
    """A finished hand's result as observations show it, built once (``kept_result_view``)."""

    def __reduce__(self) -> tuple[object, ...]:
        fields = (self.bidding, self.tricks, self.result, self.scores, self.tokens, self.jack_winners)
        return rebuilt, (HandLog, (self.game, self.dealer, self.cards, *fields), {})

    def copy(self) -> HandLog:
        """A copy to go on with: finished tricks are shared (nothing changes them again)."""
        tricks = self.tricks[:-1]
        if self.tricks:
            tricks.append(self.tricks[-1].copy())
        return HandLog(
            self.game,
            self.dealer,
            self.cards,
            list(self.bidding),
            tricks,
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
GAME_FIELDS: Final = (
    "_deals",
    "_legal_mask",
    "bags_",
    "bids",
    "blind_nil_ok",
    "blind_six_ok",
    "blind_six_used",
    "dealer",
    "dealt_sizes",
    "draw",
    "face_down",
    "game_number",
    "game_winners",
    "hand_number",
    "log",
    "logs",
    "looked",
    "phase",
    "rules",
    "scores_",
    "seed",
    "tokens_",
    "winner_",
)
"""The attributes ``SpadesGame`` adds to a ``TrickState``'s."""


class SpadesGame(TrickState):
    """One game (or tourney) of a Spades-family profile (its play phase: ``TrickState``)."""

    __slots__ = GAME_FIELDS

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
        TrickState.__init__(self, n, rules.prize_jacks, rules.trick_tables, rules.must_beat)
        self.rules: SpadesRules = rules
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
        self.hands = [sum(_BITS[c] for c in hand) for hand in cards]  # compiled: no call out per card
        self.dealt_sizes: list[int] = [len(hand) for hand in cards]
        self.log = HandLog(self.game_number, dealer, cards)
        self.logs.append(self.log)
        self.jack_winners = self.log.jack_winners
        self.bids: list[int] = [NO_BID] * n
        self.looked: list[bool] = [False] * n
        self.tricks_won = [0] * n
        self.offer_blind_bids()
        self.spades_broken = rules.lead_spades == "any_time"
        self.trick = []
        self.lead_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.tricks_left = 0
        self.sit_out(-1)
        self.must_lead_2c = False
        self.phase = Phase.BID
        self.turn = (dealer + 1) % n
        self._legal_mask = -1

    def offer_blind_bids(self) -> None:
        """Decide from the totals who may bid blind this hand, and whose cards stay face down."""
        rules = self.rules
        n = self.num_players
        specials = rules.special_bids
        if specials:
            scores = self.scores_
            top = max(scores)
            self.blind_six_ok: list[bool] = [
                "B6" in specials
                and scores[rules.side_of(s)] <= top - rules.blind_six_margin
                and (rules.blind_six == "unlimited" or self.blind_six_used[s] == 0)
                for s in range(n)
            ]
            self.blind_nil_ok: list[bool] = [
                "BN" in specials and scores[rules.side_of(s)] <= top - rules.blind_nil_behind for s in range(n)
            ]
            self.face_down: list[bool] = [self.blind_nil_ok[s] or self.blind_six_ok[s] for s in range(n)]
        else:
            self.blind_six_ok = [False] * n
            self.blind_nil_ok = [False] * n
            self.face_down = [False] * n

    def _start_play(self) -> None:
        rules = self.rules
        n = self.num_players
        dealer = self.dealer
        leader = (dealer + 1) % n
        if rules.dealer_sits_out_first_trick:
            self.sit_out(dealer)
        if rules.first_lead == "2C":
            holder = next(s for s in range(n) if (self.hands[s] >> TWO_OF_CLUBS) & 1)
            if not (holder == dealer and self.sitting_out == dealer):
                leader = holder
                self.must_lead_2c = True
        self.tricks_left = tricks_in_hand(sum(self.dealt_sizes), n, self.sitting_out >= 0)
        self.phase = Phase.PLAY
        self.turn = leader
        self.log.tricks.append(TrickLog(leader, self.trick, self.sitting_out))

    # --- the public surface -------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (``None`` once the game is over)."""
        return self.turn if self.turn >= 0 else None

    def is_over(self) -> bool:
        return self.phase is _OVER

    def scores(self) -> list[float]:
        """Current totals per scoring side (seat, or team in a partnership), as players read them."""
        return shown_points(self.rules, self.scores_)

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
                mask = self._legal_mask = self.playable_cards(self.hands[self.turn])
            return play_actions(mask)
        seat = self.turn
        return self._bid_actions(seat) if seat >= 0 else ()

    def legal_mask(self) -> int:
        """The playable cards of the seat to act as a bitmask (0 outside the play phase)."""
        return self.playable_cards(self.hands[self.turn]) if self.phase is _PLAY else 0

    def apply(self, action: SpadesAction | int | Mapping[str, Any]) -> None:
        """Apply a legal action; an illegal one raises ``IllegalAction`` and changes nothing."""
        if type(action) is not SpadesAction:
            action = self.parse_action(action)
        card: int = action  # a plain int from here on (compiled builds unbox it once)
        seat = self.turn  # -1 only once the game is over
        if self.phase is not _PLAY or card >= NUM_CARDS:
            _APPLY[self.phase](self, seat, action)
            return
        mask = self._legal_mask
        if mask < 0:
            mask = self.playable_cards(self.hands[seat])
        if not (mask >> card) & 1:
            raise self._play_error(seat, card)
        self._legal_mask = -1
        self.play(card)

    def clone(self) -> SpadesGame:
        """An independent copy: what either may still change is copied; finished hands and
        tricks, which nothing changes again, are shared."""
        return SpadesGame(self.rules, copy_of=self)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as a new game of the same rules given every attribute of this one."""
        return rebuilt, (SpadesGame, (self.rules,), fields_of(self, (*TRICK_FIELDS, *GAME_FIELDS)))

    def _copy_state(self, other: SpadesGame) -> None:
        """Become a copy of ``other`` (written out attribute by attribute: clones are hot in search)."""
        self.rules = other.rules
        self.seed = other.seed
        self._deals = other._deals
        self.draw = other.draw
        self._legal_mask = other._legal_mask
        self.scores_ = list(other.scores_)
        self.bags_ = list(other.bags_)
        self.tokens_ = list(other.tokens_)
        self.blind_six_used = list(other.blind_six_used)
        self.game_number = other.game_number
        self.hand_number = other.hand_number
        self.winner_ = other.winner_
        self.game_winners = list(other.game_winners)
        self.logs = other.logs[:-1]  # finished hands' logs: shared, never changed again
        self.log = log = other.logs[-1].copy()
        self.logs.append(log)
        # in the play phase the current trick is the last trick log's card list
        trick = log.tricks[-1].cards if other.phase is _PLAY else list(other.trick)
        self.copy_trick_state(other, trick, log.jack_winners)
        self.dealer = other.dealer
        self.dealt_sizes = list(other.dealt_sizes)
        self.bids = list(other.bids)
        self.looked = list(other.looked)
        self.blind_six_ok = list(other.blind_six_ok)
        self.blind_nil_ok = list(other.blind_nil_ok)
        self.face_down = list(other.face_down)
        self.phase = other.phase

    # --- bidding ----------------------------------------------------------------------
    def _suicide_role(self, seat: int) -> int:
        """Where ``seat`` stands in suicide bidding (``FREE`` when the rule is off)."""
        if not self.rules.suicide:
            return FREE
        partner = self.bids[(seat + 2) % self.num_players]
        if partner == NO_BID:
            return FIRST
        return NIL_TAKEN if partner == BID_BASE else BID_TAKEN

    def _bid_actions(self, seat: int) -> tuple[SpadesAction, ...]:
        blind = self.face_down[seat] and not self.looked[seat]
        lo, hi = self.rules.bid_range
        key: BidKey = (
            self.rules.special_bids,
            blind,
            self.blind_six_ok[seat],
            self.blind_nil_ok[seat],
            self.dealt_sizes[seat],
            lo,
            hi,
            self._suicide_role(seat),
        )
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
            self.turn = nxt

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
            if action == CODE_BN:
                return IllegalAction(
                    "bid_not_allowed",
                    f"blind nil is only for a side at least {self.rules.blind_nil_behind} points behind the leader",
                )
            return IllegalAction("bid_not_allowed", self._why_no_blind_six(seat))
        if blind_now:
            return IllegalAction(
                "bid_not_allowed", "your cards are face down: look at them before an ordinary bid, or bid blind"
            )
        if action == CODE_SM:
            return IllegalAction("bid_not_allowed", "shoot the moon needs a hand of at least 14 cards")
        lo, hi = self.rules.bid_range
        hi = min(hi, self.dealt_sizes[seat])
        role = self._suicide_role(seat)
        if isinstance(name, int) and lo <= name <= hi and role != FREE:
            why = {
                FIRST: f"one partner bids nil and the other at least {SUICIDE_MIN}: bid nil or {SUICIDE_MIN}–{hi}",
                NIL_TAKEN: f"your partner bid nil, so you must bid from {SUICIDE_MIN} to {hi}",
                BID_TAKEN: "your partner did not bid nil, so you must bid nil",
            }[role]
            return IllegalAction("bid_not_allowed", why)
        held = " (the cards you hold)" if hi == self.dealt_sizes[seat] else ""
        return IllegalAction("bid_out_of_range", f"a bid is from {lo} to {hi}{held}, not {name}")

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
    def _play_error(self, seat: int, card: int) -> IllegalAction:
        hand = self.hands[seat]
        name = card_symbol(card)
        if not (hand >> card) & 1:
            return IllegalAction("card_not_in_hand", f"you do not hold {name}")
        if self.trick:
            suit = suit_of(self.trick[0], self.tables)
            follow = hand & self.lead_mask
            if not (follow >> card) & 1 and follow:
                held = " ".join(card_symbol(c) for c in reversed(list(iter_bits(follow))))
                return IllegalAction("must_follow_suit", f"you must follow {SUIT_NAMES[suit]}: you hold {held}")
            return self._must_beat_error(hand)
        if self.must_lead_2c:
            return IllegalAction("must_lead_2c", "the holder of 2♣ must lead it to the first trick")
        return IllegalAction(
            "spades_not_broken",
            "spades are not broken yet: lead another suit (spades can be led once one has been "
            "played on another suit, or when you hold only spades)",
        )

    def _must_beat_error(self, hand: int) -> IllegalAction:
        """Why a card breaks Call Break's rule (``must_beat``): which stronger card was due."""
        allowed = self.playable_cards(hand)
        held = " ".join(card_symbol(c) for c in reversed(list(iter_bits(allowed))))
        best = self.tables.rank.index(self.best_card)
        if hand & self.lead_mask:
            return IllegalAction("must_beat", f"you must beat {card_symbol(best)}: you hold {held}")
        if self.best_card < self.tables.trump_power or self.lead_mask == self.trumps:
            return IllegalAction("must_trump", f"you cannot follow suit, so you must play a spade: you hold {held}")
        return IllegalAction("must_overtrump", f"you must play a spade above {card_symbol(best)}: you hold {held}")

    def end_trick(self, winner: int) -> None:
        """Log the full trick's winner; then the winner leads, or the hand is scored."""
        log = self.log
        log.tricks[-1].winner = winner
        if self.tricks_left == 0:
            self._finish_hand()
            return
        self.trick = []
        log.tricks.append(TrickLog(winner, self.trick))
        self.turn = winner

    def _finish_hand(self) -> None:
        rules = self.rules
        bids: list[Bid] = [action_of_code(b).bid for b in self.bids]
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
                self.turn = -1
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
        if rules.deals is not None:
            ended = sum(1 for log in self.logs if log.game == self.game_number) >= rules.deals
        else:
            scale = rules.point_scale
            ended = max(scores) >= rules.target * scale or (
                rules.floor is not None and min(scores) <= rules.floor * scale
            )
        if not ended:
            return None
        top = max(scores)
        leaders = [side for side, s in enumerate(scores) if s == top]
        return leaders[0] if len(leaders) == 1 else None

    def _apply_over(self, seat: int, action: SpadesAction) -> None:
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
            return SpadesAction.from_code(obj)
        seat, action = SpadesAction.from_record(obj, self.num_players)
        check_turn(seat, self.to_act)
        return action

    def action_to_record(self, action: int, seat: int | None = None) -> dict[str, JSON]:
        """An action in the record format, for ``seat`` (default: the seat to act)."""
        return action_of_code(action).to_record(acting_seat(seat, self.to_act))

    # --- what a seat sees ---------------------------------------------------------------
    def hand_visible(self, seat: int) -> bool:
        """Whether ``seat`` may see its own cards now (blind bidders may not)."""
        return not self.face_down[seat] or self.looked[seat] or self.bids[seat] != NO_BID

    def _bid_value(self, code: int) -> Bid | None:
        return None if code == NO_BID else action_of_code(code).bid

    def observation(self, seat: int) -> SpadesObservation:
        """What ``seat`` may see, JSON-able; built opt-in from public facts and its own hand."""
        own = self._own_view(seat)
        return {**self._public_view(), **own}

    def observations(self, seats: Iterable[int]) -> dict[int, SpadesObservation]:
        """The observations of ``seats`` at once, each equal to ``observation(seat)``.

        The public facts are built once and the views share them (the same lists and
        dicts; the option values and finished tricks are even the same objects from one
        version to the next), so treat the views as read-only, or change a copy.
        """
        public, own = self.observation_parts(seats)
        return {seat: _joined(public, view) for seat, view in own.items()}

    def observation_parts(self, seats: Iterable[int]) -> tuple[SpadesPublicView, dict[int, SpadesOwnView]]:
        """The observations of ``seats`` in two parts: what every seat sees alike, built once,
        and what is each seat's own; ``{**public, **own[seat]}`` is ``observation(seat)``.

        The parts are shared as ``observations`` shares them: read them only."""
        own = {seat: self._own_view(seat) for seat in seats}
        return self._public_view(shared=True), own

    def _public_view(self, shared: bool = False) -> SpadesPublicView:
        """What every seat sees alike (``shared``: what does not change — the option values,
        each finished trick — as kept objects, not copies)."""
        rules = self.rules
        overrides, options = rules.kept_json if shared else (rules.overrides_json(), rules.options_json())
        log = self.log
        players = self.num_players
        tricks: list[TrickView] = [t.kept_view(players) if shared else t.view(players) for t in log.tricks]
        current = tricks.pop() if self.phase is Phase.PLAY else None
        last = self.logs[-2] if len(self.logs) >= 2 and self.phase is not Phase.OVER else None
        if self.phase is Phase.OVER:
            last = log
        return {
            "game": "spades",
            "profile": rules.profile,
            "options": overrides,
            "rules": options,
            "players": players,
            "partnership": rules.partnership,
            "phase": PHASE_NAMES[self.phase],
            "game_number": self.game_number,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "dealt_sizes": list(self.dealt_sizes),
            "bids": [self._bid_value(b) for b in self.bids],
            "looked": list(self.looked),
            "blind_six_used": list(self.blind_six_used),
            "tricks_won": list(self.tricks_won),
            "trick": current,
            "tricks": tricks,
            "spades_broken": self.spades_broken,
            "sitting_out": self.sitting_out if self.sitting_out >= 0 else None,
            "scores": shown_points(rules, self.scores_),
            "bags": list(self.bags_),
            "tokens": list(self.tokens_) if rules.tokens is not None else None,
            "last_hand": (
                None if last is None else _kept_hand_result(rules, last) if shared else _hand_result_json(rules, last)
            ),
            "draw": [card_name(c) for c in self.draw] if self.draw is not None else None,
            "winner": self.winner_,
        }

    def _own_view(self, seat: int) -> SpadesOwnView:
        """What of ``seat``'s observation is its own: its seat, its hand, its choices."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat}")
        visible = self.hand_visible(seat)
        return {
            "seat": seat,
            "hand": _display_names(self.hands[seat]) if visible else None,
            "hand_face_down": not visible,
            "blind_six_eligible": self.blind_six_ok[seat] and not self.looked[seat] and self.bids[seat] == NO_BID,
            "legal_actions": ([a.to_record(seat) for a in self.legal_actions()] if seat == self.turn else []),
        }

    # --- records and replays --------------------------------------------------------------
    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        """The game as a ``tapete-record/1`` object (``docs/records.md``)."""
        hands: list[JSON] = []
        for i, log in enumerate(self.logs):
            actions: list[JSON] = [action_of_code(code).to_record(s) for s, code in log.actions(self.num_players)]
            if i == 0 and self.draw is not None:
                actions.insert(0, {"draw": [card_name(c) for c in self.draw]})
            hands.append(
                {
                    "dealer": log.dealer,
                    "cards": [[card_name(c) for c in hand] for hand in log.cards],
                    "actions": actions,
                }
            )
        return game_record(self.rules.profile, self.rules.overrides_json(), self.seed, players, hands)

    def replay_summary(self, last_hands: int | None = None) -> dict[str, JSON]:
        """The ``tapete replay --json`` fields that describe the game so far (``hands``: only the
        latest ``last_hands`` of them when given)."""
        rules = self.rules
        hands = []
        for log in self.logs if last_hands is None else self.logs[-last_hands:]:
            bids: list[Bid | None] = [None] * self.num_players
            for seat, code in log.bidding:
                if code >= BID_BASE and code != LOOK:
                    bids[seat] = action_of_code(code).bid
            won = [0] * self.num_players
            tricks = []
            for t in log.tricks:
                if t.winner is not None:
                    won[t.winner] += 1
                if t.cards or t.winner is not None:
                    tricks.append(
                        {
                            "leader": t.leader,
                            "cards": [card_name(c) for c in t.cards],
                            "seats": t.seats(self.num_players),
                            "winner": t.winner,
                        }
                    )
            result = log.result
            hands.append(
                {
                    "game": log.game,
                    "dealer": log.dealer,
                    "bids": bids,
                    "tricks": tricks,
                    "tricks_won": won,
                    "score_change": shown_points(rules, result.change) if result else None,
                    "bags": list(result.bags) if result else None,
                    "contract_points": shown_points(rules, result.contract) if result else None,
                    "prize_points": shown_points(rules, result.prizes) if result else None,
                    "bag_penalty": shown_points(rules, result.penalty) if result else None,
                    "scores": shown_points(rules, log.scores) if log.scores is not None else None,
                    "prize_jacks": [{"jack": j, "seat": s} for j, s in log.jack_winners]
                    if self.rules.prize_jacks
                    else None,
                }
            )
        out: dict[str, JSON] = {
            "hands": hands,
            "scores": shown_points(rules, self.scores_),
            "bags": list(self.bags_),
            "finished": self.is_over(),
            "winner": self.winner_,
        }
        out["tokens"] = list(self.tokens_)
        out["partnership"] = self.rules.partnership
        if self.draw is not None:
            out["draw"] = [card_name(c) for c in self.draw]
        return out


def _joined(public: SpadesPublicView, own: SpadesOwnView) -> SpadesObservation:
    """A seat's observation from the public part and its own."""
    return {**public, **own}


_DISPLAY_SUITS: Final = (TRUMP_MASK, SUIT_MASKS[2], SUIT_MASKS[0], SUIT_MASKS[1])


def _display_names(mask: int) -> list[str]:
    """The names of the cards of ``mask`` as a hand shows them: spades (jokers first),
    hearts, clubs, diamonds; high to low within a suit (a card's int is its rank)."""
    out: list[str] = []
    for suit_mask in _DISPLAY_SUITS:
        part = mask & suit_mask
        while part:
            c = part.bit_length() - 1
            out.append(card_name(c))
            part ^= 1 << c
    return out


def shown_points(rules: SpadesRules, points: Sequence[int]) -> list[float]:
    """Points as players read them: the ints themselves, or tenths as ``3.2`` (``tenths``)."""
    if rules.tenths:
        return [p / 10 for p in points]
    return list(points)


def _kept_hand_result(rules: SpadesRules, log: HandLog) -> HandResultView | None:
    """``_hand_result_json`` of a finished hand, one value kept on its log and given at every call,
    for views that are only read (the log of a finished hand never changes again)."""
    kept = log.kept_result
    if kept is None and log.result is not None:
        kept = log.kept_result = _hand_result_json(rules, log)
    return kept


def _hand_result_json(rules: SpadesRules, log: HandLog) -> HandResultView | None:
    if log.result is None:
        return None
    r = log.result
    return {
        "dealer": log.dealer,
        "contract": shown_points(rules, r.contract),
        "prizes": shown_points(rules, r.prizes),
        "penalty": shown_points(rules, r.penalty),
        "score_change": shown_points(rules, r.change),
        "bags": list(r.bags),
        "scores": shown_points(rules, log.scores or []),
    }


_BID: Final = Phase.BID
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER

_APPLY: Final = {
    Phase.BID: SpadesGame._apply_bid,
    Phase.PLAY: SpadesGame._apply_play_phase_non_card,
    Phase.OVER: SpadesGame._apply_over,
}

__all__ = ["SpadesGame", "check_deal", "check_draw", "deal_from_seed", "draw_seats", "play_actions", "shown_points"]
