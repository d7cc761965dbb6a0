"""Group commit: the accepted actions of every table written to the log together, each acknowledged after its commit.

Tables hand their events to :meth:`GroupCommit.append` and wait; an action is acknowledged only
once it is in the log, and the cost of a commit is shared by every action of its batch. Where
the commit happens depends on what it costs (:attr:`tapete.server.db.Store.commits_on_loop`):

- **On the event loop** (SQLite at ``synchronous=NORMAL``, the default): a commit appends to
  the write-ahead log in the system's page cache and never syncs, a few tens of microseconds.
  The events appended during one turn of the event loop are committed together at its end,
  on a connection that never waits for a lock; when the last commit carried more than one
  event and is less than ``commit_interval`` old, the commit waits until it is, and carries
  the events of every turn until then (so at low load an event is committed in its own turn,
  and under load commits come an interval apart with several times as many events each); a
  batch that would wait (another connection is writing) or fails, or a burst of more than
  ``loop_batch`` events, goes to the writer thread instead. The write-ahead log is checkpointed
  by the writer thread (every ``checkpoint_every`` commits), never on the loop. No thread is woken
  for an event, which is what makes this way cheaper than the other (measured in
  ``benchmarks/server_cpu.py``: docs/operations.md).
- **Awaited on the event loop** (PostgreSQL: a round trip to the server). One commit is in
  flight at a time, on an asynchronous connection of the loop's own: the events appended while
  it travels (and, as above, until ``commit_interval`` after it was sent) make the next one
  (up to ``loop_batch``), written as one statement
  (:meth:`tapete.server.db.Store.append_events_async`). A batch that fails goes to the writer
  thread, as above, and so does every batch for ``RECONNECT_AFTER`` seconds after the
  connection could not be opened. No thread is woken for an event here either.
- **On the writer thread** (SQLite at ``FULL``: an ``fsync`` a commit): it takes every event
  waiting (up to ``max_batch``; those that arrived while the last
  batch was committing, or during ``linger`` seconds if set), writes them in one transaction
  through the driver's batch insert (:meth:`tapete.server.db.Store.append_events`), and only
  after the commit returns wakes the waiting tables — one call into the event loop per batch.

If a batch fails on the thread, its events are written again one transaction each, so that one
bad event (say, a sequence number already taken) fails alone and the others still commit; an
event the log already holds as it is (an earlier commit of it whose answer was lost) is
acknowledged, not refused; a different action the log holds at an event's number (an earlier
action of the table whose commit reached the log though it seemed to fail) fails the event with
``LogAhead``, on which the table applies the logged action. A lost database connection is replaced
for the next batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Final

import orjson

from tapete.server.db import EventRow, LogAhead, Store, error_name
from tapete.server.loopconn import RECONNECT_AFTER, LoopConnection
from tapete.server.repeats import RepeatedFailure

log = logging.getLogger("tapete.server")

LINGER: Final = 0.0
"""Seconds the writer waits after the first event of a batch for more. None by default: the events
that come while a batch commits make the next batch (measured: a 2 ms linger saved no CPU at 300
tables and doubled the acknowledgement's median)."""
MAX_BATCH: Final = 1000
"""Most events written in one transaction."""


@dataclass(slots=True)
class _Pending:
    row: EventRow
    future: asyncio.Future[None]


_STOP: Final = object()
_CHECKPOINT: Final = object()

LOOP_BATCH: Final = 200
"""Most events committed on the event loop at once: a turn that gathered more (a burst) hands
them to the writer thread, where a large commit does not hold up the loop (about 10 µs an event)."""
COMMIT_INTERVAL: Final = 0.001
"""Seconds at least from the start of a commit on the event loop that carried more than one event
to the next commit (after a lone event, which means no other table is keeping the server busy,
the next one is not held back). Measured with ``benchmarks/server_cpu.py`` (SQLite, 20 tables):
about 3 events a commit became 8, and the server's CPU an action fell by about 8 % while its
actions a second rose a little; 2 ms left the server idle between commits (docs/operations.md)."""
CHECKPOINT_EVERY: Final = 100
"""Commits on the event loop between two checkpoints of SQLite's write-ahead log (a commit
adds five to ten pages to it under load; SQLite's own default checkpoints at 1,000 pages)."""


class GroupCommit:
    """The single writer of the event log: the event loop's own commits, and one thread."""

    def __init__(
        self,
        store: Store,
        *,
        linger: float = LINGER,
        max_batch: int = MAX_BATCH,
        on_loop: bool | None = None,
        loop_batch: int = LOOP_BATCH,
        checkpoint_every: int = CHECKPOINT_EVERY,
        commit_interval: float = COMMIT_INTERVAL,
    ) -> None:
        self.store = store
        self.linger = linger
        self.max_batch = max_batch
        self.on_loop = store.commits_on_loop if on_loop is None else on_loop
        """Whether batches are committed on the event loop (the thread takes only what cannot be)."""
        self.loop_batch = loop_batch
        self.checkpoint_every = checkpoint_every
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: Any = None
        self._loop_conn: Any = None
        """SQLite's connection for the commits made on the event loop."""
        self._async = LoopConnection(store)
        """PostgreSQL's asynchronous connection for the commits awaited on the event loop."""
        self._gathered: list[_Pending] = []
        """Events appended in this turn of the event loop, committed together at its end (awaited
        commits: since the commit in flight was sent)."""
        self.awaits = self.on_loop and store.loop_commits_await
        """Whether commits on the loop are awaited (PostgreSQL) rather than made at once (SQLite)."""
        self._more: asyncio.Event | None = None
        """Set when events wait for the awaited commits' writer task."""
        self._closing = False
        self._loop_writer: asyncio.Task[None] | None = None
        self.commit_interval = commit_interval
        self._committed_at = -math.inf
        """When the last commit on the loop that carried more than one event started
        (``time.monotonic()``; ``-inf`` when the last carried one)."""
        self._since_checkpoint = 0
        self._checkpoint_asked = False
        self.loop_batches = 0
        """Transactions committed on the event loop."""
        self.loop_events = 0
        self.thread_batches = 0
        """Transactions committed by the writer thread."""
        self.thread_events = 0
        self.checkpoints = 0
        """Checkpoints of the write-ahead log made by the writer thread."""
        self.failed_events = 0
        """Events the log could not take (their actions refused ``server_error``)."""
        self.failed_at = -math.inf
        """When (``time.monotonic()``) the log last refused an event."""
        self._refusals = RepeatedFailure(log, "writing to the log", "their actions are refused")
        self._writing_since: float | None = None
        """When the writer thread began the batch it is writing (``None`` between batches)."""

    @property
    def batches(self) -> int:
        """Transactions committed (for ``/metrics``)."""
        return self.loop_batches + self.thread_batches

    @property
    def events(self) -> int:
        """Events committed."""
        return self.loop_events + self.thread_events

    def start(self) -> None:
        """Start the writer thread (from the event loop that will await ``append``)."""
        if self._thread is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._run, name="tapete-log-writer", daemon=True)
        self._thread.start()
        if self.awaits:
            self._more = asyncio.Event()
            self._closing = False
            self._loop_writer = self._loop.create_task(self._write_awaited(), name="tapete-log-commits")

    async def append(
        self, table_id: str, seq: int, hand: int, action: dict[str, Any], final: dict[str, Any] | None
    ) -> None:
        """Write one accepted action (and the final record when it ends the game); returns once committed."""
        if self._thread is None:
            raise RuntimeError("the log writer is not running")
        row = EventRow(
            table_id, seq, hand, action_text(action), time.time(), json.dumps(final) if final is not None else None
        )
        loop = asyncio.get_running_loop()
        pending = _Pending(row, loop.create_future())
        if self._more is not None:
            self._gathered.append(pending)
            self._more.set()
        elif self.on_loop:
            if not self._gathered:
                wait = self._wait_before_commit()
                if wait > 0:
                    loop.call_later(wait, self._commit_gathered)
                else:
                    loop.call_soon(self._commit_gathered)  # at the end of this turn
            self._gathered.append(pending)
        else:
            self._queue.put(pending)
        await pending.future

    async def close(self) -> None:
        """Wait for the awaited commits to write what is gathered, then :meth:`stop`."""
        task = self._loop_writer
        if task is not None and self._more is not None:
            self._closing = True
            self._more.set()
            await task
            self._loop_writer = None
            self._more = None
        await self._async.close()
        self.stop()

    def stop(self) -> None:
        """Write what is gathered and queued, then end the writer thread and close the connections
        (without awaiting anything: where commits are awaited on the loop, :meth:`close` drains
        them first)."""
        thread = self._thread
        if thread is None:
            return
        if self._more is not None:  # not drained by ``close``: the thread writes what is gathered
            batch, self._gathered = self._gathered, []
            for p in batch:
                self._queue.put(p)
        else:
            self._commit_gathered()
        self._queue.put(_STOP)
        thread.join()
        self._thread = None
        self._close_loop_connection()

    # --- on the event loop ------------------------------------------------------------------
    def _commit_gathered(self) -> None:
        """At the end of a turn of the event loop: commit what it gathered, or hand it to the thread."""
        batch, self._gathered = self._gathered, []
        if not batch:
            return
        self._started_commit(len(batch))
        if len(batch) > self.loop_batch:
            for p in batch:
                self._queue.put(p)
            return
        try:
            if self._loop_conn is None:
                self._loop_conn = self.store.loop_connection()
            self.store.append_events(self._loop_conn, [p.row for p in batch])
        except Exception as exc:
            # another connection holds the write lock (this one does not wait), or the batch
            # failed: nothing of it is in the log; the thread writes it, waiting as it may,
            # and an event at fault fails alone there
            if not self.store.lock_was_held(exc):
                self._close_loop_connection()  # a fresh one next time: this one may be broken
            for p in batch:
                self._queue.put(p)
            return
        self.loop_batches += 1
        self.loop_events += len(batch)
        _wake(batch, [None] * len(batch))
        self._since_checkpoint += 1
        if self._since_checkpoint >= self.checkpoint_every and not self._checkpoint_asked:
            self._since_checkpoint = 0
            self._checkpoint_asked = True  # one at a time: commits go on while the thread makes it
            self._queue.put(_CHECKPOINT)

    def _started_commit(self, events: int) -> None:
        """A commit of ``events`` starts on the loop: the next waits for ``commit_interval`` after
        it only if it carries more than one."""
        self._committed_at = time.monotonic() if events > 1 else -math.inf

    def _wait_before_commit(self) -> float:
        """Seconds the next commit on the loop still waits (none, or less, when it may start now)."""
        return self._committed_at + self.commit_interval - time.monotonic()

    def _close_loop_connection(self) -> None:
        conn, self._loop_conn = self._loop_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    # --- awaited on the event loop ------------------------------------------------------------
    async def _write_awaited(self) -> None:
        """The task that makes the awaited commits, one in flight at a time, until :meth:`close`."""
        more = self._more
        assert more is not None
        batch: list[_Pending] = []
        try:
            while True:
                if not self._gathered:
                    if self._closing:
                        return
                    more.clear()
                    await more.wait()
                    continue
                wait = self._wait_before_commit()
                if wait > 0 and not self._closing:
                    await asyncio.sleep(wait)
                batch = self._gathered[: self.loop_batch]
                del self._gathered[: self.loop_batch]
                self._started_commit(len(batch))
                await self._commit_awaited(batch)
                batch = []
        except Exception as exc:
            # a fault of this code, not of a commit: the batch in hand fails (whether it reached the
            # log is not known), and the writer thread makes every commit from now on
            log.exception("the event loop's log commits stopped; the writer thread makes them from now on")
            self._more = None
            self.on_loop = False
            _wake(batch, [exc] * len(batch))
            for p in self._gathered:
                self._queue.put(p)
            self._gathered = []

    async def _commit_awaited(self, batch: list[_Pending]) -> None:
        """Commit ``batch`` on the loop's asynchronous connection, or hand it to the thread if that fails."""
        conn = await self._async.get()
        if conn is None:
            for p in batch:  # no connection for the loop for now: the thread writes
                self._queue.put(p)
            return
        try:
            await self.store.append_events_async(conn, [p.row for p in batch])
        except asyncio.CancelledError:
            # the loop is going away mid-commit: whether it reached the log is not known
            for p in batch:
                p.future.cancel()
            raise
        except Exception as exc:
            # nothing of the batch is in the log; the thread writes it, and an event at fault
            # fails alone there
            for p in batch:
                self._queue.put(p)
            log.debug("a batch committed on the loop failed (%s); the writer thread takes it", type(exc).__name__)
            await self._async.after_failure()
            return
        self.loop_batches += 1
        self.loop_events += len(batch)
        _wake(batch, [None] * len(batch))

    # --- the writer thread -----------------------------------------------------------------
    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is _STOP:
                break
            if first is _CHECKPOINT:
                self._checkpoint()
                continue
            batch: list[_Pending] = [first]
            if self.linger > 0:
                time.sleep(self.linger)
            checkpoint = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                if item is _CHECKPOINT:
                    checkpoint = True
                    continue
                batch.append(item)
            self._writing_since = time.monotonic()
            try:
                errors = self._write(batch)
            finally:
                self._writing_since = None
            self._count_failures(errors)
            self._settle(batch, errors)
            if checkpoint:
                self._checkpoint()
        self._close()

    def _count_failures(self, errors: list[BaseException | None]) -> None:
        failed = [e for e in errors if e is not None and not isinstance(e, LogAhead)]
        if failed:
            self.failed_events += len(failed)
            self.failed_at = time.monotonic()
            self._refusals.failed(f"{error_name(failed[0])}, {len(failed)} of {len(errors)} events")
        elif len(failed) < len(errors):
            self._refusals.succeeded()

    def stuck_for(self) -> float:
        """Seconds the writer thread has been writing its batch (0 between batches): a database
        that holds a lock on the log, or stopped answering, shows here long before anything fails."""
        since = self._writing_since
        return 0.0 if since is None else time.monotonic() - since

    def refused_within(self, seconds: float) -> bool:
        """Whether the log refused an event in the last ``seconds``."""
        return time.monotonic() - self.failed_at < seconds

    def _checkpoint(self) -> None:
        try:
            if self._conn is None:
                self._conn = self.store.writer_connection()
            self.store.checkpoint(self._conn)
            self.checkpoints += 1
        except Exception as exc:  # the next one may succeed; the log itself is intact
            log.warning("a checkpoint of the log failed (%s)", error_name(exc))
            self._close(broken=True)
        finally:
            self._checkpoint_asked = False  # the loop may ask for the next one

    def _write(self, batch: list[_Pending]) -> list[BaseException | None]:
        """Commit ``batch``; the error of each event (``None``: committed)."""
        try:
            self._commit([p.row for p in batch])
            return [None] * len(batch)
        except Exception as exc:
            if len(batch) == 1:
                return [self._outcome(batch[0].row, exc)]
            log.warning("a batch of %d events failed (%s); writing them one by one", len(batch), type(exc).__name__)
        errors: list[BaseException | None] = []
        for p in batch:
            try:
                self._commit([p.row])
                errors.append(None)
            except Exception as exc:
                errors.append(self._outcome(p.row, exc))
        return errors

    def _outcome(self, row: EventRow, error: BaseException) -> BaseException | None:
        """What a write of ``row`` that failed with ``error`` comes to, from what the log holds at its
        sequence number (only a table's own writer writes its numbers):

        - ``row`` as it is: an earlier commit of it whose answer was lost (a connection that dropped
          after the database committed) reached the log, so it is acknowledged (``None``);
        - another action: an earlier action of the table whose commit seemed to fail reached the
          log, which the table has yet to apply (``LogAhead``);
        - nothing, or the log cannot be read: ``error``.
        """
        try:
            if self._conn is None:
                self._conn = self.store.writer_connection()
            found = self.store.logged_event(self._conn, row.table_id, row.seq)
        except Exception:
            self._close(broken=True)
            return error
        if found is None:
            return error
        if found == (row.hand, row.action):
            return None
        return LogAhead(row.table_id, row.seq, found[0], json.loads(found[1]))

    def _commit(self, rows: list[EventRow]) -> None:
        if self._conn is None:
            self._conn = self.store.writer_connection()
        try:
            self.store.append_events(self._conn, rows)
        except Exception:
            self._close(broken=True)  # a fresh connection for the next try: this one may be broken
            raise
        self.thread_batches += 1
        self.thread_events += len(rows)

    def _close(self, *, broken: bool = False) -> None:
        """Let the writer's connection go: back to the pool, or, if ``broken`` (a statement on it
        failed), closed for good, so that the next write opens a new one."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                if broken:
                    conn.invalidate()
                else:
                    conn.close()

    def _settle(self, batch: list[_Pending], errors: list[BaseException | None]) -> None:
        loop = self._loop
        assert loop is not None
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_wake, batch, errors)


def action_text(action: dict[str, Any]) -> str:
    """An action's logged form: compact JSON with sorted keys (every writer of the log uses it)."""
    try:
        return orjson.dumps(action, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except TypeError:
        return json.dumps(action, sort_keys=True)


def _wake(batch: list[_Pending], errors: list[BaseException | None]) -> None:
    """In the event loop: each waiting table learns whether its event is in the log."""
    for p, err in zip(batch, errors, strict=True):
        if p.future.done():
            continue
        if err is None:
            p.future.set_result(None)
        else:
            p.future.set_exception(err)


__all__ = [
    "CHECKPOINT_EVERY",
    "COMMIT_INTERVAL",
    "LINGER",
    "LOOP_BATCH",
    "MAX_BATCH",
    "RECONNECT_AFTER",
    "GroupCommit",
    "action_text",
]
