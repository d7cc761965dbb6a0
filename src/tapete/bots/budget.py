"""A decision's time budget: the search levels stop when it is spent and answer with their best so far.

A bot given ``time_budget`` (seconds) starts a :class:`Deadline` when it is asked to act;
the searches check it every few iterations and return the best action found up to then.
Without a budget a bot is a pure function of its seed and observation; with one it is the
same function as long as the budget is not reached (the server sets budgets well above a
level's usual time, so only an overloaded machine cuts a search short).

>>> Deadline.after(None).expired(), Deadline.after(0.0).expired()
(False, True)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

CHECK_EVERY = 8
"""Search iterations between two looks at the clock (a look costs well under a microsecond)."""


@dataclass(frozen=True)
class Deadline:
    """A point on the monotonic clock (``inf``: none)."""

    at: float = math.inf

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (``None``: never)."""
        return cls() if seconds is None else cls(time.monotonic() + max(0.0, float(seconds)))

    def expired(self) -> bool:
        return self.at != math.inf and time.monotonic() >= self.at

    def stop(self, iteration: int) -> bool:
        """Whether a search loop should stop before ``iteration`` (never before the first)."""
        return iteration > 0 and iteration % CHECK_EVERY == 0 and self.expired()


NO_DEADLINE = Deadline()


def time_budget(value: object) -> float | None:
    """Read the ``time_budget`` bot parameter: seconds > 0, or ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"time_budget must be a number of seconds, not {value!r}")
    seconds = float(value)
    if not seconds > 0:
        raise ValueError(f"time_budget must be a positive number of seconds, not {value!r}")
    return seconds
