"""Reading a client's WebSocket frames without a parser, for the common case (RFC 6455 §5.2).

Almost everything a table's client sends is one short text frame at a time: final,
masked (a client must mask), compressed or not. ``short_texts`` reads such data in one
pass and unmasks it; anything else — a control frame, a fragment, a binary message, a
compressed one where no compression was agreed, a frame cut off by the end of the data,
a payload over the size limit, bad masking — makes it answer ``None``, and the data goes
to the full parser, which alone decides what is allowed.

That is only right when the data starts where a frame starts. ``FrameBoundaries``
follows the client's byte stream from the end of the opening handshake request and says
whether all of it so far ends on a frame boundary; it reads only the headers' lengths and
skips payloads without copying them.
"""

from __future__ import annotations

from typing import Final

try:
    from websockets.speedups import apply_mask  # websockets' C unmasking
except ImportError:  # pragma: no cover - a websockets built without its C extension
    from websockets.utils import apply_mask

HANDSHAKE_LIMIT: Final = 16 * 1024
"""Bytes of a handshake request followed; past this the stream is no longer followed."""
_END_OF_REQUEST: Final = b"\r\n\r\n"


def frame_size(data: bytes, at: int) -> int | None:
    """The size in bytes (header and payload) of the frame starting at ``at``; ``None`` while
    its header is not all in ``data``."""
    n = len(data)
    if at + 2 > n:
        return None
    second = data[at + 1]
    length = second & 0x7F
    header = 2 + (4 if second & 0x80 else 0)
    if length == 126:
        if at + 4 > n:
            return None
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        header += 2
    elif length == 127:
        if at + 10 > n:
            return None
        length = int.from_bytes(data[at + 2 : at + 10], "big")
        header += 8
    return header + length


def short_texts(data: bytes, max_size: int | None, compressed: bool = False) -> list[tuple[bytes, bool]] | None:
    """``(unmasked payload, compressed)`` of each frame of ``data`` when it is whole final, masked
    text frames, none over ``max_size`` bytes nor 65,535, with RSV1 (a compressed message) only
    where ``compressed`` allows it; otherwise ``None`` (for the full parser)."""
    found: list[tuple[bytes, bool]] = []
    n = len(data)
    at = 0
    while at < n:
        if at + 6 > n:
            return None
        first = data[at]
        if first != 0x81 and (first != 0xC1 or not compressed):  # FIN, text; RSV1 alone if allowed
            return None
        second = data[at + 1]
        if not second & 0x80:  # unmasked: the parser refuses it
            return None
        length = second & 0x7F
        start = at + 6
        if length == 126:
            if at + 8 > n:
                return None
            length = int.from_bytes(data[at + 2 : at + 4], "big")
            if length < 126:  # not the shortest form: the parser's call
                return None
            start = at + 8
        elif length == 127:
            return None
        end = start + length
        if end > n or (max_size is not None and length > max_size):
            return None
        found.append((apply_mask(data[start:end], data[start - 4 : start]), first == 0xC1))
        at = end
    return found


class FrameBoundaries:
    """Follows a client's bytes from the start of its handshake request: does what it sent so
    far end where a frame ends?"""

    __slots__ = ("_head", "_request", "_skip", "lost")

    def __init__(self) -> None:
        self._request: bytes | None = b""
        """The handshake request received so far; ``None`` once it ended."""
        self._skip = 0
        """Bytes of a frame's payload still to come."""
        self._head = b""
        """The start of a frame whose header is not complete yet."""
        self.lost = False
        """The stream is no longer followed (a handshake request too long)."""

    @property
    def at_boundary(self) -> bool:
        """Whether every byte so far belongs to the request or to whole frames."""
        return self._request is None and not self._skip and not self._head and not self.lost

    def feed(self, data: bytes) -> None:
        """Follow ``data``, the next bytes the client sent."""
        if self.lost:
            return
        if self._request is not None:
            request = self._request + data
            end = request.find(_END_OF_REQUEST)
            if end < 0:
                self._request = request
                self.lost = len(request) > HANDSHAKE_LIMIT
                return
            self._request = None
            data = request[end + len(_END_OF_REQUEST) :]
        if self._skip:
            if len(data) <= self._skip:
                self._skip -= len(data)
                return
            data = data[self._skip :]
            self._skip = 0
        if self._head:
            data = self._head + data
            self._head = b""
        at, n = 0, len(data)
        while at < n:
            size = frame_size(data, at)
            if size is None:
                self._head = data[at:]
                return
            if at + size > n:
                self._skip = at + size - n
                return
            at += size


__all__ = ["HANDSHAKE_LIMIT", "FrameBoundaries", "frame_size", "short_texts"]
