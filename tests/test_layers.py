"""The layers point one way, and the engine stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "tapete"
ENGINE = SRC / "engine"
UPPER = ("tapete.bots", "tapete.server", "tapete.env", "tapete.cli", "tapete.records", "tapete.profiles", "tapete.web")
IMPURE_MODULES = {"asyncio", "logging", "os", "socket", "subprocess", "sqlite3", "threading", "time", "pathlib", "io"}
GLOBAL_RANDOM = {"random", "randint", "randrange", "choice", "shuffle", "sample", "seed", "getrandbits", "uniform"}


def engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    return files


def test_engine_imports_nothing_above_it() -> None:
    for path in engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(UPPER), f"{path.name} imports {name}"
                assert name.split(".")[0] not in IMPURE_MODULES, f"{path.name} imports {name}: the engine is pure"


def test_engine_uses_no_global_random_and_no_io() -> None:
    for path in engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "random":
                    assert f.attr not in GLOBAL_RANDOM, f"{path.name} calls random.{f.attr} (global random)"
                if isinstance(f, ast.Name):
                    assert f.id not in ("open", "print", "input"), f"{path.name} calls {f.id}()"
