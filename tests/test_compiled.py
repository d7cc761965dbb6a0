"""The compiled engine behaves exactly like the Python one.

``pip install .`` compiles the Spades engine's hot modules with mypyc (``setup.py``'s
``COMPILED``); the test suite itself runs on the editable, pure-Python install. This
test builds those modules in a scratch copy of the sources and runs the engine's
scenario, conformance, golden, record and fast-path tests against the build, and the
server's restart tests, whose workers hand rebuilt games back pickled (what a compiled
class needs for that is in ``engine/pickling.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BUILD_TESTS = [
    "tests/spades",
    "tests/test_codecs.py",
    "tests/test_conformance.py",
    "tests/test_golden.py",
    "tests/test_records.py",
    "tests/bots/test_determinize.py",
    "tests/bots/test_hard.py",
    "tests/server/test_restart.py",
    "tests/server/test_finished_restart.py",
]


def _compiler_missing() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on this machine: the compiled engine cannot be built here"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "the Python headers (Python.h) are missing: the compiled engine cannot be built here"
    return None


@pytest.fixture(scope="module")
def compiled_src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = _compiler_missing()
    if missing:
        pytest.skip(missing)
    pytest.importorskip("mypyc.build", reason="mypyc (part of mypy) is needed to build the compiled engine")
    work = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "src", work / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, work / name)
    env = dict(os.environ, TAPETE_COMPILE="1")
    env.pop("TAPETE_PURE", None)
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-4000:]
    return work / "src"


def _run(src: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(src))
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_the_build_compiles_the_engine_modules(compiled_src: Path) -> None:
    names = [
        "tapete.engine.dealing",
        "tapete.engine.spades.game",
        "tapete.engine.spades.scoring",
        "tapete.engine.spades.trick",
        "tapete.engine.spades.determinize",
        "tapete.engine.spades.dds",
        "tapete.engine.spades.score_search",
        "tapete.engine.spades.maxn",
    ]
    code = "import importlib, sys\n" + "".join(f"print(importlib.import_module({name!r}).__file__)\n" for name in names)
    result = _run(compiled_src, "-c", code)
    assert result.returncode == 0, result.stderr
    files = result.stdout.split()
    assert len(files) == len(names)
    for name, file in zip(names, files, strict=True):
        assert file.startswith(str(compiled_src)), f"{name} was imported from {file}, not from the build"
        assert file.endswith(sysconfig.get_config_var("EXT_SUFFIX")), f"{name} is not compiled: {file}"


def test_the_compiled_engine_passes_the_engine_and_restart_tests(compiled_src: Path) -> None:
    result = _run(compiled_src, "-m", "pytest", "-q", "-p", "no:cacheprovider", *BUILD_TESTS)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
