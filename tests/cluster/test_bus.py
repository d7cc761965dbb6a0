"""The nodes' bus: messages to a node arrive once and in order, requests get their replies, silence times out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.server.cluster.bus import Bus, BusTimeout


def test_order_replies_and_timeouts(rd: tuple[str, str]) -> None:
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        got: list[int] = []

        def on_y(m: dict[str, Any]) -> None:
            if m["k"] == "req":
                y.reply(m, {"double": 2 * m["n"]})
            else:
                got.append(m["n"])

        await x.start(lambda m: None)
        await y.start(on_y)
        try:
            for n in range(300):
                x.publish("y", {"k": "out", "n": n})
            answers = await asyncio.gather(*(x.request("y", {"n": n}, 5.0) for n in range(20)))
            assert [a["double"] for a in answers] == [2 * n for n in range(20)]
            for _ in range(100):
                if len(got) == 300:
                    break
                await asyncio.sleep(0.02)
            assert got == list(range(300))  # every message once, in the order sent
            with pytest.raises(BusTimeout):
                await x.request("nobody", {"n": 1}, 0.3)
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())


def test_lost_messages_are_noticed_by_their_receiver(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that Redis refused leaves a gap in the sender's numbering: the receiver is told
    whose messages it lost, and the messages after the gap still arrive."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        got: list[int] = []
        gaps: list[str | None] = []
        await x.start(lambda m: None)
        await y.start(lambda m: got.append(m["n"]), gaps.append)
        try:
            x.publish("y", {"k": "out", "n": 1})
            for _ in range(100):
                if got:
                    break
                await asyncio.sleep(0.02)
            pipeline = x.redis.pipeline

            def refused(*args: Any, **kwargs: Any) -> Any:
                raise ConnectionError("Redis went away")

            monkeypatch.setattr(x.redis, "pipeline", refused)
            x.publish("y", {"k": "out", "n": 2})
            await asyncio.sleep(0.1)  # the publisher tried, and dropped the batch
            monkeypatch.setattr(x.redis, "pipeline", pipeline)
            await asyncio.sleep(0.3)
            x.publish("y", {"k": "out", "n": 3})
            for _ in range(100):
                if len(got) == 2:
                    break
                await asyncio.sleep(0.02)
            assert got == [1, 3] and gaps == ["x"]
            assert "_q" not in str(got)  # the numbering stays on the bus
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())


class FreezingProxy:
    """A TCP proxy to Redis whose connections can be frozen: open, but nothing goes through
    (a connection whose other end vanished without closing it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frozen: set[asyncio.StreamWriter] = set()
        self.open: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    def freeze(self) -> None:
        self.frozen |= self.open

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.open.add(writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            while data := await src.read(65536):
                if writer in self.frozen:
                    continue  # swallowed
                dst.write(data)
                await dst.drain()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            up_writer.close()
            writer.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        for w in self.open:
            w.close()


def test_an_inbox_whose_connection_went_silent_subscribes_again(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection to Redis that stops carrying anything without closing is given up: the
    inbox is subscribed again on a new one (and says anything may have been lost), and a batch
    stuck on it times out, so that publishing goes on."""
    from urllib.parse import urlparse

    from tapete.server.cluster import bus

    url, prefix = rd
    monkeypatch.setattr(bus, "PING_AFTER", 0.3)
    monkeypatch.setattr(bus, "DEAD_AFTER", 1.0)
    monkeypatch.setattr(bus, "COMMAND_SECONDS", 1.0)

    async def scenario() -> None:
        proxy = FreezingProxy(urlparse(url).port or 6379)
        through = await proxy.start()
        x, y = Bus(through, prefix, "x"), Bus(url, prefix, "y")
        got: list[int] = []
        got_y: list[int] = []
        gaps: list[str | None] = []
        gaps_y: list[str | None] = []
        await x.start(lambda m: got.append(m["n"]), gaps.append)
        await y.start(lambda m: got_y.append(m["n"]), gaps_y.append)
        try:
            y.publish("x", {"k": "out", "n": 1})
            x.publish("y", {"k": "out", "n": -1})
            for _ in range(100):
                if got and got_y:
                    break
                await asyncio.sleep(0.02)
            proxy.freeze()
            x.publish("y", {"k": "out", "n": 0})  # stuck on the frozen connection, then given up
            for _ in range(150):
                if gaps:
                    break
                await asyncio.sleep(0.02)
            assert gaps == [None]
            y.publish("x", {"k": "out", "n": 2})
            for _ in range(150):
                if got == [1, 2]:
                    break
                await asyncio.sleep(0.02)
            assert got == [1, 2]
            x.publish("y", {"k": "out", "n": 3})
            for _ in range(150):
                if 3 in got_y:
                    break
                await asyncio.sleep(0.02)
            assert got_y == [-1, 3] and gaps_y == ["x"]
        finally:
            await x.stop()
            await y.stop()
            await proxy.stop()

    asyncio.run(scenario())
