"""The server's refusals: ``TapeteError`` values with a server (or engine) code.

Every refusal the server sends — a malformed message, a stale version, a move the rules
refuse — is a :class:`tapete.errors.TapeteError` (``code``, English ``message``,
``params``); :func:`tapete.server.messages.error_message` turns any of them into the
wire form (``docs/protocol.md``, *Errors*).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tapete.errors import ACTION_CODES, TapeteError

SERVER_CODES: Final = frozenset(
    {
        "bad_message",
        "bad_option",
        "too_large",
        "unknown_type",
        "stale_version",
        "wrong_seat",
        "not_seated",
        "seat_is_bot",
        "seat_taken",
        "game_over",
        "bad_token",
        "no_table",
        "not_joined",
        "already_joined",
        "rate_limited",
        "server_error",
        "too_deep",
        "number_too_large",
        "bad_text",
        "out_of_range",
        "too_many_connections",
        "too_many_spectators",
        "too_many_tables",
        "server_full",
        "busy",
        "timeout",
        "too_slow",
        "storage_error",
        "analysis_unavailable",
        "hand_not_finished",
        # accounts and players (tapete.players)
        "not_signed_in",
        "name_taken",
        "name_invalid",
        "password_weak",
        "already_claimed",
        "bad_credentials",
        "no_player",
    }
)
"""Codes only the server sends (the engine's are :data:`tapete.errors.ACTION_CODES`)."""


class ServerError(TapeteError):
    """A refusal by the server; ``code`` is a server code or an engine code it checks itself.

    >>> ServerError("stale_version", "the table is at version 3, not 2").to_json()
    {'code': 'stale_version', 'message': 'the table is at version 3, not 2'}
    >>> ServerError("no_such_code")
    Traceback (most recent call last):
    ValueError: 'no_such_code' is not a server or engine error code
    """

    def __init__(self, code: str, message: str = "", params: Mapping[str, str] | None = None) -> None:
        if code not in SERVER_CODES and code not in ACTION_CODES:
            raise ValueError(f"{code!r} is not a server or engine error code")
        super().__init__(code, message, params)


__all__ = ["SERVER_CODES", "ServerError"]
