"""The Spades-family game: dealing, bidding, tricks, scoring, games and tourneys.

A ``SpadesGame`` is created from ``SpadesRules`` plus a seed (or explicit deals). It is
a state machine with per-phase dispatch (``Phase.BID``, ``Phase.PLAY``, ``Phase.OVER``);
dealing is a chance step resolved from the seed (or the record's deals) between hands.

>>> from tapete.engine.spades.rules import SpadesRules
>>> g = SpadesGame(SpadesRules(players=3), seed=1)
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
    CODE_1F,
    CODE_2F,
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
_CHUNK_CACHE: list[dict[int, tuple[SpadesAction, ...]]] = [{} for _ in range(5)]


def _chunk_actions(chunk: int, pattern: int) -> tuple[SpadesAction, ...]:
    cache = _CHUNK_CACHE[chunk]
    found = cache.get(pattern)
    if found is None:
        base = 13 * chunk
        found = tuple(ACTIONS[base + b] for b in iter_bits(pattern))  # type: ignore[misc]
        cache[pattern] = found
    return found


def play_actions(mask: int) -> list[SpadesAction]:
    """The play actions for a mask of cards, lowest card first."""
    out: list[SpadesAction] = []
    for chunk in range(5):
        pattern = (mask >> (13 * chunk)) & 0x1FFF
        if pattern:
            out += _CHUNK_ACTIONS_GET(chunk, pattern)
    return out


_CHUNK_ACTIONS_GET = _chunk_actions


def suit_of(card: int) -> int:
    return SPADES if card >= _TRUMP_START else card // 13


def _suit_mask(suit: int) -> int:
    return TRUMP_MASK if suit == SPADES else SUIT_MASKS[suit]


# --- the deal -----------------------------------------------------------------------
def deal_from_seed(rules: SpadesRules, seed: int, hand_index: int, dealer: int) -> list[list[int]]:
    """The seeded deal of one hand: shuffled deck, one card at a time from the dealer's left."""
    deck = [int(c) for c in rules.deck]
    dealing.shuffle(deck, dealing.stream(seed, "deal", hand_index))
    n = rules.players
    cards: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(deck):
        cards[(dealer + 1 + i) % n].append(card)
    return cards


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
@dataclass
class TrickLog:
    leader: int
    cards: list[int]
    seats: list[int]
    winner: int | None = None


@dataclass
class HandLog:
    """Everything one hand did, for records, replays and observations."""

    game: int
    dealer: int
    cards: list[list[int]]
    actions: list[tuple[int, int]] = field(default_factory=list)
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
            list(self.actions),
            [TrickLog(t.leader, list(t.cards), list(t.seats), t.winner) for t in self.tricks],
            self.result,
            self.scores,
            self.tokens,
            list(self.jack_winners),
        )


# --- the game -----------------------------------------------------------------------
class SpadesGame:
    """One game (or tourney) of a Spades-family profile."""

    def __init__(
        self,
        rules: SpadesRules,
        *,
        seed: int = 0,
        deals: Sequence[Sequence[Sequence[object]]] = (),
        dealer: int | None = None,
        draw: Sequence[object] | None = None,
    ) -> None:
        n = rules.players
        if dealer is not None and not (isinstance(dealer, int) and 0 <= dealer < n):
            raise BadRecord(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.rules: Final = rules
        self.num_players: Final = n
        self.seed: Final = seed
        self._deals = [list(map(list, d)) for d in deals]
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
        self._prize_masks = tuple(
            (jack, 1 << PRIZE_JACK_CARDS[jack]) for jack in sorted(rules.prize_jacks)
        )
        self._prize_all = sum(m for _, m in self._prize_masks)
        self.dealer = (dealer - 1) % n  # _start_hand rotates it to ``dealer``
        self._start_hand()

    # --- hands ----------------------------------------------------------------------
    def _start_hand(self) -> None:
        rules = self.rules
        n = self.num_players
        self.hand_number += 1
        self.dealer = dealer = (self.dealer + 1) % n
        h = self.hand_number
        if h < len(self._deals):
            cards = check_deal(rules, self._deals[h], dealer)
        else:
            cards = deal_from_seed(rules, self.seed, h, dealer)
        self.hands: list[int] = [sum(1 << c for c in hand) for hand in cards]
        self.dealt_sizes: list[int] = [len(hand) for hand in cards]
        self.log = HandLog(self.game_number, dealer, cards)
        self.logs.append(self.log)
        self.bids: list[int] = [NO_BID] * n
        self.looked: list[bool] = [False] * n
        self.tricks_won: list[int] = [0] * n
        specials = rules.special_bids
        top = max(self.scores_)
        self.blind_six_ok: list[bool] = [
            "B6" in specials
            and self.scores_[rules.side_of(s)] <= top - rules.blind_six_margin
            and (rules.blind_six == "unlimited" or self.blind_six_used[s] == 0)
            for s in range(n)
        ]
        self.face_down: list[bool] = [("BN" in specials) or self.blind_six_ok[s] for s in range(n)]
        self.spades_broken = False
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.lead_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.tricks_left = 0
        self.sitting_out = -1
        self.must_lead_2c = False
        self.phase = Phase.BID
        self.to_act_: int | None = (dealer + 1) % n
        self._legal: list[SpadesAction] | None = None

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
        self.log.tricks.append(TrickLog(leader, self.trick, self.trick_seats))

    # --- the public surface -------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (``None`` once the game is over)."""
        return self.to_act_

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

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

    def legal_actions(self) -> list[SpadesAction]:
        legal = self._legal
        if legal is None:
            if self.phase is Phase.PLAY:
                legal = play_actions(self._playable(self.to_act_))  # type: ignore[arg-type]
            elif self.phase is Phase.BID:
                legal = self._bid_actions(self.to_act_)  # type: ignore[arg-type]
            else:
                legal = []
            self._legal = legal
        return list(legal)

    def legal_mask(self) -> int:
        """The playable cards of the seat to act as a bitmask (0 outside the play phase)."""
        return self._playable(self.to_act_) if self.phase is Phase.PLAY else 0  # type: ignore[arg-type]

    def apply(self, action: SpadesAction | int | Mapping[str, Any]) -> None:
        """Apply a legal action; an illegal one raises ``IllegalAction`` and changes nothing."""
        if type(action) is not SpadesAction:
            action = self.parse_action(action)
        seat = self.to_act_
        if self.phase is Phase.PLAY and action < NUM_CARDS:
            if not (self._playable(seat) >> action) & 1:  # type: ignore[arg-type]
                raise self._play_error(seat, action)  # type: ignore[arg-type]
            self._play(seat, action)  # type: ignore[arg-type]
            return
        handler = _APPLY[self.phase]
        handler(self, seat, action)

    def clone(self) -> SpadesGame:
        """A deep-enough copy: the copy and the original never share mutable state."""
        g = object.__new__(SpadesGame)
        g.__dict__.update(self.__dict__)
        g._deals = self._deals
        g.scores_ = list(self.scores_)
        g.bags_ = list(self.bags_)
        g.tokens_ = list(self.tokens_)
        g.blind_six_used = list(self.blind_six_used)
        g.game_winners = list(self.game_winners)
        g.hands = list(self.hands)
        g.dealt_sizes = list(self.dealt_sizes)
        g.bids = list(self.bids)
        g.looked = list(self.looked)
        g.tricks_won = list(self.tricks_won)
        g.blind_six_ok = list(self.blind_six_ok)
        g.face_down = list(self.face_down)
        g.logs = [log.copy() for log in self.logs]
        g.log = g.logs[-1]
        if self.phase is Phase.PLAY:
            last = g.log.tricks[-1]
            g.trick = last.cards
            g.trick_seats = last.seats
        else:
            g.trick = list(self.trick)
            g.trick_seats = list(self.trick_seats)
        g._legal = None
        return g

    # --- bidding ----------------------------------------------------------------------
    def _bid_actions(self, seat: int) -> list[SpadesAction]:
        specials = self.rules.special_bids
        if self.face_down[seat] and not self.looked[seat]:
            out = []
            if "BN" in specials:
                out.append(ACTIONS[CODE_BN])
            if self.blind_six_ok[seat]:
                out.append(ACTIONS[CODE_B6])
            out.append(LOOK_ACTION)
            return out  # type: ignore[return-value]
        size = self.dealt_sizes[seat]
        out = [ACTIONS[BID_BASE + n] for n in range(size + 1)]
        for name in ("1F", "2F"):
            if name in specials:
                out.append(ACTIONS[SPECIAL_CODE[name]])
        if "SM" in specials and size >= 14:
            out.append(ACTIONS[CODE_SM])
        return out  # type: ignore[return-value]

    def _apply_bid(self, seat: int, action: SpadesAction) -> None:
        specials = self.rules.special_bids
        blind_now = self.face_down[seat] and not self.looked[seat]
        if action < NUM_CARDS:
            raise IllegalAction("wrong_phase", "the bidding is not over yet: bid before you play a card")
        if action == LOOK:
            if not blind_now:
                why = "you have already looked at your cards" if self.looked[seat] else "your cards are face up already"
                raise IllegalAction("bid_not_allowed", why)
            self.looked[seat] = True
            self.log.actions.append((seat, LOOK))
            self._legal = None
            return
        if action in BLIND_CODES:
            name = "BN" if action == CODE_BN else "B6"
            if name not in specials:
                raise IllegalAction("bid_not_allowed", f"this table does not offer the bid {name}")
            if not blind_now:
                raise IllegalAction("bid_not_allowed", f"{name} is a blind bid: it must be made before looking at your cards")
            if action == CODE_B6 and not self.blind_six_ok[seat]:
                raise IllegalAction("bid_not_allowed", self._why_no_blind_six(seat))
            if action == CODE_B6:
                self.blind_six_used[seat] += 1
        else:
            if blind_now:
                raise IllegalAction(
                    "bid_not_allowed",
                    "your cards are face down: look at them before an ordinary bid, or bid blind",
                )
            if BID_BASE <= action <= BID_BASE + MAX_BID:
                n = action - BID_BASE
                if n > self.dealt_sizes[seat]:
                    raise IllegalAction(
                        "bid_out_of_range", f"a bid is from 0 to {self.dealt_sizes[seat]} (the cards you hold), not {n}"
                    )
            elif action in (CODE_1F, CODE_2F, CODE_SM):
                name = action.bid
                if name not in specials:
                    raise IllegalAction("bid_not_allowed", f"this table does not offer the bid {name}")
                if action == CODE_SM and self.dealt_sizes[seat] < 14:
                    raise IllegalAction("bid_not_allowed", "shoot the moon needs a hand of at least 14 cards")
            else:  # pragma: no cover - parse_action only makes known codes
                raise IllegalAction("bid_not_allowed", f"{action} is not a bid")
        self.bids[seat] = int(action)
        self.log.actions.append((seat, int(action)))
        self._legal = None
        nxt = (seat + 1) % self.num_players
        if self.bids[nxt] != NO_BID:
            self._start_play()
        else:
            self.to_act_ = nxt

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

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] ^= 1 << card
        trick = self.trick
        self.log.actions.append((seat, card))
        self._legal = None
        if not trick:
            self.lead_mask = TRUMP_MASK if card >= _TRUMP_START else SUIT_MASKS[card // 13]
            self.best_card = card
            self.best_seat = seat
            self.must_lead_2c = False
        else:
            if card >= _TRUMP_START and self.lead_mask != TRUMP_MASK:
                self.spades_broken = True
            if card > self.best_card and (card >= _TRUMP_START or (self.lead_mask >> card) & 1):
                self.best_card = card
                self.best_seat = seat
        trick.append(card)
        self.trick_seats.append(seat)
        if len(trick) == self.trick_size:
            self._finish_trick()
        else:
            nxt = (seat + 1) % self.num_players
            if nxt == self.sitting_out:
                nxt = (nxt + 1) % self.num_players
            self.to_act_ = nxt

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
        self.trick_seats = []
        log.tricks.append(TrickLog(winner, self.trick, self.trick_seats))
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
        self.trick_seats = []
        winner = self._game_winner()
        if winner is not None:
            self.tokens_[winner] += 1
            self.game_winners.append(winner)
            if rules.tokens is None or self.tokens_[winner] >= rules.tokens:
                self.log.tokens = list(self.tokens_)
                self.winner_ = winner
                self.phase = Phase.OVER
                self.to_act_ = None
                self._legal = None
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
    def parse_action(self, obj: Mapping[str, Any] | int) -> SpadesAction:
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
            raise IllegalAction("bad_record", f"an action must be an object such as {{\"seat\": 0, \"play\": \"AS\"}}, not {obj!r}")
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
                    raise IllegalAction(
                        "bid_out_of_range", f"a bid is a number of tricks from 0 up, not {value}"
                    )
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
            {"leader": t.leader, "cards": [card_name(c) for c in t.cards], "seats": list(t.seats), "winner": t.winner}
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
            "legal_actions": (
                [a.to_record(seat) for a in self.legal_actions()] if seat == self.to_act_ else []
            ),
        }
        return obs

    # --- records and replays --------------------------------------------------------------
    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        """The game as a ``tapete-record/1`` object (``spec/records.md``)."""
        hands: list[dict[str, JSON]] = []
        for i, log in enumerate(self.logs):
            actions: list[JSON] = [ACTIONS[code].to_record(s) for s, code in log.actions]  # type: ignore[union-attr]
            if i == 0 and self.draw is not None:
                actions.insert(0, {"draw": [card_name(c) for c in self.draw]})
            hands.append(
                {"dealer": log.dealer, "cards": [[card_name(c) for c in hand] for hand in log.cards], "actions": actions}
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
            for seat, code in log.actions:
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
                    "scores": list(log.scores) if log.scores is not None else None,
                    "prize_jacks": [{"jack": j, "seat": s} for j, s in log.jack_winners] if self.rules.prize_jacks else None,
                }
            )
        out: dict[str, JSON] = {
            "hands": hands,
            "scores": list(self.scores_),
            "bags": list(self.bags_),
            "finished": self.is_over(),
            "winner": self.winner_,
        }
        if self.rules.tokens is not None:
            out["tokens"] = list(self.tokens_)
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


_APPLY: Final = {
    Phase.BID: SpadesGame._apply_bid,
    Phase.PLAY: SpadesGame._apply_play_phase_non_card,
    Phase.OVER: SpadesGame._apply_over,
}

__all__ = ["SpadesGame", "check_deal", "check_draw", "deal_from_seed", "draw_seats", "play_actions"]
