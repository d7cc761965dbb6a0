"""Pickling for the engine's classes, the same whether mypyc compiled them or not.

Games cross process boundaries pickled: a worker replays a table's log and hands the
game back to the server (``server/jobs.py``'s ``rebuild``). Python's default pickling
makes the copy without calling ``__init__`` and fills in its attributes; a class
compiled by mypyc always runs ``__init__`` when it is made, so that default fails on it
(``__init__() missing required argument``), and mypyc's own ``serializable`` option
leaves the objects it makes empty. Each class that a game holds therefore says how it
is made again (``__reduce__``): the arguments of a cheap ``__init__``, then its
attributes as they were::

    def __reduce__(self) -> tuple[object, ...]:
        return rebuilt, (type(self), (self.rules,), fields_of(self, FIELDS))

Pickle keeps shared objects shared within one pickle, so attributes that are the same
object in the original (a hand's log and the game's current log) stay one object.
``tests/test_compiled.py`` pickles games of every Spades profile in the compiled build.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def fields_of(obj: object, names: Iterable[str]) -> dict[str, Any]:
    """The attributes ``names`` of ``obj`` that are set, by name."""
    return {name: getattr(obj, name) for name in names if hasattr(obj, name)}


def rebuilt(cls: type, args: tuple[Any, ...], fields: dict[str, Any]) -> Any:
    """``cls(*args)`` with ``fields`` then set on it: an object ``__reduce__`` described."""
    obj = cls(*args)
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


__all__ = ["fields_of", "rebuilt"]
