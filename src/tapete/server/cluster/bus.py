"""The nodes' message bus on Redis pub/sub: one inbox channel per node, request/reply on top.

Every node subscribes to its own channel (``{prefix}node:{node_id}``) and to nothing
else, so a message reaches exactly the node it is addressed to. Messages are JSON
objects with a kind ``k``: ``req`` (a request, answered by a ``rep`` with the same
``id``), ``rep``, ``gap`` (see below), and whatever the node defines (``out``, ``outs``,
``close``, ``bye``, ``links``).

One task publishes, in the order messages were queued, through one connection (batched in a
pipeline), so the messages a node sends another arrive in the order it sent them. A message
for several of the receiver's sockets may be gathered from the sends of one turn of the event
loop (``publish_gathered``), which keeps that order for each receiver. Pub/sub
delivers at most once: a node that is away loses what was sent to it, which is why a socket
whose owner cannot be reached is closed and reconnects to a full view. So that a loss is
noticed, every message carries its sender (``_s``), the sender's incarnation (``_i``, a short
random token drawn when its ``Bus`` is made) and its number in what that incarnation has sent
this node (``_q``, from 1). A number that does not follow the last one from the same incarnation
tells the receiver that messages from that sender were lost (a batch Redis refused, a full
queue, an inbox away, or a sender that forgot this node and numbers from 1 again); so does a
first number above 1 from an incarnation not heard before (a sender that started again starts at
1). Messages without an incarnation (from an older version) count a 1 as a new start. A node that
starts again under the same name is a new incarnation to its peers: each message also carries the
receiver's incarnation as its sender last heard it (``_r``); a message numbered for an earlier
incarnation of the receiver is taken as it is, without a judgement, and a sender that hears a new
incarnation of a peer numbers what it sends that peer from 1 again. Once it
has handled the message that shows the gap, the receiver calls ``on_gap`` with the sender's
name, fails its own requests still waiting on that sender (their replies may be among the lost)
and sends the sender a ``gap``, on which the sender fails its requests waiting on the receiver
(the requests may be among the lost). A request in a batch that could not be published (or that
found the queue full) fails at once. The inbox's connection is checked by a ``PING`` whenever it
has been quiet for ``PING_AFTER`` seconds; with no answer in ``DEAD_AFTER`` the node subscribes
again on a new connection, and the numbering of the messages that come next tells whose were
lost meanwhile. Quiet is counted only while the inbox is being waited on (a stalled event loop
does not make it look dead), and what already reached the connection is read before it is given
up. Commands time out after ``COMMAND_SECONDS``, so a Redis that stops answering fails the batch
being published rather than holding the publisher, and at most ``MAX_QUEUED`` messages wait to
be published.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub

from tapete.server.jsoncodec import dumps, loads
from tapete.server.repeats import RepeatedFailure

log = logging.getLogger("tapete.server")

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]
GapHandler = Callable[[str], None]
"""Called with the name of the node whose messages to this one were lost."""

SENDER: Final = "_s"
"""The key of a message's sender."""
INCARNATION: Final = "_i"
"""The key of the sender's incarnation (drawn anew each time a ``Bus`` is made)."""
RECEIVER: Final = "_r"
"""The key of the receiver's incarnation as the sender last heard it (absent until it has)."""
NUMBER: Final = "_q"
"""The key of a message's number in what its sender's incarnation has sent the receiver."""
COMMAND_SECONDS: Final = 5.0
"""Longest wait for Redis to answer a command (and to connect)."""
PING_AFTER: Final = 2.0
"""Seconds of a quiet inbox after which its connection is pinged."""
DEAD_AFTER: Final = 6.0
"""Seconds spent waiting on the inbox's connection without anything (a message or a ping's
answer) arriving, after which it is given up and the inbox subscribed again."""
LAST_READ_SECONDS: Final = 0.1
"""How long the inbox is read once more, for what already reached its connection, before it is given up."""
MAX_QUEUED: Final = 100_000
"""Most messages waiting to be published; more are dropped (their receivers see the gap)."""


class BusTimeout(Exception):
    """A request got no reply in time (its node is gone or too busy)."""


def channel(prefix: str, node_id: str) -> str:
    """The inbox channel of ``node_id``."""
    return f"{prefix}node:{node_id}"


class _Gathering:
    """Messages for one node being gathered in one turn of the event loop (``Bus.publish_gathered``)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._held: list[object] = []
        """Each message's ``same`` object, held so that its identity is not reused meanwhile."""
        self._message_of: dict[int, int] = {}
        """Where in ``messages`` the message for an object's identity is."""
        self._last_with: dict[str, int] = {}
        """Where in ``messages`` the last message with each item is."""

    def add(self, message: dict[str, Any], key: str, item: str, same: object) -> None:
        at = self._message_of.get(id(same))
        if at is not None and self._last_with.get(item, -1) <= at:
            self.messages[at][key].append(item)
        else:
            at = len(self.messages)
            self.messages.append({**message, key: [item]})
            self._held.append(same)
            self._message_of[id(same)] = at
        self._last_with[item] = at


class Bus:
    """One node's end of the bus."""

    def __init__(self, url: str, prefix: str, node_id: str) -> None:
        self.url = url
        self.prefix = prefix
        self.node_id = node_id
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_timeout=COMMAND_SECONDS, socket_connect_timeout=COMMAND_SECONDS, socket_keepalive=True
        )
        self.incarnation = secrets.token_urlsafe(6)
        """This bus's token in its messages: a receiver tells a restarted sender by it."""
        self._out: asyncio.Queue[tuple[str, bytes, str | None]] = asyncio.Queue(MAX_QUEUED)
        """Channel, message and (for a request) its id."""
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._asked: dict[str, str] = {}
        """The node each waiting request went to (requests to a node, not to a worker's stream)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self._subscribed = asyncio.Event()
        self._on_gap: GapHandler | None = None
        self._sent: dict[str, int] = {}
        """The number of the last message queued for each node."""
        self._heard: dict[str, tuple[str | None, int, bool]] = {}
        """The incarnation and number of the last message received from each node, and whether it
        was numbered for this incarnation."""
        self.dropped = 0
        """Messages dropped because the queue was full."""
        self.gaps = 0
        """Times messages from another node were found lost."""
        self.published = 0
        """Messages Redis took from this node (``PUBLISH`` answered)."""
        self.published_bytes = 0
        """Their bytes."""
        self.received = 0
        """Messages that reached this node's inbox."""
        self._heard_at = time.monotonic()
        """When the inbox last heard anything (a message, a ping's answer, a subscription made)."""
        self._gathered: dict[str, _Gathering] = {}
        """The messages of ``publish_gathered`` not queued yet, by node."""
        self.listening = True
        """Whether the inbox's messages are handled; until then they are dropped unread
        (``start(listening=False)``, ``listen``)."""
        self._publishing = RepeatedFailure(log, "bus: publishing", "trying again")
        self._subscribing = RepeatedFailure(log, "bus: the inbox subscription", "subscribing again")

    async def start(self, handler: Handler, on_gap: GapHandler | None = None, *, listening: bool = True) -> None:
        """Subscribe to this node's inbox and start publishing; ``handler`` gets every message but replies.

        ``on_gap`` is called with a node's name when messages from it to this node were lost.
        With ``listening=False`` what reaches the inbox is dropped unread (neither handled nor
        judged by its number) until :meth:`listen`: a node whose name may still be another
        process's holds its inbox without answering or judging that process's messages.
        """
        self.listening = listening
        self._handler = handler
        self._on_gap = on_gap
        self._tasks = [
            asyncio.create_task(self._publisher(), name="bus-publish"),
            asyncio.create_task(self._reader(), name="bus-read"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    def listen(self) -> None:
        """Handle the inbox's messages from now on (after ``start(listening=False)``)."""
        self.listening = True

    async def stop(self) -> None:
        """End the publisher and the inbox (within ``COMMAND_SECONDS``), then close the connections."""
        loop = asyncio.get_running_loop()
        until = loop.time() + COMMAND_SECONDS
        pending = {t for t in self._tasks if not t.done()}
        while pending and loop.time() < until:
            for t in pending:
                t.cancel()  # again each round: redis-py can swallow a cancellation mid-command
            _, pending = await asyncio.wait(pending, timeout=0.1)
        for t in self._tasks:
            if t.done() and not t.cancelled():
                t.exception()  # retrieved: a task that failed as it stopped is not reported later
        await self.redis.aclose()

    # --- sending ------------------------------------------------------------------------
    def publish(self, node_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node_id`` (never blocks; sent in order, or dropped when the queue is full)."""
        self._queue(node_id, message, None)

    def publish_gathered(self, node_id: str, message: dict[str, Any], key: str, item: str, same: object) -> None:
        """Queue ``message`` for ``node_id`` with ``[item]`` under ``key``; or, when a message made
        by this method in this turn of the event loop for the same node and the same ``same``
        object waits to be queued, add ``item`` to its list instead, unless ``item`` is in a
        message for that node gathered after that one (what each item gets stays in the order
        asked).

        One state for many sockets of one node is then one message, not one per socket. A node's
        gathered messages are queued in the order they were begun, at the end of the turn or
        before any other message for that node is queued (messages to other nodes do not
        interrupt them: only the order of what one node receives is kept). ``same`` is held until
        then (its identity cannot be reused meanwhile)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not from the event loop (no caller does so): sent alone, at once
            self._queue(node_id, {**message, key: [item]}, None)
            return
        gathering = self._gathered.get(node_id)
        if gathering is None:
            if not self._gathered:
                loop.call_soon(self._close_gathered)
            gathering = self._gathered[node_id] = _Gathering()
        gathering.add(message, key, item, same)

    def _close_gathered(self, node_id: str | None = None) -> None:
        """Queue the messages being gathered for ``node_id`` (default: every node), in the order
        they were begun."""
        for node in list(self._gathered) if node_id is None else [node_id]:
            gathering = self._gathered.pop(node, None)
            if gathering is not None:
                for message in gathering.messages:
                    self._queue(node, message, None)

    def _queue(self, node_id: str, message: dict[str, Any], request_id: str | None) -> None:
        """Queue ``message``; the request ``request_id`` it carries fails if it is dropped."""
        if node_id in self._gathered:
            self._close_gathered(node_id)  # queued before this one, as they were asked
        number = self._sent.get(node_id, 0) + 1
        numbered = {**message, SENDER: self.node_id, INCARNATION: self.incarnation, NUMBER: number}
        heard = self._heard.get(node_id)
        if heard is not None and heard[0] is not None:
            numbered[RECEIVER] = heard[0]
        data = dumps(numbered)
        self._sent[node_id] = number
        try:
            self._out.put_nowait((channel(self.prefix, node_id), data, request_id))
        except asyncio.QueueFull:
            if not self.dropped:
                log.error("bus: %d messages wait to be published; dropping more", MAX_QUEUED)
            self.dropped += 1
            if request_id is not None:
                self._fail_request(request_id)

    def silent_for(self) -> float:
        """Seconds since the inbox last heard anything. A working inbox is pinged after
        ``PING_AFTER`` of quiet, so more than ``DEAD_AFTER`` means this node cannot hear Redis
        (the count goes on while it has no connection)."""
        return time.monotonic() - self._heard_at

    def incarnation_of(self, node_id: str) -> str | None:
        """The incarnation of ``node_id`` this node last heard from (``None``: none heard, or an older
        sender that says none)."""
        heard = self._heard.get(node_id)
        return None if heard is None else heard[0]

    def peers(self) -> set[str]:
        """The nodes this one has numbered messages to or from."""
        return set(self._sent) | set(self._heard)

    def forget(self, node_id: str) -> None:
        """Forget the numbering to and from ``node_id`` (a node that left the cluster)."""
        self._sent.pop(node_id, None)
        self._heard.pop(node_id, None)

    def expect(self) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        """A new request id and the future its ``rep`` will complete."""
        rid = uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        return rid, fut

    def abandon(self, rid: str) -> None:
        """Stop waiting for the reply to request ``rid`` (one that could not be sent)."""
        self._asked.pop(rid, None)
        fut = self._waiting.pop(rid, None)
        if fut is not None and not fut.done():
            fut.cancel()

    def _fail_request(self, rid: str) -> None:
        """Request ``rid``, if still waited on, gets ``BusTimeout`` now (it or its reply was lost)."""
        fut = self._waiting.get(rid)
        if fut is not None and not fut.done():
            fut.set_exception(BusTimeout(rid))

    def _fail_requests_to(self, node_id: str) -> None:
        """Requests waiting on ``node_id`` get ``BusTimeout`` now (a request or its reply was lost)."""
        for rid in [r for r, n in self._asked.items() if n == node_id]:
            self._fail_request(rid)

    def _fail_unnumbered_requests(self) -> None:
        """Requests whose reply does not come from a node (a bot decision, answered by a worker
        without a number) get ``BusTimeout`` now: their reply may have been lost while the inbox
        was away, and no numbering would show it. Those waiting on a node learn of a loss from
        that node's numbering."""
        for rid in [r for r in self._waiting if r not in self._asked]:
            self._fail_request(rid)

    async def wait_reply(
        self,
        rid: str,
        fut: asyncio.Future[dict[str, Any]],
        timeout: float,
        still: Callable[[], Awaitable[bool]] | None = None,
        every: float = 1.0,
    ) -> dict[str, Any]:
        """The reply to request ``rid``; ``BusTimeout`` after ``timeout`` seconds, or as soon as
        ``still`` (asked every ``every`` seconds) says the reply is no longer worth waiting for."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    raise BusTimeout(rid)
                done, _ = await asyncio.wait({fut}, timeout=left if still is None else min(left, every))
                if done:
                    return fut.result()
                if still is not None and loop.time() < deadline and not await still():
                    raise BusTimeout(rid)
        finally:
            self._waiting.pop(rid, None)
            self._asked.pop(rid, None)
            if not fut.done():
                fut.cancel()

    async def request(
        self,
        node_id: str,
        message: dict[str, Any],
        timeout: float,
        still: Callable[[], Awaitable[bool]] | None = None,
        every: float = 1.0,
    ) -> dict[str, Any]:
        """Send a request to ``node_id`` and wait for its reply (see :meth:`wait_reply`)."""
        rid, fut = self.expect()
        self._asked[rid] = node_id
        self._queue(node_id, {**message, "k": "req", "id": rid, "from": self.node_id}, rid)
        return await self.wait_reply(rid, fut, timeout, still, every)

    def reply(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        """Answer ``request`` (sent to the node it came from)."""
        self.publish(str(request["from"]), {**answer, "k": "rep", "id": request["id"]})

    async def _publisher(self) -> None:
        while True:
            item = await self._out.get()
            batch = [item]
            while not self._out.empty() and len(batch) < 500:
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for ch, data, _ in batch:
                        pipe.publish(ch, data)
                    await pipe.execute()
                self.published += len(batch)
                self.published_bytes += sum(len(data) for _, data, _ in batch)
                self._publishing.succeeded()
            except Exception as exc:
                self._publishing.failed(f"{type(exc).__name__}; a batch of {len(batch)} lost")
                for _, _, rid in batch:
                    if rid is not None:
                        self._fail_request(rid)
                await asyncio.sleep(0.2)

    # --- receiving ----------------------------------------------------------------------
    async def _reader(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.prefix, self.node_id))
                if self._subscribed.is_set():  # subscribed again: replies sent meanwhile are lost
                    self._fail_unnumbered_requests()
                self._subscribed.set()
                self._heard_at = time.monotonic()
                self._subscribing.succeeded()
                await self._read_inbox(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._subscribing.failed(type(exc).__name__)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), COMMAND_SECONDS)

    async def _read_inbox(self, pubsub: PubSub) -> None:
        """Handle the inbox's messages until its connection fails or goes silent.

        Silence is the time spent waiting on the connection with nothing arriving: a wait that
        ends late (the event loop was stalled, by a long handler or a paused process) counts only
        as long as it was meant to last.
        """
        loop = asyncio.get_running_loop()
        wait = PING_AFTER / 2
        quiet = 0.0
        ping_at = PING_AFTER
        while True:
            began = loop.time()
            m = await pubsub.get_message(timeout=wait)
            if m is None:
                quiet += min(loop.time() - began, wait)
                if quiet > DEAD_AFTER:
                    m = await pubsub.get_message(timeout=LAST_READ_SECONDS)
                    if m is None:
                        raise TimeoutError("the inbox's connection went silent")
            if m is not None:
                quiet, ping_at = 0.0, PING_AFTER
                self._heard_at = time.monotonic()
                if m.get("type") == "message":
                    await self._dispatch(loads(m["data"]))
            elif quiet >= ping_at:
                ping_at = quiet + PING_AFTER
                await pubsub.ping()

    def _lost(self, sender: str) -> None:
        """Messages from ``sender`` were lost: fail what waits on it, tell it, tell the node."""
        self.gaps += 1
        self._fail_requests_to(sender)
        self.publish(sender, {"k": "gap"})
        if self._on_gap is not None:
            try:
                self._on_gap(sender)
            except Exception:
                log.exception("bus: handling lost messages failed")

    def _numbered(self, message: dict[str, Any]) -> tuple[str | None, bool]:
        """The message's sender, and whether its number says that messages before it were lost."""
        sender, number = message.pop(SENDER, None), message.pop(NUMBER, None)
        incarnation = message.pop(INCARNATION, None)
        if not isinstance(sender, str) or not isinstance(number, int):
            origin = message.get("from")
            if isinstance(origin, str) and origin in self._heard:  # a node of a version that numbers nothing
                self._heard[origin] = (None, 0, False)  # whatever its name said before is not this process's
            return None, False
        if not isinstance(incarnation, str):
            incarnation = None  # an older sender: its 1 is taken for a new start
        addressed = message.pop(RECEIVER, None)
        ours = not isinstance(addressed, str) or addressed == self.incarnation
        before = self._heard.get(sender)
        self._heard[sender] = (incarnation, number, ours)
        if before is not None and before[0] is not None and incarnation is not None and before[0] != incarnation:
            self._sent.pop(sender, None)  # the sender started again: what this node sends it is numbered anew
        if not ours:  # numbered for this node's name before it started: nothing to compare it with
            return sender, False
        last = before[1] if before is not None and before[0] == incarnation and before[2] else 0
        if number == last + 1 or (incarnation is None and number == 1):
            return sender, False
        log.warning("bus: messages from %s were lost (%d after %d)", sender, number, last)
        return sender, True

    async def _dispatch(self, message: dict[str, Any]) -> None:
        if not self.listening:
            return
        self.received += 1
        sender, skipped = self._numbered(message)
        try:
            await self._handle(message, sender)
        finally:
            if skipped and sender is not None:  # after the message itself (a reply still answers)
                self._lost(sender)

    async def _handle(self, message: dict[str, Any], sender: str | None) -> None:
        if message.get("k") == "gap":
            if sender is not None:
                self._fail_requests_to(sender)  # what this node asked of the sender may be lost
            return
        if message.get("k") == "rep":
            fut = self._waiting.get(str(message.get("id")))
            if fut is not None and not fut.done():
                fut.set_result(message)
            return
        handler = self._handler
        if handler is None:
            return
        try:
            result = handler(message)
            if result is not None:
                await result
        except Exception:
            log.exception("bus: a %s message failed", message.get("k"))


__all__ = ["Bus", "BusTimeout", "Handler", "channel"]
