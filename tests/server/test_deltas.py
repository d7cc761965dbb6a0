"""States as changes (``hello``'s ``deltas``): exact round trips, what the sockets get, short raw frames."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.uri import parse_uri

from tapete import new_game
from tapete.server.deltas import ViewReader, apply_delta, joined_delta, same_json, view_delta
from tapete.server.views import spectator_view
from tapete.server.wsprotocol import RAW_BELOW, SEND_NOW
from tests.server.helpers import Player, create_table, make_app
from tests.server.test_wsprotocol import Harness


def as_json(value: Any) -> str:
    """A canonical JSON text: equal texts are equal JSON values (``1``, ``1.0``, ``true`` differ)."""
    return json.dumps(value, sort_keys=True)


scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 2.5]) | st.sampled_from("ab")
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)
)
views = st.dictionaries(st.sampled_from(["hand", "trick", "turn", "scores", "bids", "lead"]), values, max_size=6)


@st.composite
def view_pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A view and a next one: some keys kept, some changed, some lists grown, some keys gone or new."""
    before = draw(views)
    after: dict[str, Any] = {}
    for key, value in before.items():
        fate = draw(st.sampled_from(["keep", "change", "grow", "drop"]))
        if fate == "keep":
            after[key] = value
        elif fate == "change":
            after[key] = draw(values)
        elif fate == "grow":
            after[key] = (value + draw(st.lists(values, min_size=1, max_size=3))) if isinstance(value, list) else value
    after.update(draw(views))
    return before, after


@settings(max_examples=400, deadline=None)
@given(view_pairs())
def test_a_delta_applied_to_the_view_before_gives_the_view_after_exactly(pair: tuple[dict[str, Any], ...]) -> None:
    before, after = pair
    shown_before, shown_after = as_json(before), as_json(after)
    changed, appended, gone = view_delta(before, after)
    assert as_json(apply_delta(before, changed, appended, gone)) == shown_after
    assert set(changed).isdisjoint(appended) and set(gone).isdisjoint(after)
    for key in changed:  # nothing the same is sent again
        assert key not in before or as_json(before[key]) != as_json(after[key])
    assert (as_json(before), as_json(after)) == (shown_before, shown_after)  # neither view was changed


def test_json_types_are_kept_apart_and_null_is_not_missing() -> None:
    before: dict[str, Any] = {"a": 1, "b": [1, 2], "c": {"x": 0}, "d": None, "e": 1}
    after: dict[str, Any] = {"a": True, "b": [1.0, 2], "c": {"x": False}, "d": None, "e": 1, "f": None}
    changed, appended, gone = view_delta(before, after)
    assert changed == {"a": True, "b": [1.0, 2], "c": {"x": False}, "f": None}
    assert [type(changed["a"]), type(changed["b"][0]), type(changed["c"]["x"])] == [bool, float, bool]  # type: ignore[index, call-overload]
    assert appended == {} and gone == []
    assert view_delta({"d": None}, {}) == ({}, {}, ["d"])
    assert view_delta({}, {"d": None}) == ({"d": None}, {}, [])
    assert not same_json(1, True) and not same_json([0], [False]) and same_json({"a": [1, "x"]}, {"a": [1, "x"]})


def test_a_list_that_only_grew_sends_its_new_items() -> None:
    before = {"tricks": [["AS", "KS"]], "plays": [1], "hand": ["2C", "3C"]}
    after = {"tricks": [["AS", "KS"], ["QH"]], "plays": [True, 2], "hand": ["2C"]}
    changed, appended, gone = view_delta(before, after)
    assert appended == {"tricks": [["QH"]]}
    assert changed == {"plays": [True, 2], "hand": ["2C"]}  # a head that changed type, a list that shrank
    assert apply_delta(before, changed, appended, gone) == after
    with pytest.raises(ValueError, match="not a list"):
        apply_delta({"a": 1}, {}, {"a": [2]})


def test_a_reader_rebuilds_views_and_refuses_a_change_that_does_not_follow() -> None:
    r = ViewReader()
    assert r.read({"version": 3, "changed": {"a": 1}}) is None  # no whole view yet
    assert r.read({"version": 3, "view": {"a": 0, "t": [1]}}) == {"a": 0, "t": [1]}
    assert r.read({"version": 4, "changed": {"a": 2}, "appended": {"t": [2]}}) == {"a": 2, "t": [1, 2]}
    assert r.read({"version": 6, "changed": {"a": 3}}) is None  # version 5 was missed
    assert r.view == {"a": 2, "t": [1, 2]} and r.version == 4  # what it holds is unchanged
    assert r.read({"version": 9, "view": {"b": None}}) == {"b": None}  # a whole view starts again
    assert r.read({"version": 10, "changed": {}, "gone": ["b"]}) == {}


@pytest.mark.parametrize(("profile", "seats"), [("cutthroat", 3), ("spades", 4), ("runfast", 3)])
def test_real_views_rebuild_exactly_and_travel_in_a_fraction_of_the_bytes(profile: str, seats: int) -> None:
    rng = random.Random(7)
    game = new_game(profile, seed=11)
    previous: list[dict[str, Any]] | None = None
    full = sent = steps = 0
    while not game.is_over() and steps < 200:
        shown = [game.observation(s) for s in range(seats)] + [spectator_view(game)]
        if previous is not None:
            for before, after in zip(previous, shown, strict=True):
                delta = view_delta(before, after)
                assert orjson.dumps(apply_delta(before, *delta)) == orjson.dumps(after)
                full += len(orjson.dumps(after))
                sent += len(orjson.dumps(delta))
        previous = shown
        steps += 1
        game.apply(game.parse_action(rng.choice(game.observation(game.to_act)["legal_actions"])))
    assert steps > 30 and sent * 3 < full, (sent, full)


@pytest.mark.parametrize(("profile", "seats"), [("cutthroat", 3), ("spades", 4), ("runfast", 3)])
def test_the_changes_of_the_public_and_own_parts_joined_rebuild_each_seats_view_exactly(
    profile: str, seats: int
) -> None:
    """The server finds the public part's change once and each seat's own part's change apart
    (``Game.observation_parts``): joined, they turn each seat's whole view into the next one,
    as the change of the whole views does, over real play."""
    rng = random.Random(8)
    game = new_game(profile, seed=12)
    previous: tuple[dict[str, Any], dict[int, dict[str, Any]]] | None = None
    steps = 0
    while not game.is_over() and steps < 300:
        public, own = game.observation_parts(range(seats))
        if previous is not None:
            public_change = view_delta(previous[0], public)
            for seat in range(seats):
                before = {**previous[0], **previous[1][seat]}
                after = game.observation(seat)
                delta = joined_delta(public_change, view_delta(previous[1][seat], own[seat]))
                assert orjson.dumps(apply_delta(before, *delta), option=orjson.OPT_SORT_KEYS) == orjson.dumps(
                    after, option=orjson.OPT_SORT_KEYS
                )
                whole = view_delta(before, after)
                assert (orjson.dumps(delta[0], option=orjson.OPT_SORT_KEYS), delta[1], sorted(delta[2])) == (
                    orjson.dumps(whole[0], option=orjson.OPT_SORT_KEYS),
                    whole[1],
                    sorted(whole[2]),
                )
        previous = (public, own)
        steps += 1
        game.apply(game.parse_action(rng.choice(game.observation(game.to_act)["legal_actions"])))
    assert steps > 30


def test_joined_changes_keep_both_parts_and_leave_the_first_unchanged() -> None:
    first = ({"turn": 1}, {"tricks": [1]}, ["lead"])
    second = ({"hand": ["2C"]}, {}, ["bid"])
    assert joined_delta(first, second) == ({"turn": 1, "hand": ["2C"]}, {"tricks": [1]}, ["lead", "bid"])
    assert first == ({"turn": 1}, {"tricks": [1]}, ["lead"])
    assert joined_delta(first, ({}, {}, [])) == first


def differences(a: dict[int, dict[str, Any]], b: dict[int, dict[str, Any]]) -> list[str]:
    """Where two series of views (by version) differ: a short list, not a diff of the whole.

    ``b``'s socket joined when ``a``'s did or later (the bots may play in between): ``a`` must
    have every version ``b`` has."""
    out = [f"versions missing after v{min(b)}: {sorted(set(b) - set(a))[:5]}"] if set(b) - set(a) else []
    for version in sorted(set(a) & set(b)):
        keys = sorted(
            {k for k in set(a[version]) | set(b[version]) if as_json(a[version].get(k)) != as_json(b[version].get(k))}
        )
        if keys:
            out.append(f"v{version}: {keys}")
    return out[:5]


def _states_by_version(p: Player, upto: int) -> dict[int, dict[str, Any]]:
    """Read ``p``'s socket until its state reaches version ``upto``; its whole states by version."""
    out = {s["version"]: s["view"] for s in p.states}
    while True:
        m = p.recv()
        if m["type"] == "state":
            out[m["version"]] = m["view"]
            if m["version"] >= upto:
                return out


def test_a_delta_socket_and_a_full_socket_of_one_seat_and_of_the_spectators_see_the_same_states(
    sqlite_url: str,
) -> None:
    rng = random.Random(3)
    with TestClient(make_app(sqlite_url, rate_limit=(1000.0, 1000.0))) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=4)
        token = t["seats"][0]["token"]
        with (
            c.websocket_connect("/ws") as w1,
            c.websocket_connect("/ws") as w2,
            c.websocket_connect("/ws") as w3,
            c.websocket_connect("/ws") as w4,
        ):
            actor, full_seat = Player(w1, deltas=True), Player(w2)
            watch_deltas, watch_full = Player(w3, deltas=True), Player(w4)
            actor.hello(t["table"], token)
            full_seat.hello(t["table"], token)
            watch_deltas.hello(t["table"])
            watch_full.hello(t["table"])
            for _ in range(60):
                if actor.wait_turn_or() is not None:
                    break
                assert actor.state is not None
                actor.act(rng.choice(actor.state["view"]["legal_actions"]))
                actor.recv_type("state")
            actor.wait_turn_or()
            assert actor.state is not None
            upto = actor.state["version"]  # the person's turn: the table waits here
            seat_states = {s["version"]: s["view"] for s in actor.states}
            full_states = _states_by_version(full_seat, upto)
            deltas_seen = _states_by_version(watch_deltas, upto)
            whole_seen = _states_by_version(watch_full, upto)
    assert upto >= 60
    for series in (seat_states, full_states, deltas_seen, whole_seen):  # every version, none skipped
        assert sorted(series) == list(range(min(series), upto + 1))
    assert differences(seat_states, full_states) == []
    assert differences(deltas_seen, whole_seen) == [] and len(whole_seen) >= 60
    as_changes = [m for m in actor.seen + watch_deltas.seen if m["type"] == "state" and "view" not in m]
    assert len(as_changes) >= 100  # the delta sockets did get changes
    assert all("view" in m for m in full_seat.seen + watch_full.seen if m["type"] == "state")
    assert all("hand" not in m.get("changed", {}) for m in watch_deltas.seen)  # the spectators' view has no hand


def test_sync_gives_the_whole_view_and_changes_follow_from_it(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["human", "easy", "easy"], seed=2)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws, deltas=True)
            welcome = p.hello(t["table"], t["seats"][0]["token"])
            assert "deltas" in welcome["features"]
            p.wait_turn_or()
            p.send({"type": "sync"})
            synced = p.recv_type("state")
            assert "view" in p.seen[-1]  # a sync is always whole
            assert synced["view"]["legal_actions"]
            p.act(synced["view"]["legal_actions"][0])
            after = p.recv_type("state")
            assert "changed" in p.seen[-1] and "view" not in p.seen[-1]
            assert after["version"] == synced["version"] + 1
            p.wait_turn_or()  # the bots have played
            rebuilt = p.state
            assert rebuilt is not None and "view" not in p.seen[-1]
            p.send({"type": "sync"})
            again = p.recv_type("state")
            assert again["version"] == rebuilt["version"] and as_json(again["view"]) == as_json(rebuilt["view"])


def test_a_hello_whose_deltas_is_not_a_boolean_is_refused(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=1)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "token": t["seats"][0]["token"], "deltas": "yes"})
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "bad_message"


def test_short_texts_go_out_uncompressed_and_long_ones_compressed_on_a_deflate_socket() -> None:
    async def run() -> None:
        h = Harness()
        h.client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"), extensions=[ClientPerMessageDeflateFactory()])
        await h.handshake()
        send = h.scope["extensions"][SEND_NOW]["send"]
        short = b'{"type":"state","changed":{"to_act":1}}'
        long = json.dumps({"type": "state", "view": {"hand": ["AS"] * 200}}).encode()
        assert len(short) < RAW_BELOW <= len(long)
        texts = []
        for text in (short, long, short, long):
            assert send(text) is True
            first = h.transport.written[0]
            assert bool(first & 0x40) == (text is long)  # RSV1: this frame is compressed
            texts.extend(h.frames_out())
        assert texts == [t.decode() for t in (short, long, short, long)]  # the client reads them all

    asyncio.run(run())
