"""The server's own JSON channels (worker pipes, Redis): any JSON value goes through on one line."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tapete.server.jsoncodec import dumps, loads

# text of every kind, lone surrogates and control characters included; integers beyond 64 bits
_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**100), max_value=2**100) | st.text()
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(_values)
def test_any_json_value_comes_back_from_one_line(value: Any) -> None:
    data = dumps(value)
    assert b"\n" not in data
    assert json.dumps(loads(data)) == json.dumps(value)  # equal, and of the same types (no int read as a float)


def test_what_orjson_cannot_write_takes_the_standard_encoder() -> None:
    value = {"big": 2**70, "odd": "\ud800", "deep": [{"n": -(2**65)}]}
    data = dumps(value)
    assert data.isascii()
    assert json.dumps(loads(data)) == json.dumps(value)
    assert loads(dumps({1: "one"})) == {"1": "one"}
