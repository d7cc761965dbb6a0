"""Fixtures for the server tests: a database per test (SQLite, or PostgreSQL when reachable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import drop_prefixed, postgres_url, unique_prefix


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tapete.db'}"


@pytest.fixture(scope="session")
def pg_base() -> str:
    url = postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL reachable at 127.0.0.1:5432 (database test, user postgres or root, trust auth)")
    return url


@pytest.fixture
def pg(pg_base: str) -> Iterator[tuple[str, str]]:
    """(url, table prefix) on the real PostgreSQL; the prefixed tables are dropped afterwards."""
    prefix = unique_prefix()
    yield pg_base, prefix
    drop_prefixed(pg_base, prefix)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(url, prefix) for SQLite and for PostgreSQL (skipped when none is reachable)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tapete.db'}", ""
        return
    base = request.getfixturevalue("pg_base")
    prefix = unique_prefix()
    yield base, prefix
    drop_prefixed(base, prefix)
