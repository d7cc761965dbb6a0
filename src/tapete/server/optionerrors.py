"""A refused option as a ``bad_option`` refusal naming the option and what it allows.

The engine refuses options with a ``ProfileError`` (English text only). The server finds
the option at fault by checking each override against its family's option specifications
and answers ``bad_option`` with ``params`` ``{"option", "allowed"}``, ``allowed`` written
without words (``1 … 10000``, ``'3H', '3S'``, ``partnership = true``) so that the
translated sentence needs no English.

>>> e = option_refusal("cutthroat", {"target": 0}, ProfileError("option 'target' ...", "bad_option"))
>>> e.code, e.params
('bad_option', {'option': 'target', 'allowed': '1 … 10000'})
>>> option_refusal("cutthroat", {"nope": 1}, ProfileError("unknown option", "unknown_option")).params["option"]
'nope'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import tapete
from tapete.engine.options import OptionSpec
from tapete.errors import ProfileError
from tapete.server.errors import ServerError
from tapete.server.requests import OPTION_BOUNDS

OPTION_CODES: Final = frozenset({"bad_option", "unknown_option"})
"""The ``ProfileError`` codes answered as ``bad_option``."""

_NAMED: Final = re.compile(r"option '(\w+)'")
_NEEDS: Final = re.compile(r"'(\w+)' (?:=|to) (\S+)")


def allowed_values(spec: OptionSpec) -> str:
    """What ``spec`` allows, without words: ``1 … 10000``, ``≥ 0``, ``true, false``, ``'a', 'b'``, ``['a', 'b']``."""
    null = ", null" if spec.nullable else ""
    if spec.kind == "int":
        lo, hi = OPTION_BOUNDS.get(spec.name, (spec.minimum, spec.maximum))
        lo = spec.minimum if spec.minimum is not None and (lo is None or spec.minimum > lo) else lo
        hi = spec.maximum if spec.maximum is not None and (hi is None or spec.maximum < hi) else hi
        if lo is not None and hi is not None:
            text = f"{lo} … {hi}"
        elif lo is not None:
            text = f"≥ {lo}"
        elif hi is not None:
            text = f"≤ {hi}"
        else:
            text = "…"
    elif spec.kind == "bool":
        text = "true, false"
    elif spec.kind == "choice":
        text = ", ".join(repr(a) for a in spec.allowed)
    elif spec.kind == "subset":
        text = "[" + ", ".join(repr(a) for a in spec.allowed) + "]"
    else:
        text = '"…"'
    return text + null


def family_specs(profile: str) -> dict[str, OptionSpec]:
    """The option specifications of ``profile``'s family, by name."""
    from tapete.web import option_specs

    return {s.name: s for s in option_specs(tapete.profile_info(profile).family)}


def option_refusal(profile: str, options: Mapping[str, object], error: ProfileError) -> ServerError:
    """``bad_option`` naming the option of ``options`` that ``error`` is about and what it allows."""
    specs = family_specs(profile)
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            return _refusal(error, name, ", ".join(sorted(specs)))
        try:
            spec.coerce(value)
        except ProfileError:
            return _refusal(error, name, allowed_values(spec))
    # the options fit one by one but not together: the engine's sentence names what is needed
    named = _NAMED.search(error.message)
    needs = _NEEDS.search(error.message[named.end() :] if named else error.message)
    option = named.group(1) if named else next(iter(options), "")
    allowed = (
        f"{needs.group(1)} = {needs.group(2)}" if needs else (allowed_values(specs[option]) if option in specs else "…")
    )
    return _refusal(error, option, allowed)


def _refusal(error: ProfileError, option: str, allowed: str) -> ServerError:
    return ServerError("bad_option", error.message, {"option": option[:40], "allowed": allowed[:400]})


__all__ = ["OPTION_CODES", "allowed_values", "family_specs", "option_refusal"]
