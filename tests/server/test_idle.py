"""The read deadline of a socket: one timer per socket, moved by every read."""

from __future__ import annotations

import asyncio

import pytest

from tapete.server.idle import ReadDeadline


async def _read_until(deadline: ReadDeadline, seconds: float, arrives: asyncio.Future[str]) -> str:
    try:
        return await deadline.read(arrives, seconds)
    except TimeoutError:
        return "timeout"


def test_reads_in_time_move_the_deadline_and_a_late_one_times_out() -> None:
    async def main() -> list[str]:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        deadline = ReadDeadline(task)
        got = []
        for _ in range(4):  # each read comes after 0.05 s: well within 0.15 s, though the total is not
            arrives: asyncio.Future[str] = loop.create_future()
            loop.call_later(0.05, arrives.set_result, "frame")
            got.append(await _read_until(deadline, 0.15, arrives))
        got.append(await _read_until(deadline, 0.1, loop.create_future()))  # nothing comes
        deadline.close()
        return got

    assert asyncio.run(main()) == ["frame"] * 4 + ["timeout"]


def test_a_shorter_wait_than_the_one_scheduled_is_kept() -> None:
    async def main() -> str:
        task = asyncio.current_task()
        assert task is not None
        deadline = ReadDeadline(task)
        loop = asyncio.get_running_loop()
        arrives: asyncio.Future[str] = loop.create_future()
        loop.call_soon(arrives.set_result, "frame")
        assert await deadline.read(arrives, 60.0) == "frame"  # a long wait scheduled, then over
        start = loop.time()
        result = await _read_until(deadline, 0.05, loop.create_future())
        deadline.close()
        assert loop.time() - start < 5  # the 0.05 s wait, not the 60 s one scheduled before
        return result

    assert asyncio.run(main()) == "timeout"


def test_another_cancellation_is_not_an_expiry() -> None:
    async def reader(deadline_box: list[ReadDeadline]) -> str:
        task = asyncio.current_task()
        assert task is not None
        deadline_box.append(ReadDeadline(task))
        return await _read_until(deadline_box[0], 60.0, asyncio.get_running_loop().create_future())

    async def main() -> None:
        box: list[ReadDeadline] = []
        task = asyncio.create_task(reader(box))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        box[0].close()

    asyncio.run(main())
