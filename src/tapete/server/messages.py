"""Refusals in the player's language, from the gettext catalogs.

Each error code has one explanation, an English msgid translated through
:func:`tapete.i18n.translator`; parameters (``{card}``) are filled in *after*
translation, each in the language of the sentence. :func:`error_message` is the one
wire form of any :class:`~tapete.errors.TapeteError`, for WebSocket ``error`` messages and
HTTP error bodies alike (``docs/protocol.md``, *Errors*).

>>> explain("must_follow_suit", "es")
'Debes seguir el palo de salida si tienes cartas de ese palo.'
>>> explain("must_include_first_card", "ru", {"card": "3S"})
'Первый ход раздачи должен включать тройку пик.'
>>> explain("no_such_code", "en")
'This action was refused.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from tapete.errors import TapeteError, canonical_code
from tapete.i18n import Translator, translator
from tapete.i18n.cards import card_phrase

EXPLANATIONS: Final[Mapping[str, str]] = {
    # --- engine codes (tapete.errors.ACTION_CODES) ---
    "not_your_turn": "It is not your turn: wait for the seat whose turn it is.",
    "card_not_in_hand": "You do not hold that card.",
    "must_follow_suit": "You must follow the suit that was led when you hold a card of it.",
    "spades_not_broken": "You cannot lead spades until spades are broken (unless you hold nothing else).",
    "bid_out_of_range": "That bid is outside the allowed range.",
    "bid_not_allowed": "That bid is not allowed now.",
    "must_include_first_card": "The first play of the deal must include {card}.",
    "not_a_combination": "Those cards do not form an allowed combination.",
    "does_not_beat": "That play does not beat the play on the table.",
    "must_beat": (
        "You must beat the play on the table when you can: pass only when nothing beats it, and in a trick "
        "play above the highest card of the suit led."
    ),
    "must_trump": "You cannot follow suit, so you must play a spade.",
    "must_overtrump": "You must play a spade higher than every spade in the trick when you can.",
    "must_play_highest_single": "The next player has one card left: a single you play must be your highest card.",
    "cannot_pass_as_leader": "The leader cannot pass: play something.",
    "must_lead_2c": "The first trick must be led with the two of clubs.",
    "wrong_phase": "That action does not fit the current phase of the game.",
    "bad_record": "That action is malformed.",
    # --- server codes (tapete.server.errors.SERVER_CODES) ---
    "bad_message": "The message is not a valid protocol message.",
    "bad_option": "The option {option} does not allow this value. Allowed: {allowed}.",
    "too_large": "The message is too large.",
    "unknown_type": "Unknown message type.",
    "stale_version": "The table has changed since you last saw it: look at the new state and act again.",
    "wrong_seat": "You can only act for your own seat.",
    "not_seated": "You are not seated at this table (spectators cannot act).",
    "seat_is_bot": "A computer player is playing this seat now; the table's creator can give it back to you.",
    "seat_taken": "The seat's player is still here or left only a moment ago: wait before handing the seat to a bot.",
    "game_over": "The game is over.",
    "bad_token": "This seat token is not valid for this table.",
    "no_table": "There is no such table.",
    "not_joined": "Say hello first: join a table or spectate it.",
    "already_joined": "This connection has already joined a table.",
    "rate_limited": "Too many messages: slow down.",
    "server_error": "The server could not save this action; nothing changed. Try again.",
    "too_deep": "The message is nested too deeply.",
    "number_too_large": "A number in the message is too large.",
    "bad_text": "A text in the message contains characters that are not allowed.",
    "out_of_range": "A value is outside its allowed range.",
    "too_many_connections": "Too many connections: close another window of this table first.",
    "too_many_spectators": "This table has as many spectators as it can take.",
    "too_many_tables": "You have created too many tables: wait a minute and try again.",
    "server_full": "The server has as many tables as it can take: try again later.",
    "busy": "The server is busy: try again in a moment.",
    "timeout": "The connection waited too long and was closed.",
    "too_slow": "This would take the server too long; nothing was done.",
    "storage_error": "The server cannot write its data right now; nothing was saved.",
    "analysis_unavailable": "This game has no double-dummy analysis.",
    "hand_not_finished": "The analysis of a hand is shown once every card of it has been played.",
    # --- accounts and players (tapete.players) ---
    "not_signed_in": "You are not signed in.",
    "name_taken": "That name is taken (or looks too much like a name that is).",
    "name_invalid": "A name has 3 to 20 letters, digits, _ or -, and cannot start with guest-.",
    "password_weak": "The password is too short: use at least 8 characters.",
    "already_claimed": "This account already has a name and a password.",
    "bad_credentials": "Wrong name or password.",
    "no_player": "There is no player with that name.",
}
"""The explanation of each error code: an English msgid of the gettext catalogs."""

WITHOUT_PARAMS: Final[Mapping[str, str]] = {"bad_option": "An option has a value it does not allow."}
"""The explanation of a code whose sentence needs params, when the error has none."""

FALLBACK: Final = "This action was refused."
"""The explanation of a code that has none of its own."""

ALIAS_PARAMS: Final[Mapping[str, Mapping[str, str]]] = {"must_include_3h": {"card": "3H"}}
"""The parameters an old code implied (``must_include_3h`` always meant 3♥)."""

PARAM_NAMES: Final[Mapping[str, Callable[[Translator, str], str]]] = {"card": card_phrase}
"""How a parameter is written in a sentence; other parameters are written as they are."""

_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")


def explain(code: str, lang: str = "en", params: Mapping[str, str] | None = None) -> str:
    """The explanation of ``code`` in ``lang`` (one of ``tapete.i18n.LANGUAGES``), ``params`` filled in."""
    t = translator(lang)
    values = {**ALIAS_PARAMS.get(code, {}), **(params or {})}
    msgid = EXPLANATIONS.get(canonical_code(code), FALLBACK)
    if code in WITHOUT_PARAMS and not set(_PLACEHOLDER.findall(msgid)) <= set(values):
        msgid = WITHOUT_PARAMS[code]
    template = t.gettext(msgid)

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in values:
            return m.group(0)
        write = PARAM_NAMES.get(name)
        return write(t, values[name]) if write is not None else values[name]

    return _PLACEHOLDER.sub(fill, template)


def error_message(error: TapeteError, lang: str = "en", ref: object = None) -> dict[str, object]:
    """The wire form of a refusal: ``{"type": "error", "code", "message", "detail"?, "params"?, "ref"?}``.

    ``message`` is the explanation in ``lang``; ``detail`` the error's own English text.

    >>> from tapete.server.errors import ServerError
    >>> error_message(ServerError("no_table", "no table 'x'"), "es", ref=3)
    {'type': 'error', 'code': 'no_table', 'message': 'No existe esa mesa.', 'detail': "no table 'x'", 'ref': 3}
    """
    msg: dict[str, object] = {"type": "error", "code": error.code, "message": explain(error.code, lang, error.params)}
    if error.message:
        msg["detail"] = error.message
    if error.params:
        msg["params"] = dict(error.params)
    if ref is not None:
        msg["ref"] = ref
    return msg


__all__ = ["ALIAS_PARAMS", "EXPLANATIONS", "FALLBACK", "PARAM_NAMES", "WITHOUT_PARAMS", "error_message", "explain"]
