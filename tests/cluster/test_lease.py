"""Leases in PostgreSQL: one holder at a time, fenced writes, the writers in the log."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from tapete.server.cluster.lease import NAME_POLL_SECONDS, NODE_SECONDS, FencedEvent, LeaseLost, Leases
from tapete.server.db import PG_SESSION_SETTINGS, LogAhead, SeatRow, Store, TableRow

LEASE = 1.0
"""Seconds of the leases these tests take (short, so that they expire during a test)."""


@pytest.fixture
def leases(pg: tuple[str, str]) -> Iterator[Leases]:
    url, prefix = pg
    store = Store(url, prefix=prefix)
    store.create_schema()
    found = Leases(store, lease_seconds=LEASE)
    found.create_schema()
    yield found
    found.close()
    store.dispose()


def add_table(store: Store, table_id: str) -> None:
    seats = [SeatRow(0, "human", None, "h", ""), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")]
    store.insert_table(TableRow(table_id, "runfast", {}, 7, "c", "open", time.time(), seats=seats))


def test_one_holder_and_epochs_that_grow(leases: Leases) -> None:
    add_table(leases.store, "t1")
    assert leases.claim("t1", "a") == 1
    assert leases.claim("t1", "b") is None  # held and valid
    assert leases.renew("a", ["t1"]) == {"t1": 1}
    assert leases.renew("b", ["t1"]) == {}
    assert leases.owners(["t1"])["t1"].node_id == "a"
    assert leases.orphans() == []
    time.sleep(LEASE + 0.2)  # a's lease expires without renewal
    assert not leases.owners(["t1"])["t1"].alive
    assert leases.orphans() == ["t1"]
    assert leases.renew("a", ["t1"]) == {}  # an expired lease is not renewed: it is lost
    assert leases.claim("t1", "b") == 2
    assert leases.owners(["t1"])["t1"].node_id == "b"
    leases.release("t1", "b")
    assert leases.claim("t1", "c") == 3  # released at once, not after the timeout
    assert leases.claim("t1", "c") == 4  # its holder may take it again, under a new epoch


def test_a_former_owner_cannot_write(leases: Leases) -> None:
    add_table(leases.store, "t2")
    assert leases.claim("t2", "a") == 1
    leases.append("t2", 0, 0, {"seat": 0, "play": "3S"}, None, "a", 1)
    time.sleep(LEASE + 0.2)
    with pytest.raises(LeaseLost):  # expired: not even the holder writes
        leases.append("t2", 1, 0, {"seat": 1, "play": "pass"}, None, "a", 1)
    assert leases.claim("t2", "b") == 2
    with pytest.raises(LeaseLost):  # taken over
        leases.append("t2", 1, 0, {"seat": 1, "play": "pass"}, None, "a", 1)
    with pytest.raises(LeaseLost):  # a stale epoch, even from the holder's name
        leases.append("t2", 1, 0, {"seat": 1, "play": "pass"}, None, "b", 1)
    leases.append("t2", 1, 0, {"seat": 1, "play": "4S"}, {"final": True}, "b", 2)
    assert leases.writers_of("t2") == [(0, "a", 1), (1, "b", 2)]
    assert leases.store.count_events("t2") == 2
    assert leases.store.status("t2") == "finished"
    assert leases.orphans() == []  # a finished table needs no owner
    row = leases.store.load_open_table("t2")
    assert row is None


def test_concurrent_claims_have_one_winner(leases: Leases) -> None:
    lasting = Leases(leases.store, lease_seconds=60.0)
    for i in range(5):
        add_table(leases.store, f"c{i}")
    with ThreadPoolExecutor(8) as pool:
        for i in range(5):
            won = list(pool.map(lasting.claim, [f"c{i}"] * 8, [f"node{n}" for n in range(8)]))
            assert sum(e is not None for e in won) == 1, won
    assert lasting.orphans() == []


def test_an_append_in_flight_finishes_before_a_takeover(leases: Leases) -> None:
    """A claim waits for the holder's transaction; the event it wrote is in the log the new owner reads."""
    add_table(leases.store, "t3")
    assert leases.claim("t3", "a") == 1
    engine = leases.engine
    with ThreadPoolExecutor(1) as pool, engine.begin() as c:
        held = c.exec_driver_sql(leases._raw["fence_many"], ("a", ["t3"])).all()  # a batch's fence
        assert [tuple(r) for r in held] == [("t3", 1)]
        time.sleep(LEASE + 0.2)  # the lease expires while the append is in flight
        claim = pool.submit(leases.claim, "t3", "b")
        time.sleep(0.2)
        assert not claim.done()  # the claim waits for the row lock
        c.execute(leases.store.events.insert().values(table_id="t3", seq=0, hand=0, action="{}", at=0.0))
    assert claim.result(5) == 2
    row = leases.store.load_open_table("t3")
    assert row is not None and [seq for seq, _, _ in row.events] == [0]


def test_a_vanished_holders_open_transaction_does_not_keep_its_table(leases: Leases) -> None:
    """A node whose machine vanished between two statements of a fenced write leaves its
    transaction open and its lease row locked. The server ends that transaction
    (``idle_in_transaction_session_timeout``, ``PG_SESSION_SETTINGS``), so another node takes the
    table a few seconds after the lease ran out, and nothing of the unfinished write is in the log."""
    idle = int(PG_SESSION_SETTINGS["idle_in_transaction_session_timeout"]) / 1000
    add_table(leases.store, "v1")
    assert leases.claim("v1", "a") == 1
    vanished = leases.engine.raw_connection()  # a's writer, as ``_write_fenced`` uses it
    cur = vanished.cursor()
    cur.execute(leases._raw["fence_many"], ("a", ["v1"]))
    cur.execute(leases._raw["events"], ("v1", 0, 0, "{}", 0.0, "a", 1))
    started = time.monotonic()  # ... and then not a word more from a: no commit, no close
    try:
        with ThreadPoolExecutor(1) as pool:
            claim = pool.submit(leases.claim, "v1", "b")
            try:
                epoch = claim.result(idle + LEASE + 5)
            finally:
                with contextlib.suppress(Exception):
                    vanished.close()  # frees the row if the server kept it (the claim can then end)
    finally:
        took = time.monotonic() - started
    assert epoch == 2 and took < idle + LEASE + 1
    assert leases.store.count_events("v1") == 0
    assert leases.owners(["v1"])["v1"].node_id == "b"


def held_by_a_and_b(leases: Leases, prefix: str) -> None:
    """Tables ``<prefix>1`` and ``<prefix>2`` whose leases node a holds, and ``<prefix>3`` held by b."""
    for n, node in ((1, "a"), (2, "a"), (3, "b")):
        add_table(leases.store, f"{prefix}{n}")
        assert leases.claim(f"{prefix}{n}", node) == 1


def test_a_batch_writes_what_its_leases_allow(leases: Leases) -> None:
    held_by_a_and_b(leases, "b")
    batch = [
        FencedEvent("b1", 0, 0, '{"seat": 0}', 1),
        FencedEvent("b2", 0, 0, '{"seat": 0}', 1, final_record='{"done": 1}'),
        FencedEvent("b3", 0, 0, '{"seat": 0}', 1),  # b holds it, not a
        FencedEvent("b1", 1, 0, '{"seat": 1}', 2),  # a stale or future epoch is not a's
    ]
    answers = leases.append_many(batch, "a")
    assert answers[:2] == [None, None]
    assert isinstance(answers[2], LeaseLost) and isinstance(answers[3], LeaseLost)
    assert leases.writers_of("b1") == [(0, "a", 1)] and leases.writers_of("b3") == []
    assert leases.store.status("b2") == "finished"
    # a bad event (its sequence number is taken) fails alone; the others of its batch are written
    answers = leases.append_many([FencedEvent("b1", 0, 0, "{}", 1), FencedEvent("b1", 1, 0, '{"seat": 1}', 1)], "a")
    assert answers[0] is not None and not isinstance(answers[0], LeaseLost) and answers[1] is None
    assert [seq for seq, _, _ in leases.writers_of("b1")] == [0, 1]
    # an event the log holds as it is, from this writer at this epoch, is acknowledged: an earlier
    # commit of it whose answer was lost; the same number with another action or hand is the
    # log ahead of the table (that earlier commit was another action's), told with what it holds
    assert leases.append_many([FencedEvent("b1", 1, 0, '{"seat": 1}', 1)], "a") == [None]
    assert leases.append_many([FencedEvent("b1", 0, 0, '{"seat": 0}', 1), FencedEvent("b2", 1, 0, "{}", 1)], "a") == [
        None,
        None,
    ]
    [ahead] = leases.append_many([FencedEvent("b1", 1, 1, '{"seat": 1}', 1)], "a")
    assert isinstance(ahead, LogAhead) and (ahead.seq, ahead.hand, ahead.action) == (1, 0, {"seat": 1})
    assert leases.store.count_events("b1") == 2 and leases.store.count_events("b2") == 2
    # the connection kept for these writes, once closed, is opened again by the next batch
    leases.close()
    assert leases.append_many([FencedEvent("b1", 2, 0, '{"seat": 2}', 1)], "a") == [None]
    assert [seq for seq, _, _ in leases.writers_of("b1")] == [0, 1, 2]


def test_a_batch_written_before_is_acknowledged_in_one_look(leases: Leases, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose earlier commit reached the log (its answer lost: a commit given up on the
    event loop) is found in the log in one statement, not written again event by event; only
    the events the log lacks are written alone."""
    held_by_a_and_b(leases, "w")
    batch = [FencedEvent("w1", n, 0, f'{{"seat": {n}}}', 1) for n in range(6)]
    assert leases.append_many(batch[:4], "a") == [None] * 4
    alone: list[int] = []
    append_alone = leases._append_alone

    def counted(e: FencedEvent, node_id: str) -> BaseException | None:
        alone.append(e.seq)
        return append_alone(e, node_id)

    monkeypatch.setattr(leases, "_append_alone", counted)
    assert leases.append_many(batch[:4], "a") == [None] * 4
    assert alone == []
    assert leases.append_many(batch, "a") == [None] * 6  # four in the log, two new
    assert alone == [4, 5] and [seq for seq, _, _ in leases.writers_of("w1")] == list(range(6))
    changed = [FencedEvent("w1", 0, 0, '{"seat": 9}', 1), FencedEvent("w1", 6, 0, "{}", 1)]
    answers = leases.append_many(changed, "a")  # the same number with another action is refused
    assert answers[0] is not None and answers[1] is None


def test_a_log_from_before_the_writer_columns_is_upgraded_and_read(pg: tuple[str, str]) -> None:
    url, prefix = pg
    store = Store(url, prefix=prefix)
    store.create_schema()  # the log as a cluster before the writer columns left it: writers in a table apart
    old = Leases(store, lease_seconds=60.0)
    old.metadata.create_all(store.engine)
    add_table(store, "o1")
    store.append_event("o1", 0, 0, {"seat": 0, "play": "3S"})
    with store.engine.begin() as c:
        c.execute(old.writers.insert().values(table_id="o1", seq=0, node_id="a", epoch=1))
    columns = {c["name"] for c in sa.inspect(store.engine).get_columns(store.events.name)}
    assert "writer_node" not in columns
    leases = Leases(store, lease_seconds=60.0)
    try:
        leases.create_schema()
        leases.create_schema()  # again: nothing to add
        assert leases.claim("o1", "b") == 1
        assert leases.append_many([FencedEvent("o1", 1, 0, '{"play":"4S","seat":1}', 1)], "b") == [None]
        leases.append("o1", 2, 0, {"seat": 2, "play": "pass"}, None, "b", 1)
        assert leases.writers_of("o1") == [(0, "a", 1), (1, "b", 1), (2, "b", 1)]
        with store.engine.connect() as c:  # the new events carry their writer; the old one keeps its row apart
            rows = c.execute(
                sa.text(f"SELECT seq, writer_node, writer_epoch FROM {store.events.name} ORDER BY seq")
            ).all()
        assert [tuple(r) for r in rows] == [(0, None, None), (1, "b", 1), (2, "b", 1)]
        assert [seq for seq, _, _ in store.load_open_tables()[0].events] == [0, 1, 2]
    finally:
        leases.close()
        store.dispose()


def table_keys(store: Store, name: str) -> list[str]:
    """The tables ``name``'s foreign keys refer to."""
    return [k["referred_table"] for k in sa.inspect(store.engine).get_foreign_keys(name)]


def test_a_finished_tables_lease_is_forgotten_and_an_open_ones_kept(leases: Leases) -> None:
    """Releasing a finished table deletes its lease (nothing writes or claims it any more); an
    open table's lease stays, so that its epoch only grows."""
    for t in ("f1", "f2", "f3"):
        add_table(leases.store, t)
        assert leases.claim(t, "a") == 1
    leases.append("f1", 0, 0, {"seat": 0, "play": "3S"}, {"final": True}, "a", 1)
    leases.append("f3", 0, 0, {"seat": 0, "play": "3S"}, {"final": True}, "a", 1)
    leases.release("f3", "b")  # not b's lease: kept, and a still holds it
    assert leases.owners(["f3"])["f3"].alive
    for t in ("f1", "f2", "f3"):
        leases.release(t, "a")
    owners = leases.owners(["f1", "f2", "f3"])
    assert set(owners) == {"f2"} and not owners["f2"].alive
    assert leases.orphans() == ["f2"]
    assert leases.claim("f2", "b") == 2  # the open table's epoch went on
    assert leases.store.status("f1") == "finished" and leases.writers_of("f1") == [(0, "a", 1)]
    with pytest.raises(LeaseLost):  # and nothing writes a finished table again
        leases.append("f1", 1, 0, {"seat": 1, "play": "4S"}, None, "a", 1)


def test_leases_released_before_are_forgotten_once_their_table_is_finished(leases: Leases) -> None:
    """A node's start deletes the expired leases of finished tables (left by releases that kept
    them); a finished table's lease still held is left to its holder."""
    for t in ("g1", "g2", "g3"):
        add_table(leases.store, t)
        assert leases.claim(t, "a") == 1
        leases.append(t, 0, 0, {"seat": 0, "play": "3S"}, None if t == "g3" else {"final": True}, "a", 1)
    with leases.store.engine.begin() as c:  # released as before: the rows kept, expired
        c.execute(leases.leases.update().where(leases.leases.c.table_id.in_(["g1", "g3"])).values(expires_at=0.0))
    leases.create_schema()
    assert set(leases.owners(["g1", "g2", "g3"])) == {"g2", "g3"}
    assert leases.owners(["g2"])["g2"].alive
    leases.release_all("a")  # a node starting again: its finished table's lease goes too
    owners = leases.owners(["g2", "g3"])
    assert set(owners) == {"g3"} and not owners["g3"].alive and owners["g3"].epoch == 1


def test_a_node_that_leaves_is_forgotten_and_one_long_dead_too(leases: Leases) -> None:
    """Node names drawn at each start must not pile up: a node that stops deletes its row, and a
    node's start deletes those of nodes killed over a day before."""
    for n in ("a", "b", "c"):
        leases.beat(n)
    leases.leave("a")
    with leases.store.engine.begin() as c:  # b was killed two days ago, c a moment ago
        c.execute(leases.nodes.update().where(leases.nodes.c.node_id == "b").values(expires_at=time.time() - 172800))
        c.execute(leases.nodes.update().where(leases.nodes.c.node_id == "c").values(expires_at=time.time() - 60))
    leases.create_schema()
    with leases.store.engine.connect() as c:
        assert {r[0] for r in c.execute(sa.select(leases.nodes.c.node_id))} == {"c"}
    assert leases.live_nodes() == set()


def test_a_name_is_taken_by_one_process_and_only_once_its_holder_stops_beating(leases: Leases) -> None:
    naps: list[float] = []
    assert leases.name_held_for("n") == 0 and leases.take_name("n")  # new
    assert 0 < leases.name_held_for("n") <= NODE_SECONDS and not leases.take_name("n")
    began = time.monotonic()
    assert leases.wait_for_name("n") == 0  # its holder stopped beating: free once its beat ran out
    assert NODE_SECONDS - 0.5 < time.monotonic() - began < NODE_SECONDS + 1
    assert leases.take_name("n")

    def beating(seconds: float) -> None:  # a holder that goes on beating, as a running node does
        naps.append(seconds)
        leases.beat("n")
        time.sleep(seconds)

    left = leases.wait_for_name("n", sleep=beating)
    assert 0 < left <= NODE_SECONDS and not leases.take_name("n")
    assert (NODE_SECONDS + 1) / NAME_POLL_SECONDS - 2 <= len(naps) <= (NODE_SECONDS + 1) / NAME_POLL_SECONDS + 1
    leases.leave("n")  # a holder that stops leaves it at once
    before = len(naps)
    assert leases.wait_for_name("n", sleep=beating) == 0 and len(naps) == before
    with ThreadPoolExecutor(8) as pool:  # processes starting together under one name: one takes it
        taken = list(pool.map(lambda _: leases.take_name("n"), range(8)))
    assert taken.count(True) == 1


def test_the_leases_vouch_for_the_logs_tables(leases: Leases) -> None:
    """A lease names a table that exists, and no event is written without its lease: the log's
    events need no key of their own (PostgreSQL checked one for every event)."""
    store = leases.store
    assert table_keys(store, store.events.name) == []
    assert table_keys(store, leases.leases.name) == [store.tables.name]
    with pytest.raises(sa.exc.IntegrityError):
        leases.claim("nowhere", "a")  # no such table: no lease
    add_table(store, "v1")
    assert leases.claim("v1", "a") == 1
    assert leases.append_many([FencedEvent("v1", 0, 0, "{}", 1), FencedEvent("nowhere", 0, 0, "{}", 1)], "a")[0] is None
    assert store.count_events("nowhere") == 0
    with pytest.raises(sa.exc.IntegrityError, match="leases_table_fk"), store.engine.begin() as c:
        c.execute(store.seats.delete().where(store.seats.c.table_id == "v1"))
        c.execute(store.deals.delete().where(store.deals.c.table_id == "v1"))
        c.execute(store.tables.delete().where(store.tables.c.id == "v1"))  # its lease keeps it
    assert store.count_events("v1") == 1 and leases.store.status("v1") == "open"


def test_a_new_table_is_stored_with_its_lease(leases: Leases) -> None:
    seats = [SeatRow(0, "human", None, "h", ""), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")]
    row = TableRow("n1", "runfast", {}, 7, "c", "open", time.time(), seats=seats)
    assert leases.create_table(row, "a") == 1
    assert leases.store.status("n1") == "open" and leases.orphans() == []
    assert leases.owners(["n1"])["n1"].node_id == "a"
    with pytest.raises(sa.exc.IntegrityError):  # the same table again: nothing changes, lease included
        leases.create_table(row, "b")
    owner = leases.owners(["n1"])["n1"]
    assert (owner.node_id, owner.epoch, owner.alive) == ("a", 1, True)


def test_a_cluster_schema_from_before_moves_the_tables_key_to_the_leases(pg: tuple[str, str]) -> None:
    url, prefix = pg
    store = Store(url, prefix=prefix)
    store.create_schema()
    add_table(store, "k1")
    with store.engine.begin() as c:  # the leases as they were: no key; one names a table that is gone
        c.exec_driver_sql(
            f'CREATE TABLE "{prefix}leases" (table_id VARCHAR(64) PRIMARY KEY, node_id VARCHAR(64) NOT NULL, '
            "epoch BIGINT NOT NULL, expires_at FLOAT NOT NULL)"
        )
        c.exec_driver_sql(f"""INSERT INTO "{prefix}leases" VALUES ('k1', 'a', 3, 0), ('gone', 'a', 1, 0)""")
    assert table_keys(store, store.events.name) == [store.tables.name]
    leases = Leases(store, lease_seconds=60.0)
    try:
        leases.create_schema()
        leases.create_schema()  # again: nothing to change
        assert table_keys(store, store.events.name) == []
        assert table_keys(store, leases.leases.name) == [store.tables.name]
        assert set(leases.owners(["k1", "gone"])) == {"k1"}
        assert leases.claim("k1", "b") == 4
        assert leases.append_many([FencedEvent("k1", 0, 0, "{}", 4)], "b") == [None]
    finally:
        leases.close()
        store.dispose()


def test_a_batch_on_the_loops_connection_writes_what_its_leases_allow(leases: Leases) -> None:
    """The one-statement fenced write: the same answers, writers and final records as the thread's."""
    held_by_a_and_b(leases, "a")
    batch = [
        FencedEvent("a1", 0, 0, '{"seat": 0}', 1),
        FencedEvent("a2", 0, 0, '{"seat": 0}', 1, final_record='{"done": 1}'),
        FencedEvent("a3", 0, 0, '{"seat": 0}', 1, final_record='{"done": 1}'),  # b holds it, not a
        FencedEvent("a1", 1, 0, '{"seat": 1}', 2),  # a stale or future epoch is not a's
        FencedEvent("a1", 1, 0, '{"seat": 1}', 1),
    ]

    async def write(events: list[FencedEvent]) -> list[BaseException | None]:
        conn = await leases.store.open_async_connection()
        try:
            return await leases.append_many_async(conn, events, "a")
        finally:
            await conn.close()

    answers = asyncio.run(write(batch))
    assert answers[0] is None and answers[1] is None and answers[4] is None
    assert isinstance(answers[2], LeaseLost) and isinstance(answers[3], LeaseLost)
    assert leases.writers_of("a1") == [(0, "a", 1), (1, "a", 1)] and leases.writers_of("a3") == []
    assert leases.store.status("a2") == "finished" and leases.store.status("a3") == "open"
    assert leases.store.count_events("a2") == 1
    # a bad event (its sequence number is taken) fails the whole statement: nothing of it is written
    with pytest.raises(Exception, match="duplicate key"):
        asyncio.run(write([FencedEvent("a1", 2, 0, "{}", 1), FencedEvent("a1", 0, 0, "{}", 1)]))
    assert [seq for seq, _, _ in leases.writers_of("a1")] == [0, 1]
    time.sleep(LEASE + 0.2)  # expired: not even the holder writes
    assert isinstance(asyncio.run(write([FencedEvent("a1", 2, 0, "{}", 1)]))[0], LeaseLost)
    assert leases.store.count_events("a1") == 2


def test_the_loops_connection_finds_the_leases_by_their_key(leases: Leases) -> None:
    """The fenced batch reaches each lease through the leases' key however few they are: read
    from end to end, every lease would be compared with every table of the batch, and the plan
    kept for the connection would go on doing so as the table grows."""
    for i in range(180):  # as many leases as a node's busy loop holds, a batch of 35 of them
        add_table(leases.store, f"k{i:03d}")
        assert leases.claim(f"k{i:03d}", "a") == 1
    tables = sorted(f"k{i:03d}" for i in range(0, 175, 5))
    n = len(tables)

    async def plan() -> str:
        conn = await leases.store.open_async_connection()
        try:
            args = ("a", tables, tables, [0] * n, [0] * n, ["{}"] * n, [0.0] * n, [1] * n, [], [], [])
            rows = await conn.fetch("EXPLAIN " + leases._append_async_sql, *args)
            return "\n".join(str(r[0]) for r in rows)
        finally:
            await conn.close()

    text = asyncio.run(plan())
    name = leases.leases.name
    assert f"Seq Scan on {name}" not in text and f"{name}_pkey" in text, text


def test_a_batch_stuck_on_the_loops_connection_is_given_up_in_time_and_writes_nothing(leases: Leases) -> None:
    """A fenced batch that cannot get its lease row (another transaction holds it) fails within the
    leases' ``write_seconds``, its connection closed, the server's statement cancelled: once the
    row is free (its lease renewed for long), nothing of the batch is in the log."""
    add_table(leases.store, "s1")
    assert leases.claim("s1", "a") == 1
    batch = [FencedEvent("s1", 0, 0, '{"seat": 0}', 1, final_record='{"done": 1}')]
    blocker = leases.engine.connect()
    blocker.begin()
    blocker.execute(  # an uncommitted renewal holds the lease row
        leases.leases.update().where(leases.leases.c.table_id == "s1").values(expires_at=time.time() + 60)
    )

    async def stuck() -> tuple[float, bool]:
        conn = await leases.store.open_async_connection()
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(leases.append_many_async(conn, batch, "a"), 3.0)
        return time.monotonic() - started, conn.is_closed()

    try:
        took, closed = asyncio.run(stuck())
        blocker.commit()
    finally:
        blocker.close()
    assert took < 1.5 and closed  # the leases' write_seconds is a third of a second
    time.sleep(0.3)  # a statement still waiting would now pass the fence and write
    assert leases.store.count_events("s1") == 0 and leases.store.status("s1") == "open"

    async def again() -> list[BaseException | None]:
        conn = await leases.store.open_async_connection()
        try:
            return await leases.append_many_async(conn, batch, "a")
        finally:
            await conn.close()

    assert asyncio.run(again()) == [None]
    assert leases.writers_of("s1") == [(0, "a", 1)] and leases.store.status("s1") == "finished"


def seat_of(store: Store, table_id: str, seat: int) -> tuple[str | None, bool]:
    s = store.seats
    with store.engine.connect() as c:
        row = c.execute(sa.select(s.c.level, s.c.bot_override).where(s.c.table_id == table_id, s.c.seat == seat)).one()
    return row[0], bool(row[1])


def test_a_seat_is_handed_over_only_by_the_holder_of_its_tables_lease(leases: Leases) -> None:
    add_table(leases.store, "h1")
    assert leases.claim("h1", "a") == 1
    leases.set_bot_override_fenced("h1", 0, "easy", True, "a", 1)
    assert seat_of(leases.store, "h1", 0) == ("easy", True)
    assert leases.claim("h1", "a") == 2  # a took the table again: what held epoch 1 is stale
    for node, epoch in (("a", 1), ("b", 2), ("b", 1)):
        with pytest.raises(LeaseLost):
            leases.set_bot_override_fenced("h1", 0, None, False, node, epoch)
    assert seat_of(leases.store, "h1", 0) == ("easy", True)
    time.sleep(LEASE + 0.2)  # expired: not even the holder writes
    with pytest.raises(LeaseLost):
        leases.set_bot_override_fenced("h1", 0, None, False, "a", 2)
    assert seat_of(leases.store, "h1", 0) == ("easy", True)
    assert leases.claim("h1", "b") == 3
    leases.set_bot_override_fenced("h1", 0, None, False, "b", 3)
    assert seat_of(leases.store, "h1", 0) == (None, False)


def test_nodes_starting_together_on_a_new_database_make_its_schema_once(pg: tuple[str, str]) -> None:
    """Four nodes start at the same moment on a database with none of their tables: each
    creates what is missing (the log's, the players', the leases') and reads the same signing
    secret; none fails on a table or a secret another one made meanwhile."""
    from tapete.players.store import PlayersStore

    barrier = threading.Barrier(4)
    secrets: list[bytes] = []
    errors: list[BaseException] = []

    def start() -> None:
        store = Store(pg[0], prefix=pg[1])
        try:
            barrier.wait(10)
            store.create_schema()
            players = PlayersStore(store)
            players.create_schema()
            Leases(store).create_schema()
            secrets.append(players.secret())
        except BaseException as exc:
            errors.append(exc)
        finally:
            store.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert len(secrets) == 4 and len(set(secrets)) == 1


def test_a_tables_whereabouts_are_its_status_and_lease_read_together(leases: Leases) -> None:
    assert leases.whereabouts("nowhere") == (None, None)
    add_table(leases.store, "w1")
    assert leases.whereabouts("w1") == ("open", None)  # no lease yet
    assert leases.claim("w1", "a") == 1
    status, owner = leases.whereabouts("w1")
    assert status == "open" and owner is not None and (owner.node_id, owner.epoch, owner.alive) == ("a", 1, True)
    time.sleep(LEASE + 0.2)
    status, owner = leases.whereabouts("w1")
    assert owner is not None and not owner.alive
    assert leases.claim("w1", "b") == 2
    assert leases.set_aside("w1", "b", 2)
    status, owner = leases.whereabouts("w1")
    assert status == "idle" and owner is not None and owner.node_id == "b" and not owner.alive
    assert leases.whereabouts("w1") == (leases.store.status("w1"), leases.owners(["w1"])["w1"])
