"""Build script: compiles the Spades engine's hot path with mypyc where it can.

``pip install .`` compiles the modules in ``COMPILED`` to C extensions (this needs
mypyc, which the build installs, and a C compiler with the Python headers). The
compiled modules behave exactly like the Python ones — ``tests/test_compiled.py``
runs the Spades tests against them — and are about twice as fast.

Without a compiler the build warns and installs pure Python. Editable installs
(``pip install -e .``) stay pure Python so that edits take effect at once.
``TAPETE_PURE=1`` skips compiling; ``TAPETE_COMPILE=1`` makes a failed compilation
an error instead of a warning.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/tapete/engine/dealing.py",
    "src/tapete/engine/spades/scoring.py",
    "src/tapete/engine/spades/trick.py",
    "src/tapete/engine/spades/game.py",
    "src/tapete/engine/spades/determinize.py",
    "src/tapete/engine/spades/dds.py",
    "src/tapete/engine/spades/score_search.py",
    "src/tapete/engine/spades/maxn.py",
]

FORCE = os.environ.get("TAPETE_COMPILE") == "1"
PURE = os.environ.get("TAPETE_PURE") == "1" or "editable_wheel" in sys.argv or "develop" in sys.argv


def warn(message: str) -> None:
    print(f"tapete: {message}; installing pure Python (same behaviour, slower engine)", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Build the compiled modules, or drop them all if any fails (unless forced)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            if FORCE:
                raise
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            warn(f"compiling the engine failed ({exc})")


def compiled_modules() -> list[Any]:
    if PURE and not FORCE:
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify(COMPILED, opt_level="3", group_name="tapete_engine"))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        if FORCE:
            raise
        warn(f"mypyc is unavailable or failed ({exc})")
        return []


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
