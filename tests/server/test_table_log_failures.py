"""A table when its log fails: bots go on once the log takes writes again, and a table whose
earlier action reached the log though its commit seemed to fail catches up with the log."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import tapete
from tapete.server import table as table_module
from tapete.server.db import LogAhead, SeatRow
from tapete.server.errors import ServerError
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


def test_a_table_behind_its_log_applies_the_logged_action_and_the_caller_is_stale() -> None:
    """An earlier action at this version reached the log, though its commit seemed to fail (its
    answer lost, the database not reachable to ask): the next, different action finds another
    action at its number. The table applies the logged one, as a restart from the log would,
    and refuses the caller ``stale_version`` so that it acts on the new state."""
    row = stored_row("t1", [SeatRow(i, "human", None, "1" * 64) for i in range(3)])
    game = tapete.new_game("runfast", seed=row.seed)
    seat = game.to_act
    assert seat is not None
    legal = game.observation(seat)["legal_actions"]
    assert len(legal) > 1
    logged, tried = legal[0], legal[1]
    appended: list[int] = []

    async def append(table_id: str, seq: int, hand: int, action: dict[str, Any], final: Any) -> None:
        if seq == 0:
            raise LogAhead(table_id, 0, 0, dict(logged))
        appended.append(seq)

    async def decide(lane: str, level: str, seed: int, obs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        raise AssertionError("no bot here")

    async def override(table_id: str, seat: int, level: str | None, on: bool) -> None:
        return None

    async def scenario() -> Table:
        config = TableConfig(append_event=append, set_override=override, decide=decide, bot_delay=0.0)
        t = Table(row, tapete.new_game("runfast", seed=row.seed), config)
        with pytest.raises(ServerError) as refused:
            await t.submit(seat, tried, 0)
        assert refused.value.code == "stale_version" and t.version == 1
        expected = tapete.new_game("runfast", seed=row.seed)
        expected.apply(expected.parse_action(logged))
        assert t.game.observation(seat) == expected.observation(seat)  # the logged action, not the tried one
        follows = t.game.to_act
        assert follows is not None
        await t.submit(follows, t.game.observation(follows)["legal_actions"][0], 1)  # the next action is logged at 1
        return t

    table = asyncio.run(scenario())
    assert table.version == 2 and appended == [1]
