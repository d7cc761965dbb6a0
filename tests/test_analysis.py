"""``tapete analyze``: makeable tricks, bids against them, and the cards that cost tricks."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import tapete
import tapete.analysis
from tapete.analysis import analyze, analyze_text, side_masks
from tapete.cards import Card
from tapete.engine.spades.dds import Solver
from tapete.engine.spades.trick import TrickState
from tapete.parallel_solve import ParallelSolver
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


def _record_of_hands(profile: str, seed: int, hands: int) -> dict[str, object]:
    """A record of ``hands`` hands played at random (low bids, so that the game goes on)."""
    import random

    from tests.helpers import sensible_random_action

    rng = random.Random(seed)
    g = tapete.new_game(profile, seed=seed)
    while not g.is_over() and g.hand_number < hands:
        g.apply(sensible_random_action(g, rng))
    return g.record()


def test_hands_analysed_in_processes_give_the_same_analysis() -> None:
    """``jobs``: each hand in its own process, joined in order: the same report as one process."""
    record = _record_of_hands("spades", 3, 3)
    assert len(record["hands"]) >= 3  # type: ignore[arg-type]
    alone = analyze(record, nodes=3_000)
    assert len(alone["hands"]) >= 3
    assert analyze(record, nodes=3_000, jobs=2) == alone
    assert analyze(record, nodes=3_000, hands=[2, 0], jobs=3) == analyze(record, nodes=3_000, hands=[0, 2])


def test_one_hand_without_a_lead_budget_solves_its_first_lead_in_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """One hand, ``jobs`` > 1 and no budget for the first lead: the makeable tricks are
    full-deal solves shared out between the processes (``ParallelSolver``), with the
    answers of one process."""
    record = _record("spades", 6)
    solved: list[int] = []

    class Counted(ParallelSolver):
        def solve(self, state: TrickState) -> int:
            solved.append(self.processes)
            return super().solve(state)

    monkeypatch.setattr(tapete.analysis, "ParallelSolver", Counted)
    alone = analyze(record, nodes=3_000, lead_nodes=0)
    assert [s["makeable"] for s in alone["hands"][0]["sides"]] == [8, 5]
    assert solved == []
    assert analyze(record, nodes=3_000, lead_nodes=0, jobs=2) == alone
    assert solved == [2, 2]  # each side's makeable tricks, on two processes
    analyze(record, nodes=3_000, jobs=2)
    assert solved == [2, 2]  # with a lead budget the plain solver answers


def test_a_record_error_stops_the_analysis_at_its_hand_in_processes_too() -> None:
    record = _record_of_hands("spades", 5, 3)
    hands = record["hands"]
    assert isinstance(hands, list) and len(hands) >= 3
    actions = hands[1]["actions"]
    k = next(i for i, a in enumerate(actions) if "play" in a)
    actions[k + 1] = dict(actions[k])  # the same card again: not in the hand any more
    alone = analyze(record, nodes=2_000)
    assert alone["error"] is not None and alone["error"]["hand"] == 1
    assert [h["hand"] for h in alone["hands"]] == [0, 1]
    assert analyze(record, nodes=2_000, jobs=2) == alone


def test_cli_jobs(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record_of_hands("spades", 8, 2)))
    run = [sys.executable, "-m", "tapete", "analyze", str(path), "--nodes", "3000", "--json"]
    one = subprocess.run([*run, "--jobs", "1"], capture_output=True, text=True, timeout=120)
    two = subprocess.run([*run, "--jobs", "2"], capture_output=True, text=True, timeout=120)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert len(json.loads(one.stdout)["hands"]) == 2


def _unknown(report: dict[str, Any]) -> int:
    return sum(p["kept"] is None for h in report["hands"] for p in h["plays"])


def test_more_seconds_answer_cards_a_node_budget_left_unknown() -> None:
    """After the node budget, the cards not answered are asked again with more nodes while
    ``more_seconds`` last; what was answered stays, and every answer is still exact."""
    record = _record("spades", 4)
    base = analyze(record, nodes=300)
    deeper = analyze(record, nodes=300, more_seconds=2.0)
    larger = analyze(record, nodes=30_000)
    assert _unknown(base) >= 10, "300 nodes leave the early cards of a whole deal unknown"
    assert _unknown(deeper) < _unknown(base)
    pairs = zip(base["hands"][0]["plays"], deeper["hands"][0]["plays"], larger["hands"][0]["plays"], strict=True)
    for mine, theirs, exact in pairs:
        if mine["kept"] is not None:
            assert theirs == mine
        if theirs["kept"] is not None and exact["kept"] is not None:
            assert theirs == exact
    assert deeper["hands"][0]["sides"] == base["hands"][0]["sides"], "the makeable tricks keep their own budget"


def test_more_seconds_are_a_bound() -> None:
    record = _record("spades", 4)
    t = time.monotonic()
    report = analyze(record, nodes=50, more_seconds=0.3)
    # a round's budget is what the time left affords at the rate measured: slack for a slow machine
    assert time.monotonic() - t < 0.3 + 2.0
    assert _unknown(report) < 52


def test_cli_more_seconds(tmp_path: Path, capsys: Any) -> None:
    from tapete.cli import main

    path = tmp_path / "r.json"
    path.write_text(json.dumps(_record("spades", 4)))
    assert main(["analyze", str(path), "--json", "--nodes", "300", "--jobs", "1"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert main(["analyze", str(path), "--json", "--nodes", "300", "--jobs", "1", "--more-seconds", "1.5"]) == 0
    assert _unknown(json.loads(capsys.readouterr().out)) < _unknown(base)
