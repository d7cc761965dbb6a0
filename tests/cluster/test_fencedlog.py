"""A node's fenced log: batches on the loop's own connection, the thread where that fails."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tapete.server.cluster.fencedlog import FencedLog
from tapete.server.cluster.lease import LeaseLost, Leases
from tapete.server.db import LogAhead, SeatRow, Store, TableRow


@pytest.fixture
def leases(pg: tuple[str, str]) -> Iterator[Leases]:
    url, prefix = pg
    store = Store(url, prefix=prefix)
    store.create_schema()
    found = Leases(store, lease_seconds=60.0)
    found.create_schema()
    for t in ("f1", "f2", "f3"):
        seats = [SeatRow(0, "human", None, "h", ""), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")]
        store.insert_table(TableRow(t, "runfast", {}, 7, "c", "open", time.time(), seats=seats))
    yield found
    found.close()
    store.dispose()


async def in_thread(fn: Any, *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


async def play(log: FencedLog, writes: list[tuple[str, int, int]]) -> list[BaseException | None]:
    """Append ``(table, seq, epoch)`` events at once (one batch, and those gathered meanwhile); each one's outcome."""

    async def one(table_id: str, seq: int, epoch: int) -> BaseException | None:
        try:
            await log.append(table_id, seq, 0, {"seat": seq % 3}, None, epoch)
        except Exception as exc:
            return exc
        return None

    try:
        return await asyncio.gather(*(one(*w) for w in writes))
    finally:
        await log.close()


def test_batches_are_written_on_the_loops_connection(leases: Leases) -> None:
    assert leases.claim("f1", "n") == 1 and leases.claim("f2", "n") == 1 and leases.claim("f3", "m") == 1
    log = FencedLog(leases, "n", in_thread)
    answers = asyncio.run(play(log, [("f1", 0, 1), ("f2", 0, 1), ("f3", 0, 1), ("f1", 1, 1)]))
    assert answers[0] is None and answers[1] is None and answers[3] is None
    assert isinstance(answers[2], LeaseLost)
    assert log.thread_batches == 0 and log.events == 4
    assert leases.writers_of("f1") == [(0, "n", 1), (1, "n", 1)] and leases.writers_of("f3") == []


def test_a_batch_that_fails_on_the_loop_is_written_by_the_thread_where_the_bad_event_fails_alone(
    leases: Leases,
) -> None:
    assert leases.claim("f2", "n") == 1 and leases.claim("f3", "m") == 1
    assert leases.claim("f1", "m") == 1
    leases.append("f1", 0, 0, {"seat": 2}, None, "m", 1)  # f1's seq 0 taken by a writer not at n's epoch
    leases.release("f1", "m")
    assert leases.claim("f1", "n") == 2
    log = FencedLog(leases, "n", in_thread)
    answers = asyncio.run(play(log, [("f1", 0, 2), ("f2", 0, 1), ("f3", 0, 1)]))
    assert answers[0] is not None and not isinstance(answers[0], (LeaseLost, LogAhead)) and answers[1] is None
    assert isinstance(answers[2], LeaseLost)  # written alone, f3's lease (held by m) still fences it out
    assert log.thread_batches == 1
    assert leases.writers_of("f2") == [(0, "n", 1)] and leases.store.count_events("f1") == 1
    assert leases.writers_of("f3") == []


def test_an_action_the_log_holds_at_the_number_of_another_is_the_tables_log_ahead(leases: Leases) -> None:
    """A commit that seemed to fail but reached the log: the table's next action, at the same
    number, is answered ``LogAhead`` with the logged action, which the table then applies."""
    assert leases.claim("f1", "n") == 1 and leases.claim("f2", "n") == 1
    leases.append("f1", 0, 0, {"seat": 2}, None, "n", 1)
    log = FencedLog(leases, "n", in_thread)
    answers = asyncio.run(play(log, [("f1", 0, 1), ("f2", 0, 1)]))
    ahead = answers[0]
    assert isinstance(ahead, LogAhead) and (ahead.table_id, ahead.seq, ahead.hand) == ("f1", 0, 0)
    assert ahead.action == {"seat": 2} and answers[1] is None
    alone = asyncio.run(play(FencedLog(leases, "n", in_thread), [("f1", 0, 1)]))[0]
    assert isinstance(alone, LogAhead) and alone.action == {"seat": 2}
    assert leases.store.count_events("f1") == 1


def test_an_event_already_in_the_log_as_it_is_is_acknowledged(leases: Leases) -> None:
    """A commit whose answer was lost: writing the same event again finds it there and acknowledges it."""
    assert leases.claim("f1", "n") == 1
    asyncio.run(play(FencedLog(leases, "n", in_thread), [("f1", 0, 1)]))
    log = FencedLog(leases, "n", in_thread)
    assert asyncio.run(play(log, [("f1", 0, 1), ("f1", 1, 1)])) == [None, None]
    assert log.thread_batches == 1 and leases.writers_of("f1") == [(0, "n", 1), (1, "n", 1)]


def test_without_a_connection_for_the_loop_the_thread_writes(leases: Leases, monkeypatch: pytest.MonkeyPatch) -> None:
    assert leases.claim("f1", "n") == 1
    tries = 0

    async def refused(**settings: Any) -> Any:
        nonlocal tries
        tries += 1
        raise OSError("connection refused")

    monkeypatch.setattr(leases.store, "open_async_connection", refused)
    log = FencedLog(leases, "n", in_thread)

    async def twice() -> None:
        assert await play(log, [("f1", 0, 1)]) == [None]
        assert await play(log, [("f1", 1, 1)]) == [None]  # not tried again so soon

    asyncio.run(twice())
    assert tries == 1 and log.thread_batches == 2
    assert [seq for seq, _, _ in leases.writers_of("f1")] == [0, 1]


def test_a_batch_stuck_on_the_loop_is_given_up_and_the_loop_connects_again(leases: Leases) -> None:
    """A batch that waits on the loop's connection longer than the leases' ``write_seconds`` is
    handed to the thread (which writes it once the lease row is free) and that connection is
    closed; the next batch is written on the loop again, through a new connection."""
    assert leases.claim("f1", "n") == 1
    leases.write_seconds = 0.3
    log = FencedLog(leases, "n", in_thread)
    blocker = leases.engine.connect()
    blocker.begin()
    blocker.execute(  # an uncommitted renewal holds the lease row
        leases.leases.update().where(leases.leases.c.table_id == "f1").values(expires_at=time.time() + 60)
    )

    async def main() -> tuple[bool, Any, Any]:
        task = asyncio.create_task(log.append("f1", 0, 0, {"seat": 0}, None, 1))
        first = None
        deadline = time.monotonic() + 3.0
        while log.thread_batches == 0 and time.monotonic() < deadline:
            if first is None:
                first = log._conn.conn
            await asyncio.sleep(0.01)
        handed = log.thread_batches == 1 and not task.done()
        blocker.commit()
        await asyncio.wait_for(task, 10)
        await log.append("f1", 1, 0, {"seat": 1}, None, 1)
        second = log._conn.conn
        await log.close()
        return handed, first, second

    try:
        handed, first, second = asyncio.run(main())
    finally:
        blocker.close()
    assert handed and first is not None and first.is_closed()
    assert second is not None and second is not first and log.thread_batches == 1
    assert leases.writers_of("f1") == [(0, "n", 1), (1, "n", 1)]
