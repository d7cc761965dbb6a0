"""A refused option as a ``bad_option`` refusal naming the option and what it allows.

The engine names them where it refuses (``ProfileError.params``: ``{"option", "allowed"}``,
``allowed`` written without words — ``1 … 10000``, ``'3H', '3S'``, ``partnership = true`` —
so that the translated sentence needs no English); the server passes them on.

>>> import tapete
>>> try:
...     tapete.load_profile("cutthroat", {"target": 0})
... except ProfileError as exc:
...     e = option_refusal({"target": 0}, exc)
>>> e.code, e.params
('bad_option', {'option': 'target', 'allowed': '1 … 10000'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tapete.errors import ProfileError
from tapete.server.errors import ServerError

OPTION_CODES: Final = frozenset({"bad_option", "unknown_option"})
"""The ``ProfileError`` codes answered as ``bad_option``."""


def option_refusal(options: Mapping[str, object], error: ProfileError) -> ServerError:
    """``bad_option`` with the option and what it allows, as the engine named them."""
    option = error.params.get("option") or next(iter(options), "")
    allowed = error.params.get("allowed", "…")
    return ServerError("bad_option", error.message, {"option": option[:40], "allowed": allowed[:400]})


__all__ = ["OPTION_CODES", "option_refusal"]
