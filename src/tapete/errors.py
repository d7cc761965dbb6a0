"""Errors with stable codes.

Codes are identifiers that never change (``spec/records.md``); messages are for people.
"""

from __future__ import annotations

from typing import Final

ACTION_CODES: Final = frozenset(
    {
        "not_your_turn",
        "card_not_in_hand",
        "must_follow_suit",
        "spades_not_broken",
        "bid_out_of_range",
        "bid_not_allowed",
        "must_include_3h",
        "not_a_combination",
        "does_not_beat",
        "must_beat",
        "cannot_pass_as_leader",
        "must_lead_2c",
        "wrong_phase",
        "bad_record",
    }
)


class TapeteError(Exception):
    """Base of every error tapete raises on purpose."""

    code: str = "error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class IllegalAction(TapeteError):
    """An action the rules do not allow now. The game is left unchanged."""


class ProfileError(TapeteError):
    """An unknown profile, an unknown option or an option with a bad value."""

    def __init__(self, message: str, code: str = "bad_profile") -> None:
        super().__init__(code, message)


class BadRecord(TapeteError):
    """A game record that cannot be read as a whole (wrong format, bad deal, …)."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_record", message)
