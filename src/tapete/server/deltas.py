"""A view as the change from the one before it: what a ``state`` message carries to clients that ask.

A seat's view changes little from one action to the next (a card leaves the hand, a
trick grows, the turn moves), yet a whole view is 1–2 KB of JSON. A client that says
``"deltas": true`` in its ``hello`` gets, after its first whole view, only what changed
at each version (``docs/protocol.md``):

- ``changed``: the top-level keys whose value changed or that are new, with their new value;
- ``appended``: for a list that only grew (the tricks of a hand, the plays of a deal), the
  items added at its end;
- ``gone``: the keys no longer in the view.

Values are compared as JSON compares them: ``1``, ``1.0`` and ``true`` are different
values, and a key set to ``null`` is not a key that is missing.

>>> before = {"turn": 0, "trick": ["AS"], "hand": ["2C", "3C"], "lead": None}
>>> after = {"turn": 1, "trick": ["AS", "KS"], "hand": ["2C"]}
>>> view_delta(before, after)
({'turn': 1, 'hand': ['2C']}, {'trick': ['KS']}, ['lead'])
>>> apply_delta(before, *view_delta(before, after)) == after
True
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import is_
from typing import Any

import orjson

from tapete.engine.base import JSON

Delta = tuple[dict[str, JSON], dict[str, list[JSON]], list[str]]
"""``(changed, appended, gone)``."""

_MISSING: Any = object()
"""A key absent from the view before (``None`` is a value)."""


def same_json(a: object, b: object) -> bool:
    """Whether two JSON values are equal as JSON sees them (``True`` is not ``1``, ``1`` is not ``1.0``)."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is str or kind is int or kind is float:
        return a == b
    if kind is list:
        assert isinstance(a, list) and isinstance(b, list)
        return len(a) == len(b) and a == b and all(map(same_json, a, b))
    if kind is dict:
        assert isinstance(a, dict) and isinstance(b, dict)
        return a.keys() == b.keys() and a == b and all(same_json(v, b[k]) for k, v in a.items())
    return bool(a == b)


def view_delta(before: Mapping[str, JSON], after: Mapping[str, JSON]) -> Delta:
    """What turns ``before`` into ``after``; ``apply_delta(before, *view_delta(before, after)) == after``."""
    changed: dict[str, JSON] = {}
    appended: dict[str, list[JSON]] = {}
    # values equal by ``==`` (which takes ``1``, ``1.0`` and ``true`` for one value) are
    # checked together by their encodings below
    kept_before: list[JSON] = []
    kept_after: list[JSON] = []
    new = 0
    get = before.get
    for key, value in after.items():
        old = get(key, _MISSING)
        if old is value:
            continue  # one object is one JSON value (views built together keep the options' objects)
        if old == value:
            if type(old) is list and all(map(is_, old, value)):
                continue  # the same items: the same JSON (small numbers, kept tricks)
            kept_before.append(old)
            kept_after.append(value)
        elif old is _MISSING:
            new += 1
            changed[key] = value
        elif _grew(old, value):
            appended[key] = value[len(old) :]
        else:
            changed[key] = value
    if kept_before and not _same_encoding(kept_before, kept_after):
        for key, value in after.items():  # rare: a number changed type; the strict check, key by key
            if key not in changed and key not in appended and not same_json(before[key], value):
                changed[key] = value
    gone = [key for key in before if key not in after] if len(before) > len(after) - new else []
    return changed, appended, gone


def _grew(old: JSON, value: JSON) -> bool:
    """Whether ``value`` is the list ``old`` with items added at its end."""
    if type(old) is not list or type(value) is not list or not 0 < len(old) < len(value):
        return False
    head = value[: len(old)]
    return old == head and (all(map(is_, old, head)) or _same_encoding(old, head))


def _same_encoding(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` (equal by ``==``) are the same JSON: one encoding each, C speed."""
    try:
        return bool(orjson.dumps(a) == orjson.dumps(b))
    except TypeError:  # what orjson does not write (integers beyond 64 bits): the slow check
        return same_json(a, b)


def joined_delta(first: Delta, second: Delta) -> Delta:
    """One change from the changes of two parts of a view that share no key (its public part and
    a seat's own): ``apply_delta`` of it gives what applying both gives."""
    changed, appended, gone = first
    more_changed, more_appended, more_gone = second
    return (
        {**changed, **more_changed} if more_changed else changed,
        {**appended, **more_appended} if more_appended else appended,
        gone + more_gone if more_gone else gone,
    )


def apply_delta(
    before: Mapping[str, JSON],
    changed: Mapping[str, JSON],
    appended: Mapping[str, list[JSON]] | None = None,
    gone: list[str] | None = None,
) -> dict[str, JSON]:
    """The view ``before`` with a delta applied (``before`` is left as it was)."""
    out = dict(before)
    for key in gone or ():
        out.pop(key, None)
    out.update(changed)
    for key, items in (appended or {}).items():
        old = out.get(key)
        if not isinstance(old, list):
            raise ValueError(f"cannot append to {key!r}: not a list")
        out[key] = old + list(items)
    return out


class ViewReader:
    """A client's side of one socket: the whole view each ``state`` message stands for.

    ``read`` returns ``None`` for a change that does not follow the view held (a client then
    asks for ``sync``); a whole view always resets it.
    """

    def __init__(self) -> None:
        self.version: int | None = None
        self.view: dict[str, JSON] | None = None

    def read(self, message: Mapping[str, Any]) -> dict[str, JSON] | None:
        """The view of ``message`` (a ``state``), whole or rebuilt from its change."""
        if "view" in message:
            self.view, self.version = message["view"], message["version"]
            return self.view
        if self.view is None or self.version is None or message["version"] != self.version + 1:
            return None
        self.view = apply_delta(self.view, message["changed"], message.get("appended"), message.get("gone"))
        self.version = message["version"]
        return self.view


__all__ = ["Delta", "ViewReader", "apply_delta", "same_json", "view_delta"]
