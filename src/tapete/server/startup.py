"""Checks before ``tapete serve`` starts: is the data folder (or database) usable?

Each problem is one line for the operator (``StartupError``), raised before anything is
served or an address is printed.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

from tapete.server.db import Store

if TYPE_CHECKING:
    from tapete.server.cluster.node import ClusterSettings

MIN_FREE_BYTES = 16 * 1024 * 1024
"""Free space the SQLite data folder needs at start."""


class StartupError(Exception):
    """The server cannot start; the message is one line for the operator."""


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL (``None`` for other databases or in-memory SQLite)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix) :] in ("", ":memory:"):
        return None
    return Path(url[len(prefix) :])


def check_folder(folder: Path) -> None:
    """The folder exists (or can be made), is writable and has room."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(f"cannot create the data folder {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StartupError(f"the data folder {folder} is not writable")
    free = shutil.disk_usage(folder).free
    if free < MIN_FREE_BYTES:
        raise StartupError(
            f"the data folder {folder} is full ({free // 1024} KiB free, {MIN_FREE_BYTES >> 20} MiB needed)"
        )
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tapete-check-") as f:
            f.write(b"\0" * 65536)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise StartupError(f"the data folder {folder} is full") from None
        raise StartupError(f"cannot write in the data folder {folder}: {exc.strerror or exc}") from None


def unusable_database(url: str, exc: sa.exc.SQLAlchemyError) -> StartupError:
    """The operator's line for a database that failed, with the driver's first line of why."""
    reason = str(getattr(exc, "orig", exc)).splitlines()[0][:200]
    return StartupError(f"cannot use the database {safe_url(url)}: {reason}")


def check_database(url: str, prefix: str = "") -> None:
    """The data folder (SQLite) is usable and the event log's schema can be created or read."""
    path = sqlite_path(url)
    if path is not None:
        check_folder(path.parent)
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StartupError(f"the database file {path} is not readable and writable")
    store = Store(url, prefix=prefix)
    try:
        store.create_schema()
    except sa.exc.SQLAlchemyError as exc:
        raise unusable_database(url, exc) from None
    finally:
        store.dispose()


def cluster_settings(
    db_url: str, redis_url: str, node_id: str, redis_prefix: str, remote_bots: bool
) -> ClusterSettings:
    """A node's settings once its database is PostgreSQL and its Redis answers; else ``StartupError``."""
    if not db_url.startswith(("postgresql", "postgres:")):
        raise StartupError("several nodes share one PostgreSQL log: give --db postgresql://…")
    try:
        import redis
    except ImportError:
        raise StartupError("--redis needs the redis package (pip install 'tapete[cluster]')") from None
    from tapete.server.cluster.node import ClusterSettings

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise StartupError(f"cannot use Redis at {safe_url(redis_url)}: {str(exc)[:200]}") from None
    finally:
        client.close()
    return ClusterSettings(redis_url=redis_url, node_id=node_id, redis_prefix=redis_prefix, remote_bots=remote_bots)


def check_node_name(db_url: str, table_prefix: str, node_id: str) -> None:
    """No node is alive under ``--node-id``, or none is once its last heartbeat runs out (a node
    killed a moment ago); else ``StartupError``. Two processes under one name would give up each
    other's leases and share an inbox on the bus; the node itself takes the name as it starts."""
    from tapete.server.cluster.lease import Leases, NodeNameInUse

    store = Store(db_url, prefix=table_prefix)
    leases = Leases(store)
    try:
        leases.create_schema()
        left = leases.wait_for_name(node_id)
    except sa.exc.SQLAlchemyError as exc:
        raise unusable_database(db_url, exc) from None
    finally:
        store.dispose()
    if left > 0:
        raise StartupError(str(NodeNameInUse(node_id, left)))


def safe_url(url: str) -> str:
    """A database URL without its credentials."""
    return url.split("@")[-1] if "@" in url else url


__all__ = [
    "MIN_FREE_BYTES",
    "StartupError",
    "check_database",
    "check_folder",
    "check_node_name",
    "cluster_settings",
    "safe_url",
    "sqlite_path",
]
