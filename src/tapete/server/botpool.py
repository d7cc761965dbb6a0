"""Bot decisions off the event loop.

A decision is a pure function of ``(level, seed, observation)``, so it runs in a worker
process (``concurrent.futures.ProcessPoolExecutor``) and a slow bot never stalls the
server. Which levels a table offers is its family's ``bot_levels`` (``tapete.families``).
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from tapete.bots import make_bot


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """A seed for one decision, reproducible from the table and the moment."""
    h = hashlib.sha256(f"{table_seed}:{seat}:{version}".encode()).digest()
    return int.from_bytes(h[:4], "big")


def decide(level: str, seed: int, observation: dict[str, Any], extra_delay: float = 0.0) -> dict[str, Any]:
    """One bot decision (runs in a worker). ``extra_delay`` simulates a slow bot (tests)."""
    if extra_delay > 0:
        time.sleep(extra_delay)
    legal = observation.get("legal_actions") or []
    if not legal:
        raise ValueError("the bot was asked to act without legal actions")
    return dict(make_bot(level, seed=seed).act(observation))


def make_executor(kind: str = "process", workers: int = 2) -> Executor:
    """The worker pool: ``process`` (default) or ``thread`` (for debugging)."""
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tapete-bot")
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


async def run_decision(
    executor: Executor | None, level: str, seed: int, observation: dict[str, Any], extra_delay: float = 0.0
) -> dict[str, Any]:
    """Await one decision computed in ``executor`` (``None``: the event loop's default thread pool)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, decide, level, seed, observation, extra_delay)
