"""The layers point one way, and the engine stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "tapete"
ENGINE = SRC / "engine"
UPPER = (
    "tapete.bots",
    "tapete.server",
    "tapete.env",
    "tapete.cli",
    "tapete.records",
    "tapete.profiles",
    "tapete.web",
    "tapete.rulebook",
    "tapete.arena",
    "tapete.render",
    "tapete.i18n",
    "tapete.families",
)
FAMILY_NAMES = frozenset({"spades", "runfast"})
GAME_CLASSES = frozenset({"SpadesGame", "RunFastGame", "SpadesRules", "RunFastRules"})
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


def _dispatch_on_family(tree: ast.AST) -> list[str]:
    """Comparisons with a family's name, and isinstance checks against a family's classes."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                if isinstance(operand, ast.Constant) and operand.value in FAMILY_NAMES:
                    found.append(f"line {node.lineno}: compares with {operand.value!r}")
                elements = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else []
                for elt in elements:
                    if isinstance(elt, ast.Constant) and elt.value in FAMILY_NAMES:
                        found.append(f"line {node.lineno}: compares with a list naming {elt.value!r}")
                if isinstance(operand, ast.Attribute) and operand.attr == "__name__":
                    found.append(f"line {node.lineno}: compares a class name")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} if len(node.args) > 1 else set()
            if names & GAME_CLASSES:
                found.append(f"line {node.lineno}: isinstance against {sorted(names & GAME_CLASSES)}")
    return found


def test_nothing_above_the_engine_dispatches_on_a_family() -> None:
    """Which family a game belongs to is asked of the registry (tapete.families), never decided in place."""
    offenders = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(("engine/", "families/")):
            continue
        found = _dispatch_on_family(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            offenders[rel] = found
    assert not offenders, offenders


def test_the_dispatch_check_sees_dispatch() -> None:
    code = 'if info.family == "runfast": pass\nif isinstance(rules, SpadesRules): pass\nx = type(g).__name__ == "X"'
    assert len(_dispatch_on_family(ast.parse(code))) == 3
