"""The rules of one Run Fast profile, as a frozen, validated value.

>>> rules = RunFastRules.from_options({"first_lead": "3H"}, profile="runfast", overrides={"first_lead": "3S"})
>>> rules.first_lead, rules.first_lead_card, rules.overrides_json()
('3S', 40, {'first_lead': '3S'})
>>> RunFastRules.from_options({"first_lead": "4H"}, profile="runfast")
Traceback (most recent call last):
...
tapete.errors.ProfileError: bad_option: option 'first_lead' must be one of '3H', '3S', not '4H'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from tapete.cards import Card
from tapete.engine.options import OptionSpec, OptionValue, coerce_options
from tapete.engine.runfast.actions import DECK, DECK_15

OPTIONS: Final = (
    OptionSpec(
        "first_lead",
        "choice",
        "the card whose holder leads first; the first play must contain it",
        allowed=("3H", "3S"),
    ),
    OptionSpec(
        "deal_size",
        "int",
        "cards dealt to each seat: 16 (48-card deck) or 15 (45 cards: no A♣, A♦, K♠)",
        minimum=15,
        maximum=16,
    ),
    OptionSpec(
        "one_card_rule",
        "bool",
        "when the next player holds one card, a single played must be the player's highest",
    ),
    OptionSpec("deals", "int", "deals in a match; the totals decide it", minimum=1, maximum=20),
)

OPTION_SPECS: Final = {spec.name: spec for spec in OPTIONS}
_FIRST_LEAD_CARDS: Final = {name: int(Card.parse(name)) for name in OPTION_SPECS["first_lead"].allowed}

_CACHE: dict[tuple[str, tuple[tuple[str, object], ...], tuple[tuple[str, object], ...]], RunFastRules] = {}


def _freeze(values: Mapping[str, object]) -> tuple[tuple[str, object], ...] | None:
    try:
        items = tuple(sorted(values.items()))
        hash(items)
    except TypeError:
        return None
    return items


@dataclass(frozen=True)
class RunFastRules:
    """One Run Fast rule set. Build with ``RunFastRules.from_options``."""

    profile: str = "custom"
    first_lead: str = "3H"
    deal_size: int = 16
    one_card_rule: bool = False
    deals: int = 1
    overrides: tuple[tuple[str, object], ...] = field(default=(), compare=False)
    """The options given on top of the profile's file (for records)."""

    @classmethod
    def from_options(
        cls,
        values: Mapping[str, object],
        *,
        profile: str = "custom",
        overrides: Mapping[str, object] | None = None,
    ) -> RunFastRules:
        """Rules from a profile's option values plus user overrides (both checked)."""
        over = overrides or {}
        key_values, key_over = _freeze(values), _freeze(over)
        if key_values is not None and key_over is not None:
            cached = _CACHE.get((profile, key_values, key_over))
            if cached is not None:
                return cached
        base = coerce_options(OPTIONS, values, profile=profile)
        extra = coerce_options(OPTIONS, over, profile=profile)
        merged: dict[str, OptionValue] = {**base, **extra}
        normal = tuple(sorted((k, OptionSpec.to_json(v)) for k, v in extra.items()))
        rules = cls(profile=profile, overrides=normal, **merged)  # type: ignore[arg-type]
        if key_values is not None and key_over is not None and len(_CACHE) < 256:
            _CACHE[(profile, key_values, key_over)] = rules
        return rules

    @property
    def players(self) -> int:
        """Run Fast is always a game for three."""
        return 3

    @property
    def first_lead_card(self) -> int:
        """The card int of ``first_lead`` (3♥ is 27, 3♠ is 40)."""
        return _FIRST_LEAD_CARDS[self.first_lead]

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards in play, lowest card int first (45 of them in a 15-card deal)."""
        return DECK_15 if self.deal_size == 15 else DECK

    @property
    def deck_mask(self) -> int:
        return sum(1 << c for c in self.deck)

    def options_json(self) -> dict[str, object]:
        """Every option's value, JSON-able (for observations and rules pages)."""
        return {spec.name: OptionSpec.to_json(getattr(self, spec.name)) for spec in OPTIONS}

    def overrides_json(self) -> dict[str, object]:
        return dict(self.overrides)

    @cached_property
    def kept_json(self) -> tuple[dict[str, object], dict[str, object]]:
        """``(overrides_json(), options_json())`` built once: the same two objects at every
        read, for views that are only read (``RunFastGame.observations``)."""
        return self.overrides_json(), self.options_json()
