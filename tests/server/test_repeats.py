"""A failure that repeats is logged when it starts, counted while it lasts, and logged when it ends."""

from __future__ import annotations

import logging

import pytest

from tapete.server.repeats import RepeatedFailure


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "tapete.test"]


def test_an_outage_writes_its_start_a_count_a_minute_and_its_end(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="tapete.test")
    clock = Clock()
    failing = RepeatedFailure(logging.getLogger("tapete.test"), "the tick", "trying again", clock=clock)
    failing.succeeded()  # nothing failed: nothing to say
    assert _lines(caplog) == [] and not failing.failing
    for n in range(150):  # 150 s of failures, one a second
        failing.failed(f"E{n}")
        clock.now += 1.0
    failing.succeeded()
    assert _lines(caplog) == [
        (logging.ERROR, "the tick failed (E0); trying again"),
        (logging.ERROR, "the tick failed 60 more times in 60 s (the last: E60); trying again"),
        (logging.ERROR, "the tick failed 60 more times in 60 s (the last: E120); trying again"),
        (logging.WARNING, "the tick works again, after 150 failures in 150.0 s"),
    ]
    assert not failing.failing and failing.failures == 0


def test_a_new_outage_starts_afresh_and_the_first_line_carries_the_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="tapete.test")
    clock = Clock()
    failing = RepeatedFailure(logging.getLogger("tapete.test"), "the bus", "again", every=10.0, clock=clock)
    for _ in range(2):
        try:
            raise ConnectionError("Redis went away")
        except ConnectionError as exc:
            failing.failed("ConnectionError", exc)
            failing.failed("ConnectionError", exc)
        assert failing.failing
        clock.now += 3.0
        failing.succeeded()
    records = [r for r in caplog.records if r.name == "tapete.test"]
    assert [r.getMessage() for r in records] == [
        "the bus failed (ConnectionError); again",
        "the bus works again, after 2 failures in 3.0 s",
    ] * 2
    assert [r.exc_info is not None for r in records] == [True, False, True, False]


def test_without_successes_a_failure_after_a_quiet_while_starts_a_new_spell(caplog: pytest.LogCaptureFixture) -> None:
    """Used without ``succeeded`` (many tables failing alike): the failures of a spell are
    counted when the next spell begins, which is logged as a first failure again."""
    caplog.set_level(logging.DEBUG, logger="tapete.test")
    clock = Clock()
    failing = RepeatedFailure(logging.getLogger("tapete.test"), "a table's append", "refused", clock=clock)
    for n in range(3):
        failing.failed(f"table t{n}")
        clock.now += 1.0
    clock.now += 600.0
    failing.failed("table t9")
    assert [m for _, m in _lines(caplog)] == [
        "a table's append failed (table t0); refused",
        "a table's append failed 2 more times in 2 s; refused",
        "a table's append failed (table t9); refused",
    ]
