"""``tapete serve`` and ``tapete worker`` write each log line with its time and level."""

from __future__ import annotations

import logging
import re

import pytest

from tapete.server.run import log_to_stderr


def test_a_log_line_carries_its_time_level_and_source(capsys: pytest.CaptureFixture[str]) -> None:
    handler = log_to_stderr()
    try:
        logging.getLogger("tapete.server").warning("table %s: lease lost", "t1")
    finally:
        logging.getLogger("tapete").removeHandler(handler)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING tapete\.server: table t1: lease lost", lines[0])
