"""The nodes' bus: messages to a node arrive once and in order, requests get their replies, silence times out."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tapete.server.cluster import bus
from tapete.server.cluster.bus import Bus, BusTimeout, channel
from tapete.server.jsoncodec import dumps


async def until(condition: Callable[[], bool], seconds: float = 3.0) -> None:
    """Wait until ``condition`` holds, at most ``seconds``."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)


async def lose(sender: Bus, monkeypatch: pytest.MonkeyPatch, send: Callable[[], None]) -> None:
    """Run ``send`` while Redis refuses ``sender``'s batches, so that what it queues is lost."""

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis went away")

    pipeline = sender.redis.pipeline
    monkeypatch.setattr(sender.redis, "pipeline", refused)
    send()
    await asyncio.sleep(0.1)  # the publisher tried, and dropped the batch
    monkeypatch.setattr(sender.redis, "pipeline", pipeline)
    await asyncio.sleep(0.3)  # and waited before publishing again


async def recording(bus: Bus) -> tuple[list[int], list[str]]:
    """Start ``bus``, keeping the ``n`` of each message it gets and the senders whose messages were lost."""
    got: list[int] = []
    gaps: list[str] = []
    await bus.start(lambda m: got.append(m["n"]), gaps.append)
    return got, gaps


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
        self.down = False
        """New connections are frozen from the start too (Redis unreachable)."""

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    def freeze(self) -> None:
        self.frozen |= self.open

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.open.add(writer)
        if self.down:
            self.frozen.add(writer)

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
    publishing goes on (and its receiver learns of the loss the same way). A request answered
    without a number (a bot decision, by a worker) fails once the inbox is subscribed again, so
    that its table asks again rather than waiting out its time."""
    from urllib.parse import urlparse

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
            _, job = x.expect()  # a bot decision asked of the workers: their reply carries no number
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
            assert job.done() and isinstance(job.exception(), BusTimeout)  # asked again at once
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


def test_an_inbox_says_how_long_it_has_heard_nothing(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A quiet inbox whose Redis answers is pinged, so it never counts as silent for long; one that
    cannot reach Redis (every connection frozen, new ones too) counts on across its attempts to
    subscribe again, until a connection works again."""
    from urllib.parse import urlparse

    url, prefix = rd
    monkeypatch.setattr(bus, "PING_AFTER", 0.3)
    monkeypatch.setattr(bus, "DEAD_AFTER", 1.0)
    monkeypatch.setattr(bus, "COMMAND_SECONDS", 0.5)

    async def scenario() -> None:
        proxy = FreezingProxy(urlparse(url).port or 6379)
        x = Bus(await proxy.start(), prefix, "x")
        await x.start(lambda m: None)
        try:
            await asyncio.sleep(1.5)
            assert x.silent_for() < 0.8  # answered pings
            proxy.down = True
            proxy.freeze()
            await asyncio.sleep(3.0)
            assert x.silent_for() > 2.5
            proxy.down = False
            for _ in range(100):
                if x.silent_for() < 0.8:
                    break
                await asyncio.sleep(0.05)
            assert x.silent_for() < 0.8
        finally:
            await x.stop()
            await proxy.stop()

    asyncio.run(scenario())


def test_a_request_whose_message_was_lost_fails_at_once(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A request waits no longer for a reply that will not come: when its reply was lost, the
    next message from the node it asked shows the gap; when messages to that node were lost
    (the request may be among them), that node says so (a ``gap`` message)."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        lose_reply = [True]
        ignore_requests = [False]

        def refused(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("Redis went away")

        async def on_y(m: dict[str, Any]) -> None:
            if m["k"] != "req" or ignore_requests[0]:
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
            ignore_requests[0] = True  # as if the request had been lost on the way
            asked = asyncio.ensure_future(x.request("y", {}, 10.0))
            await asyncio.sleep(0.1)  # published, and ignored by y
            await lose(x, monkeypatch, lambda: x.publish("y", {"k": "out"}))
            assert not asked.done()
            ignore_requests[0] = False
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


def test_a_sender_that_forgot_its_receiver_still_shows_the_loss(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node that took another for gone, lost messages to it and forgot it numbers its next
    message 1 again: the receiver, still hearing the same incarnation, sees the gap."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        await x.start(lambda m: None)
        got, gaps = await recording(y)
        try:
            x.publish("y", {"k": "out", "n": 1})
            await until(lambda: got == [1])
            await lose(x, monkeypatch, lambda: x.publish("y", {"k": "out", "n": 2}))
            x.forget("y")
            x.publish("y", {"k": "out", "n": 3})
            await until(lambda: len(got) == 2)
            assert got == [1, 3] and gaps == ["x"]
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())


def test_a_restarted_sender_starts_at_one_and_a_later_first_number_is_a_loss(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new incarnation of a node may start its numbering again at 1; its first message
    numbered above 1 shows a loss even when that number happens to follow the last one heard."""
    url, prefix = rd

    async def scenario() -> None:
        y = Bus(url, prefix, "y")
        got, gaps = await recording(y)
        try:
            first = Bus(url, prefix, "x")
            await first.start(lambda m: None)
            first.publish("y", {"k": "out", "n": 1})
            await until(lambda: got == [1])
            await first.stop()
            second = Bus(url, prefix, "x")
            await second.start(lambda m: None)
            second.publish("y", {"k": "out", "n": 2})  # numbered 1: a new start, nothing lost
            await until(lambda: got == [1, 2])
            await second.stop()
            assert gaps == []
            third = Bus(url, prefix, "x")
            await third.start(lambda m: None)
            try:
                await lose(third, monkeypatch, lambda: third.publish("y", {"k": "out", "n": 3}))
                third.publish("y", {"k": "out", "n": 4})  # numbered 2, after a 1 from another incarnation
                await until(lambda: len(got) == 3)
            finally:
                await third.stop()
            assert got == [1, 2, 4] and gaps == ["x"]
        finally:
            await y.stop()

    asyncio.run(scenario())


def test_a_receiver_started_again_under_its_name_is_numbered_anew(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node y stops and starts again under the same name (a rolling deploy): what x had
    numbered for the earlier y reaches the new one without being taken for a loss; once x hears
    the new y, it numbers what it sends it from 1, and a message lost after that is noticed."""
    url, prefix = rd

    async def scenario() -> None:
        x = Bus(url, prefix, "x")
        x_got, x_gaps = await recording(x)
        try:
            first = Bus(url, prefix, "y")
            await first.start(lambda m: None)
            first.publish("x", {"k": "out", "n": 0})
            await until(lambda: x_got == [0])
            for n in (1, 2, 3):
                x.publish("y", {"k": "out", "n": n})
            await asyncio.sleep(0.3)
            await first.stop()
            second = Bus(url, prefix, "y")
            got, gaps = await recording(second)
            try:
                x.publish("y", {"k": "out", "n": 4})  # numbered 4, for the earlier y
                await until(lambda: got == [4])
                second.publish("x", {"k": "out", "n": 5})
                await until(lambda: x_got == [0, 5])
                x.publish("y", {"k": "out", "n": 6})  # numbered 1, for this y
                await until(lambda: got == [4, 6])
                assert gaps == [] and x_gaps == []
                await lose(x, monkeypatch, lambda: x.publish("y", {"k": "out", "n": 7}))
                x.publish("y", {"k": "out", "n": 8})
                await until(lambda: len(got) == 3)
                assert got == [4, 6, 8] and gaps == ["x"]
            finally:
                await second.stop()
        finally:
            await x.stop()

    asyncio.run(scenario())


def test_messages_without_an_incarnation_are_numbered_as_before(rd: tuple[str, str]) -> None:
    """A sender of an older version (no incarnation in its messages) is checked as it was: a
    number skipped is a loss, a 1 is a new start."""
    url, prefix = rd

    async def scenario() -> None:
        y = Bus(url, prefix, "y")
        got, gaps = await recording(y)
        try:
            for number in (1, 2, 4, 1, 2):
                data = dumps({"k": "out", "n": number, "_s": "old", "_q": number})
                await y.redis.publish(channel(prefix, "y"), data)
            await until(lambda: len(got) == 5)
            assert got == [1, 2, 4, 1, 2] and gaps == ["old"]
        finally:
            await y.stop()

    asyncio.run(scenario())


def test_a_stalled_event_loop_keeps_its_inbox(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An event loop blocked for longer than ``DEAD_AFTER`` (a paused process, a long collection)
    does not give up its inbox: what reached it meanwhile is read, nothing is lost."""
    url, prefix = rd
    monkeypatch.setattr(bus, "PING_AFTER", 0.3)
    monkeypatch.setattr(bus, "DEAD_AFTER", 1.0)
    ready, go, sent = threading.Event(), threading.Event(), threading.Event()
    failure: list[BaseException] = []

    def other_node() -> None:
        """Node y, on a loop of its own: it sends x five messages while x's loop is blocked."""

        async def run() -> None:
            y = Bus(url, prefix, "y")
            await y.start(lambda m: None)
            try:
                ready.set()
                await asyncio.to_thread(go.wait, 5)
                for n in range(1, 6):
                    y.publish("x", {"k": "out", "n": n})
                await until(y._out.empty)
                await asyncio.sleep(0.1)  # the last batch is through
                sent.set()
            finally:
                await y.stop()

        try:
            asyncio.run(run())
        except BaseException as exc:
            failure.append(exc)

    async def scenario() -> None:
        x = Bus(url, prefix, "x")
        got, gaps = await recording(x)
        thread = threading.Thread(target=other_node)
        thread.start()
        try:
            assert await asyncio.to_thread(ready.wait, 5)
            await asyncio.sleep(0.5)  # x's inbox has pinged and been answered
            go.set()
            time.sleep(1.6)  # the loop is blocked, past DEAD_AFTER
            assert sent.is_set()
            await until(lambda: len(got) == 5)
            assert got == [1, 2, 3, 4, 5] and gaps == []
        finally:
            go.set()
            await asyncio.to_thread(thread.join, 10)
            await x.stop()
        assert failure == []

    asyncio.run(scenario())


def test_a_request_that_could_not_be_published_fails_at_once(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request in a batch Redis refused, or one the full queue had no room for, fails at once
    (as a request whose reply was lost) rather than waiting out its timeout."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        await x.start(lambda m: None)
        await y.start(lambda m: y.reply(m, {"n": 1}) if m["k"] == "req" else None)
        try:
            asked = asyncio.ensure_future(x.request("y", {}, 10.0))
            await lose(x, monkeypatch, lambda: None)
            assert asked.done()
            with pytest.raises(BusTimeout):
                asked.result()
            assert x._waiting == {} and x._asked == {}
            assert (await x.request("y", {}, 5.0))["n"] == 1  # and the bus goes on
        finally:
            await x.stop()
            await y.stop()
        monkeypatch.setattr(bus, "MAX_QUEUED", 1)
        full = Bus(url, prefix, "full")  # not started: nothing empties its queue
        try:
            full.publish("y", {"k": "out"})
            with pytest.raises(BusTimeout):
                await asyncio.wait_for(full.request("y", {}, 10.0), 1)
        finally:
            await full.redis.aclose()

    asyncio.run(scenario())


def test_a_publisher_failing_again_and_again_logs_it_once_and_its_end(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """While Redis refuses every batch the publisher tries again five times a second: the first
    failure is logged, the repeats are only counted, and a line says when publishing works again."""
    url, prefix = rd
    caplog.set_level(logging.WARNING, logger="tapete.server")

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis went away")

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        got, _ = await recording(y)
        await x.start(lambda m: None)
        try:
            pipeline = x.redis.pipeline
            monkeypatch.setattr(x.redis, "pipeline", refused)
            for n in range(8):
                x.publish("y", {"k": "out", "n": n})
                await asyncio.sleep(0.25)
            monkeypatch.setattr(x.redis, "pipeline", pipeline)
            x.publish("y", {"k": "out", "n": 99})
            await until(lambda: 99 in got)
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("bus: publishing")]
    assert len(lines) == 2, lines
    assert lines[0] == "bus: publishing failed (ConnectionError; a batch of 1 lost); trying again"
    assert lines[1].startswith("bus: publishing works again, after 8 failures in ")


def test_messages_gathered_in_one_turn_go_as_one_in_their_order(rd: tuple[str, str]) -> None:
    url, prefix = rd

    async def scenario() -> None:
        x, y, z = Bus(url, prefix, "x"), Bus(url, prefix, "y"), Bus(url, prefix, "z")
        got: dict[str, list[tuple[str, list[str] | None]]] = {"y": [], "z": []}
        await x.start(lambda m: None)
        await y.start(lambda m: got["y"].append((m["n"], m.get("ids"))))
        await z.start(lambda m: got["z"].append((m["n"], m.get("ids"))))
        try:
            one, other = object(), object()
            x.publish_gathered("y", {"n": "1"}, "ids", "a", one)
            x.publish_gathered("z", {"n": "2"}, "ids", "b", one)  # another node: its own message
            x.publish_gathered("y", {"n": "3"}, "ids", "c", other)  # another object: its own message
            x.publish("z", {"n": "0"})  # closes z's message being gathered, not y's
            x.publish_gathered("y", {"n": "1"}, "ids", "d", one)  # gathered with the first
            x.publish_gathered("z", {"n": "2"}, "ids", "e", one)
            x.publish_gathered("y", {"n": "3"}, "ids", "a", other)  # after the first: a's order kept
            x.publish_gathered("y", {"n": "4"}, "ids", "a", one)  # a is in a later one: a new message
            x.publish_gathered("y", {"n": "4"}, "ids", "f", one)  # gathered with that one
            x.publish("y", {"n": "5"})  # queued after those gathered before it
            x.publish_gathered("y", {"n": "6"}, "ids", "a", one)
            await asyncio.sleep(0)  # the end of the turn queues it
            x.publish_gathered("y", {"n": "7"}, "ids", "a", one)
            await until(lambda: len(got["y"]) == 6 and len(got["z"]) == 3)
            assert got["y"] == [
                ("1", ["a", "d"]),
                ("3", ["c", "a"]),
                ("4", ["a", "f"]),
                ("5", None),
                ("6", ["a"]),
                ("7", ["a"]),
            ]
            assert got["z"] == [("2", ["b"]), ("0", None), ("2", ["e"])]
            assert y.gaps == z.gaps == 0  # numbered in the order queued
        finally:
            for b in (x, y, z):
                await b.stop()

    asyncio.run(scenario())


def test_a_node_heard_unnumbered_is_no_longer_the_process_heard_before(rd: tuple[str, str]) -> None:
    """A message without a number from a node heard before (a version that numbers nothing,
    started under that name) means its earlier incarnation is gone."""
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        await x.start(lambda m: None)
        await y.start(lambda m: None)
        try:
            x.publish("y", {"k": "hi", "from": "x"})
            await until(lambda: y.incarnation_of("x") is not None)
            assert y.incarnation_of("x") == x.incarnation
            await y.redis.publish(channel(prefix, "y"), dumps({"k": "hi", "from": "x"}))  # as an old version
            await until(lambda: y.incarnation_of("x") is None)
            assert y.incarnation_of("x") is None and y.gaps == 0
            await y.redis.publish(channel(prefix, "y"), dumps({"k": "hi", "from": "w"}))  # not a node heard
            await asyncio.sleep(0.1)
            assert y.incarnation_of("w") is None and "w" not in y.peers()
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())


def test_an_inbox_held_unheard_neither_handles_nor_judges_what_reaches_it(rd: tuple[str, str]) -> None:
    """A second process under y's name holds y's inbox unheard (``listening=False``) while it
    waits for the name: it handles nothing and takes nothing for lost, so y and x go on as if
    it were not there; once it listens, what x numbered for y reaches it without a judgement."""
    url, prefix = rd

    async def scenario() -> None:
        x = Bus(url, prefix, "x")
        await x.start(lambda m: None)
        y = Bus(url, prefix, "y")
        got, gaps = await recording(y)
        twin = Bus(url, prefix, "y")
        twin_got: list[int] = []
        twin_gaps: list[str] = []
        try:
            y.publish("x", {"k": "out", "n": 0})  # x hears y: what it sends y is numbered for y
            await until(lambda: x.incarnation_of("y") == y.incarnation)
            x.publish("y", {"k": "out", "n": 1})
            await until(lambda: got == [1])
            await twin.start(lambda m: twin_got.append(m["n"]), twin_gaps.append, listening=False)
            for n in (2, 3, 4):
                x.publish("y", {"k": "out", "n": n})
            await until(lambda: got == [1, 2, 3, 4])
            assert twin_got == [] and twin.received == 0 and twin.gaps == 0
            twin.listen()
            x.publish("y", {"k": "out", "n": 5})
            await until(lambda: got == [1, 2, 3, 4, 5] and twin_got == [5])
            assert gaps == [] and twin_gaps == [] and x.gaps == 0
        finally:
            for bus in (twin, y, x):
                await bus.stop()

    asyncio.run(scenario())
