"""Bots go on once the log can be written again: an action the log refused is asked again."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import tapete
from tapete.server import table as table_module
from tapete.server.table import Table, TableConfig
from tests.server.helpers import stored_row


def test_bots_go_on_after_the_log_refused_their_actions_many_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six commits in a row fail (a full disk, a database away): the bots' actions are refused
    ``server_error`` each time, and once the log takes writes again the bots play on, without
    anything else happening at the table."""
    monkeypatch.setattr(table_module, "RETRY_PAUSE_MAX", 0.05)
    failing = {"left": 6}
    logged: list[int] = []

    async def append(table_id: str, seq: int, hand: int, action: dict[str, Any], final: Any) -> None:
        if failing["left"] > 0:
            failing["left"] -= 1
            raise OSError("database or disk is full")
        logged.append(seq)

    async def decide(lane: str, level: str, seed: int, obs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        return obs["legal_actions"][0], {}

    async def override(table_id: str, seat: int, level: str | None, on: bool) -> None:
        return None

    async def scenario() -> int:
        row = stored_row("t1")
        config = TableConfig(append_event=append, set_override=override, decide=decide, bot_delay=0.0)
        t = Table(row, tapete.new_game("runfast", seed=row.seed), config)
        t.kick_bots()
        deadline = time.monotonic() + 10
        while t.version < 5 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await t.close()
        return t.version

    version = asyncio.run(scenario())
    assert failing["left"] == 0
    assert version >= 5 and logged[:5] == [0, 1, 2, 3, 4]
