"""Double-dummy analysis over HTTP: ``POST /api/analyze`` and a table's finished hand.

The answers are computed in the server's worker processes and must equal
:func:`tapete.analysis.analyze` on the same record with the same node budget; refusals
have codes and are told in the request's language; a hand is analysed only once every
card dealt in it has been played, in every Spades-family profile.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import tapete
from tapete.analysis import analyze
from tapete.families import family
from tapete.i18n import translator
from tapete.server.analyze import ANALYSIS_ERRORS, ClientRate, analysis_body, check_all_played
from tapete.server.errors import ServerError
from tapete.server.limits import MAX_REPLAY_BODY, Limits
from tapete.server.messages import explain
from tests.server.helpers import Player, create_table, make_app, play_hand_as

NODES = 1500
"""A small node budget per answer: the early positions stay unknown, the tests stay fast."""
LEAD = 3000
"""The makeable tricks' budget: a whole deal stays unknown with it too."""
LIMITS = Limits(
    tables_per_client_minute=1000,
    analysis_nodes=NODES,
    analysis_lead_nodes=LEAD,
    analysis_seconds=120.0,
    analysis_more_seconds=0.0,  # the node budgets alone, so the answers are the analyser's with them
    analyses_per_client_minute=1000,
)


def played_record(profile: str, seed: int, hands: int = 1) -> dict[str, Any]:
    """A record of ``hands`` whole hands of ``profile`` played with seeded random legal actions."""
    game = tapete.new_game(profile, seed=seed)
    rng = random.Random(seed)
    while not game.is_over() and getattr(game, "hand_number", 0) < hands:
        game.apply(rng.choice(game.legal_actions()))
    record = game.record()
    record["hands"] = record["hands"][:hands]
    return record


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("analyze") / "tapete.db"
    # worker processes, as in production: the solve never runs on the event loop
    with TestClient(make_app(f"sqlite:///{db}", bot_workers=2, limits=LIMITS)) as c:
        yield c


def test_posted_record_equals_the_analyser(client: TestClient) -> None:
    record = played_record("spades", 3, hands=2)
    r = client.post("/api/analyze?hand=1", content=json.dumps(record), headers={"accept-language": "es"})
    assert r.status_code == 200, r.text
    assert r.headers["content-language"] == "es"
    body = r.json()
    expected = analyze(record, nodes=NODES, lead_nodes=LEAD, hands=[1])
    assert body["analysis"] == expected
    assert [h["hand"] for h in body["analysis"]["hands"]] == [1]
    plays = body["analysis"]["hands"][0]["plays"]
    assert len(plays) == 52 and any(p["kept"] is not None for p in plays)
    assert any(p["kept"] is None for p in plays), "a 1500-node budget cannot solve a whole deal: shown as unknown"


def test_every_hand_of_an_individual_profile(client: TestClient) -> None:
    record = played_record("cutthroat-5p-2jokers", 4)
    r = client.post("/api/analyze", content=json.dumps(record))
    assert r.status_code == 200, r.text
    analysis = r.json()["analysis"]
    assert analysis == analyze(record, nodes=NODES, lead_nodes=LEAD)
    assert [len(s["seats"]) for s in analysis["hands"][0]["sides"]] == [1, 1, 1, 1, 1]


def test_a_record_stopping_at_an_illegal_action_is_analysed_up_to_it(client: TestClient) -> None:
    record = played_record("spades", 5)
    actions = record["hands"][0]["actions"]
    actions[10] = {"seat": actions[10]["seat"], "play": "ZZ"}
    r = client.post("/api/analyze?lang=ru", content=json.dumps(record))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["analysis"] == analyze(record, nodes=NODES, lead_nodes=LEAD)
    error = body["analysis"]["error"]
    assert error["action"] == 10
    assert body["error_message"] == explain(error["code"], "ru")


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_refusals_are_coded_and_translated(client: TestClient, lang: str) -> None:
    headers = {"accept-language": lang}
    r = client.post("/api/analyze", content=b"{nope", headers=headers)
    assert r.status_code == 400 and r.headers["content-language"] == lang
    assert r.json()["code"] == "bad_record"
    assert r.json()["message"] == translator(lang).gettext(ANALYSIS_ERRORS["bad_record"])
    if lang != "en":
        assert r.json()["message"] != ANALYSIS_ERRORS["bad_record"]

    r = client.post(
        "/api/analyze", content=json.dumps({"format": "tapete-record/1", "profile": "nope"}), headers=headers
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_record"

    runfast = played_record("runfast", 2)
    assert family("runfast").load_analysis is None
    r = client.post("/api/analyze", content=json.dumps(runfast), headers=headers)
    assert r.status_code == 400
    assert r.json()["code"] == "analysis_unavailable"
    assert r.json()["message"] == explain("analysis_unavailable", lang)

    r = client.post("/api/analyze?hand=first", content=b"{}", headers=headers)
    assert r.status_code == 400 and r.json()["code"] == "out_of_range"

    r = client.post("/api/analyze", content=b" " * (MAX_REPLAY_BODY + 1), headers=headers)
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_profiles_say_which_games_have_analysis(client: TestClient) -> None:
    listed = {p["name"]: p["analysis"] for p in client.get("/api/profiles").json()}
    assert listed["spades"] is True and listed["cutthroat-5p-3jokers"] is True and listed["runfast"] is False
    catalog = {p["name"]: p["analysis"] for p in client.get("/i18n/en.json").json()["profiles"]}
    assert catalog == listed


def test_a_tables_hand_once_it_is_finished(client: TestClient) -> None:
    t = create_table(client, "spades", ["human", "easy", "easy", "easy"], seed=11)
    url = f"/api/tables/{t['table']}/hands/0/analysis"
    r = client.get(url, headers={"accept-language": "ru"})
    assert r.status_code == 409 and r.json()["code"] == "hand_not_finished"
    assert r.json()["message"] == explain("hand_not_finished", "ru")
    with client.websocket_connect("/ws") as ws:
        p = Player(ws)
        p.hello(t["table"], t["seats"][0]["token"])
        over = play_hand_as(p)
        assert over["hand"] == 0
        r = client.get(f"/api/tables/{t['table']}/hands/1/analysis")
        assert r.status_code == 409 and r.json()["code"] == "hand_not_finished"
        assert client.get(f"/api/tables/{t['table']}/hands/7/analysis").json()["code"] == "hand_not_finished"

        game = client.app.state.hub.tables[t["table"]].game  # type: ignore[attr-defined]
        record = game.record()
        record["hands"] = record["hands"][:1]
        expected = analyze(record, nodes=NODES, lead_nodes=LEAD, hands=[0])
        # a spectator sees every card of a finished hand played: the analysis is theirs too
        r = client.get(url, headers={"accept-language": "es"})
        assert r.status_code == 200, r.text
        assert r.json()["analysis"] == expected and r.json()["lang"] == "es"
        assert r.headers["content-language"] == "es"
        again = client.get(url)  # kept: the same answer, now in English
        assert again.json()["analysis"] == expected and again.json()["lang"] == "en"

    assert client.get("/api/tables/nope/hands/0/analysis").json()["code"] == "no_table"


def test_a_table_of_a_game_without_analysis(client: TestClient) -> None:
    t = create_table(client, "runfast", ["human", "easy", "easy"], seed=2)
    r = client.get(f"/api/tables/{t['table']}/hands/0/analysis", headers={"accept-language": "es"})
    assert r.status_code == 400 and r.json()["code"] == "analysis_unavailable"
    assert r.json()["message"] == explain("analysis_unavailable", "es")


@pytest.mark.parametrize("profile", [n for n in tapete.profile_names() if tapete.profile_info(n).family == "spades"])
def test_every_dealt_card_is_played_by_the_end_of_a_hand(profile: str) -> None:
    """What makes a finished hand safe to show: nothing dealt in it is still hidden (jokers, 5 seats, sitting out)."""
    record = played_record(profile, 9)
    dealt = {c for seat in record["hands"][0]["cards"] for c in seat}
    report = analyze(record, nodes=1, hands=[0])
    played = [p["card"] for p in report["hands"][0]["plays"]]
    assert sorted(played) == sorted(dealt) and len(played) == len(dealt)
    check_all_played(record, report, 0)  # does not refuse

    # mid-hand the check refuses: the last trick's cards are still in hand
    cut = json.loads(json.dumps(record))
    cut["hands"][0]["actions"] = cut["hands"][0]["actions"][:-3]
    with pytest.raises(ServerError) as refused:
        check_all_played(cut, analyze(cut, nodes=1, hands=[0]), 0)
    assert refused.value.code == "hand_not_finished"


def test_computed_analyses_per_client_are_limited() -> None:
    rate = ClientRate(2)
    rate.admit("a")
    rate.admit("a")
    rate.admit("b")
    with pytest.raises(ServerError) as refused:
        rate.admit("a")
    assert refused.value.code == "rate_limited"


def test_the_server_asks_again_the_cards_its_node_budget_left_unknown() -> None:
    """``Limits.analysis_more_seconds`` reaches the analysis: fewer cards stay unknown."""
    record = played_record("spades", 3)
    args = {"nodes": NODES, "lead_nodes": LEAD, "seconds": 120.0, "hands": [0], "lang": "en"}
    raw = json.dumps(record).encode()
    base = json.loads(analysis_body(args, raw))["analysis"]
    deeper = json.loads(analysis_body({**args, "more_seconds": 2.0}, raw))["analysis"]
    unknown = [sum(p["kept"] is None for p in a["hands"][0]["plays"]) for a in (base, deeper)]
    assert unknown[1] < unknown[0]
    assert Limits().analysis_more_seconds > 0
