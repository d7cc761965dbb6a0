#!/usr/bin/env python
"""The bots' anchor ratings per family and level, from ``tapete arena --json`` results.

Usage:
    python scripts/bot_anchors.py [ARENA.json ...]

With files: every difference in them (points per hand, or win rates of a ``--games``
run) becomes a rating gap, and the anchors are printed as JSON. Without files: the
ladder published in the README (each family's ``Family.ladder``, gathered in
``tapete.players.anchors.LADDER``) is used, which gives the shipped ``Family.bot_anchors``. The method is in ``docs/players.md``.

Example (a fresh measurement of two pairs, then the anchors):
    tapete arena runfast --bots normal,easy,easy --hands 2000 --seed 1 --json > rf-ne.json
    tapete arena runfast --bots hard,normal,normal --hands 300 --seed 1 --json > rf-hn.json
    python scripts/bot_anchors.py rf-ne.json rf-hn.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tapete.families import families
from tapete.players.anchors import ANCHOR_SIGMA, derive, ladder_pairs, pairs_of_summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path, help="tapete arena --json outputs")
    args = parser.parse_args(argv)
    if args.files:
        pairs = [p for f in args.files for p in pairs_of_summary(json.loads(f.read_text(encoding="utf-8")))]
    else:
        pairs = ladder_pairs()
    measured = {fam for fam, _ in pairs}
    levels = {f.name: f.bot_levels for f in families() if f.name in measured}
    out = {
        "sigma": ANCHOR_SIGMA,
        "pairs": [{"family": fam, "profile": p.profile, "a": p.a, "b": p.b, "p": round(p.p, 4)} for fam, p in pairs],
        "anchors": derive(pairs, levels),
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
