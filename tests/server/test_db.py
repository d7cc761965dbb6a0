"""The event log's schema: one key on ``(table_id, seq)``, and logs made by earlier versions still work."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from tapete.server.db import Store
from tests.server.helpers import stored_row


def _old_schema(url: str, prefix: str) -> None:
    """The schema as earlier versions created it: ``events`` with a primary key *and* a unique constraint."""
    store = Store(url, prefix=prefix)
    try:
        md = sa.MetaData()
        store.tables.to_metadata(md)
        store.seats.to_metadata(md)
        sa.Table(
            f"{prefix}events",
            md,
            *(sa.Column(c.name, c.type, nullable=c.nullable) for c in store.events.columns),
            sa.ForeignKeyConstraint(["table_id"], [f"{prefix}tables.id"]),
            sa.PrimaryKeyConstraint("table_id", "seq", name=f"{prefix}events_pk"),
            sa.UniqueConstraint("table_id", "seq", name=f"{prefix}events_table_seq"),
        )
        md.create_all(store.engine)
    finally:
        store.dispose()


def _use(store: Store) -> None:
    """Create a table, log two actions, refuse a duplicate sequence number, read it all back."""
    store.create_schema()
    store.insert_table(stored_row("t1"))
    store.append_event("t1", 0, 0, {"seat": 0, "play": ["3H"]})
    store.append_event("t1", 1, 0, {"seat": 1, "pass": True})
    with pytest.raises(sa.exc.IntegrityError):
        store.append_event("t1", 1, 0, {"seat": 1, "play": ["4H"]})
    [loaded] = store.load_open_tables()
    assert [seq for seq, _, _ in loaded.events] == [0, 1]
    assert loaded.events[1][2] == {"seat": 1, "pass": True}
    assert store.count_events("t1") == 2


def test_events_have_one_key_on_table_and_seq(db: tuple[str, str]) -> None:
    url, prefix = db
    store = Store(url, prefix=prefix)
    try:
        _use(store)
        inspector = sa.inspect(store.engine)
        assert inspector.get_pk_constraint(f"{prefix}events")["constrained_columns"] == ["table_id", "seq"]
        assert inspector.get_unique_constraints(f"{prefix}events") == []
    finally:
        store.dispose()


def test_a_log_made_with_the_old_unique_constraint_still_works(db: tuple[str, str]) -> None:
    url, prefix = db
    _old_schema(url, prefix)
    store = Store(url, prefix=prefix)
    try:
        uniques = [u["column_names"] for u in sa.inspect(store.engine).get_unique_constraints(f"{prefix}events")]
        # SQLite kept both; PostgreSQL already folded the duplicate into the primary key
        assert uniques == ([["table_id", "seq"]] if url.startswith("sqlite") else [])
        _use(store)
    finally:
        store.dispose()


def test_postgresql_connections_carry_keepalives_and_a_send_timeout(pg_base: str) -> None:
    """The database threads' connections carry keepalives and a send timeout (``PG_CONNECT_ARGS``),
    and every connection asks the server to give up on a client that vanished
    (``PG_SESSION_SETTINGS``); a setting the URL gives wins."""
    from tapete.server.db import PG_CONNECT_ARGS, PG_SESSION_SETTINGS

    def thread_side(url: str) -> tuple[dict[str, str], dict[str, str]]:
        store = Store(url)
        raw = store.engine.raw_connection()
        try:
            conn = raw.driver_connection
            shown = {k: str(conn.execute(f"SHOW {k}").fetchone()[0]) for k in PG_SESSION_SETTINGS}  # type: ignore[union-attr]
            return dict(conn.info.get_parameters()), shown  # type: ignore[union-attr]
        finally:
            raw.close()
            store.dispose()

    def loop_side(url: str) -> dict[str, str]:
        async def show() -> dict[str, str]:
            store = Store(url)
            try:
                conn = await store.open_async_connection()
                try:
                    return {k: str(await conn.fetchval(f"SHOW {k}")) for k in PG_SESSION_SETTINGS}
                finally:
                    await conn.close()
            finally:
                store.dispose()

        return asyncio.run(show())

    ours = {
        "idle_in_transaction_session_timeout": "5s",
        "tcp_keepalives_idle": "10",
        "tcp_keepalives_interval": "5",
        "tcp_keepalives_count": "3",
    }
    given, shown = thread_side(pg_base)
    assert {k: given.get(k) for k in PG_CONNECT_ARGS if k != "options"} == {
        k: str(v) for k, v in PG_CONNECT_ARGS.items() if k != "options"
    }
    assert shown == ours and loop_side(pg_base) == ours
    joiner = "&" if "?" in pg_base else "?"
    own = (
        f"{pg_base}{joiner}keepalives_idle=60&connect_timeout=3&options=-c%20idle_in_transaction_session_timeout%3D7000"
    )
    given, shown = thread_side(own)
    assert given["keepalives_idle"] == "60"
    assert shown == {**ours, "idle_in_transaction_session_timeout": "7s"}  # the URL's own setting wins
    assert loop_side(own) == shown  # libpq's settings are kept from the loop's asyncpg connection
