"""The rules of one Spades-family profile, as a frozen, validated value.

Every difference between ``spades``, ``cutthroat`` and the official Cutthroat family
is one of these fields; the engine reads them and never branches on a profile's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from tapete.cards import BJ, CARDS, RJ, XJ, Card
from tapete.engine.options import OptionSpec, OptionValue, coerce_options
from tapete.engine.spades.trick import TrickTables, tables_for
from tapete.errors import ProfileError

SPECIAL_BIDS: Final = ("1F", "2F", "B6", "BN", "SM")
PRIZE_JACKS: Final = ("JD", "JC", "JH")

MAX_POINTS: Final = 10_000
"""The largest target (and the lowest floor, negated) a table may set."""
MAX_HAND: Final = 26
"""The most cards a hand can hold (a 55-card deck among three players holds 18)."""

OPTIONS: Final = (
    OptionSpec("players", "int", "number of players", minimum=3, maximum=8),
    OptionSpec("partnership", "bool", "two teams of partners sitting opposite (4 players)"),
    OptionSpec(
        "removed", "subset", "cards taken out of the 52-card deck", allowed=tuple(str(CARDS[c]) for c in range(52))
    ),
    OptionSpec("jokers", "int", "jokers added as the top spades (big, little, extra)", minimum=0, maximum=3),
    OptionSpec("target", "int", "score that ends a game", minimum=1, maximum=MAX_POINTS),
    OptionSpec("floor", "int", "a side at or below it ends the game", minimum=-MAX_POINTS, maximum=-1, nullable=True),
    OptionSpec("bag_rule", "choice", "how bags are penalised", allowed=("accumulate", "limit", "per_hand", "none")),
    OptionSpec(
        "bag_limit",
        "int",
        "bags that cost a penalty (accumulate: every L cost 10·L; limit: reaching L costs 10 per bag)",
        minimum=1,
        maximum=100,
    ),
    OptionSpec("special_bids", "subset", "special bids offered", allowed=SPECIAL_BIDS),
    OptionSpec("blind_six", "choice", "blind-six allowance per player per game", allowed=("once", "unlimited")),
    OptionSpec(
        "blind_six_margin", "int", "points behind the leader needed to bid blind six", minimum=0, maximum=MAX_POINTS
    ),
    OptionSpec(
        "blind_nil_behind",
        "int",
        "points a team must be behind the other to bid blind nil (0: always)",
        minimum=0,
        maximum=MAX_POINTS,
    ),
    OptionSpec("prize_jacks", "subset", "jacks that reward the trick winner", allowed=PRIZE_JACKS),
    OptionSpec("tokens", "int", "victory tokens that win a tourney", minimum=1, maximum=25, nullable=True),
    OptionSpec("seating_draw", "bool", "players draw cards for seats and the first deal"),
    OptionSpec("first_lead", "choice", "who leads the first trick of a hand", allowed=("left_of_dealer", "2C")),
    OptionSpec("dealer_sits_out_first_trick", "bool", "the dealer does not play to the first trick"),
    OptionSpec("deuces_high", "bool", "2♦ and 2♠ are the two highest trumps, above A♠"),
    OptionSpec("must_beat", "bool", "follow suit above the best card when able; void, trump (over-trump) when able"),
    OptionSpec("lead_spades", "choice", "when spades may be led", allowed=("when_broken", "any_time")),
    OptionSpec("min_bid", "int", "the lowest ordinary bid (0 allows nil)", minimum=0, maximum=13),
    OptionSpec(
        "max_bid", "int", "the highest ordinary bid (null: the cards held)", minimum=1, maximum=MAX_HAND, nullable=True
    ),
    OptionSpec("suicide", "bool", "in each team one partner bids nil and the other at least 4"),
    OptionSpec("tenths", "bool", "points are shown in tenths: a made bid b with e extra tricks is b.e"),
    OptionSpec(
        "deals",
        "int",
        "deals in a game, highest total wins (null: play to the target)",
        minimum=1,
        maximum=100,
        nullable=True,
    ),
)

OPTION_SPECS: Final = {spec.name: spec for spec in OPTIONS}


@dataclass(frozen=True)
class SpadesRules:
    """One Spades-family rule set. Build with ``SpadesRules.from_options``."""

    profile: str = "custom"
    players: int = 3
    partnership: bool = False
    removed: frozenset[str] = frozenset({"2C"})
    jokers: int = 0
    target: int = 200
    floor: int | None = None
    bag_rule: str = "accumulate"
    bag_limit: int = 10
    special_bids: frozenset[str] = frozenset()
    blind_six: str = "once"
    blind_six_margin: int = 50
    prize_jacks: frozenset[str] = frozenset()
    tokens: int | None = None
    seating_draw: bool = False
    first_lead: str = "left_of_dealer"
    dealer_sits_out_first_trick: bool = False
    blind_nil_behind: int = 0
    deuces_high: bool = False
    must_beat: bool = False
    lead_spades: str = "when_broken"
    min_bid: int = 0
    max_bid: int | None = None
    suicide: bool = False
    tenths: bool = False
    deals: int | None = None
    overrides: tuple[tuple[str, object], ...] = field(default=(), compare=False)
    """The options given on top of the profile's file (for records)."""

    # ----------------------------------------------------------------------------
    @classmethod
    def from_options(
        cls,
        values: Mapping[str, object],
        *,
        profile: str = "custom",
        overrides: Mapping[str, object] | None = None,
    ) -> SpadesRules:
        """Rules from a profile's option values plus user overrides (both checked)."""
        base = coerce_options(OPTIONS, values, profile=profile)
        extra = coerce_options(OPTIONS, overrides or {}, profile=profile)
        merged: dict[str, OptionValue] = {**base, **extra}
        normal = tuple(sorted((k, OptionSpec.to_json(v)) for k, v in extra.items()))
        rules = cls(profile=profile, overrides=normal, **merged)  # type: ignore[arg-type]
        rules.check()
        return rules

    def check(self) -> None:
        """Cross-field checks: the deck must deal equal hands, teams need four players, …"""
        if self.partnership and self.players != 4:
            raise ProfileError(
                "option 'partnership' needs 'players' = 4",
                "bad_option",
                {"option": "partnership", "allowed": "players = 4"},
            )
        self._check_deal()
        if self.suicide and not self.partnership:
            raise ProfileError(
                "option 'suicide' needs 'partnership' = true",
                "bad_option",
                {"option": "suicide", "allowed": "partnership = true"},
            )
        if self.suicide and self.special_bids:
            raise ProfileError(
                "option 'suicide' allows no special bids: set 'special_bids' to []",
                "bad_option",
                {"option": "suicide", "allowed": "special_bids = []"},
            )
        if self.suicide and self.min_bid > 0:
            raise ProfileError(
                "option 'suicide' needs 'min_bid' = 0 (one partner bids nil)",
                "bad_option",
                {"option": "suicide", "allowed": "min_bid = 0"},
            )
        size = self.hand_size
        if self.suicide and size < 4:
            raise ProfileError(
                f"option 'suicide' needs hands of at least 4 cards, not {size}",
                "bad_option",
                {"option": "suicide", "allowed": "≥ 4"},
            )
        if self.min_bid > min(size, self.max_bid if self.max_bid is not None else size):
            top = min(size, self.max_bid) if self.max_bid is not None else size
            raise ProfileError(
                f"option 'min_bid' must be at most {top} (the highest bid at this table), not {self.min_bid}",
                "bad_option",
                {"option": "min_bid", "allowed": f"≤ {top}"},
            )
        if self.min_bid > 0 and self.special_bids & {"BN"}:
            raise ProfileError(
                "blind nil ('BN') needs 'min_bid' = 0",
                "bad_option",
                {"option": "special_bids", "allowed": "min_bid = 0"},
            )
        if self.partnership and self.special_bids - {"BN"}:
            raise ProfileError(
                "partnership profiles offer only the special bid 'BN'; "
                f"not {', '.join(sorted(self.special_bids - {'BN'}))}",
                "bad_option",
                {"option": "special_bids", "allowed": "['BN']"},
            )
        if self.first_lead == "2C" and "2C" in self.removed:
            raise ProfileError(
                "option 'first_lead' is '2C' but 2C is removed from the deck",
                "bad_option",
                {"option": "first_lead", "allowed": "removed ∌ '2C'"},
            )

    def _check_deal(self) -> None:
        """Every seat gets the same number of cards (the dealer one fewer when it sits out)."""
        size, n = self.deck_size, self.players
        short = 1 if self.dealer_sits_out_first_trick else 0
        if (size + short) % n == 0 and size >= n:
            return
        fits = [p for p in range(3, 9) if (size + short) % p == 0 and not (self.partnership and p != 4)]
        what = "equal hands" if not short else "equal hands with the dealer one card short"
        counts = ", ".join(map(str, fits)) if fits else "no player count from 3 to 8"
        raise ProfileError(
            f"option 'players': a deck of {size} cards does not deal {what} to {n} players; "
            f"this deck allows {counts} (change 'removed' or 'jokers' for another count)",
            "bad_option",
            {"option": "players", "allowed": str(counts)},
        )

    # ----------------------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (the dealer's one fewer when it sits out the first trick)."""
        return -(-self.deck_size // self.players)

    @property
    def bid_range(self) -> tuple[int, int]:
        """The lowest and highest ordinary bid (before a seat's own hand size caps it)."""
        top = self.hand_size if self.max_bid is None else min(self.max_bid, self.hand_size)
        return self.min_bid, top

    @cached_property
    def trick_tables(self) -> TrickTables:
        """The trumps and card order of this profile (``engine/spades/trick.py``)."""
        return tables_for(self.deuces_high)

    @property
    def point_scale(self) -> int:
        """Internal points per shown point: 10 when points are shown in tenths."""
        return 10 if self.tenths else 1

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play, lowest int first."""
        removed = {Card.parse(x) for x in self.removed}
        cards = [CARDS[c] for c in range(52) if c not in removed]
        cards += [CARDS[j] for j in (RJ, BJ, XJ)[: self.jokers]]
        return tuple(sorted(cards))

    @cached_property
    def deck_ints(self) -> tuple[int, ...]:
        """The deck as plain ints (the dealing order before the shuffle)."""
        return tuple(int(c) for c in self.deck)

    @property
    def deck_size(self) -> int:
        return 52 - len(self.removed) + self.jokers

    @property
    def sides(self) -> int:
        """Scoring sides: teams in a partnership, else players."""
        return 2 if self.partnership else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def hand_sizes(self, dealer: int) -> list[int]:
        """Cards each seat is dealt, one at a time clockwise from the dealer's left."""
        n = self.players
        sizes = [self.deck_size // n] * n
        for i in range(self.deck_size % n):
            sizes[(dealer + 1 + i) % n] += 1
        return sizes

    def options_json(self) -> dict[str, object]:
        """Every option's value, JSON-able (for observations and rules pages); a new value each
        time, built from one kept in the (frozen) rules."""
        kept: dict[str, object] | None = self.__dict__.get("_options_json")
        if kept is None:
            kept = {spec.name: OptionSpec.to_json(getattr(self, spec.name)) for spec in OPTIONS}
            object.__setattr__(self, "_options_json", kept)
        return {k: list(v) if type(v) is list else v for k, v in kept.items()}

    def overrides_json(self) -> dict[str, object]:
        return dict(self.overrides)

    @cached_property
    def kept_json(self) -> tuple[dict[str, object], dict[str, object]]:
        """``(overrides_json(), options_json())`` built once: the same two objects at every
        read, for views that are only read (``SpadesGame.observations``)."""
        return self.overrides_json(), self.options_json()
