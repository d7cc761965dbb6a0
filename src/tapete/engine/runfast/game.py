"""The Run Fast game: deals of 16 (or 15) cards to each of three seats, played out.

A ``RunFastGame`` is created from ``RunFastRules`` plus a seed (or explicit deals).
The holder of the ``first_lead`` card (3♥ by default) leads; each player in turn beats
the last play or, only when unable, passes; after two passes in a row the last player
to play leads again; the first player out wins and the deal is settled at once. A match of ``deals`` deals adds up the settlements; the
highest total wins it.

>>> from tapete.engine.runfast.rules import RunFastRules
>>> g = RunFastGame(RunFastRules(), seed=1)
>>> g.phase.name, [len(h) for h in g.dealt], 27 in g.dealt[g.to_act]  # 27 is 3♥
('PLAY', [16, 16, 16], True)
>>> all("3H" in a.to_record(g.to_act)["play"] for a in g.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tapete.cards import card_name, card_symbol, iter_bits, mask_of
from tapete.engine import dealing
from tapete.engine.base import JSON, PHASE_NAMES, Phase, acting_seat, check_turn, game_record
from tapete.engine.runfast.actions import DECK, DECK_MASK, PASS, RunFastAction, card_names, card_symbols, rf_rank
from tapete.engine.runfast.combos import (
    CELESTIAL,
    FOUR_THREES,
    classify,
    describe,
    is_bomb,
    lead_plays,
    plays_with,
    responses,
    why_not_combination,
)
from tapete.engine.runfast.observation import (
    BombView,
    CurrentPlay,
    MatchView,
    PlayView,
    RunFastObservation,
    RunFastOwnView,
    RunFastPublicView,
)
from tapete.engine.runfast.rules import RunFastRules
from tapete.engine.runfast.settlement import Settlement, bomb_bonus, settle
from tapete.errors import BadRecord, IllegalAction

PLAYERS: Final = 3
HAND_SIZE: Final = 16
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_NO_KEY: Final = -1
_DECK_NAME: Final = "the Run Fast deck (no jokers, no A♥, 2♠ the only two)"
_DECK_15_NAME: Final = "the 45-card Run Fast deck (no jokers, no A♥ A♦ A♣ K♠, 2♠ the only two)"


# --- the deal -----------------------------------------------------------------------
def deal_from_seed(seed: int, deck: Sequence[int] = DECK, index: int = 0) -> list[list[int]]:
    """The seeded deal number ``index``: the deck (lowest int first) shuffled, then dealt
    one at a time starting with seat 0.

    >>> [len(h) for h in deal_from_seed(7)], sorted(sum(deal_from_seed(7), [])) == list(DECK)
    ([16, 16, 16], True)
    """
    cards = list(deck)
    dealing.shuffle(cards, dealing.stream(seed, "deal", index))
    return [cards[s::PLAYERS] for s in range(PLAYERS)]


def check_deal(cards: Sequence[Sequence[object]], deck: Sequence[int] = DECK) -> list[list[int]]:
    """Read and check an explicit deal (3 equal hands making up the deck: 48 or 45 cards).

    Raise ``BadRecord`` saying what is wrong.

    >>> check_deal([["3H"] * 16, [], []])
    Traceback (most recent call last):
    ...
    tapete.errors.BadRecord: bad_record: seat 1 was dealt 0 cards; Run Fast deals 16 to each seat
    """
    size = len(deck) // PLAYERS
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(cards) != PLAYERS:
        raise BadRecord(f"a Run Fast deal lists the cards of {PLAYERS} seats")
    for seat, hand in enumerate(cards):
        if isinstance(hand, (str, bytes)) or not isinstance(hand, Sequence):
            raise BadRecord(f"seat {seat}'s cards must be a list of cards")
        if len(hand) != size:
            raise BadRecord(f"seat {seat} was dealt {len(hand)} cards; Run Fast deals {size} to each seat")
    if size == HAND_SIZE:
        return dealing.read_deal(cards, DECK_MASK, _DECK_NAME, card_symbol)
    return dealing.read_deal(cards, sum(1 << c for c in deck), _DECK_15_NAME, card_symbol)


# --- the game -----------------------------------------------------------------------
@dataclass(frozen=True)
class FinishedDeal:
    """A deal of a match that is over: the cards dealt, the plays, what was left."""

    dealt: list[list[int]]
    log: tuple[tuple[int, int], ...]
    bonus_log: tuple[tuple[int, int], ...]
    hands: tuple[int, ...]
    settlement: Settlement


class RunFastGame:
    """A Run Fast game for three seats: one deal, or a match of ``rules.deals`` deals."""

    __slots__ = (
        "_legal",
        "bonus",
        "bonus_log",
        "cur_key",
        "cur_mask",
        "cur_seat",
        "dealt",
        "explicit",
        "first_card",
        "first_leader",
        "hand_number",
        "hands",
        "log",
        "num_players",
        "opening",
        "passes",
        "past",
        "pending",
        "pending_mask",
        "phase",
        "played",
        "rules",
        "seed",
        "settlement",
        "to_act_",
        "totals",
        "winner_",
    )

    def __init__(
        self,
        rules: RunFastRules,
        *,
        seed: int = 0,
        deal: Sequence[Sequence[object]] | None = None,
        deals: Sequence[Sequence[Sequence[object]] | None] = (),
    ) -> None:
        self.rules: RunFastRules = rules
        self.num_players: int = PLAYERS
        self.seed: int = seed
        explicit = list(deals) if deal is None else [deal, *deals[1:]]
        if len(explicit) > rules.deals:
            raise BadRecord(f"this Run Fast game has {rules.deals} deal(s), not {len(explicit)}")
        self.explicit: list[Sequence[Sequence[object]] | None] = explicit
        self.totals: list[int] = [0] * PLAYERS
        """The settlements of the finished deals, added up."""
        self.past: list[FinishedDeal] = []
        """The finished deals of a match before this one (record and replay form)."""
        self.hand_number: int = -1
        self._start_deal()

    def _start_deal(self) -> None:
        """Deal the next deal of the match and give the lead to the first-lead card."""
        self.hand_number += 1
        rules, h = self.rules, self.hand_number
        given = self.explicit[h] if h < len(self.explicit) else None
        deck = rules.deck
        cards = deal_from_seed(self.seed, deck, h) if given is None else check_deal(given, deck)
        self.dealt: list[list[int]] = cards
        """Each seat's cards as dealt (never changed)."""
        self.hands: list[int] = [mask_of(hand) for hand in cards]
        """Each seat's cards now, as bitmasks."""
        self.played: list[bool] = [False] * PLAYERS
        first = rules.first_lead_card
        self.first_card: int = first
        leader = next(s for s in range(PLAYERS) if self.hands[s] >> first & 1)
        self.first_leader: int = leader
        self.phase: Phase = _PLAY
        self.to_act_: int | None = leader
        self.opening = True
        self.cur_key = _NO_KEY
        self.cur_mask = 0
        self.cur_seat = -1
        self.passes = 0
        self.pending = -1
        self.pending_mask = 0
        self.bonus: list[int] = [0] * PLAYERS
        self.bonus_log: list[tuple[int, int]] = []
        self.log: list[tuple[int, int]] = []
        self.settlement: Settlement | None = None
        self.winner_: int | None = None
        self._legal: list[RunFastAction] | None = None

    # --- the public surface -------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (``None`` once the game is over)."""
        return self.to_act_

    def is_over(self) -> bool:
        return self.phase is _OVER

    def scores(self) -> list[int]:
        """The finished deals' settlements added up per seat (zeros before the first ends)."""
        return list(self.totals)

    def winner(self) -> int | None:
        """Once the game is over: the seat that went out (one deal) or the highest total
        (a match; a tie goes to the tied seat that won the latest deal, else the lowest seat)."""
        if self.phase is not _OVER or self.rules.deals == 1:
            return self.winner_
        top = max(self.totals)
        tied = [s for s in range(PLAYERS) if self.totals[s] == top]
        won = [self.winner_, *(p.settlement.winner for p in reversed(self.past))]
        return next((w for w in won if w in tied), tied[0])

    def hand_changes(self) -> list[tuple[int, ...]]:
        """The settlement of every finished deal, in order."""
        past = [tuple(p.settlement.change) for p in self.past]
        s = self.settlement
        return past + ([tuple(s.change)] if s is not None else [])

    @property
    def current(self) -> tuple[int, int, int] | None:
        """The play to beat as ``(seat, cards mask, key)``, or ``None`` when a player leads."""
        return None if self.cur_key < 0 else (self.cur_seat, self.cur_mask, self.cur_key)

    def legal_actions(self) -> list[RunFastAction]:
        """Every legal action of the seat to act (empty once the game is over)."""
        legal = self._legal
        if legal is None:
            seat = self.to_act_
            if seat is None:
                return []
            hand = self.hands[seat]
            key = self.cur_key
            if key < 0:
                legal = plays_with(hand, self.first_card) if self.opening else lead_plays(hand)
            else:
                legal = responses(hand, key) or [PASS]
            top = self._highest_single_rank(seat)
            if top >= 0:
                legal = [a for a in legal if not a or a & (a - 1) or rf_rank(a.bit_length() - 1) == top]
            self._legal = legal
        return legal[:]

    def _highest_single_rank(self, seat: int) -> int:
        """Under ``one_card_rule``, the rank a single of ``seat`` must have while the next
        player holds one card (-1: no such duty)."""
        if not self.rules.one_card_rule or self.hands[seat + 1 if seat < 2 else 0].bit_count() != 1:
            return -1
        return max(rf_rank(c) for c in iter_bits(self.hands[seat]))

    def apply(self, action: RunFastAction | int | Mapping[str, Any]) -> None:
        """Apply a legal action; an illegal one raises ``IllegalAction`` and changes nothing."""
        if type(action) is not RunFastAction:
            action = self.parse_action(action)
        seat = self.to_act_
        if seat is None:  # only once the game is over
            raise IllegalAction("wrong_phase", "the game is over: no more actions")
        if not action:
            # a pass (inlined: half of all actions are passes)
            cur = self.cur_key
            if cur < 0:
                raise self._leader_cannot_pass()
            legal = self._legal
            if legal is None:
                legal = responses(self.hands[seat], cur)
            if legal and legal[0]:
                raise self._must_beat(legal)
            self.log.append((seat, 0))
            self._legal = None
            if self.passes:
                if self.pending >= 0:
                    self._award_bonus()
                self.to_act_ = self.cur_seat
                self.cur_key = _NO_KEY
                self.cur_mask = 0
                self.cur_seat = -1
                self.passes = 0
            else:
                self.passes = 1
                self.to_act_ = seat + 1 if seat < 2 else 0
            return
        hand = self.hands[seat]
        if action & ~hand:
            raise _not_in_hand(action & ~hand)
        key = _SINGLE_KEY[action.bit_length()] if not action & (action - 1) else classify(action)
        if key is None:
            raise IllegalAction("not_a_combination", why_not_combination(action))
        opening = self.opening
        if opening:
            if not action >> self.first_card & 1:
                raise IllegalAction(
                    "must_include_first_card",
                    f"the first play must contain {card_symbol(self.first_card)}",
                    {"card": card_name(self.first_card)},
                )
            if key == FOUR_THREES:
                key = CELESTIAL
        cur = self.cur_key
        if cur >= 0:
            if key < 16:
                if cur < 16 and key <= cur:
                    raise self._does_not_beat(key)
                self.pending = seat
                self.pending_mask = action
            elif (key >> 4) != (cur >> 4) or key <= cur:
                raise self._does_not_beat(key)
        if self.rules.one_card_rule and not action & (action - 1):
            top = self._highest_single_rank(seat)
            if top >= 0 and rf_rank(action.bit_length() - 1) != top:
                best = sum(1 << c for c in iter_bits(hand) if rf_rank(c) == top)
                raise IllegalAction(
                    "must_play_highest_single",
                    f"the next player has one card left: a single must be your highest ({card_symbols(best)})",
                )
        # the play (inlined: the engine's hot path)
        hand ^= action
        self.hands[seat] = hand
        self.played[seat] = True
        if opening:
            self.opening = False
        self.cur_key = key
        self.cur_mask = action
        self.cur_seat = seat
        self.passes = 0
        self.log.append((seat, action))
        self._legal = None
        if not hand:
            self._finish(seat)
            return
        self.to_act_ = seat + 1 if seat < 2 else 0

    def _leader_cannot_pass(self) -> IllegalAction:
        extra = f" (the first play must contain {card_symbol(self.first_card)})" if self.opening else ""
        return IllegalAction("cannot_pass_as_leader", f"a leader cannot pass: play any combination{extra}")

    def _must_beat(self, legal: list[RunFastAction]) -> IllegalAction:
        example = min(legal, key=_play_order)
        return IllegalAction(
            "must_beat",
            f"you must beat {describe(self.cur_key)} when you can: you can (for example with {card_symbols(example)})",
        )

    def _award_bonus(self) -> None:
        seat = self.pending
        change = bomb_bonus(seat, PLAYERS)
        self.bonus = [b + c for b, c in zip(self.bonus, change, strict=True)]
        self.bonus_log.append((seat, self.pending_mask))
        self.pending = -1
        self.pending_mask = 0

    def _finish(self, seat: int) -> None:
        if self.pending >= 0:
            self._award_bonus()
        s = settle(seat, self.hands, self.played, self.bonus)
        self.settlement = s
        self.totals = [t + c for t, c in zip(self.totals, s.change, strict=True)]
        self.winner_ = seat
        if self.hand_number + 1 < self.rules.deals:
            done = FinishedDeal(self.dealt, tuple(self.log), tuple(self.bonus_log), tuple(self.hands), s)
            self.past = [*self.past, done]
            self._start_deal()
            return
        self.phase = _OVER
        self.to_act_ = None

    def _does_not_beat(self, key: int) -> IllegalAction:
        cur = self.cur_key
        new, old = describe(key), describe(cur)
        if cur == CELESTIAL:
            hint = "nothing beats the celestial bomb"
        elif is_bomb(cur):
            hint = "only a higher bomb beats a bomb"
        elif not is_bomb(key) and (key >> 4) != (cur >> 4):
            hint = "answer with the same shape and number of cards, higher, or with a bomb"
        else:
            hint = ""
        return IllegalAction("does_not_beat", f"{new} does not beat {old}" + (f": {hint}" if hint else ""))

    def clone(self) -> RunFastGame:
        """An independent copy: the copy and the original share no mutable state."""
        g = object.__new__(RunFastGame)
        for name in RunFastGame.__slots__:
            setattr(g, name, getattr(self, name))
        g.hands = list(self.hands)
        g.played = list(self.played)
        g.bonus = list(self.bonus)
        g.bonus_log = list(self.bonus_log)
        g.log = list(self.log)
        g.totals = list(self.totals)
        g._legal = None
        return g

    # --- actions in the record format -------------------------------------------------
    def parse_action(self, obj: object) -> RunFastAction:
        """Read an action (a record-format dict, or a card mask) for the seat to act.

        Malformed input raises ``IllegalAction('bad_record')``; another seat's action
        ``not_your_turn``; both change nothing.
        """
        if isinstance(obj, RunFastAction):
            return obj
        if isinstance(obj, int) and not isinstance(obj, bool):
            if not 0 <= obj < 1 << 55:
                raise IllegalAction("bad_record", f"{obj} is not a card mask")
            return RunFastAction(obj)
        seat, action = RunFastAction.from_record(obj, PLAYERS)
        check_turn(seat, self.to_act_)
        return action

    def action_to_record(self, action: int, seat: int | None = None) -> dict[str, JSON]:
        """An action in the record format, for ``seat`` (default: the seat to act)."""
        return RunFastAction(action).to_record(acting_seat(seat, self.to_act_))

    # --- what a seat sees ---------------------------------------------------------------
    def _plays_json(self) -> list[PlayView]:
        return _plays_json(self.log)

    def match_view(self) -> MatchView:
        """Where the match stands: this deal's number (from 0), the deals, the totals and
        each finished deal's settlement."""
        return {
            "deal": self.hand_number,
            "deals": self.rules.deals,
            "totals": list(self.totals),
            "results": [list(c) for c in self.hand_changes()],
        }

    def observations(self, seats: Iterable[int]) -> dict[int, RunFastObservation]:
        """The observations of ``seats`` at once, each equal to ``observation(seat)``.

        The public facts are built once and the views share them (the same lists and
        dicts; the option values are even the same objects from one version to the next),
        so treat the views as read-only, or change a copy.
        """
        public, own = self.observation_parts(seats)
        return {seat: _joined(public, view) for seat, view in own.items()}

    def observation_parts(self, seats: Iterable[int]) -> tuple[RunFastPublicView, dict[int, RunFastOwnView]]:
        """The observations of ``seats`` in two parts: what every seat sees alike, built once,
        and what is each seat's own; ``{**public, **own[seat]}`` is ``observation(seat)``.

        The parts are shared as ``observations`` shares them: read them only."""
        own = {seat: self._own_view(seat) for seat in seats}
        return self._public_view(shared=True), own

    def observation(self, seat: int) -> RunFastObservation:
        """What ``seat`` may see, JSON-able; built opt-in from public facts and its own hand."""
        own = self._own_view(seat)
        return {**self._public_view(), **own}

    def _public_view(self, shared: bool = False) -> RunFastPublicView:
        """What every seat sees alike (``shared``: the option values kept in the rules, not copies)."""
        rules = self.rules
        overrides, options = rules.kept_json if shared else (rules.overrides_json(), rules.options_json())
        cur_key = self.cur_key
        current: CurrentPlay | None = None
        if cur_key >= 0:
            current = {"seat": self.cur_seat, "cards": card_names(self.cur_mask), "combination": describe(cur_key)}
        pending: BombView | None = None
        if self.pending >= 0:
            pending = {"seat": self.pending, "cards": card_names(self.pending_mask)}
        s = self.settlement
        return {
            "game": "runfast",
            "profile": rules.profile,
            "options": overrides,
            "rules": options,
            "players": PLAYERS,
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.to_act_,
            "first_leader": self.first_leader,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "has_played": list(self.played),
            "plays": self._plays_json(),
            "current": current,
            "passed": [(self.cur_seat + 1 + i) % PLAYERS for i in range(self.passes)] if cur_key >= 0 else [],
            "pending_bomb": pending,
            "bomb_bonuses": [{"seat": b, "cards": card_names(m), "points": 20} for b, m in self.bonus_log],
            "bonus": list(self.bonus),
            "scores": list[float](self.scores()),
            "settlement": s.to_json() if s is not None else None,
            "winner": self.winner(),
            "match": self.match_view(),
        }

    def _own_view(self, seat: int) -> RunFastOwnView:
        """What of ``seat``'s observation is its own: its seat, its hand, its choices."""
        if not 0 <= seat < PLAYERS:
            raise ValueError(f"no seat {seat}")
        return {
            "seat": seat,
            "hand": card_names(self.hands[seat]),
            "legal_actions": ([a.to_record(seat) for a in self.legal_actions()] if seat == self.to_act_ else []),
        }

    # --- records and replays --------------------------------------------------------------
    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        """The game as a ``tapete-record/1`` object (``docs/records.md``)."""
        deals = [*self.past, self._current_deal()]
        hands: list[JSON] = [
            {
                "cards": [card_names_as_dealt(h) for h in d.dealt],
                "actions": [RunFastAction(m).to_record(s) for s, m in d.log],
            }
            for d in deals
        ]
        return game_record(self.rules.profile, self.rules.overrides_json(), self.seed, players, hands)

    def _current_deal(self) -> FinishedDeal | _OpenDeal:
        return _OpenDeal(self.dealt, tuple(self.log), tuple(self.bonus_log), tuple(self.hands), self.settlement)

    def replay_summary(self, last_hands: int | None = None) -> dict[str, JSON]:
        """The ``tapete replay --json`` fields that describe the game so far (``hands``: only the
        latest ``last_hands`` deals when given)."""
        deals = [*self.past, self._current_deal()]
        hands: list[JSON] = [_deal_summary(d) for d in (deals if last_hands is None else deals[-last_hands:])]
        return {"hands": hands, "scores": self.scores(), "finished": self.is_over(), "winner": self.winner()}


@dataclass(frozen=True)
class _OpenDeal:
    """The deal being played (its settlement is ``None`` until someone goes out)."""

    dealt: list[list[int]]
    log: tuple[tuple[int, int], ...]
    bonus_log: tuple[tuple[int, int], ...]
    hands: tuple[int, ...]
    settlement: Settlement | None


def _joined(public: RunFastPublicView, own: RunFastOwnView) -> RunFastObservation:
    """A seat's observation from the public part and its own."""
    return {**public, **own}


def _plays_json(log: Sequence[tuple[int, int]]) -> list[PlayView]:
    return [{"seat": s, "pass": True} if not m else {"seat": s, "cards": card_names(m)} for s, m in log]


def _deal_summary(d: FinishedDeal | _OpenDeal) -> dict[str, JSON]:
    """One deal of ``replay_summary``: plays, cards left, settlement."""
    s = d.settlement
    plays: list[JSON] = [dict(p) for p in _plays_json(d.log)]
    return {
        "plays": plays,
        "remaining": [card_names(h) for h in d.hands],
        "score_change": list(s.change) if s is not None else None,
        "bomb_bonuses": [{"seat": b, "cards": card_names(m), "points": 20} for b, m in d.bonus_log],
        "settlement": s.to_json() if s is not None else None,
    }


def card_names_as_dealt(cards: Sequence[int]) -> list[str]:
    """Canonical names in the order given (a hand as dealt)."""
    return [card_name(c) for c in cards]


_SINGLE_KEY: Final = (None, *(classify(1 << c) for c in range(55)))
"""``_SINGLE_KEY[c + 1]``: the key of a single card ``c`` (``None`` for jokers)."""


def _not_in_hand(missing: int) -> IllegalAction:
    foreign = missing & ~DECK_MASK
    if foreign:
        names = " ".join(card_symbol(c) for c in iter_bits(foreign))
        return IllegalAction("card_not_in_hand", f"{names} is not in {_DECK_NAME}")
    return IllegalAction("card_not_in_hand", f"you do not hold {card_symbols(missing)}")


def _play_order(action: RunFastAction) -> tuple[int, int, int]:
    """Smallest first: ordinary before bombs, fewer cards, lower rank."""
    key = classify(action)
    if key is None:
        return (2, 0, 0)
    return (1 if key < 16 else 0, action.bit_count(), key & 15)


__all__ = ["HAND_SIZE", "PLAYERS", "RunFastGame", "check_deal", "deal_from_seed"]
