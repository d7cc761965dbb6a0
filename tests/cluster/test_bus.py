"""The nodes' bus: messages to a node arrive once and in order, requests get their replies, silence times out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tapete.server.cluster.bus import Bus, BusTimeout


def test_order_replies_and_timeouts(rd: tuple[str, str]) -> None:
    url, prefix = rd

    async def scenario() -> None:
        x, y = Bus(url, prefix, "x"), Bus(url, prefix, "y")
        got: list[int] = []

        def on_y(m: dict[str, Any]) -> None:
            if m["k"] == "req":
                y.reply(m, {"double": 2 * m["n"]})
            else:
                got.append(m["n"])

        await x.start(lambda m: None)
        await y.start(on_y)
        try:
            for n in range(300):
                x.publish("y", {"k": "out", "n": n})
            answers = await asyncio.gather(*(x.request("y", {"n": n}, 5.0) for n in range(20)))
            assert [a["double"] for a in answers] == [2 * n for n in range(20)]
            for _ in range(100):
                if len(got) == 300:
                    break
                await asyncio.sleep(0.02)
            assert got == list(range(300))  # every message once, in the order sent
            with pytest.raises(BusTimeout):
                await x.request("nobody", {"n": 1}, 0.3)
        finally:
            await x.stop()
            await y.stop()

    asyncio.run(scenario())
