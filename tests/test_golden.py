"""Golden playthroughs: seeded full games written as text; a rules change shows as a diff.

Regenerate after an intended rules change with ``TAPETE_UPDATE_GOLDEN=1 pytest tests/test_golden.py``
and review the diff of ``tests/golden/``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import tapete
from tapete.records import replay
from tapete.render import replay_report_text
from tests.helpers import sensible_random_action

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "cutthroat-seed-1": ("cutthroat", 1, {"target": 100, "floor": -200}),
    "spades-seed-2": ("spades", 2, {"target": 150}),
    "cutthroat-official-seed-3": ("cutthroat-official", 3, {"target": 100, "floor": -200, "tokens": 2}),
    "cutthroat-5p-2jokers-seed-4": ("cutthroat-5p-2jokers", 4, {"target": 60, "floor": -150, "tokens": 1}),
}
if "runfast" in tapete.profile_names():
    CASES["runfast-seed-5"] = ("runfast", 5, {})
CASES |= {
    "spades-blind-nil-seed-6": ("spades-blind-nil", 6, {"target": 150}),
    "spades-jokers-seed-7": ("spades-jokers", 7, {"target": 150}),
    "spades-deuces-seed-8": ("spades-deuces", 8, {"target": 150}),
    "spades-suicide-seed-9": ("spades-suicide", 9, {"target": 150}),
    "callbreak-seed-10": ("callbreak", 10, {"deals": 2}),
    "runfast-15-seed-11": ("runfast-15", 11, {}),
    "runfast-3s-seed-12": ("runfast-3s", 12, {"deals": 2}),
}


def playthrough(profile: str, seed: int, options: dict[str, object]) -> str:
    game = tapete.new_game(profile, seed=seed, options=options)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(sensible_random_action(game, rng))
    report = replay(game.record()).report
    return replay_report_text(report) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    text = playthrough(*CASES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("TAPETE_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("CI") and not path.exists():
            pytest.fail(f"{path.name} is missing; generate it with TAPETE_UPDATE_GOLDEN=1")
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from {path}; review and regenerate if intended"
