"""Fixtures for the cluster tests: a PostgreSQL prefix and a Redis prefix per test (skipped when absent)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from tests.cluster.inprocess import Nodes
from tests.server.helpers import postgres_url, unique_prefix

REDIS_URL = os.environ.get("TAPETE_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def pg_base() -> str:
    url = postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL reachable at 127.0.0.1:5432 (database test, user postgres or root, trust auth)")
    return url


def drop_cluster_tables(url: str, prefix: str) -> None:
    """Drop every table whose name starts with ``prefix`` (the log's, the leases', any other part's)."""
    import sqlalchemy as sa

    from tapete.server.db import Store

    store = Store(url)
    try:
        with store.engine.begin() as c:
            names = c.execute(
                sa.text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, :p)"
                ),
                {"p": prefix},
            ).scalars()
            for name in list(names):
                c.execute(sa.text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
    finally:
        store.dispose()


@pytest.fixture
def pg(pg_base: str) -> Iterator[tuple[str, str]]:
    """(url, table prefix) on the real PostgreSQL; every prefixed table is dropped afterwards."""
    prefix = unique_prefix()
    yield pg_base, prefix
    drop_cluster_tables(pg_base, prefix)


@pytest.fixture(scope="session")
def redis_base() -> str:
    try:
        import redis
    except ImportError:
        pytest.skip("the redis package is not installed (pip install 'tapete[cluster]')")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis reachable at {REDIS_URL} (set TAPETE_REDIS_URL)")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
def rd(redis_base: str) -> Iterator[tuple[str, str]]:
    """(Redis URL, key prefix) for one test; its keys are deleted afterwards."""
    import redis

    prefix = f"tapete-test:{unique_prefix()}"
    yield redis_base, prefix
    client = redis.Redis.from_url(redis_base)
    with contextlib.suppress(redis.RedisError):
        keys = list(client.scan_iter(match=f"{prefix}*"))
        if keys:
            client.delete(*keys)
    client.close()


@pytest.fixture
def nodes(pg: tuple[str, str], rd: tuple[str, str]) -> Iterator[Nodes]:
    """In-process nodes on this test's prefixes, stopped afterwards."""
    n = Nodes(pg, rd)
    with n.stack:
        yield n
