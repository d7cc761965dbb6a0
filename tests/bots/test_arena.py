"""tapete arena: duplicate rotations, paired intervals, JSON and SVG output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tapete.arena import Match, bot_seed, render_table, rotations, run_arena, seat_lineup, summarize
from tapete.cli import main


def test_line_ups_rotate_through_the_seats() -> None:
    lineup = seat_lineup(["hard", "normal"], 4)
    assert lineup == ["hard", "normal", "hard", "normal"]
    assert rotations(lineup) == [("hard", "normal", "hard", "normal"), ("normal", "hard", "normal", "hard")]
    assert len(rotations(seat_lineup(["hard", "normal", "normal"], 3))) == 3


def test_summary_intervals_are_paired_over_deals() -> None:
    results = [{"a": [10.0, 10.0], "b": [0.0, 0.0]}, {"a": [30.0, 30.0], "b": [20.0, 20.0]}]
    s = summarize(["a", "b"], results, games=False)
    assert s["levels"]["a"]["mean_per_hand"] == 20.0
    d = s["differences"][0]
    assert (d["a"], d["b"], d["mean"], d["ci95"]) == ("a", "b", 10.0, [10.0, 10.0])


def test_game_win_rates_have_paired_intervals() -> None:
    results = [
        {"a": [5.0, 7.0], "b": [1.0, 3.0], "a:wins": [1.0, 1.0], "b:wins": [0.0, 0.0]},
        {"a": [2.0, 2.0], "b": [4.0, 4.0], "a:wins": [1.0, 0.0], "b:wins": [0.0, 1.0]},
        {"a": [6.0, 6.0], "b": [2.0, 2.0], "a:wins": [1.0, 1.0], "b:wins": [0.0, 0.0]},
    ]
    s = summarize(["a", "b"], results, games=True)
    a = s["levels"]["a"]
    assert a["win_rate"] == round(2.5 / 3, 4)
    assert a["win_ci95"][0] < a["win_rate"] < a["win_ci95"][1]
    d = s["differences"][0]
    assert d["win_rate"] == round((1.0 + 0.0 + 1.0) / 3, 4)
    assert d["win_ci95"][0] < d["win_rate"] < d["win_ci95"][1]
    table = render_table({**s, "profile": "spades", "bots": ["a", "b"], "seed": 1})
    assert "win rate  95% CI" in table and f"{d['win_rate']:.3f} [" in table
    certain = summarize(["a", "b"], [results[0], results[2]], games=True)
    assert certain["differences"][0]["win_ci95"] == [1.0, 1.0]
    assert "1.000 [1.000, 1.000] *" in render_table({**certain, "profile": "spades", "bots": ["a", "b"], "seed": 1})


def test_run_arena_single_hands_and_games() -> None:
    s = run_arena("spades", ["normal", "easy"], 3, jobs=1, progress=False)
    assert set(s["levels"]) == {"normal", "easy"} and s["deals"] == 3
    g = run_arena("cutthroat", ["normal", "easy", "easy"], 1, jobs=1, games=True, progress=False)
    assert 0.0 <= g["levels"]["normal"]["win_rate"] <= 1.0


FAST = {"hard": {"rollouts": 8, "bid_samples": 6}, "expert": {"rollouts": 8, "bid_samples": 6}}


def test_same_seeds_give_each_seat_one_seed_across_rotations() -> None:
    independent = Match("spades", (("a", "b") * 2, ("b", "a") * 2), seed=3, games=False)
    same = Match("spades", independent.lineups, seed=3, games=False, same_seeds=True)
    assert bot_seed(same, 5, 0, 2) == bot_seed(same, 5, 1, 2) != bot_seed(same, 5, 1, 3)
    assert bot_seed(independent, 5, 0, 2) != bot_seed(independent, 5, 1, 2)
    assert bot_seed(independent, 5, 0, 2) == bot_seed(same, 5, 0, 2)  # rotation 0 is unchanged


def test_same_seeds_cancel_the_bots_luck_between_levels_that_choose_alike() -> None:
    # with its max^n endings and its nil check off the expert level bids and plays every
    # Cutthroat card as hard does: with the same seeds the two levels' duplicate results are
    # identical, with independent seeds they are not
    as_hard = {**FAST, "expert": {**FAST["expert"], "maxn_cards": 0, "nil_keep": 0}}
    same = run_arena(
        "cutthroat", ["expert", "hard", "hard"], 2, jobs=1, params=as_hard, progress=False, same_seeds=True
    )
    assert same["same_seeds"] is True
    (d,) = same["differences"]
    assert (d["mean"], d["ci95"]) == (0.0, [0.0, 0.0])
    apart = run_arena("cutthroat", ["expert", "hard", "hard"], 2, jobs=1, params=as_hard, progress=False)
    assert apart["differences"][0]["ci95"] != [0.0, 0.0]
    assert "same seeds" in render_table(same) and "same seeds" not in render_table(apart)


def test_cli_prints_json_and_writes_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "ladder.svg"
    status = main(
        [
            "arena",
            "cutthroat",
            "--bots",
            "normal,easy",
            "--hands",
            "2",
            "--jobs",
            "1",
            "--json",
            "--quiet",
            "--plot",
            str(svg),
        ]
    )
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert {"levels", "differences"} <= set(out)
    assert out["levels"]["normal"]["ci95"][0] <= out["levels"]["normal"]["mean_per_hand"]
    assert svg.read_text().startswith("<svg")


def test_cli_refuses_unknown_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "spades", "--bots", "genius", "--hands", "1", "--quiet"]) == 2
