"""Game families: the registry, and the families that ship with tapete.

>>> from tapete.families import family, family_of
>>> import tapete
>>> family_of(tapete.new_game("runfast", seed=1)).name, family("spades").renderer
('runfast', 'spades')

A new family describes itself in a module of its own (a ``Family`` value passed to
``register``) and is imported below; ``docs/families.md`` lists what else it brings.
"""

from __future__ import annotations

from tapete.families import runfast as _runfast  # noqa: F401  (registers Run Fast)
from tapete.families import spades as _spades  # noqa: F401  (registers the Spades family)
from tapete.families.registry import (
    BotFactory,
    Family,
    HintReason,
    Observation,
    RecordRules,
    families,
    family,
    family_of,
    lazy,
    on_change,
    register,
    unregister,
)

__all__ = [
    "BotFactory",
    "Family",
    "HintReason",
    "Observation",
    "RecordRules",
    "families",
    "family",
    "family_of",
    "lazy",
    "on_change",
    "register",
    "unregister",
]
