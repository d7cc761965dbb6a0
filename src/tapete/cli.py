"""The ``tapete`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("tapete: commands are coming", file=sys.stderr)
    return 0
