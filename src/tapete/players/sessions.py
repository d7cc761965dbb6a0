"""Session tokens: random, stored only as a hash, handed out signed.

A session token is 32 random bytes (URL-safe base64). The client gets it signed with
the server's secret — ``<token>.<HMAC-SHA256>`` — as the ``tapete_session`` cookie and
as ``token`` in JSON (for ``Authorization: Bearer``). The database keeps only the
token's SHA-256, so a copy of the database opens no session.

>>> key = b"k" * 32
>>> signed = sign(key, "abc")
>>> unsign(key, signed), unsign(key, signed + "x"), unsign(b"other" * 7, signed)
('abc', None, None)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

from starlette.requests import HTTPConnection

COOKIE: Final = "tapete_session"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600
"""Long-lived (browsers cap cookies at 400 days): a guest keeps their identity."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The stored form of a session token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _mac(key: bytes, token: str) -> str:
    digest = hmac.new(key, token.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def sign(key: bytes, token: str) -> str:
    return f"{token}.{_mac(key, token)}"


def unsign(key: bytes, signed: str) -> str | None:
    """The token inside a signed value, or ``None`` when the signature does not hold."""
    if len(signed) > 200:
        return None
    token, dot, mac = signed.rpartition(".")
    if not dot or not token:
        return None
    return token if hmac.compare_digest(mac, _mac(key, token)) else None


def presented(conn: HTTPConnection) -> str | None:
    """The signed session value a request or socket carries: bearer header first, then the cookie."""
    auth = conn.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return conn.cookies.get(COOKIE) or None


__all__ = ["COOKIE", "COOKIE_MAX_AGE", "new_token", "presented", "sign", "token_hash", "unsign"]
