"""HTTP calls about a table answered by its owner, and the lobby's list gathered from every node.

``TableRouting`` is an ASGI middleware of a node. A call under ``/api/tables/{id}`` (but
``…/record``, which every node reads from the log) for an open table another live node
owns is sent to that node on the bus; the owner runs it through its own application and
replies with the response, which is passed back as it is. The call waits for the answer as
long as the owner lives and holds the table (every ``OWNER_CHECK_SECONDS``), up to
``FORWARD_SECONDS``. A call about a table that is moving waits for the move, wherever it
arrives (``ClusterNode.locate``): one this node is taking over, one whose lease was given up and
not yet taken (this node then takes the table), and, on the owner, one it is still rebuilding.
When the owner died or gave the table up meanwhile (it answers ``gone``), the call goes where the
table is now, or is answered here; when the owner is there but silent it is refused as ``busy``
(503). The body is read here under the API's own limits (``MAX_API_BODY``,
``Limits.body_seconds``).
``GET /api/tables`` answers this node's open tables together with every other live node's
(``tapete.server.cluster.lobby``: each node asked once at a time, its answer kept a second). A
call that came from another node (header ``x-tapete-forwarded``) is always answered where it
arrives. At most ``FORWARD_AT_ONCE`` calls are forwarded at once; more are refused ``busy``.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tapete.errors import TapeteError
from tapete.server.address import scope_address
from tapete.server.apirate import FORWARDED_SCOPE
from tapete.server.cluster.bus import BusTimeout
from tapete.server.errors import ServerError
from tapete.server.http import error_response
from tapete.server.limits import MAX_API_BODY
from tapete.server.requests import read_body

if TYPE_CHECKING:
    from tapete.server.cluster.node import ClusterNode

FORWARDED: Final = b"x-tapete-forwarded"
TABLE_PATH: Final = re.compile(r"^/api/tables/([^/]{1,64})(/.*)?$")
FORWARD_SECONDS: Final = 120.0
"""Longest a call waits for its table's owner while the owner lives (an analysis takes a while)."""
FORWARD_AT_ONCE: Final = 64
"""Most calls a node waits on other nodes' answers for at once (more are refused ``busy``):
each sent its body through the bus."""
OWNER_CHECK_SECONDS: Final = 2.0
"""How often a call waiting for another node checks that the node still lives and holds the table."""


async def run_request(app: ASGIApp, request: dict[str, Any]) -> dict[str, Any]:
    """Run a forwarded HTTP request through ``app``; its response as ``{"status", "headers", "body"}``."""
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request["headers"]]
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request["method"],
        "scheme": "http",
        "path": request["path"],
        "raw_path": request["path"].encode("utf-8"),
        "query_string": request["query"].encode("latin-1"),
        "headers": [*headers, (FORWARDED, b"1")],
        "client": (request["client"], 0),
        "server": ("127.0.0.1", 0),
        "root_path": "",
        FORWARDED_SCOPE: True,  # counted where it arrived (``ApiRate``)
    }
    body = request["body"].encode("latin-1")
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    out: dict[str, Any] = {"status": 500, "headers": [], "body": ""}
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    out["body"] = b"".join(chunks).decode("latin-1")
    return out


def table_of(path: str) -> str | None:
    """The table a call about one table names (``None`` for other calls, and for ``…/record``,
    which every node reads from the log)."""
    m = TABLE_PATH.match(path)
    return m.group(1) if m is not None and m.group(2) != "/record" else None


def forwarded_table(request: dict[str, Any]) -> str | None:
    """The table a forwarded call (``run_request``'s form) is about, if it is about one."""
    return table_of(str(request.get("path", "")))


class TableRouting:
    """The middleware (see the module's description); the node is the application's hub's ``ownership``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.forwarding = 0
        """Calls waiting for another node's answer."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from tapete.server.cluster.node import ClusterNode

        hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
        node = getattr(hub, "ownership", None)
        if (
            not isinstance(node, ClusterNode)
            or scope["type"] != "http"
            or any(k == FORWARDED for k, _ in scope.get("headers", []))
        ):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path == "/api/tables" and scope["method"] == "GET":
            await self._list(node, scope, receive, send)
            return
        table_id = table_of(path)
        if table_id is None:
            await self.app(scope, receive, send)
            return
        await self._route(node, table_id, scope, receive, send)

    async def _route(self, node: ClusterNode, table_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a call about ``table_id`` here, or send it to the table's owner."""
        path: str = scope["path"]
        body: bytes | None = None
        request: dict[str, Any] = {}
        for _ in range(3):  # until the table's owner answers, or the call is answered here
            try:
                owner = await node.locate(table_id, scope_address(scope))
            except TapeteError as exc:
                await _refuse(exc, scope, receive, send)
                return
            if owner is None:
                await self.app(scope, receive if body is None else _replaying(body), send)
                return
            if body is None:
                try:
                    body = await read_body(Request(scope, receive), MAX_API_BODY, node.hub.limits.body_seconds)
                except TapeteError as exc:
                    await _refuse(exc, scope, receive, send)
                    return
                request = forwarded_request(scope, scope["method"], path, body)
            if self.forwarding >= FORWARD_AT_ONCE:
                await _refuse(
                    ServerError("busy", "too many calls wait for other nodes; try again"), scope, receive, send
                )
                return
            self.forwarding += 1
            try:
                answer = await self._ask(node, table_id, owner.node_id, request)
            finally:
                self.forwarding -= 1
            if "status" in answer:
                await _respond(send, answer)
                return
            if not answer.get("gone"):  # the owner lives and holds the table but did not answer
                busy = ServerError("busy", "the node that holds this table did not answer in time")
                await _refuse(busy, scope, receive, send)
                return
            # the owner died or gave the table up meanwhile: asked again where the table is now
        await _refuse(ServerError("busy", "the table is moving between nodes; try again"), scope, receive, send)

    @staticmethod
    async def _ask(node: ClusterNode, table_id: str, owner: str, request: dict[str, Any]) -> dict[str, Any]:
        """The owner's answer (``status``, ``headers``, ``body``); ``{"gone": True}`` when the owner
        no longer holds the table or is no longer alive, ``{}`` when it holds it but did not answer."""

        async def still_owner() -> bool:
            try:
                return await node.owner_elsewhere(table_id) == owner
            except Exception:  # the database cannot say: the owner is taken to be there still
                return True

        try:
            answer: dict[str, Any] = await node.bus.request(
                owner, {"op": "http", "request": request}, FORWARD_SECONDS, still_owner, OWNER_CHECK_SECONDS
            )
        except BusTimeout:
            answer = {}
        if "status" in answer or answer.get("gone"):
            return answer
        return {} if await still_owner() else {"gone": True}

    async def _list(self, node: ClusterNode, scope: Scope, receive: Receive, send: Send) -> None:
        local = await run_request(
            scope["app"],  # the whole application (the call is marked forwarded: it passes here untouched)
            forwarded_request(scope, "GET", "/api/tables", b""),
        )
        if local["status"] == 200:
            tables = json.loads(local["body"].encode("latin-1"))
            seen = {t.get("id") for t in tables}
            for theirs in await node.peer_tables.of(node.live_others()):
                for t in theirs:
                    if t.get("id") not in seen:
                        seen.add(t.get("id"))
                        tables.append(t)
            local["body"] = json.dumps(tables, separators=(",", ":"))
            local["headers"] = [[k, v] for k, v in local["headers"] if k.lower() != "content-length"]
        await _respond(send, local)


def forwarded_request(scope: Scope, method: str, path: str, body: bytes) -> dict[str, Any]:
    """A call as it travels to another node (:func:`run_request` runs it there): the scope's
    query, headers and caller's address with ``method``, ``path`` and ``body``, as JSON text."""
    return {
        "method": method,
        "path": path,
        "query": scope.get("query_string", b"").decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", [])],
        "client": scope_address(scope),
        "body": body.decode("latin-1"),
    }


def _replaying(body: bytes) -> Receive:
    """An ASGI ``receive`` that gives a body already read once more."""
    replay = [body]

    async def receive() -> Message:
        return {"type": "http.request", "body": replay.pop() if replay else b"", "more_body": False}

    return receive


async def _refuse(error: TapeteError, scope: Scope, receive: Receive, send: Send) -> None:
    await error_response(error, Request(scope, receive))(scope, receive, send)


async def _respond(send: Send, answer: dict[str, Any]) -> None:
    body = str(answer["body"]).encode("latin-1") if isinstance(answer["body"], str) else b""
    headers = [(str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in answer["headers"]]
    headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": int(answer["status"]), "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["TableRouting", "run_request"]
