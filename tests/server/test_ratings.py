"""Ratings: every update is the library's ``rate()`` for the same result; bots stay at their anchors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from starlette.testclient import TestClient

import tapete
from tapete.arena import run_arena
from tapete.families import families, family
from tapete.players.anchors import ANCHOR_SIGMA, ANCHORS, LADDER, derive, ladder_pairs, pairs_of_summary, rating_gap
from tapete.players.ratings import Entry, places, rate_game
from tapete.records import replay
from tests.server.helpers import Player, make_app
from tests.server.playing import Person, play_game, play_out, wait_games

ROOT = Path(__file__).parent.parent.parent


def pl() -> PlackettLuce:
    return PlackettLuce()


def anchor_rating(fam: str, level: str) -> Any:
    return pl().rating(mu=ANCHORS[fam][level], sigma=ANCHOR_SIGMA)


def test_places_rank_the_winner_first_then_by_score() -> None:
    assert places([300, 120, 120], 0) == [1, 2, 2]
    assert places([100, 500], 1) == [2, 1]
    assert places([-2, 3, -1], 1) == [3, 1, 2]
    assert places([5, 5, 1], 1) == [2, 1, 3]  # the winner by a tie-break comes first
    assert places([5, 5, 5, 0], None) == [1, 1, 1, 4]


def test_partnerships_rate_teams_like_the_library() -> None:
    stored = {"a": (31.0, 4.0)}
    entries = [Entry(0, 0, "a"), Entry(1, 1, "b"), Entry(2, 0, None, "hard"), Entry(3, 1, None)]
    got = rate_game("spades", entries, [2, 1], stored)
    m = pl()
    team_a = [m.rating(mu=31.0, sigma=4.0), anchor_rating("spades", "hard")]
    team_b = [m.rating(), m.rating()]
    want = m.rate([team_a, team_b], ranks=[2, 1])
    assert got == {"a": (want[0][0].mu, want[0][0].sigma), "b": (want[1][0].mu, want[1][0].sigma)}
    assert got["a"][0] < 31.0 and got["b"][0] > m.mu


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_individual_games_rate_every_place_like_the_library(seats: int) -> None:
    levels = ["easy", "normal", "hard", "ismcts"]
    entries = (
        [Entry(0, 0, "me")]
        + [Entry(s, s, None, levels[s % 4]) for s in range(1, seats - 1)]
        + [Entry(seats - 1, seats - 1, "you")]
    )
    side_places = places([float(10 * s) for s in range(seats)][::-1], 0)
    got = rate_game("spades", entries, side_places, {"you": (20.0, 6.0)})
    m = pl()
    teams = (
        [[m.rating()]]
        + [[anchor_rating("spades", levels[s % 4])] for s in range(1, seats - 1)]
        + [[m.rating(mu=20.0, sigma=6.0)]]
    )
    want = m.rate(teams, ranks=side_places)
    assert got == {"me": (want[0][0].mu, want[0][0].sigma), "you": (want[-1][0].mu, want[-1][0].sigma)}


def test_one_account_in_two_seats_or_none_is_not_rated() -> None:
    assert rate_game("runfast", [Entry(0, 0, "a"), Entry(1, 1, "a"), Entry(2, 2, None, "easy")], [1, 2, 3], {}) == {}
    assert (
        rate_game("runfast", [Entry(0, 0, None), Entry(1, 1, None, "easy"), Entry(2, 2, None, "hard")], [1, 2, 3], {})
        == {}
    )


def test_the_shipped_anchors_are_derived_from_the_published_ladder() -> None:
    levels = {f.name: f.bot_levels for f in families()}
    assert derive(ladder_pairs(), levels) == ANCHORS
    for fam, by_level in ANCHORS.items():
        assert set(by_level) == set(family(fam).bot_levels)
        assert by_level["easy"] < by_level["normal"] < by_level["hard"]
    # a gap is the one the model's own prediction turns back into the measured probability
    m = pl()
    for _, pair in ladder_pairs():
        d = rating_gap(pair.p)
        won = m.predict_win([[m.rating(mu=25 + d, sigma=ANCHOR_SIGMA)], [m.rating(mu=25, sigma=ANCHOR_SIGMA)]])[0]
        assert won == pytest.approx(pair.p, abs=1e-6)
    assert {r["profile"] for r in LADDER} <= set(tapete.profile_names())


def test_the_script_recomputes_anchors_from_arena_output(tmp_path: Path) -> None:
    summary = run_arena("runfast", ["normal", "easy"], 6, seed=3, jobs=1, progress=False)
    path = tmp_path / "arena.json"
    path.write_text(json.dumps(summary), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bot_anchors.py"), str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    got = json.loads(out.stdout)
    want = derive(pairs_of_summary(summary), {"runfast": family("runfast").bot_levels})
    assert got["anchors"] == want
    assert got["anchors"]["runfast"]["normal"] == pl().mu
    shipped = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bot_anchors.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert json.loads(shipped.stdout)["anchors"] == ANCHORS


def test_a_served_game_updates_the_rating_as_the_library_does(db: tuple[str, str]) -> None:
    with TestClient(make_app(db[0], table_prefix=db[1], bot_executor="thread")) as c:
        me = Person(c)
        name = me.guest()["player"]["name"]
        m = pl()
        mine = m.rating()
        for n, (seed, levels) in enumerate([(31, ["easy", "normal"]), (32, ["normal", "easy"])], start=1):
            t = play_game(me, "runfast", ["human", *levels], seed=seed)
            page = wait_games(me, name, n)
            record = me.get(f"/api/tables/{t['table']}/record").json()
            report = replay(record).report
            scores = [float(x) for x in report["scores"]]  # type: ignore[union-attr]
            ranks = places(scores, int(report["winner"]))  # type: ignore[arg-type]
            teams = [[mine], *([anchor_rating("runfast", lv)] for lv in levels)]
            mine = m.rate(teams, ranks=ranks)[0][0]
            got = page["ratings"]["runfast"]
            assert got["games"] == n
            assert got["mu"] == pytest.approx(mine.mu, abs=1e-4) and got["sigma"] == pytest.approx(mine.sigma, abs=1e-4)
            assert got["rating"] == pytest.approx(mine.ordinal(), abs=1e-3)
            game = next(g for g in page["history"] if g["table"] == t["table"])
            assert game["result"]["place"] == ranks[0] and game["result"]["won"] == (report["winner"] == 0)
            assert page["stats"]["runfast"]["series"]["rating"][-1] == pytest.approx(mine.ordinal(), abs=1e-6)
        board = me.get("/api/leaderboard?family=runfast&limit=50").json()
        assert board["family"] == "runfast" and set(board["families"]) == {f.name for f in families()}
        bots = {r["level"]: r for r in board["rows"] if r["bot"]}
        assert {lv: r["mu"] for lv, r in bots.items()} == pytest.approx(ANCHORS["runfast"])  # anchors never move
        person = next(r for r in board["rows"] if r["name"] == name)
        assert person["games"] == 2 and person["bot"] is False and person["level"] is None
        ranks_shown = [r["rank"] for r in board["rows"]]
        assert ranks_shown == list(range(1, len(board["rows"]) + 1))
        assert [r["rating"] for r in board["rows"]] == sorted((r["rating"] for r in board["rows"]), reverse=True)
        assert me.get("/api/leaderboard?family=nope").status_code == 400


def test_partners_are_rated_as_one_team(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, bot_executor="thread")) as c:
        a, b = Person(c), Person(c)
        a_name, b_name = a.guest()["player"]["name"], b.guest()["player"]["name"]
        r = a.post(
            "/api/tables",
            json={
                "profile": "spades",
                "seats": ["human", "easy", "human", "normal"],
                "seed": 41,
                "options": {"target": 100},
            },
        )
        t = r.json()
        with b.websocket() as ws:  # b takes seat 2, a's partner, then leaves it to a bot
            p = Player(ws)
            p.hello(t["table"], t["seats"][2]["token"])
            p.send({"type": "ping", "id": 1})
            p.recv_type("pong")
        assert (
            a.post(f"/api/tables/{t['table']}/seats/2/bot", json={"creator_token": t["creator_token"]}).status_code
            == 200
        )
        with a.websocket() as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            play_out(p)
        got_a = wait_games(a, a_name, 1)
        got_b = wait_games(b, b_name, 1)
        report = replay(a.get(f"/api/tables/{t['table']}/record").json()).report
    m = pl()
    ranks = places([float(x) for x in report["scores"]], int(report["winner"]))  # type: ignore[union-attr, arg-type]
    want = m.rate(
        [[m.rating(), m.rating()], [anchor_rating("spades", "easy"), anchor_rating("spades", "normal")]], ranks=ranks
    )
    for page, rating in ((got_a, want[0][0]), (got_b, want[0][1])):
        got = page["ratings"]["spades"]
        assert got["mu"] == pytest.approx(rating.mu, abs=1e-4) and got["sigma"] == pytest.approx(rating.sigma, abs=1e-4)
        assert page["history"][0]["result"]["won"] == (report["winner"] == 0)
    assert got_a["history"][0]["players"][2]["name"] == b_name
