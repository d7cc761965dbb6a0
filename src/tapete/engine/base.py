"""What every game of every family offers (the engine protocol) and the phases."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Any, Final, Protocol, TypedDict, TypeVar

from tapete.errors import IllegalAction

JSON = Any
"""A JSON-able value (dicts, lists, str, int, bool, None)."""


class Phase(IntEnum):
    """Where a game stands; each family dispatches ``apply`` per phase."""

    BID = 1
    PLAY = 2
    OVER = 3


PHASE_NAMES: Final[dict[Phase, str]] = {phase: phase.name.lower() for phase in Phase}
"""Each phase as observations write it: one string each, so that views of different versions
share it (a change between them then sees it unchanged by identity)."""


class BasePublicView(TypedDict):
    """The fields of every family's observation that every seat sees alike."""

    game: str
    profile: str
    options: dict[str, JSON]
    rules: dict[str, JSON]
    players: int
    phase: str
    to_act: int | None
    hand_sizes: list[int]
    scores: list[float]
    """Each side's total (ints, or tenths of a point written as 3.2 where a profile counts them)."""
    winner: int | None


class BaseOwnView(TypedDict):
    """The fields of every family's observation that are the seat's own."""

    seat: int
    legal_actions: list[dict[str, JSON]]


class BaseObservation(BasePublicView, BaseOwnView):
    """The fields every family's observation starts with: its public part and the seat's own
    (each family's ``TypedDict``s add their own to both)."""


def check_turn(seat: int, to_act: int | None) -> None:
    """Refuse an action of ``seat`` unless it is its turn (``to_act`` is ``None`` once over)."""
    if to_act is None:
        raise IllegalAction("wrong_phase", "the game is over: no more actions")
    if seat != to_act:
        raise IllegalAction("not_your_turn", f"it is seat {to_act}'s turn, not seat {seat}'s")


def acting_seat(seat: int | None, to_act: int | None) -> int:
    """The seat an action is written for: ``seat`` if given, else the seat to act."""
    who = to_act if seat is None else seat
    if who is None:
        raise ValueError("the game is over: name the seat of the action")
    return who


def game_record(
    profile: str, options: dict[str, object], seed: int, players: Sequence[str] | None, hands: list[JSON]
) -> dict[str, JSON]:
    """A ``tapete-record/1`` object (``docs/records.md``) around a family's hands."""
    rec: dict[str, JSON] = {"format": "tapete-record/1", "profile": profile, "options": options}
    if players is not None:
        rec["players"] = list(players)
    rec["seed"] = seed
    rec["hands"] = hands
    return rec


G = TypeVar("G", bound="Game")


class Game(Protocol):
    """The engine's public surface, the same for every family.

    Actions are small ints (each family's action type subclasses ``int``); in the record
    format they are dicts (``to_record``/``from_record`` on the action types). Each
    family types its observation (a ``TypedDict``: ``SpadesObservation``,
    ``RunFastObservation``, both starting with ``BaseObservation``); here it is JSON.
    A game pickles and comes back the same (the server's workers send rebuilt games
    back that way; a class compiled by mypyc says how in ``__reduce__``, see
    ``engine/pickling.py``).
    """

    num_players: int
    phase: Phase

    @property
    def rules(self) -> Any:
        """The frozen rules the game follows (each family's own rules class)."""
        ...

    @property
    def to_act(self) -> int | None: ...
    def legal_actions(self) -> Sequence[int]: ...
    def apply(self, action: int | Mapping[str, Any]) -> None: ...
    def is_over(self) -> bool: ...
    def scores(self) -> Sequence[float]: ...
    def winner(self) -> int | None: ...
    def observation(self, seat: int) -> JSON: ...
    def observations(self, seats: Iterable[int]) -> Mapping[int, JSON]:
        """Each seat's ``observation``, built together; the views may share values (read them only)."""
        ...

    def observation_parts(self, seats: Iterable[int]) -> tuple[Mapping[str, JSON], Mapping[int, Mapping[str, JSON]]]:
        """``observations`` in two parts: what every seat sees alike, once, and each seat's own
        (no key in both); ``{**public, **own[seat]}`` is ``observation(seat)``. Read them only."""
        ...

    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]: ...
    def clone(self: G) -> G: ...
    def parse_action(self, obj: object) -> int: ...
    def action_to_record(self, action: int, seat: int | None = None) -> dict[str, JSON]: ...
    def replay_summary(self, last_hands: int | None = None) -> dict[str, JSON]:
        """The game so far (``tapete replay --json``); ``last_hands``: only that many of the latest hands."""
        ...
