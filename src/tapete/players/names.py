"""Account names: what is allowed, and the skeleton two names are compared by.

A name is 3–20 letters, digits, ``_`` or ``-``. Two names collide when their
*skeletons* are equal: NFKC, case folded, and every character that looks like a Latin
letter or digit (Cyrillic ``а``, Greek ``ο``, ``0`` for ``o``, ``1`` and ``l`` for ``i``…)
replaced by it, so that nobody can take a name that reads like someone else's.

>>> skeleton("Ana") == skeleton("АNA")  # Cyrillic А
True
>>> skeleton("paul") == skeleton("PAU1")
True
>>> check_name("ab")
Traceback (most recent call last):
tapete.server.errors.ServerError: name_invalid: a name has 3 to 20 letters, digits, '_' or '-'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from tapete.server.errors import ServerError

NAME_MIN: Final = 3
NAME_MAX: Final = 20
GUEST_PREFIX: Final = "guest-"
"""Guest names are ``guest-`` and six hex digits; a claimed name may not look like one."""

_ALLOWED = re.compile(r"^[\w-]+$")

CONFUSABLES: Final[dict[str, str]] = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ɡ": "g", "һ": "h", "ӏ": "i", "г": "r", "п": "n", "ь": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ζ": "z", "μ": "u",
    # digits and Latin lookalikes
    "0": "o", "1": "i", "l": "i", "|": "i", "3": "e", "5": "s", "8": "b", "ı": "i", "ß": "ss",
    "_": "-",
}  # fmt: skip
"""Characters mapped to the Latin letter they look like (after NFKC and case folding)."""


def skeleton(name: str) -> str:
    """The form names are compared by: NFKC, case folded, lookalikes mapped, marks dropped."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    decomposed = unicodedata.normalize("NFD", folded)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    mapped = "".join(CONFUSABLES.get(ch, ch) for ch in plain)
    return re.sub(r"-+", "-", mapped)


def check_name(name: object) -> str:
    """``name`` as given if it is an allowed account name; ``name_invalid`` otherwise."""
    if not isinstance(name, str):
        raise ServerError("name_invalid", "a name is a string")
    normal = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(normal) <= NAME_MAX or not _ALLOWED.match(normal):
        raise ServerError("name_invalid", f"a name has {NAME_MIN} to {NAME_MAX} letters, digits, '_' or '-'")
    if any(unicodedata.category(ch) == "Nd" and not ch.isascii() for ch in normal):
        raise ServerError("name_invalid", "digits in a name are 0-9")
    if skeleton(normal).startswith(skeleton(GUEST_PREFIX)):
        raise ServerError("name_invalid", "names starting with 'guest-' are for guests")
    return normal


__all__ = ["CONFUSABLES", "GUEST_PREFIX", "NAME_MAX", "NAME_MIN", "check_name", "skeleton"]
