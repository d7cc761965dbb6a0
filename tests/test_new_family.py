"""A family registered from inside the test suite works everywhere, with no edit to tapete.

``tests/toy_family.py`` defines Duel, a toy trick game, and registers nothing by itself;
the fixture registers it and removes it again. Each test then uses one layer above the
engine exactly as a built-in family is used.
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
from tapete import cli
from tapete.families import family, family_of, register, unregister
from tests.server.helpers import Player, create_table, make_app
from tests.toy_family import FAMILY, NAME, DuelGame


@pytest.fixture
def duel() -> Iterator[None]:
    register(FAMILY)
    try:
        yield
    finally:
        unregister(NAME)


def play_out(seed: int) -> DuelGame:
    g = tapete.new_game(NAME, seed=seed)
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))
    assert isinstance(g, DuelGame)
    return g


def play_to_the_end(me: Player) -> dict[str, Any]:
    """Play the first legal card whenever it is this seat's turn; after each action wait for a newer state."""
    while True:
        over = me.wait_turn_or("game_over")
        if over is not None:
            return over
        assert me.state is not None
        acted_at = me.state["version"]
        me.act(me.state["view"]["legal_actions"][0])
        while me.state["version"] <= acted_at:
            m = me.recv()
            assert m["type"] != "error", m
            if m["type"] == "game_over":
                return m


def test_new_game_and_registry(duel: None) -> None:
    assert NAME in tapete.profile_names()
    assert tapete.profile_info(NAME).family == NAME
    g = play_out(3)
    assert family_of(g) is FAMILY and family(NAME).renderer == "duel"
    assert sum(g.scores()) == 4
    with pytest.raises(tapete.ProfileError) as exc:
        tapete.load_profile(NAME, {"target": 3})
    assert exc.value.code == "unknown_option"


def test_unregistered_family_is_gone(duel: None) -> None:
    unregister(NAME)
    assert NAME not in tapete.profile_names()
    with pytest.raises(tapete.ProfileError):
        tapete.new_game(NAME, seed=1)
    register(FAMILY)


def test_replay_cli(duel: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = play_out(5)
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(g.record()), encoding="utf-8")
    assert cli.main(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["finished"] and report["scores"] == g.scores() and report["error"] is None
    # an illegal action is refused with its code and exit status 1
    rec = g.record()
    hand = rec["hands"][0]
    first, second = hand["actions"][0], hand["actions"][1]
    hand["actions"] = [first, {"seat": second["seat"], "play": first["play"]}]
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert cli.main(["replay", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "card_not_in_hand"
    # a deal with a card outside the deck is not a readable record
    rec["hands"][0]["cards"][0][0] = "AS"
    path.write_text(json.dumps(rec), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 2


def test_plays_through_the_websocket_protocol_with_a_bot(duel: None, tmp_path: Path) -> None:
    app = make_app(f"sqlite:///{tmp_path / 'duel.db'}", bot_executor="thread")
    with TestClient(app) as client:
        made = create_table(client, NAME, ["human", {"kind": "bot", "level": "hard"}])
        token = made["seats"][0]["token"]
        with client.websocket_connect("/ws") as ws:
            me = Player(ws)
            assert me.hello(made["table"], token)["type"] == "welcome"
            over = play_to_the_end(me)
            assert sum(over["scores"]) == 4
        with client.websocket_connect("/ws") as ws:
            watcher = Player(ws)
            watcher.hello(made["table"])
            assert watcher.state is not None
            view = watcher.state["view"]
            assert (
                view["hand"] is None
                and view["legal_actions"] == []
                and set(view)
                <= {
                    *FAMILY.public_fields,
                    "seat",
                    "hand",
                    "legal_actions",
                }
            )
        record = client.get(f"/api/tables/{made['table']}/record").json()
        assert tapete.records.replay(record).exit_status == 0


def test_arena(duel: None, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", NAME, "--bots", "hard,easy", "--hands", "30", "--jobs", "1", "--json", "--quiet"]
    assert cli.main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 30 and set(summary["levels"]) == {"hard", "easy"}


@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
def test_pettingzoo_env(duel: None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from tapete.env import aec_env

    env = aec_env(NAME)
    api_test(env, num_cycles=50)
    env.reset(seed=4)
    total = 0.0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total += reward
        env.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
    assert total == 4.0
