"""Group commit: many tables' actions share transactions, each is acknowledged only after its commit."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.server.db import EventRow, LogAhead, SeatRow, Store, TableRow
from tapete.server.groupcommit import GroupCommit, action_text
from tests.server.helpers import Player, create_table, make_app, stored_row


def _store(db: tuple[str, str], tables: int) -> Store:
    url, prefix = db
    store = Store(url, prefix=prefix)
    store.create_schema()
    for i in range(tables):
        store.insert_table(
            TableRow(
                id=f"t{i}",
                profile="runfast",
                options={},
                seed=i,
                creator_hash="x",
                status="open",
                created_at=0.0,
                seats=[SeatRow(0, "human"), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")],
            )
        )
    return store


def _log(store: Store, table_id: str) -> list[tuple[int, int, dict[str, Any]]]:
    rows = [t for t in store.load_open_tables() if t.id == table_id]
    return rows[0].events if rows else []


async def _loop_turns(seconds: float) -> int:
    """How many 10 ms sleeps the event loop ended for this coroutine in ``seconds`` (about
    ``seconds / 0.01`` when nothing holds the loop)."""
    turns = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        await asyncio.sleep(0.01)
        turns += 1
    return turns


WHERE = ["loop", "thread"]
"""Where batches commit: on the event loop (SQLite at NORMAL at once, PostgreSQL awaited), or on
the writer thread."""


@pytest.mark.parametrize("where", WHERE)
def test_many_tables_share_transactions_and_every_event_is_logged_in_order(db: tuple[str, str], where: str) -> None:
    on_loop = where == "loop"
    store = _store(db, 30)
    writer = GroupCommit(store, linger=0.005, on_loop=on_loop)

    async def table(i: int) -> None:
        for seq in range(8):  # one event at a time per table, as a table's lock makes it
            await writer.append(f"t{i}", seq, seq // 4, {"seat": seq % 3, "play": [f"{seq}H"]}, None)

    async def main() -> None:
        writer.start()
        await asyncio.gather(*(table(i) for i in range(30)))
        await writer.close()

    try:
        asyncio.run(main())
        assert writer.events == 240
        assert writer.batches < 240 / 4  # events of many tables went into each transaction
        for i in range(30):
            events = _log(store, f"t{i}")
            assert [(seq, hand) for seq, hand, _ in events] == [(s, s // 4) for s in range(8)]
            assert events[5][2] == {"seat": 2, "play": ["5H"]}
    finally:
        store.dispose()


@pytest.mark.parametrize("where", WHERE)
def test_a_refused_event_fails_alone_and_the_rest_of_its_batch_commits(db: tuple[str, str], where: str) -> None:
    on_loop = where == "loop"
    store = _store(db, 6)
    store.append_event("t3", 0, 0, {"seat": 0, "pass": True})  # seq 0 of t3 is taken
    # one turn of the loop, or a long linger, puts all six in one batch
    writer = GroupCommit(store, linger=0.05, on_loop=on_loop)

    async def main() -> list[BaseException | None]:
        writer.start()
        results = await asyncio.gather(
            *(writer.append(f"t{i}", 0, 0, {"seat": 0, "play": ["3H"]}, None) for i in range(6)),
            return_exceptions=True,
        )
        await writer.close()
        return list(results)

    try:
        results = asyncio.run(main())
        assert [r is None for r in results] == [True, True, True, False, True, True]
        for i in range(6):
            events = _log(store, f"t{i}")
            assert len(events) == 1
            assert events[0][2] == ({"seat": 0, "pass": True} if i == 3 else {"seat": 0, "play": ["3H"]})
    finally:
        store.dispose()


@pytest.mark.parametrize("where", WHERE)
def test_an_event_already_in_the_log_as_it_is_is_acknowledged_and_not_written_twice(
    db: tuple[str, str], where: str
) -> None:
    """A commit whose answer was lost may have reached the log: writing the same event again is
    refused as a duplicate, and the writer then finds it there as it is and acknowledges it; a
    different action at the event's number fails it with ``LogAhead``, carrying that action."""
    store = _store(db, 2)
    action = {"seat": 0, "play": ["3H"]}
    conn = store.writer_connection()
    store.append_events(conn, [EventRow("t0", 0, 0, action_text(action), 0.0)])  # the earlier commit
    conn.close()
    store.append_event("t1", 0, 0, {"seat": 0, "pass": True})  # another action holds t1's number
    writer = GroupCommit(store, on_loop=where == "loop")

    async def main() -> list[BaseException | None]:
        writer.start()
        results = await asyncio.gather(
            writer.append("t0", 0, 0, action, None), writer.append("t1", 0, 0, action, None), return_exceptions=True
        )
        await writer.close()
        return list(results)

    try:
        results = asyncio.run(main())
        assert results[0] is None and isinstance(results[1], LogAhead)  # the table applies the logged action
        assert (results[1].seq, results[1].hand, results[1].action) == (0, 0, {"seat": 0, "pass": True})
        assert [e[2] for e in _log(store, "t0")] == [action]  # once
        assert [e[2] for e in _log(store, "t1")] == [{"seat": 0, "pass": True}]
    finally:
        store.dispose()


class _HeldStore(Store):
    """A store whose batch insert waits for ``release`` before writing."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.release = threading.Event()
        self.entered = threading.Event()

    def append_events(self, conn: Any, events: list[EventRow]) -> None:
        self.entered.set()
        assert self.release.wait(10)
        super().append_events(conn, events)


def test_an_append_returns_only_after_its_commit_and_the_final_record_closes_the_table(db: tuple[str, str]) -> None:
    url, prefix = db
    _store(db, 1).dispose()
    store = _HeldStore(url, prefix=prefix)
    reader = Store(url, prefix=prefix)
    writer = GroupCommit(store, linger=0.0, on_loop=False)

    async def main() -> None:
        writer.start()
        task = asyncio.create_task(writer.append("t0", 0, 0, {"seat": 0, "play": ["3H"]}, {"format": "x"}))
        while not store.entered.is_set():
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)
        assert not task.done()  # not acknowledged while the commit has not happened
        assert reader.count_events("t0") == 0
        store.release.set()
        t0 = time.monotonic()
        await task
        assert time.monotonic() - t0 < 5
        assert reader.count_events("t0") == 1  # acknowledged: visible to any other connection
        assert reader.load_record("t0") == ("finished", {"format": "x"})
        await writer.close()

    try:
        asyncio.run(main())
    finally:
        store.dispose()
        reader.dispose()


def test_after_a_shared_commit_the_next_waits_an_interval_and_carries_every_event_gathered_meanwhile(
    db: tuple[str, str],
) -> None:
    store = _store(db, 4)
    interval = 0.25
    writer = GroupCommit(store, commit_interval=interval)
    play = {"seat": 0, "play": ["3H"]}

    async def timed(*appends: tuple[str, int]) -> float:
        start = time.monotonic()
        await asyncio.gather(*(writer.append(t, seq, 0, play, None) for t, seq in appends))
        return time.monotonic() - start

    async def main() -> tuple[float, float, float, float]:
        writer.start()
        start = time.monotonic()
        pair = await timed(("t0", 0), ("t1", 0))  # nothing committed lately: at once, together
        waiting = []
        for t in ("t2", "t3", "t0"):  # three turns of the loop, well within the interval
            waiting.append(asyncio.create_task(writer.append(t, 1 if t == "t0" else 0, 0, play, None)))
            await asyncio.sleep(0.01)
        await asyncio.gather(*waiting)
        gathered = time.monotonic() - start
        await asyncio.sleep(interval * 1.5)  # quiet again
        alone = await timed(("t1", 1))
        next_alone = await timed(("t2", 1))  # the last commit carried one event: not held back
        await writer.close()
        return pair, gathered, alone, next_alone

    try:
        pair, gathered, alone, next_alone = asyncio.run(main())
        assert max(pair, alone, next_alone) < interval / 2
        assert gathered >= interval * 0.95  # acknowledged only after the commit an interval later
        assert (writer.loop_batches, writer.loop_events) == (4, 7)  # the three shared one commit
        assert [len(_log(store, f"t{i}")) for i in range(4)] == [2, 2, 2, 1]
    finally:
        store.dispose()


def test_an_append_fails_when_the_writer_is_not_running(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        with pytest.raises(RuntimeError):
            asyncio.run(GroupCommit(store).append("t0", 0, 0, {}, None))
    finally:
        store.dispose()


def test_on_sqlite_at_normal_the_event_loop_commits_and_at_full_the_thread_does(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def play(writer: GroupCommit) -> None:
        writer.start()
        for seq in range(4):
            await asyncio.gather(*(writer.append(f"t{i}", seq, 0, {"seat": 0}, None) for i in range(3)))
        await writer.close()

    for level, on_loop in (("NORMAL", True), ("FULL", False)):
        monkeypatch.setenv("TAPETE_SQLITE_SYNCHRONOUS", level)
        store = _store((sqlite_url, f"{level.lower()}_"), 3)
        writer = GroupCommit(store)
        try:
            asyncio.run(play(writer))
            assert writer.on_loop is on_loop
            assert (writer.loop_events, writer.thread_events) == ((12, 0) if on_loop else (0, 12))
            assert writer.batches == 4  # the three tables of each round shared a commit
            assert all(len(_log(store, f"t{i}")) == 4 for i in range(3))
        finally:
            store.dispose()


def test_a_burst_larger_than_a_loop_batch_goes_to_the_thread(sqlite_url: str) -> None:
    store = _store((sqlite_url, ""), 12)
    writer = GroupCommit(store, loop_batch=5)

    async def main() -> None:
        writer.start()
        await asyncio.gather(*(writer.append(f"t{i}", 0, 0, {"seat": 0}, None) for i in range(12)))  # one turn
        await asyncio.gather(*(writer.append(f"t{i}", 1, 0, {"seat": 0}, None) for i in range(3)))
        await writer.close()

    try:
        asyncio.run(main())
        assert (writer.thread_events, writer.loop_events) == (12, 3)
        assert all(len(_log(store, f"t{i}")) == (2 if i < 3 else 1) for i in range(12))
    finally:
        store.dispose()


def test_a_batch_that_would_wait_for_a_lock_goes_to_the_thread_and_the_loop_goes_on(sqlite_url: str) -> None:
    store = _store((sqlite_url, ""), 2)
    other_store = Store(sqlite_url)
    other = other_store.writer_connection()
    other.cursor().execute("BEGIN IMMEDIATE")  # another connection holds the write lock
    writer = GroupCommit(store)

    async def main() -> None:
        writer.start()
        task = asyncio.create_task(writer.append("t0", 0, 0, {"seat": 0}, None))
        assert await _loop_turns(0.3) >= 10  # the loop was never held by the lock
        assert not task.done()  # not acknowledged: it waits for the lock on the thread
        kept = writer._loop_conn
        assert kept is not None  # a lock held elsewhere does not cost the loop its connection
        other.commit()
        await asyncio.wait_for(task, 10)
        await writer.append("t1", 0, 0, {"seat": 0}, None)  # the lock is free: the loop commits again
        assert writer._loop_conn is kept
        await writer.close()

    try:
        asyncio.run(main())
        assert (writer.thread_events, writer.loop_events) == (1, 1)
        assert len(_log(store, "t0")) == 1 and len(_log(store, "t1")) == 1
    finally:
        other.close()
        other_store.dispose()
        store.dispose()


def test_on_postgresql_the_loop_awaits_its_commits_and_a_final_record_closes_the_table(pg: tuple[str, str]) -> None:
    store = _store(pg, 3)
    reader = Store(*pg[:1], prefix=pg[1])
    writer = GroupCommit(store)

    async def main() -> None:
        writer.start()
        for seq in range(4):
            final = {"format": "done"} if seq == 3 else None
            await asyncio.gather(
                *(writer.append(f"t{i}", seq, 0, {"seat": 0}, final if i == 1 else None) for i in range(3))
            )
        await writer.close()

    try:
        asyncio.run(main())
        assert writer.awaits and writer.on_loop
        assert (writer.loop_events, writer.thread_events) == (12, 0)
        assert writer.batches == 4  # the three tables of each round shared a commit
        assert all([seq for seq, _, _ in _log(reader, f"t{i}")] == [0, 1, 2, 3] for i in (0, 2))
        assert reader.load_record("t1") == ("finished", {"format": "done"})
        assert reader.count_events("t1") == 4
    finally:
        reader.dispose()
        store.dispose()


def test_while_postgresql_holds_a_commit_the_loop_goes_on_and_acknowledges_after_it(pg: tuple[str, str]) -> None:
    url, prefix = pg
    store = _store(pg, 1)
    locker = Store(url, prefix=prefix)
    conn = locker.writer_connection()
    conn.cursor().execute(f"LOCK TABLE {prefix}events IN EXCLUSIVE MODE")  # inserts wait for it
    writer = GroupCommit(store)

    async def main() -> None:
        writer.start()
        task = asyncio.create_task(writer.append("t0", 0, 0, {"seat": 0}, None))
        assert await _loop_turns(0.3) >= 10  # the loop was never held by the commit in flight
        assert not task.done()  # not acknowledged before its commit
        conn.commit()
        await asyncio.wait_for(task, 10)
        await writer.close()

    try:
        asyncio.run(main())
        assert (writer.loop_events, writer.thread_events) == (1, 0)
        assert len(_log(store, "t0")) == 1
    finally:
        conn.close()
        locker.dispose()
        store.dispose()


def test_a_commit_stuck_on_postgresql_is_given_up_in_time_and_writes_nothing(pg: tuple[str, str]) -> None:
    """A commit on the loop's connection that waits longer than its timeout fails, its connection
    closed and its statement cancelled: once the log is free, nothing of it is there."""
    url, prefix = pg
    store = _store(pg, 1)
    locker = Store(url, prefix=prefix)
    conn = locker.writer_connection()
    conn.cursor().execute(f"LOCK TABLE {prefix}events IN EXCLUSIVE MODE")  # inserts wait for it
    rows = [EventRow("t0", 0, 0, action_text({"seat": 0}), 0.0, '{"done": 1}')]

    async def stuck() -> tuple[float, bool]:
        loop_conn = await store.open_async_connection()
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(store.append_events_async(loop_conn, rows, timeout=0.3), 3.0)
        return time.monotonic() - started, loop_conn.is_closed()

    async def again() -> None:
        loop_conn = await store.open_async_connection()
        try:
            await store.append_events_async(loop_conn, rows)
        finally:
            await loop_conn.close()

    try:
        took, closed = asyncio.run(stuck())
        conn.commit()
        assert took < 1.3 and closed
        time.sleep(0.3)  # a statement still waiting would now write
        assert store.count_events("t0") == 0 and store.load_record("t0") == ("open", None)
        asyncio.run(again())
        assert store.count_events("t0") == 1 and store.load_record("t0") == ("finished", {"done": 1})
    finally:
        conn.close()
        locker.dispose()
        store.dispose()


def test_a_lost_postgresql_connection_hands_its_batch_to_the_thread_and_the_loop_reconnects(
    pg: tuple[str, str],
) -> None:
    url, prefix = pg
    store = _store(pg, 1)
    admin = Store(url, prefix=prefix)
    writer = GroupCommit(store)

    async def main() -> None:
        writer.start()
        await writer.append("t0", 0, 0, {"seat": 0}, None)
        lost = writer._async.conn
        assert lost is not None
        with admin.engine.begin() as c:  # the server ends the loop's connection
            c.exec_driver_sql(f"SELECT pg_terminate_backend({lost.get_server_pid()})")
        await writer.append("t0", 1, 0, {"seat": 0}, None)  # fails on the loop, written by the thread
        assert writer.thread_events == 1
        await writer.append("t0", 2, 0, {"seat": 0}, None)  # a new connection on the loop
        assert writer._async.conn is not None and writer._async.conn is not lost
        await writer.close()

    try:
        asyncio.run(main())
        assert (writer.loop_events, writer.thread_events) == (2, 1)
        assert [seq for seq, _, _ in _log(store, "t0")] == [0, 1, 2]  # each exactly once
    finally:
        admin.dispose()
        store.dispose()


class _UnreachableStore(Store):
    """A store whose asynchronous connections cannot be opened."""

    attempts = 0

    async def open_async_connection(self, *, timeout: float = 5.0) -> Any:
        self.attempts += 1
        raise OSError("connection refused")


def test_when_the_loop_cannot_connect_the_thread_commits_and_the_loop_waits_before_trying_again(
    pg: tuple[str, str],
) -> None:
    url, prefix = pg
    _store(pg, 3).dispose()
    store = _UnreachableStore(url, prefix=prefix)
    writer = GroupCommit(store)

    async def main() -> None:
        writer.start()
        for seq in range(5):
            await asyncio.gather(*(writer.append(f"t{i}", seq, 0, {"seat": 0}, None) for i in range(3)))
        await writer.close()

    try:
        asyncio.run(main())
        assert (writer.loop_events, writer.thread_events) == (0, 15)
        assert store.attempts == 1  # not one attempt a batch
        assert all(len(_log(store, f"t{i}")) == 5 for i in range(3))
    finally:
        store.dispose()


def test_if_the_loops_commits_fail_unexpectedly_the_batch_in_hand_fails_and_the_thread_takes_over(
    pg: tuple[str, str],
) -> None:
    store = _store(pg, 3)
    writer = GroupCommit(store)
    calls = 0

    async def broken(batch: Any) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("a fault in the loop's commit code")

    async def main() -> list[BaseException | None]:
        writer.start()
        writer._commit_awaited = broken  # type: ignore[method-assign]
        first = await asyncio.gather(
            *(writer.append(f"t{i}", 0, 0, {"seat": 0}, None) for i in range(3)), return_exceptions=True
        )
        await asyncio.gather(*(writer.append(f"t{i}", 1, 0, {"seat": 0}, None) for i in range(3)))
        await writer.close()
        return list(first)

    try:
        first = asyncio.run(main())
        assert all(isinstance(r, RuntimeError) for r in first)  # answered, not left waiting
        assert calls == 1 and not writer.on_loop
        assert (writer.loop_events, writer.thread_events) == (0, 3)
        assert all([seq for seq, _, _ in _log(store, f"t{i}")] == [1] for i in range(3))
    finally:
        store.dispose()


def _wal_frames(sqlite_url: str) -> int:
    """Frames in the write-ahead log (a passive checkpoint reports them and changes nothing else)."""
    store = Store(sqlite_url)
    conn = store.writer_connection()
    try:
        cur = conn.cursor()
        cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return int(cur.fetchone()[1])
    finally:
        conn.close()
        store.dispose()


def test_the_thread_checkpoints_the_write_ahead_log_of_the_loops_commits(sqlite_url: str) -> None:
    store = _store((sqlite_url, ""), 1)
    writer = GroupCommit(store, checkpoint_every=10)
    action = {"seat": 0, "note": "x" * 2000}  # about a page an event
    periodic: list[int] = []  # checkpoints made during the 300 commits

    async def main() -> None:
        writer.start()
        for seq in range(300):
            await writer.append("t0", seq, 0, action, None)
            await asyncio.sleep(0.001)  # a table's pace: the checkpoints asked for have time to run

        async def checkpointed() -> None:
            while writer._checkpoint_asked:  # the checkpoint asked for is made
                await asyncio.sleep(0.01)

        await checkpointed()
        periodic.append(writer.checkpoints)
        # commits made while a checkpoint ran come after it in the log: end on one that ran
        # with nothing written meanwhile
        writer.checkpoint_every = 1
        await writer.append("t0", 300, 0, action, None)
        await checkpointed()
        await writer.append("t0", 301, 0, action, None)
        await writer.close()

    try:
        asyncio.run(main())
        assert writer.loop_events + writer.thread_events == 302 and writer.loop_events > 150
        assert periodic[0] >= 2 and writer.checkpoints > periodic[0]
        # after a whole checkpoint, the next commit wrote the log from its start: a few frames,
        # where 300 events with no checkpoint leave hundreds
        assert _wal_frames(sqlite_url) < 20
        assert len(_log(store, "t0")) == 302
    finally:
        store.dispose()


def test_sqlite_synchronous_level_is_applied_and_checked(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for level, expected in (("FULL", 2), ("normal", 1)):
        monkeypatch.setenv("TAPETE_SQLITE_SYNCHRONOUS", level)
        store = Store(sqlite_url)
        try:
            with store.engine.connect() as c:
                assert c.exec_driver_sql("PRAGMA synchronous").scalar_one() == expected
                assert c.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        finally:
            store.dispose()
    monkeypatch.setenv("TAPETE_SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ValueError):
        Store(sqlite_url)


def test_the_server_acknowledges_through_the_log_writer_and_counts_its_commits(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=11)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            for _ in range(3):
                assert p.wait_turn_or() is None
                p.act(p.state["view"]["legal_actions"][0])  # type: ignore[index]
                p.recv_type("state")
            version = p.state["version"]  # type: ignore[index]
            log = Store(sqlite_url)
            try:
                assert log.count_events(t["table"]) >= version  # every acknowledged action is in the log
            finally:
                log.dispose()
        text = c.get("/metrics").text
    counts = {line.split()[0]: int(line.split()[1]) for line in text.splitlines() if line.startswith("tapete_log_")}
    assert counts["tapete_log_events_total"] >= version
    assert 1 <= counts["tapete_log_commits_total"] <= counts["tapete_log_events_total"]


def test_a_write_the_log_refuses_is_counted_named_and_shown_in_health(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An event the log refuses (here: its table is not in the log) is counted, logged with the
    database's own name for the error but never the action's text, shown in ``/metrics`` and
    makes ``/healthz`` say ``degraded`` for a minute."""
    store = _store((sqlite_url, ""), 1)
    writer = GroupCommit(store, on_loop=False)
    secret = {"seat": 0, "play": ["QS"]}

    async def main() -> BaseException | None:
        writer.start()
        try:
            await writer.append("nope", 0, 0, secret, None)
        except Exception as exc:
            return exc
        finally:
            await writer.close()
        return None

    try:
        assert isinstance(asyncio.run(main()), Exception)
        assert writer.failed_events == 1 and writer.refused_within(60.0) and not writer.refused_within(0.0)
        lines = [r.getMessage() for r in caplog.records if "writing to the log failed" in r.getMessage()]
        assert len(lines) == 1 and "SQLITE_CONSTRAINT" in lines[0] and "QS" not in lines[0]
    finally:
        store.dispose()
    with TestClient(make_app(sqlite_url)) as c:
        assert c.get("/healthz").json()["status"] == "ok"
        hub = c.app.state.hub  # type: ignore[attr-defined]
        hub.log_writer.failed_events, hub.log_writer.failed_at = 3, time.monotonic()
        health = c.get("/healthz").json()
        assert health["status"] == "degraded" and any("event log" in r for r in health["reasons"])
        assert "tapete_log_failures_total 3" in c.get("/metrics").text


def test_a_write_held_by_the_database_shows_how_long_it_has_waited(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch the database holds (a lock on the log, a server that stopped answering) is
    counted in ``stuck_for`` while it waits, and ``/healthz`` says ``degraded`` past 5 s; the
    count ends with the write."""
    store = _HeldStore(sqlite_url)
    store.create_schema()
    store.insert_table(stored_row("t0"))
    writer = GroupCommit(store, on_loop=False)

    async def main() -> list[float]:
        writer.start()
        pending = asyncio.ensure_future(writer.append("t0", 0, 0, {"seat": 0, "pass": True}, None))
        assert await asyncio.to_thread(store.entered.wait, 5)
        await asyncio.sleep(0.3)
        held = writer.stuck_for()
        store.release.set()
        await pending
        await writer.close()
        return [held, writer.stuck_for()]

    try:
        held, after = asyncio.run(main())
        assert held >= 0.3 and after == 0.0
    finally:
        store.dispose()
    with TestClient(make_app(sqlite_url)) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        monkeypatch.setattr(hub.log_writer, "stuck_for", lambda: 7.0)
        health = c.get("/healthz").json()
        assert health["status"] == "degraded" and "a write to the event log has waited 7 s" in health["reasons"]
