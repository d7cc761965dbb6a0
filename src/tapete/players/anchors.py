"""The bots' fixed ratings per family and level, and how they are derived from arena results.

Each bot level plays rated games with a fixed rating (never updated): its *anchor*. The
anchors come from duplicate-deal matches (``tapete arena … --json``):

1. each measured pair *a over b* gives a margin ``m`` (points per hand, or a game win
   rate with ``--games``). A per-hand margin is turned into the chance that *a*'s seat
   outscores *b*'s on a deal, ``p = Φ(m / s)``, where ``s`` is the standard deviation of
   the deal-level paired differences (read back from the 95 % interval:
   ``s = (hi − lo) / (2 · 1.96) · √deals``); a ``--games`` run gives ``p`` as *a*'s win
   rate directly;
2. ``p`` becomes a rating gap: the ``d`` for which the rating model predicts that a
   player rated ``μ + d`` beats one rated ``μ`` with probability ``p`` (both with the
   anchors' σ), found by bisection on the model's own ``predict_win``;
3. a family's gap for a pair is the mean over its profiles; ``normal`` sits at the
   model's starting μ (a new person is presumed as strong as ``normal``, with the
   model's full uncertainty), ``easy`` one gap below, ``hard`` one gap above, and the
   search baseline ``ismcts`` one gap below ``hard``. A level without a measurement
   (Spades ``expert``, Run Fast ``ismcts``) takes ``hard``'s anchor until measured.

``scripts/bot_anchors.py`` runs this on arena JSON files; without files it uses the
ladder published in the README (:data:`LADDER`), which gives :data:`ANCHORS`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Final

from openskill.models import PlackettLuce

from tapete.families import families

ANCHOR_SIGMA: Final = 1.0
"""The σ of every anchor: a bot's strength is measured on thousands of deals."""
Z95: Final = 1.959964


def model() -> PlackettLuce:
    """The rating model: OpenSkill's Plackett–Luce with its default parameters."""
    return PlackettLuce()


@dataclass(frozen=True)
class Pair:
    """One measured pair: ``a`` is stronger than ``b`` with probability ``p`` in ``profile``."""

    profile: str
    a: str
    b: str
    p: float


LADDER: Final[tuple[Mapping[str, Any], ...]] = tuple(
    {**row, "family": fam.name} for fam in families() for row in fam.ladder
)
"""The published ladder (README), as arena differences: each family's ``Family.ladder``."""

ANCHORS: Final[Mapping[str, Mapping[str, float]]] = {
    fam.name: dict(fam.bot_anchors) for fam in families() if fam.bot_anchors
}
"""The anchor μ of each family's bot levels (σ is :data:`ANCHOR_SIGMA`), as each family registers
them (``Family.bot_anchors``): ``derive(LADDER)``, rounded, which the tests check."""


def win_probability(mean: float, ci95: Sequence[float], deals: int) -> float:
    """The chance that the stronger seat outscores the other on a deal, from an arena difference."""
    lo, hi = float(ci95[0]), float(ci95[1])
    spread = (hi - lo) / (2 * Z95) * math.sqrt(max(1, deals))
    if spread <= 0:
        return 0.5 if mean == 0 else (0.999 if mean > 0 else 0.001)
    return NormalDist().cdf(mean / spread)


def rating_gap(p: float, sigma: float = ANCHOR_SIGMA) -> float:
    """The μ difference at which the model predicts a win with probability ``p``."""
    m = model()
    p = min(max(p, 0.001), 0.999)
    lo, hi = -100.0, 100.0
    for _ in range(80):
        mid = (lo + hi) / 2
        won = m.predict_win([[m.rating(mu=mid, sigma=sigma)], [m.rating(mu=0.0, sigma=sigma)]])[0]
        if won < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def pairs_of_summary(summary: Mapping[str, Any]) -> list[tuple[str, Pair]]:
    """``(family, pair)`` of every difference in one ``tapete arena --json`` output."""
    from tapete import profile_info

    profile = str(summary["profile"])
    fam = profile_info(profile).family
    out: list[tuple[str, Pair]] = []
    games = summary.get("unit") == "game"
    levels = summary.get("levels", {})
    for d in summary.get("differences", []):
        a, b = str(d["a"]), str(d["b"])
        if games and "win_rate" in levels.get(a, {}) and "win_rate" in levels.get(b, {}):
            wa, wb = float(levels[a]["win_rate"]), float(levels[b]["win_rate"])
            p = wa / (wa + wb) if wa + wb > 0 else 0.5
        else:
            p = win_probability(float(d["mean"]), d["ci95"], int(summary["deals"]))
        out.append((fam, Pair(profile, a, b, p) if p >= 0.5 else Pair(profile, b, a, 1 - p)))
    return out


def ladder_pairs(rows: Iterable[Mapping[str, Any]] = LADDER) -> list[tuple[str, Pair]]:
    """The published ladder's rows as pairs."""
    return [
        (
            str(r["family"]),
            Pair(str(r["profile"]), str(r["a"]), str(r["b"]), win_probability(r["mean"], r["ci95"], r["deals"])),
        )
        for r in rows
    ]


def derive(pairs: Iterable[tuple[str, Pair]], levels: Mapping[str, Sequence[str]]) -> dict[str, dict[str, float]]:
    """Anchor μ per family and level from measured pairs (see the module's description)."""
    base = model().mu
    gaps: dict[tuple[str, str, str], list[float]] = {}
    for fam, pair in pairs:
        gaps.setdefault((fam, pair.a, pair.b), []).append(rating_gap(pair.p))

    def gap(fam: str, a: str, b: str) -> float | None:
        found = gaps.get((fam, a, b))
        if found:
            return sum(found) / len(found)
        back = gaps.get((fam, b, a))
        return -sum(back) / len(back) if back else None

    out: dict[str, dict[str, float]] = {}
    for fam, names in levels.items():
        mu = {"normal": base}
        easy = gap(fam, "normal", "easy")
        mu["easy"] = base - (easy if easy is not None else 0.0)
        hard = gap(fam, "hard", "normal")
        mu["hard"] = base + (hard if hard is not None else 0.0)
        for level in names:
            if level in mu:
                continue
            below = gap(fam, "hard", level)
            mu[level] = mu["hard"] - below if below is not None else mu["hard"]
        out[fam] = {level: round(mu[level], 4) for level in names}
    return out


def anchor(family: str, level: str) -> tuple[float, float]:
    """``(μ, σ)`` of a bot of ``level`` in ``family`` (an unknown level plays as ``normal``)."""
    levels = ANCHORS.get(family, {})
    return float(levels.get(level, levels.get("normal", model().mu))), ANCHOR_SIGMA


__all__ = [
    "ANCHORS",
    "ANCHOR_SIGMA",
    "LADDER",
    "Pair",
    "anchor",
    "derive",
    "ladder_pairs",
    "model",
    "pairs_of_summary",
    "rating_gap",
    "win_probability",
]
