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
    inbox is subscribed again on a new one, and the numbering of what comes next says whose
    messages were lost meanwhile; a batch stuck on such a connection times out, so that
    publishing goes on (and its receiver learns of the loss the same way)."""
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
        gaps: list[str] = []
        gaps_y: list[str] = []
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
            y.publish("x", {"k": "out", "n": 0})  # lost: x's inbox is deaf
            x.publish("y", {"k": "out", "n": 0})  # stuck on the frozen connection, then given up
            for n in range(2, 60):  # until x's inbox is subscribed again
                y.publish("x", {"k": "out", "n": n})
                await asyncio.sleep(0.1)
                if len(got) > 1:
                    break
            assert got[0] == 1 and 0 not in got and got[1:] == list(range(got[1], got[1] + len(got) - 1))
            assert gaps == ["y"]
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


def test_a_request_whose_message_was_lost_fails_at_once(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A request waits no longer for a reply that will not come: when its reply was lost, the
    next message from the node it asked shows the gap; when the request itself was lost, that
    node says so (a ``gap`` message)."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        lose_reply = [True]

        def refused(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("Redis went away")

        async def on_y(m: dict[str, Any]) -> None:
            if m["k"] != "req":
                return
            if lose_reply[0]:
                pipeline = y.redis.pipeline
                monkeypatch.setattr(y.redis, "pipeline", refused)
                y.reply(m, {"n": 1})
                await asyncio.sleep(0.1)
                monkeypatch.setattr(y.redis, "pipeline", pipeline)
                await asyncio.sleep(0.3)
                y.publish("x", {"k": "out"})  # x sees the gap
            else:
                y.reply(m, {"n": 2})

        await x.start(lambda m: None)
        await y.start(on_y)
        pipeline_y = y.redis.pipeline
        try:
            began = asyncio.get_running_loop().time()
            with pytest.raises(BusTimeout):
                await x.request("y", {}, 10.0)
            assert asyncio.get_running_loop().time() - began < 3
            lose_reply[0] = False
            pipeline = x.redis.pipeline
            monkeypatch.setattr(x.redis, "pipeline", refused)
            asked = asyncio.ensure_future(x.request("y", {}, 10.0))  # lost on the way
            await asyncio.sleep(0.1)
            monkeypatch.setattr(x.redis, "pipeline", pipeline)
            await asyncio.sleep(0.3)
            x.publish("y", {"k": "out"})  # y sees the gap and says so
            began = asyncio.get_running_loop().time()
            with pytest.raises(BusTimeout):
                await asyncio.wait_for(asked, 5)
            assert asyncio.get_running_loop().time() - began < 3
            assert (await x.request("y", {}, 5.0))["n"] == 2  # and the bus goes on
            # a reply that is itself the first message after a loss still answers its request
            monkeypatch.setattr(y.redis, "pipeline", refused)
            y.publish("x", {"k": "out"})  # lost
            await asyncio.sleep(0.1)
            monkeypatch.setattr(y.redis, "pipeline", pipeline_y)
            await asyncio.sleep(0.3)
            gaps_before = x.gaps
            assert (await x.request("y", {}, 5.0))["n"] == 2
            assert x.gaps == gaps_before + 1
            assert x._waiting == {} and x._asked == {}
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())
