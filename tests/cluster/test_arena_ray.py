"""``tapete arena --ray``: the duplicate deals as Ray tasks give the same table as the local run."""

from __future__ import annotations

import importlib.util

import pytest

from tapete.arena import run_arena

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'tapete[cluster]')"
)


def test_ray_run_equals_the_local_run() -> None:
    local = run_arena("runfast", ["easy", "normal"], 10, seed=5, jobs=1, progress=False)
    on_ray = run_arena("runfast", ["easy", "normal"], 10, seed=5, progress=False, ray_address="local")
    assert on_ray == local
    assert local["deals"] == 10 and set(local["levels"]) == {"easy", "normal"}
