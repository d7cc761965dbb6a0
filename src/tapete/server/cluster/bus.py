"""The nodes' message bus on Redis pub/sub: one inbox channel per node, request/reply on top.

Every node subscribes to its own channel (``{prefix}node:{node_id}``) and to nothing
else, so a message reaches exactly the node it is addressed to. Messages are JSON
objects with a kind ``k``: ``req`` (a request, answered by a ``rep`` with the same
``id``), ``rep``, and whatever the node defines (``out``, ``close``, ``bye``).

One task publishes, in the order messages were queued, through one connection (batched
in a pipeline), so the messages a node sends another arrive in the order it sent them.
Pub/sub delivers at most once: a node that is away loses what was sent to it, which is
why a socket whose owner cannot be reached is closed and reconnects to a full view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

from tapete.server.jsoncodec import dumps, loads

log = logging.getLogger("tapete.server")

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class BusTimeout(Exception):
    """A request got no reply in time (its node is gone or too busy)."""


def channel(prefix: str, node_id: str) -> str:
    """The inbox channel of ``node_id``."""
    return f"{prefix}node:{node_id}"


class Bus:
    """One node's end of the bus."""

    def __init__(self, url: str, prefix: str, node_id: str) -> None:
        self.url = url
        self.prefix = prefix
        self.node_id = node_id
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self._subscribed = asyncio.Event()
        self._on_gap: Callable[[], None] | None = None

    async def start(self, handler: Handler, on_gap: Callable[[], None] | None = None) -> None:
        """Subscribe to this node's inbox and start publishing; ``handler`` gets every message but replies.

        ``on_gap`` is called when the inbox is subscribed again after a failure: what was
        sent meanwhile is lost.
        """
        self._handler = handler
        self._on_gap = on_gap
        self._tasks = [
            asyncio.create_task(self._publisher(), name="bus-publish"),
            asyncio.create_task(self._reader(), name="bus-read"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.redis.aclose()

    # --- sending ------------------------------------------------------------------------
    def publish(self, node_id: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node_id`` (never blocks; sent in order)."""
        self._out.put_nowait((channel(self.prefix, node_id), dumps(message)))

    def expect(self) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        """A new request id and the future its ``rep`` will complete."""
        rid = uuid.uuid4().hex
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        return rid, fut

    async def wait_reply(self, rid: str, fut: asyncio.Future[dict[str, Any]], timeout: float) -> dict[str, Any]:
        """The reply to request ``rid``; ``BusTimeout`` after ``timeout`` seconds."""
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise BusTimeout(rid) from None
        finally:
            self._waiting.pop(rid, None)

    async def request(self, node_id: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request to ``node_id`` and wait for its reply."""
        rid, fut = self.expect()
        self.publish(node_id, {**message, "k": "req", "id": rid, "from": self.node_id})
        return await self.wait_reply(rid, fut, timeout)

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
                    for ch, data in batch:
                        pipe.publish(ch, data)
                    await pipe.execute()
            except Exception as exc:
                log.error("bus: %d messages could not be published (%s)", len(batch), type(exc).__name__)
                await asyncio.sleep(0.2)

    # --- receiving ----------------------------------------------------------------------
    async def _reader(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(channel(self.prefix, self.node_id))
                if self._subscribed.is_set() and self._on_gap is not None:
                    self._on_gap()
                self._subscribed.set()
                while True:
                    m = await pubsub.get_message(timeout=1.0)
                    if m is not None and m.get("type") == "message":
                        await self._dispatch(loads(m["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("bus: the inbox subscription failed (%s); subscribing again", type(exc).__name__)
                await asyncio.sleep(0.5)

    async def _dispatch(self, message: dict[str, Any]) -> None:
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
