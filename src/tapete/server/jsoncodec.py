"""JSON for the server's own channels (worker pipes, Redis): ``orjson`` first, the standard library for the rest.

Not for what clients send (that is :mod:`tapete.server.safejson`, which refuses hostile
forms). ``dumps`` gives compact bytes with no raw newline, so a value fits on one line of
a pipe. What ``orjson`` cannot write (keys that are not strings, integers beyond 64 bits,
lone surrogates) goes through the standard encoder, escaped to ASCII and marked by a
leading space (which ``orjson`` never writes), so that ``loads`` reads it back with the
standard decoder too: ``orjson`` would read a large integer as a float.

>>> dumps({"a": [1, "x"]})
b'{"a":[1,"x"]}'
>>> dumps({"n": 2**70})
b' {"n":1180591620717411303424}'
>>> loads(dumps({"n": 2**70, 1: "one"}))
{'n': 1180591620717411303424, '1': 'one'}
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_EXACT = b" "
"""The mark of a value written by the standard encoder."""


def dumps(value: Any) -> bytes:
    """``value`` as compact JSON bytes on one line."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return _EXACT + json.dumps(value, separators=(",", ":")).encode("ascii")


def loads(data: bytes) -> Any:
    """A value written by :func:`dumps`."""
    if data.startswith(_EXACT):
        return json.loads(data)
    return orjson.loads(data)


__all__ = ["dumps", "loads"]
