"""Passwords: Argon2id hashes (argon2-cffi), never stored or logged in clear.

A sign-in with an unknown name still verifies against a fixed dummy hash, so an
unknown name and a wrong password take about the same time.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from tapete.server.errors import ServerError

PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
"""Longer passwords are refused before hashing (no unbounded work per request)."""

_HASHER: Final = PasswordHasher()  # Argon2id with the library's recommended parameters


def check_password(password: object) -> str:
    """``password`` if it is long enough; ``password_weak`` otherwise."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise ServerError("password_weak", f"a password has at least {PASSWORD_MIN} characters")
    if len(password) > PASSWORD_MAX:
        raise ServerError("password_weak", f"a password has at most {PASSWORD_MAX} characters")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (salted: a new value each time)."""
    return _HASHER.hash(password)


@cache
def _dummy_hash() -> str:
    return _HASHER.hash("an account that does not exist")


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; an absent hash costs a dummy verification."""
    try:
        return _HASHER.verify(stored if stored is not None else _dummy_hash(), password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


__all__ = ["PASSWORD_MIN", "check_password", "hash_password", "verify_password"]
