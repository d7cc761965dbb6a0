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
from tapete.errors import ProfileError

SPECIAL_BIDS: Final = ("1F", "2F", "B6", "BN", "SM")
PRIZE_JACKS: Final = ("JD", "JC", "JH")

OPTIONS: Final = (
    OptionSpec("players", "int", "number of players", minimum=2, maximum=8),
    OptionSpec("partnership", "bool", "two teams of partners sitting opposite (4 players)"),
    OptionSpec(
        "removed", "subset", "cards taken out of the 52-card deck", allowed=tuple(str(CARDS[c]) for c in range(52))
    ),
    OptionSpec("jokers", "int", "jokers added as the top spades (big, little, extra)", minimum=0, maximum=3),
    OptionSpec("target", "int", "score that ends a game", minimum=1),
    OptionSpec("floor", "int", "a side at or below it ends the game", maximum=-1, nullable=True),
    OptionSpec("bag_rule", "choice", "how bags are penalised", allowed=("accumulate", "limit", "per_hand")),
    OptionSpec(
        "bag_limit",
        "int",
        "bags that cost a penalty (accumulate: every L cost 10·L; limit: reaching L costs 10 per bag)",
        minimum=1,
    ),
    OptionSpec("special_bids", "subset", "special bids offered", allowed=SPECIAL_BIDS),
    OptionSpec("blind_six", "choice", "blind-six allowance per player per game", allowed=("once", "unlimited")),
    OptionSpec("blind_six_margin", "int", "points behind the leader needed to bid blind six", minimum=0),
    OptionSpec("prize_jacks", "subset", "jacks that reward the trick winner", allowed=PRIZE_JACKS),
    OptionSpec("tokens", "int", "victory tokens that win a tourney", minimum=1, nullable=True),
    OptionSpec("seating_draw", "bool", "players draw cards for seats and the first deal"),
    OptionSpec("first_lead", "choice", "who leads the first trick of a hand", allowed=("left_of_dealer", "2C")),
    OptionSpec("dealer_sits_out_first_trick", "bool", "the dealer does not play to the first trick"),
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
        """Cross-field checks: the deck must be dealable, teams need four players, …"""
        if self.partnership and self.players != 4:
            raise ProfileError("option 'partnership' needs 'players' = 4", "bad_option")
        if self.partnership and self.special_bids - {"BN"}:
            raise ProfileError(
                "partnership profiles offer only the special bid 'BN'; "
                f"not {', '.join(sorted(self.special_bids - {'BN'}))}",
                "bad_option",
            )
        size = self.deck_size
        if size < self.players:
            raise ProfileError(f"a deck of {size} cards cannot be dealt to {self.players} players", "bad_option")
        if self.first_lead == "2C" and "2C" in self.removed:
            raise ProfileError("option 'first_lead' is '2C' but 2C is removed from the deck", "bad_option")

    # ----------------------------------------------------------------------------
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
        """Every option's value, JSON-able (for observations and rules pages)."""
        return {spec.name: OptionSpec.to_json(getattr(self, spec.name)) for spec in OPTIONS}

    def overrides_json(self) -> dict[str, object]:
        return dict(self.overrides)
