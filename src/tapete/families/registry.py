"""The family registry: what the layers above the engine need to know about a game family.

A *family* is one rules engine (Spades and its variants, Run Fast, …) with everything
built around it: its rules class and game class, how its records are read, which
observation fields are public, its computer players, its environment encoder, the
reason behind a hint, its rules pages and the name of its browser renderer. Each family
describes itself once, in one ``Family`` value, and calls :func:`register`; everything
above the engine asks the registry (:func:`family`, :func:`family_of`) instead of naming
a family or a class.

The heavier parts (bots, encoders, rules pages) are given as *loaders*: functions that
import and return the part on first use, so that ``import tapete`` stays light and an
optional dependency (numpy for the environments) is only needed by whoever uses it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tapete.engine.base import JSON, Game
from tapete.errors import ProfileError

Observation = Mapping[str, Any]
"""A seat's observation as ``Game.observation(seat)`` returns it."""


class Rules(Protocol):
    """What every family's frozen rules offer (``SpadesRules``, ``RunFastRules``, …)."""

    @property
    def profile(self) -> str: ...
    @property
    def players(self) -> int: ...
    def options_json(self) -> dict[str, object]: ...
    def overrides_json(self) -> dict[str, object]: ...


class RulesClass(Protocol):
    """A rules class: builds validated rules from a profile's options and user overrides."""

    def from_options(self, options: Mapping[str, object], *, profile: str, overrides: Mapping[str, object]) -> Any: ...


class GameFactory(Protocol):
    """Builds a game of the family; raises ``BadRecord`` for what the family has not."""

    def __call__(
        self,
        rules: Any,
        *,
        seed: int,
        deals: Sequence[Sequence[Sequence[object]] | None],
        dealer: int | None,
        draw: Sequence[object] | None,
    ) -> Game: ...


class Bot(Protocol):
    """A computer player: one seat's observation in, one of its legal actions out."""

    def act(self, observation: Observation) -> dict[str, Any]: ...


BotFactory = Callable[[str, int, Mapping[str, Any]], Bot]
"""``factory(level, seed, params)`` builds the family's bot of a level."""

HintReason = Callable[[Observation, Mapping[str, Any]], str]
"""``reason(observation, suggested action)`` → an English msgid explaining the suggestion."""

HandText = Callable[[int, Mapping[str, Any], Mapping[str, Any]], list[str]]
"""``lines(hand index, hand of a replay report, the report)`` → the hand as text tables."""


@dataclass(frozen=True)
class RecordRules:
    """How a family's records are laid out (``docs/records.md``).

    ``many_hands``: a record may hold several hands (a game of many deals) or only one;
    ``dealer``: each hand may name its dealer, who rotates one seat to the left per hand;
    ``check_deal(rules, cards, dealer)``: reads one hand's explicit cards or raises
    ``BadRecord`` saying what is wrong.
    """

    many_hands: bool
    dealer: bool
    check_deal: Callable[[Any, Sequence[Sequence[object]], int], object]


@dataclass(frozen=True, eq=False)
class Family:
    """Everything the layers above the engine need to know about one game family."""

    name: str
    """The family's name: profiles' ``family``, observations' ``game``."""
    title: str
    """A short English title (translated through the catalogs like any msgid)."""
    rules_class: RulesClass
    game_class: type
    new_game: GameFactory
    records: RecordRules
    public_fields: tuple[str, ...]
    """Observation fields a spectator may see; everything else stays private (opt-in)."""
    renderer: str
    """The browser renderer: ``/static/family/<renderer>.js``."""
    load_bots: Callable[[], BotFactory]
    load_hint: Callable[[], HintReason] | None = None
    load_encoder: Callable[[], Callable[[Any], Any]] | None = None
    """Returns ``encoder(rules)`` for the environments (``tapete.env``)."""
    load_rulebook: Callable[[], Callable[[Any, Any], Any]] | None = None
    """Returns ``build(writer, rules) -> (sections, faq)`` for the rules pages."""
    load_hand_text: Callable[[], HandText] | None = None
    load_analysis: Callable[[], Callable[[Any, int], dict[str, JSON]]] | None = None
    """Returns ``analyse(record, nodes, *, lead_nodes=None, hands=None, seconds=None)`` for ``tapete analyze``
    and the server's analyses (``None``: nothing to analyse; see ``tapete.analysis.analyze``)."""
    load_stats: Callable[[], Any] | None = None
    """Returns the family's players' statistics (``game(report, seat, rules)``, ``summary(games, rules)``,
    :class:`tapete.stats.FamilyStats`); ``None``: only games and wins are counted."""
    hand_results: bool = False
    """A hand ends with a result of its own (``hand_over`` messages, per-hand rewards)."""
    hand_changes: Callable[[Any], list[tuple[int, ...]]] = lambda game: [tuple(game.scores())] if game.is_over() else []
    """The score change of every finished hand so far, per scoring side (one deal: the final scores)."""
    side_of: Callable[[Any, int], int] = lambda rules, seat: seat
    """The scoring side of a seat under ``rules`` (a team in partnership games)."""
    profiles: Mapping[str, str] = field(default_factory=dict)
    """Profile files (TOML text by name) the family brings besides the shipped ones."""
    bot_levels: tuple[str, ...] = ("easy", "normal", "hard")
    search_budgets: Mapping[str, tuple[Mapping[str, int], ...]] = field(default_factory=dict)
    """Per search level, smaller bot parameters for a loaded server (pressure 1, 2, …)."""
    ladder: tuple[Mapping[str, Any], ...] = ()
    """Measured arena differences between bot levels (``profile, a, b, deals, mean, ci95``) that
    the bots' fixed rating anchors are derived from (:mod:`tapete.players.anchors`)."""
    bot_anchors: Mapping[str, float] = field(default_factory=dict)
    """The anchor rating μ of each bot level, as derived from :attr:`ladder` (rounded)."""

    def bots(self) -> BotFactory:
        return self.load_bots()

    def hint(self) -> HintReason | None:
        return None if self.load_hint is None else self.load_hint()

    def encoder(self, rules: Any) -> Any:
        if self.load_encoder is None:
            raise ValueError(f"the {self.name} family has no environment encoder")
        return self.load_encoder()(rules)

    def public_view(self, observation: Observation) -> dict[str, JSON]:
        """The public part of an observation: listed fields only, never the hand."""
        view: dict[str, JSON] = {k: observation[k] for k in self.public_fields if k in observation}
        view["seat"] = None
        view["hand"] = None
        view["legal_actions"] = []
        return view


def lazy(target: str) -> Callable[[], Any]:
    """A loader for ``"package.module:attribute"``: imports the module on first call.

    Families name their upper-layer parts this way so that the registry (and
    ``import tapete``) never imports a bot, an encoder or a page builder nobody asked for.
    """
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise ValueError(f"a loader target is 'module:attribute', not {target!r}")

    def load() -> Any:
        return getattr(importlib.import_module(module), attribute)

    load.__qualname__ = f"lazy({target!r})"
    return load


_FAMILIES: dict[str, Family] = {}
_BY_TYPE: dict[type, Family] = {}
_LISTENERS: list[Callable[[], None]] = []


def register(fam: Family) -> Family:
    """Register a family (again: replace it). Returns it, for use as a module constant."""
    old = _FAMILIES.get(fam.name)
    if old is not None:
        for key in [k for k, v in _BY_TYPE.items() if v is old]:
            del _BY_TYPE[key]
    _FAMILIES[fam.name] = fam
    _BY_TYPE[fam.game_class] = fam
    if isinstance(fam.rules_class, type):
        _BY_TYPE[fam.rules_class] = fam
    _changed()
    return fam


def unregister(name: str) -> None:
    """Remove a family (tests that register a toy family clean up with this)."""
    fam = _FAMILIES.pop(name, None)
    if fam is None:
        return
    for key in [k for k, v in _BY_TYPE.items() if v is fam]:
        del _BY_TYPE[key]
    _changed()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever a family is registered or removed (caches built from families)."""
    _LISTENERS.append(listener)


def _changed() -> None:
    for listener in _LISTENERS:
        listener()


def family(name: str) -> Family:
    """The family called ``name``; ``ProfileError('unknown_family')`` if there is none."""
    fam = _FAMILIES.get(name) if isinstance(name, str) else None
    if fam is None:
        known = ", ".join(sorted(_FAMILIES))
        raise ProfileError(f"unknown game family {name!r}; known families: {known}", "unknown_family")
    return fam


def family_of(obj: object) -> Family:
    """The family of a game, of rules, or of an observation (its ``game`` field)."""
    if isinstance(obj, Mapping):
        return family(str(obj.get("game")))
    for cls in type(obj).__mro__:
        fam = _BY_TYPE.get(cls)
        if fam is not None:
            return fam
    raise ProfileError(f"{type(obj).__name__} belongs to no registered game family", "unknown_family")


def families() -> list[Family]:
    """Every registered family, by name."""
    return [_FAMILIES[name] for name in sorted(_FAMILIES)]
