"""``tapete analyze``: makeable tricks, bids against them, and the cards that cost tricks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import tapete
from tapete.analysis import analyze, analyze_text, side_masks
from tapete.cards import Card
from tapete.engine.spades.dds import Solver
from tapete.records import new_record_game, read_record


def _record(profile: str, seed: int) -> dict[str, object]:
    import random

    rng = random.Random(seed)
    g = tapete.new_game(profile, seed=seed)
    hand = g.hand_number
    while not g.is_over() and g.hand_number == hand:
        g.apply(rng.choice(g.legal_actions()))
    return g.record()


def test_analysis_numbers_are_the_solver_s() -> None:
    record = _record("spades", 4)
    report = analyze(record, nodes=30_000)
    hand = report["hands"][0]
    assert report["error"] is None and len(hand["plays"]) == 52
    assert [s["seats"] for s in hand["sides"]] == [[0, 2], [1, 3]]
    # the last tricks are always analysed; recompute them on the replayed game
    game = new_record_game(read_record(record))
    sides = side_masks(game)
    plays = iter(hand["plays"])
    for raw in read_record(record).hands[0].actions:
        if game.phase.name == "PLAY":
            play = next(plays)
            if sum(game.tricks_won) >= 10:
                side = sides[game.rules.side_of(game.to_act)]
                values = Solver(4, side).card_values(game)
                won = sum(game.tricks_won[s] for s in range(4) if (side >> s) & 1)
                card = int(Card.parse(raw["play"]))
                assert play["kept"] == won + values[card]
                assert play["best"] == won + max(values.values())
                assert play["loss"] == play["best"] - play["kept"]
        game.apply(game.parse_action(raw))
    for p in hand["plays"]:
        assert p["loss"] is None or p["loss"] >= 0
    assert all(p["loss"] for p in hand["costly"])


def test_individual_profiles_analyse_each_seat() -> None:
    report = analyze(_record("cutthroat", 2), nodes=30_000)
    sides = report["hands"][0]["sides"]
    assert [s["seats"] for s in sides] == [[0], [1], [2]]
    assert "trick" in analyze_text(report) or "no card cost" in analyze_text(report)


def test_cli_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record("spades", 7)))
    run = [sys.executable, "-m", "tapete", "analyze", str(path), "--nodes", "20000"]
    text = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert text.returncode == 0, text.stderr
    assert "makeable" in text.stdout
    js = subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=120)
    assert js.returncode == 0 and json.loads(js.stdout)["hands"][0]["plays"]
    bad = subprocess.run([sys.executable, "-m", "tapete", "analyze", "-"], input="{}", capture_output=True, text=True)
    assert bad.returncode == 2


def test_a_family_without_an_analyser_is_refused() -> None:
    """Run Fast registers no analyser: its records are refused as not double-dummy games (exit 2 in the CLI)."""
    import pytest

    g = tapete.new_game("runfast", seed=2)
    g.apply(g.legal_actions()[0])
    with pytest.raises(tapete.BadRecord, match="nothing to analyse"):
        analyze(g.record())
