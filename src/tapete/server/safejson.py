"""JSON read with its hostile forms refused before anything uses it.

``loads`` checks, in order: the nesting depth (on the raw text, before parsing),
integers (digit count, while parsing), ``NaN``/``Infinity`` (refused), and every string
and key (no lone surrogates, no NUL or other control characters). Refusals are
``ServerError`` with a stable code: ``bad_message``, ``too_deep``, ``number_too_large``,
``bad_text``.

Most messages are well formed: they are parsed by ``orjson`` and accepted after one walk
(depth and strings); anything that fast path does not accept goes the checked way above, so
a refusal names the same code either way.

>>> loads('{"a": [1, "x"]}')
{'a': [1, 'x']}
>>> loads('[[[1]]]', depth=2)
Traceback (most recent call last):
tapete.server.errors.ServerError: too_deep: JSON nested deeper than 2 levels
>>> loads('{"name": "\\\\ud800"}')
Traceback (most recent call last):
tapete.server.errors.ServerError: bad_text: a string holds a lone surrogate or a control character
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, Final

import orjson

from tapete.server.errors import ServerError
from tapete.server.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH

_STRINGS: Final = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS: Final = re.compile(r"[^\[\]{}]+")
_BAD_CHARS: Final = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_FLOAT_IS_EXACT: Final = float(2**63)


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings ignored)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    if not brackets:
        return 0
    return max(itertools.accumulate(_STEP[c] for c in brackets))


def text_ok(value: str) -> bool:
    """No lone surrogate, NUL or other control character."""
    return _BAD_CHARS.search(value) is None


def _int(digits: str) -> int:
    if len(digits) - digits.startswith("-") > MAX_INT_DIGITS:
        raise ServerError("number_too_large", f"integers are limited to {MAX_INT_DIGITS} digits")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise ServerError("bad_message", f"{name} is not allowed")


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not text_ok(v):
                raise ServerError("bad_text", "a string holds a lone surrogate or a control character")
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def _plainly_fine(value: Any, depth: int) -> bool:
    """Whether a parsed value is within ``depth`` levels and all its strings are clean text."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, level = stack.pop()
        if isinstance(v, str):
            if _BAD_CHARS.search(v) is not None:
                return False
        elif isinstance(v, dict):
            if level >= depth:
                return False
            for k, item in v.items():
                if _BAD_CHARS.search(k) is not None:
                    return False
                stack.append((item, level + 1))
        elif isinstance(v, list):
            if level >= depth:
                return False
            stack.extend((item, level + 1) for item in v)
        elif isinstance(v, float) and not abs(v) < _FLOAT_IS_EXACT:
            return False  # orjson reads an integer over 64 bits as a float: the checked path counts its digits
    return True


def loads(data: str | bytes, *, depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text (``bytes`` must be UTF-8) and check it; raises ``ServerError``."""
    try:
        fast = orjson.loads(data)
    except orjson.JSONDecodeError:
        pass  # the checked path says why
    else:
        if _plainly_fine(fast, depth):
            return fast
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise ServerError("bad_text", "the text is not UTF-8") from None
    if nesting_depth(text) > depth:
        raise ServerError("too_deep", f"JSON nested deeper than {depth} levels")
    try:
        value = json.loads(text, parse_int=_int, parse_constant=_no_constant)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise ServerError("bad_message", "the text is not JSON") from None
    _check_strings(value)
    return value


def loads_record(raw: bytes) -> Any:
    """A posted record's JSON (an empty body is ``null``), refused as ``bad_record`` when it is not
    JSON; other refusals (depth, bad text) keep their own codes."""
    try:
        return loads(raw or b"null")
    except ServerError as exc:
        if exc.code != "bad_message":
            raise
        raise ServerError("bad_record", "the record is not JSON") from None


__all__ = ["loads", "loads_record", "nesting_depth", "text_ok"]
