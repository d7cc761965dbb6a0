"""A socket held by another node, as the owner's table sees it.

The owner of a table keeps one ``RemoteConnection`` per socket that joined it through
another node. It is a ``Connection`` whose ``send`` publishes the message's JSON text (the
same text its local sockets get, encoded once per distinct view) to that node's inbox,
addressed to the socket; the table gives it exactly what it gives a local socket
of the same seat (its own observation, or the spectators' view), so no other seat's cards
ever travel on the bus. The node holding the socket passes each message on unread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from starlette.websockets import WebSocket

from tapete.server.connection import Connection
from tapete.server.protocol import encode
from tapete.server.table import Message


class RemoteConnection(Connection):
    """Socket ``conn_id`` of node ``node_id``, joined to a table of this node."""

    def __init__(
        self, node_id: str, conn_id: str, deliver: Callable[[str, dict[str, Any]], None], rate: tuple[float, float]
    ) -> None:
        super().__init__(cast(WebSocket, None), rate)
        self.node_id = node_id
        self.conn_id = conn_id
        self._deliver = deliver

    def send(self, message: Message) -> None:
        """Publish ``message`` (as the socket will get it) to the socket's node."""
        self._deliver(self.node_id, {"k": "out", "cid": self.conn_id, "t": encode(message)})

    def close(self, code: int | None = None) -> None:
        """Ask the socket's node to close it (its client reconnects and says hello again)."""
        self._deliver(self.node_id, {"k": "close", "cid": self.conn_id})

    async def writer(self) -> None:
        """Nothing to write here: the socket's node writes."""
        return None


__all__ = ["RemoteConnection"]
