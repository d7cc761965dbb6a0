"""Issue 16, item 5: hostile input at volume never fails the server (Hypothesis).

The pure checks run on over 10⁵ hostile WebSocket messages and 5·10⁴ HTTP bodies: each
Hypothesis example is a JSON value of hostile parts (deep nesting, huge integers, lone
surrogates, NUL, wrong types …) written out and then mutated (bytes cut, doubled,
flipped) fifty times. Whatever comes in, the only failure is a ``TapeteError`` refusal.
End to end, a few thousand such messages and a few hundred requests go through the app:
no 500, and the well-formed connection that sent them still answers ``ping``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings
from starlette.testclient import TestClient

import tapete
from tapete.errors import TapeteError
from tapete.server.connection import encode
from tapete.server.protocol import CLIENT_TYPES, parse_message
from tapete.server.requests import check_create_request
from tapete.server.safejson import loads
from tests.server.helpers import Player, create_table, make_app

MUTATIONS = 50
COUNTS = {"ws": 0, "http": 0}

texts = st.one_of(
    st.sampled_from(["hello", "action", "ping", "sync", "hint", "bogus", "\ud800", "a\x00b", "AS", "3H", "nil", ""]),
    st.text(max_size=12),
)
numbers = st.one_of(
    st.integers(-(10**60), 10**60), st.sampled_from([0, 1, -1, 2**53, 2**63, 10**40]), st.floats(allow_nan=True)
)
leaves = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(sorted(CLIENT_TYPES)), texts)},
    optional={
        "id": values,
        "table": texts,
        "token": texts,
        "lang": texts,
        "spectate": values,
        "version": numbers,
        "action": st.one_of(values, st.dictionaries(st.sampled_from(["seat", "bid", "play", "look", "pass"]), values)),
    },
)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "profile": st.one_of(st.sampled_from(tapete.profile_names()), texts),
        "seats": st.one_of(values, st.lists(st.sampled_from(["human", "easy", "hard", "x"]), max_size=6)),
        "options": st.one_of(
            values, st.dictionaries(st.sampled_from(["target", "floor", "tokens", "jokers"]), numbers)
        ),
        "seed": numbers,
        "name": texts,
    },
)


def written(value: Any, rng: random.Random) -> str:
    """JSON text of ``value``, sometimes deeply wrapped or with a long integer spliced in."""
    text = json.dumps(value, allow_nan=True)
    pick = rng.random()
    if pick < 0.05:
        depth = rng.randint(10, 3000)
        text = "[" * depth + text + "]" * depth
    elif pick < 0.1:
        text = text.replace("0", "9" * rng.randint(30, 5000), 1)
    return text


def mutants(text: str, rng: random.Random) -> list[str]:
    """``text`` and variants: cut, doubled, a character replaced or dropped, a control character added."""
    out = [text]
    while len(out) < MUTATIONS:
        t = out[-1] if rng.random() < 0.3 else text
        i = rng.randrange(len(t) + 1)
        op = rng.randrange(5)
        if op == 0:
            t = t[:i]
        elif op == 1:
            t = t[:i] + t[i:] + t[i:]
        elif op == 2:
            t = t[:i] + rng.choice('{}[]",:0\\\x00\ud800 é') + t[i + 1 :]
        elif op == 3:
            t = t[:i] + t[i + 1 :]
        else:
            t = t[:i] + '"\\u' + rng.choice(["d800", "0000", "dfff", "zzzz"]) + '"' + t[i:]
        out.append(t)
    return out


def check_ws(text: str) -> None:
    try:
        msg = parse_message(text)
    except TapeteError:
        return
    assert msg["type"] in CLIENT_TYPES
    encode({"type": "pong", "ref": msg.get("id")}).encode("utf-8")  # an accepted message can be answered


def check_http(body: bytes) -> None:
    try:
        spec = check_create_request(loads(body or b"{}"))
        tapete.new_game(spec.profile, seed=1, options=spec.options)
    except TapeteError:
        return


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(messages, st.randoms(use_true_random=False))
def test_fuzz_the_message_checks(msg: dict[str, Any], rng: random.Random) -> None:
    for text in mutants(written(msg, rng), rng):
        check_ws(text)
        COUNTS["ws"] += 1


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(bodies, st.randoms(use_true_random=False))
def test_fuzz_the_request_checks(body: dict[str, Any], rng: random.Random) -> None:
    for text in mutants(written(body, rng), rng):
        check_http(text.encode("utf-8", "surrogatepass"))
        COUNTS["http"] += 1


def test_the_fuzzers_ran_at_volume() -> None:
    if COUNTS["ws"] == 0:  # run alone: nothing to count
        return
    assert COUNTS["ws"] >= 100_000 and COUNTS["http"] >= 50_000, COUNTS


def test_fuzz_end_to_end_sees_no_500_and_no_dropped_connection(sqlite_url: str) -> None:
    rng = random.Random(16)
    sent = requests = 0
    with TestClient(make_app(sqlite_url, rate_limit=(1e6, 1e6))) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=3)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])

            @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            @given(messages, bodies)
            def one(msg: dict[str, Any], body: dict[str, Any]) -> None:
                nonlocal sent, requests
                for text in mutants(written(msg, rng), rng):
                    ws.send_text(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
                    sent += 1
                for text in mutants(written(body, rng), rng)[:10]:
                    r = c.post("/api/tables", content=text.encode("utf-8", "surrogatepass"))
                    requests += 1
                    assert r.status_code in (201, 400, 413, 429, 503), (r.status_code, r.text[:200])
                    assert r.json()["code"] if r.status_code != 201 else r.json()["table"]
                ws.send_text(json.dumps({"type": "ping", "id": "alive"}))
                while (m := p.recv())["type"] != "pong" or m["ref"] != "alive":
                    pass

            one()
    assert sent >= 2500 and requests >= 500
