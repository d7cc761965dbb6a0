"""Errors with stable codes.

Codes are identifiers that never change (``docs/records.md``, *Refusal codes*); messages are for
people, and ``tapete.server.messages`` explains each code in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

ACTION_CODES: Final = frozenset(
    {
        "not_your_turn",
        "card_not_in_hand",
        "must_follow_suit",
        "spades_not_broken",
        "bid_out_of_range",
        "bid_not_allowed",
        "must_include_first_card",
        "not_a_combination",
        "does_not_beat",
        "must_beat",
        "must_trump",
        "must_overtrump",
        "must_play_highest_single",
        "cannot_pass_as_leader",
        "must_lead_2c",
        "wrong_phase",
        "bad_record",
    }
)


CODE_ALIASES: Final = {"must_include_3h": "must_include_first_card"}
"""Codes earlier versions used, and the code that replaced each (readers accept both)."""


def canonical_code(code: str) -> str:
    """The current code for ``code`` (an old alias is mapped to its replacement)."""
    return CODE_ALIASES.get(code, code)


class TapeteError(Exception):
    """Base of every error tapete raises on purpose."""

    code: str = "error"

    def __init__(self, code: str, message: str, params: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, str] = dict(params or {})
        """Values a translated message fills in (``{"card": "3S"}``), as plain strings."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = dict(self.params)
        return out

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class IllegalAction(TapeteError):
    """An action the rules do not allow now. The game is left unchanged."""


class ProfileError(TapeteError):
    """An unknown profile, an unknown option or an option with a bad value."""

    def __init__(self, message: str, code: str = "bad_profile", params: Mapping[str, str] | None = None) -> None:
        super().__init__(code, message, params)


class BadRecord(TapeteError):
    """A game record that cannot be read as a whole (wrong format, bad deal, …)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_record", message)
