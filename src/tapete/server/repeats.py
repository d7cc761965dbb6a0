"""Log lines for a failure that repeats: a loop retrying while Redis or the database is away.

A loop that tries again twice a second through a ten-minute outage would write 1,200 lines, each
with its traceback, and bury what came before it. A :class:`RepeatedFailure` writes the first
failure as it comes, then one line at most every ``every`` seconds counting the failures since
the last line, and one line when the thing works again, saying how many failures there were and
for how long.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

SUMMARY_EVERY = 60.0
"""Seconds between the lines that count a failure's repeats."""


class RepeatedFailure:
    """One kind of failure of one loop (or of many tables alike), logged as it starts, counted
    while it repeats and logged once when it ends.

    ``what`` names what fails ("bus: publishing"), ``then`` what happens next ("trying again").
    Used without :meth:`succeeded` (many tables failing alike, where one's success tells nothing
    of another's failure), it logs the first failure and then one line a minute at most.
    """

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        then: str,
        *,
        every: float = SUMMARY_EVERY,
        level: int = logging.ERROR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.what = what
        self.then = then
        self.every = every
        self.level = level
        self.clock = clock
        self.failures = 0
        """Failures since the last success."""
        self._since: float | None = None
        self._shown_at = 0.0
        self._last_at = 0.0
        self._unshown = 0

    @property
    def failing(self) -> bool:
        """Whether the last outcome was a failure."""
        return self._since is not None

    def failed(self, detail: str, exc: BaseException | None = None) -> None:
        """Note one failure; ``detail`` says which (an error's name, never a message that may
        quote a card), ``exc`` adds its traceback to the first line."""
        now = self.clock()
        if self._since is not None and now - self._last_at >= self.every:  # quiet a while: a new spell
            self._end_spell(now)
        self._last_at = now
        self.failures += 1
        if self._since is None:
            self._since = self._shown_at = now
            self._unshown = 0
            self.logger.log(self.level, "%s failed (%s); %s", self.what, detail, self.then, exc_info=exc)
            return
        self._unshown += 1
        if now - self._shown_at >= self.every:
            self.logger.log(
                self.level,
                "%s failed %d more times in %.0f s (the last: %s); %s",
                self.what,
                self._unshown,
                now - self._shown_at,
                detail,
                self.then,
            )
            self._shown_at = now
            self._unshown = 0

    def succeeded(self) -> None:
        """Note a success: after failures, one line says they ended."""
        if self._since is None:
            return
        lasted = self.clock() - self._since
        self.logger.warning("%s works again, after %d failures in %.1f s", self.what, self.failures, lasted)
        self._since = None
        self.failures = 0

    def _end_spell(self, now: float) -> None:
        """Failures that stopped without a success (used without :meth:`succeeded`): those not
        yet counted in a line are, and the next failure is logged as a first one."""
        if self._unshown:
            self.logger.log(
                self.level,
                "%s failed %d more times in %.0f s; %s",
                self.what,
                self._unshown,
                self._last_at - self._shown_at,
                self.then,
            )
        self._since = None
        self.failures = 0
