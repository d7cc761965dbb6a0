"""A socket held by another node, as the owner's table sees it, and what carries its messages there.

The owner of a table keeps one ``RemoteConnection`` per socket that joined it through
another node. It is a ``Connection`` whose ``send`` publishes the message's JSON text (the
same text its local sockets get, encoded once per distinct view) to that node's inbox,
addressed to the socket; the table gives it exactly what it gives a local socket
of the same seat (its own observation, or the spectators' view), so no other seat's cards
ever travel on the bus. The node holding the socket passes each message on unread.

A message the table gives several sockets of one node in one go (the spectators' state, most
often) travels as one ``outs`` message naming them all, once that node has said it reads them;
until then, and to a node that never says so (an older version during a rolling deploy), as one
``out`` message per socket.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Final, cast

from starlette.websockets import WebSocket

from tapete.server.cluster.bus import Bus
from tapete.server.connection import Connection
from tapete.server.protocol import encode
from tapete.server.table import Message

GATHERED: Final = "outs"
"""The kind of a message that carries one text for several sockets of its node (``cids``)."""
SUMMED_LINKS: Final = "links-summed"
"""``links`` that carry the number and sum of their sockets (``n``, ``x``) rather than their list,
whose receiver asks for the list (``list``) when they differ from what it holds."""
READS: Final = (GATHERED, SUMMED_LINKS)
"""The kinds beyond the first version's that this version reads, which its ``links`` announce."""


def links_sum(cids: Iterable[str]) -> int:
    """A sum of socket ids that does not depend on their order (CRC-32 of each, exclusive-or'd):
    with their number, what two nodes compare to know that they hold the same sockets."""
    total = 0
    for cid in cids:
        total ^= zlib.crc32(cid.encode())
    return total


class Outbox:
    """What this node's tables send to sockets held by other nodes, onto the bus.

    Each node tells the others which kinds it reads (``heard_reads``, from its ``links``); that is
    kept with the incarnation it came from, so a node heard from again under the same name as a
    new process (perhaps an older version) gets single messages until it says otherwise. (Until
    this node hears the new process, what it sends there is for sockets of the old one, which
    the new one does not hold.)"""

    def __init__(self, bus: Bus, node_id: str) -> None:
        self.bus = bus
        self.node_id = node_id
        self._reads: dict[str, tuple[str | None, frozenset[str]]] = {}

    def heard_reads(self, node_id: str, kinds: object) -> None:
        """``node_id`` (in the incarnation just heard) reads ``kinds`` (anything else: none)."""
        listed = [str(k) for k in kinds] if isinstance(kinds, list) else []
        self._reads[node_id] = (self.bus.incarnation_of(node_id), frozenset(listed))

    def forget(self, node_id: str) -> None:
        """Forget what ``node_id`` said it reads (it left the cluster)."""
        self._reads.pop(node_id, None)

    def reads(self, node_id: str, kind: str) -> bool:
        """Whether ``node_id``, as last heard, reads messages of ``kind``."""
        said = self._reads.get(node_id)
        return said is not None and kind in said[1] and said[0] == self.bus.incarnation_of(node_id)

    def send(self, node_id: str, conn_id: str, message: Message) -> None:
        """Publish ``message`` (as the socket will get it) to socket ``conn_id`` of ``node_id``."""
        text = encode(message)
        if self.reads(node_id, GATHERED):
            envelope = {"k": GATHERED, "t": text, "from": self.node_id}
            self.bus.publish_gathered(node_id, envelope, "cids", conn_id, message)
        else:
            self.bus.publish(node_id, {"k": "out", "cid": conn_id, "t": text, "from": self.node_id})

    def close(self, node_id: str, conn_id: str) -> None:
        """Ask ``node_id`` to close its socket ``conn_id`` (its client reconnects and says hello again)."""
        self.bus.publish(node_id, {"k": "close", "cid": conn_id, "from": self.node_id})


def addressed(message: dict[str, object]) -> Iterable[str]:
    """The sockets an ``out`` or ``outs`` message is for."""
    if message.get("k") == GATHERED:
        cids = message.get("cids")
        return [str(c) for c in cids] if isinstance(cids, list) else []
    return [str(message.get("cid"))]


class RemoteConnection(Connection):
    """Socket ``conn_id`` of node ``node_id``, joined to a table of this node."""

    def __init__(self, node_id: str, conn_id: str, outbox: Outbox, rate: tuple[float, float]) -> None:
        super().__init__(cast(WebSocket, None), rate)
        self.node_id = node_id
        self.conn_id = conn_id
        self._outbox = outbox

    def send(self, message: Message) -> None:
        """Publish ``message`` (as the socket will get it) to the socket's node."""
        self._outbox.send(self.node_id, self.conn_id, message)

    def close(self, code: int | None = None) -> None:
        """Ask the socket's node to close it (its client reconnects and says hello again)."""
        self._outbox.close(self.node_id, self.conn_id)

    async def writer(self) -> None:
        """Nothing to write here: the socket's node writes."""
        return None


__all__ = ["GATHERED", "READS", "SUMMED_LINKS", "Outbox", "RemoteConnection", "addressed", "links_sum"]
