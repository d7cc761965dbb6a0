"""Reading client frames without the parser (``tapete.server.wsframes``), pinned to websockets' own framing."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from tapete.server.wsframes import HANDSHAKE_LIMIT, FrameBoundaries, frame_size, short_texts

REQUEST = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)

sizes = st.one_of(st.integers(0, 130), st.sampled_from([125, 126, 127, 65535, 65536, 70000]))
frames = st.builds(
    lambda opcode, size, fin, rsv1: Frame(
        opcode,
        bytes(i % 251 for i in range(size if opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT) else min(size, 125))),
        fin=fin or opcode in (Opcode.PING, Opcode.PONG, Opcode.CLOSE),
        rsv1=rsv1 and opcode in (Opcode.TEXT, Opcode.BINARY),
    ),
    st.sampled_from([Opcode.TEXT, Opcode.TEXT, Opcode.BINARY, Opcode.CONT, Opcode.PING, Opcode.PONG]),
    sizes,
    st.booleans(),
    st.booleans(),
)


def client_bytes(frame: Frame) -> bytes:
    """The frame as a client sends it (masked); websockets writes RSV1 only through its extension."""
    data = Frame(frame.opcode, frame.data, frame.fin).serialize(mask=True)
    return bytes((data[0] | 0x40,)) + data[1:] if frame.rsv1 else data


@given(st.lists(frames, max_size=8), st.lists(st.integers(1, 3000), max_size=12))
@settings(max_examples=150, deadline=None)
def test_boundaries_are_where_websockets_frames_end_however_the_bytes_are_cut(
    sent: list[Frame], cuts: list[int]
) -> None:
    encoded = [client_bytes(f) for f in sent]
    stream = REQUEST + b"".join(encoded)
    ends = {len(REQUEST) + e for e in itertools.accumulate(len(x) for x in encoded)} | {len(REQUEST)}
    boundaries = FrameBoundaries()
    at = 0
    for cut in [*cuts, len(stream)]:
        chunk = stream[at : at + cut]
        at += len(chunk)
        boundaries.feed(chunk)
        assert boundaries.at_boundary == (at in ends), at
        if at == len(stream):
            break


@given(st.lists(frames, min_size=1, max_size=6), st.booleans())
@settings(max_examples=200, deadline=None)
def test_short_texts_reads_only_whole_final_text_frames(sent: list[Frame], compressed: bool) -> None:
    data = b"".join(client_bytes(f) for f in sent)
    found = short_texts(data, 1 << 20, compressed)
    simple = all(f.opcode is Opcode.TEXT and f.fin and (compressed or not f.rsv1) and len(f.data) < 65536 for f in sent)
    if simple:
        assert found == [(f.data, f.rsv1) for f in sent]
    else:
        assert found is None
    assert frame_size(data, 0) == len(client_bytes(sent[0]))


def test_short_texts_leaves_anything_unusual_to_the_parser() -> None:
    text = client_bytes(Frame(Opcode.TEXT, b'{"type":"ping"}'))
    assert short_texts(text + text, None) == [(b'{"type":"ping"}', False)] * 2
    deflated = client_bytes(Frame(Opcode.TEXT, b"x", rsv1=True))
    assert short_texts(deflated, None) is None  # no compression agreed: the parser refuses it
    assert short_texts(deflated, None, compressed=True) == [(b"x", True)]
    assert short_texts(text[:-1], None) is None  # cut off
    assert short_texts(text, max_size=4) is None  # over the limit: the parser refuses it
    unmasked = Frame(Opcode.TEXT, b"hi").serialize(mask=False)
    assert short_texts(unmasked, None) is None
    long_form = bytes((0x81, 0x80 | 126)) + (5).to_bytes(2, "big") + b"\0\0\0\0" + b"hello"
    assert short_texts(long_form, None) is None  # a length not in its shortest form
    assert short_texts(b"", None) == []


def test_a_handshake_request_too_long_stops_the_following() -> None:
    boundaries = FrameBoundaries()
    boundaries.feed(b"GET /ws HTTP/1.1\r\n" + b"X: " + b"y" * HANDSHAKE_LIMIT)
    boundaries.feed(b"\r\n\r\n")
    assert boundaries.lost and not boundaries.at_boundary
    short = FrameBoundaries()
    short.feed(REQUEST[:10])
    assert not short.at_boundary  # still in the request
    short.feed(REQUEST[10:])
    assert short.at_boundary
