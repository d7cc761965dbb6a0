"""Run Fast (Pao De Kuai): a three-player shedding game (``docs/rules.md``).

``rules`` holds the profile options, ``combos`` the combinations, the beats relation
and legal-move generation, ``settlement`` the pure settlement of a finished deal and
``game`` the ``RunFastGame`` state machine.
"""

from __future__ import annotations

from tapete.engine.runfast.actions import PASS, RunFastAction
from tapete.engine.runfast.game import RunFastGame
from tapete.engine.runfast.rules import RunFastRules

__all__ = ["PASS", "RunFastAction", "RunFastGame", "RunFastRules"]
