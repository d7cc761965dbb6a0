"""The server's WebSocket protocol (``tapete.server.wsprotocol``) and the direct send of ``Connection``.

The protocol is driven byte for byte: a websockets sans-I/O client makes the handshake
and the frames, a recording transport stands in for the socket.
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any, cast

import pytest
from starlette.websockets import WebSocket
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from tapete.server.connection import Connection
from tapete.server.wsprotocol import (
    READ_BACKLOG,
    SEND_NOW,
    TableSocketProtocol,
    plain_text_frame,
    reads_short_frames,
)


class RecordingTransport(asyncio.Transport):
    """Keeps what is written and counts the pauses and resumptions of reading."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.pauses = 0
        self.resumes = 0
        self.closed = False

    def write(self, data: Any) -> None:
        self.written += data

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        self.resumes += 1

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


class Harness:
    """A ``TableSocketProtocol`` with an app that reads only when told to."""

    def __init__(self, deflate: bool = False) -> None:
        self.received: list[str] = []
        self.read = asyncio.Event()
        self.scope: dict[str, Any] = {}
        self.protocol: TableSocketProtocol | None = None

        async def app(scope: Any, receive: Any, send: Any) -> None:
            self.scope = scope
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            while True:
                await self.read.wait()
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                self.received.append(message["text"])

        config = Config(app, ws=TableSocketProtocol, log_level="warning", lifespan="off")
        config.load()
        self.protocol = TableSocketProtocol(config=config, server_state=ServerState(), app_state={})
        self.transport = RecordingTransport()
        self.protocol.connection_made(self.transport)
        extensions = [ClientPerMessageDeflateFactory()] if deflate else None
        self.client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"), extensions=extensions)

    async def handshake(self) -> None:
        assert self.protocol is not None
        self.client.send_request(self.client.connect())
        self.protocol.data_received(b"".join(self.client.data_to_send()))
        for _ in range(20):
            await asyncio.sleep(0)
        self.client.receive_data(bytes(self.transport.written))
        self.transport.written.clear()
        assert self.client.handshake_exc is None

    def send(self, text: str) -> None:
        assert self.protocol is not None
        self.client.send_text(text.encode())
        self.protocol.data_received(b"".join(self.client.data_to_send()))

    def frames_out(self) -> list[str]:
        self.client.receive_data(bytes(self.transport.written))
        self.transport.written.clear()
        return [bytes(e.data).decode() for e in self.client.events_received() if isinstance(e, Frame)]


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


def test_reading_pauses_only_once_a_backlog_waits_and_resumes_when_the_app_has_taken_it() -> None:
    async def run() -> None:
        h = Harness()
        await h.handshake()
        for i in range(READ_BACKLOG - 1):
            h.send(f"m{i}")
        assert (h.transport.pauses, h.transport.resumes) == (0, 0)  # uvicorn's own pauses at every message
        h.send(f"m{READ_BACKLOG - 1}")
        assert h.transport.pauses == 1
        h.send("past the backlog")  # the client's data already on its way is still taken, not lost
        assert h.transport.pauses == 1
        h.read.set()
        await settle()
        assert h.received == [f"m{i}" for i in range(READ_BACKLOG)] + ["past the backlog"]
        assert h.transport.resumes == 1
        h.send("after")  # one at a time again: no pause
        await settle()
        assert h.received[-1] == "after" and (h.transport.pauses, h.transport.resumes) == (1, 1)

    asyncio.run(run())


def test_send_now_sends_one_frame_at_once_and_refuses_when_the_socket_cannot_take_it() -> None:
    async def run() -> None:
        h = Harness()
        assert h.protocol is not None and not h.protocol.send_text_now(b"too early")  # before the handshake
        await h.handshake()
        send = h.scope["extensions"][SEND_NOW]["send"]
        assert send(b'{"type":"state"}') is True
        assert h.frames_out() == ['{"type":"state"}']
        h.protocol.pause_writing()  # the transport is over its high-water mark
        assert send(b"held") is False and h.frames_out() == []
        h.protocol.resume_writing()
        assert send(b"again") is True and h.frames_out() == ["again"]
        h.protocol.pause_writing()
        h.protocol.connection_lost(None)
        assert send(b"gone") is False
        assert h.protocol.writable.is_set()  # nothing waits forever on a transport that is gone

    asyncio.run(run())


class FakeSocket:
    """What ``Connection`` uses of a Starlette ``WebSocket``, offering ``tapete.send_now``."""

    def __init__(self) -> None:
        self.direct: list[str] = []
        self.queued: list[str] = []
        self.accept_now = True
        self.scope = {"extensions": {SEND_NOW: {"send": self.send_now}}}

    def send_now(self, text: bytes) -> bool:
        if self.accept_now:
            self.direct.append(text.decode())
        return self.accept_now

    async def send_text(self, text: str) -> None:
        self.queued.append(text)

    async def close(self, code: int = 1000) -> None:
        pass


def test_a_connection_sends_directly_only_with_nothing_queued_ahead_so_order_is_kept() -> None:
    async def run() -> None:
        ws = FakeSocket()
        conn = Connection(cast(WebSocket, ws), (10.0, 10.0))
        conn.send({"n": 1})
        assert ws.direct == ['{"n":1}']
        ws.accept_now = False
        conn.send({"n": 2})  # the socket cannot take it: queued
        ws.accept_now = True
        conn.send({"n": 3})  # something is queued ahead: queued behind it, not sent first
        writer = asyncio.create_task(conn.writer())
        await settle()
        assert ws.queued == ['{"n":2}', '{"n":3}']
        conn.send({"n": 4})  # the queue is empty again
        assert ws.direct[-1] == '{"n":4}'
        conn.close()
        conn.send({"n": 5})  # after close: never sent
        await asyncio.wait_for(writer, 1)
        sent = [json.loads(t)["n"] for t in ws.direct + ws.queued]
        assert sorted(sent) == [1, 2, 3, 4]

    asyncio.run(run())


def test_a_message_that_fails_to_go_out_at_once_is_left_to_the_writer_not_raised_to_the_table() -> None:
    async def run() -> None:
        ws = FakeSocket()

        def broken(text: bytes) -> bool:
            raise RuntimeError("the transport failed")

        ws.scope["extensions"][SEND_NOW]["send"] = broken
        conn = Connection(cast(WebSocket, ws), (10.0, 10.0))
        conn.send({"n": 1})  # does not raise into the table's broadcast
        assert conn.outbox.qsize() == 1
        writer = asyncio.create_task(conn.writer())
        await settle()
        assert ws.queued == ['{"n":1}']
        conn.close()
        await asyncio.wait_for(writer, 1)

    asyncio.run(run())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 511, 65535, 65536, 70000])
def test_a_plain_text_frame_is_the_frame_websockets_writes(size: int) -> None:
    text = ("é" * size).encode("utf-8")[:size]
    assert plain_text_frame(text) == Frame(Opcode.TEXT, text).serialize(mask=False)


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the data handed to websockets' parser (through uvicorn's ``data_received``)."""
    sizes: list[int] = []
    parent = WebSocketsSansIOProtocol.data_received

    def counting(self: WebSocketsSansIOProtocol, data: bytes) -> None:
        sizes.append(len(data))
        parent(self, data)

    monkeypatch.setattr(WebSocketsSansIOProtocol, "data_received", counting)
    return sizes


def test_short_text_frames_skip_the_parser_and_everything_else_still_reaches_it(parsed: list[int]) -> None:
    async def run() -> None:
        h = Harness()
        h.read.set()
        await h.handshake()
        assert h.protocol is not None
        parsed.clear()
        h.send('{"type":"ping"}')
        h.send("two " * 40)  # 126–65,535 bytes: a 2-byte length
        await settle()
        assert parsed == [] and h.received == ['{"type":"ping"}', "two " * 40]
        big = "é" * 40_000  # over 64 KiB: the parser's
        mixed = b"".join(
            [
                Frame(Opcode.TEXT, b"a").serialize(mask=True),
                Frame(Opcode.PING, b"p").serialize(mask=True),
                Frame(Opcode.TEXT, b"b1", fin=False).serialize(mask=True),
                Frame(Opcode.CONT, b"b2").serialize(mask=True),
                Frame(Opcode.TEXT, big.encode()).serialize(mask=True),
                Frame(Opcode.TEXT, b"c").serialize(mask=True),
            ]
        )
        for at in range(0, len(mixed), 7_001):  # cut anywhere, headers included
            h.protocol.data_received(mixed[at : at + 7_001])
            await settle()
        assert parsed  # the parser had its turn
        assert h.received[2:] == ["a", "b1b2", big, "c"]
        h.client.receive_data(bytes(h.transport.written))
        assert any(isinstance(e, Frame) and e.opcode is Opcode.PONG for e in h.client.events_received())
        parsed.clear()
        h.send("back to short")  # the cuts ended on a frame's end: the short path again
        await settle()
        assert parsed == [] and h.received[-1] == "back to short"
        h.protocol.data_received(Frame(Opcode.TEXT, b"\xff\xfe").serialize(mask=True))  # not UTF-8
        await settle()
        assert h.transport.closed and h.received[-1] == "back to short"

    asyncio.run(run())


def test_compressed_short_texts_are_inflated_by_the_connections_decoder_and_bad_ones_fail_it(
    parsed: list[int],
) -> None:
    async def run() -> None:
        h = Harness(deflate=True)
        h.read.set()
        await h.handshake()
        assert h.protocol is not None and h.protocol.conn.extensions  # compression agreed
        parsed.clear()
        texts = [json.dumps({"type": "action", "version": v, "action": {"card": "QS"}}) for v in range(30)]
        for text in texts:  # each compressed against the ones before (context takeover)
            h.send(text)
        await settle()
        assert parsed == [] and h.received == texts
        broken = bytes((0xC1, 0x80 | 4)) + b"\0\0\0\0" + b"\xff\xff\xff\xff"  # not a deflate stream
        h.protocol.data_received(broken)
        await settle()
        assert h.transport.closed and h.received == texts
        h.client.receive_data(bytes(h.transport.written))
        closes = [e for e in h.client.events_received() if isinstance(e, Frame) and e.opcode is Opcode.CLOSE]
        assert closes and int.from_bytes(closes[0].data[:2], "big") == 1002  # what the parser answers

    asyncio.run(run())


def test_an_older_websockets_without_the_message_sizes_keeps_every_frame_on_its_parser() -> None:
    sizes = {"current_size": None, "max_message_size": 1 << 20, "max_fragment_size": None}
    assert reads_short_frames(cast(Any, SimpleNamespace(**sizes)))
    older = {"cur_size": None, "max_size": 1 << 20}  # the names before message and fragment limits
    assert not reads_short_frames(cast(Any, SimpleNamespace(**older)))


def test_a_closed_socket_is_freed_without_waiting_for_the_cyclic_collector() -> None:
    """Once its connection is lost and its app has ended, the protocol (with its compressor's
    state) goes by reference counting alone: no cycle keeps it for the next full collection."""
    import gc
    import weakref

    async def scenario() -> weakref.ref[TableSocketProtocol]:
        h = Harness(deflate=True)
        await h.handshake()
        h.send("hello")
        h.read.set()
        await settle()
        assert h.received == ["hello"]
        protocol = h.protocol
        assert protocol is not None and SEND_NOW in h.scope["extensions"]
        protocol.connection_lost(None)
        await settle()
        h.protocol = None
        h.scope = {}
        return weakref.ref(protocol)

    gc.collect()
    gc.disable()
    try:
        gone = asyncio.run(scenario())
        assert gone() is None
    finally:
        gc.enable()
