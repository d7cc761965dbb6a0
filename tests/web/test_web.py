"""The browser table's Python side: catalogs, pages, the replay endpoint and the ``hint`` message."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.i18n import LANGUAGES, load_catalog
from tapete.server.hints import hint_reason
from tapete.web import catalog, static_dir
from tapete.web.strings import CONTEXT_STRINGS, UI_STRINGS
from tests.server.helpers import create_table, make_app

JS_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)\"""")
JS_CONTEXT_CALL = re.compile(r"""\btc\(\s*"([^"]*)",\s*"([^"]*)\"""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_ui_string_is_translated(lang: str) -> None:
    cat = load_catalog(lang)
    assert cat is not None
    for msgid in UI_STRINGS:
        message = cat.get(msgid)
        assert message is not None, f"{lang} lacks {msgid!r}"
        assert isinstance(message.string, str) and message.string.strip(), f"{lang}: empty {msgid!r}"
        assert not message.fuzzy
        assert set(PLACEHOLDER.findall(message.string)) == set(PLACEHOLDER.findall(msgid)), (lang, msgid)
    for ctx, msgid in CONTEXT_STRINGS:
        message = cat.get(msgid, context=ctx)
        assert message is not None and message.string, f"{lang} lacks {msgid!r} ({ctx})"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_json_catalog_has_every_string(lang: str) -> None:
    messages = catalog(lang)["messages"]
    for msgid in UI_STRINGS:
        assert messages[msgid], msgid
        if lang == "en":
            assert messages[msgid] == msgid
        elif msgid not in ("Nil", "bot", "Bot: normal", "Total", "{option}: {allowed}"):  # the same in Spanish
            assert messages[msgid] != msgid or lang == "es", (lang, msgid)
    if lang == "ru":
        assert messages["Your turn"] == "Ваш ход"


def test_the_javascript_uses_only_catalogued_strings() -> None:
    used: set[str] = set()
    contexts: set[tuple[str, str]] = set()
    for path in Path(static_dir()).rglob("*.js"):  # the family renderers too
        text = path.read_text(encoding="utf-8")
        used.update(JS_CALL.findall(text))
        contexts.update(JS_CONTEXT_CALL.findall(text))
    assert used, "no t(...) calls found"
    missing = sorted(used - set(UI_STRINGS))
    assert not missing, f"strings used by the JS but not in tapete.web.strings: {missing}"
    assert contexts <= set(CONTEXT_STRINGS)
    html = " ".join(p.read_text(encoding="utf-8") for p in Path(static_dir()).glob("*.html"))
    for msgid in re.findall(r'data-i18n(?:-label)?="([^"]+)"', html):
        assert msgid in UI_STRINGS, msgid


def test_pages_catalogs_and_replay_endpoint(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        for path in ("/", "/table/abc", "/replay", "/static/table.js", "/static/tapete.css"):
            r = c.get(path)
            assert r.status_code == 200, path
        assert "text/html" in c.get("/").headers["content-type"]
        cat = c.get("/i18n/ru.json").json()
        assert cat["lang"] == "ru" and cat["messages"]["Hint"] == "Подсказка"
        assert any(p["name"] == "runfast" and p["players"] == 3 for p in cat["profiles"])
        assert c.get("/i18n/fr.json").status_code == 404
        t = create_table(c, "runfast", ["easy", "easy", "easy"], seed=5)
        record = None
        for _ in range(400):
            r = c.get(f"/api/tables/{t['table']}/record")
            if r.status_code == 200:
                record = r.json()
                break
            time.sleep(0.02)
        assert record is not None
        out = c.post("/api/replay", json=record).json()
        assert out["exit_status"] == 0 and out["report"]["finished"] is True
        assert out["report"]["hands"][0]["plays"]
        bad = c.post("/api/replay", content=b"{nope").json()
        assert bad["code"] == "bad_record"


def _hint_roundtrip(c: TestClient, profile: str, seats: list[Any], lang: str) -> dict[str, Any]:
    t = create_table(c, profile, seats, seed=11)
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": t["table"], "token": t["seats"][0]["token"], "lang": lang})
        state = None
        while True:
            m = ws.receive_json()
            if m["type"] == "state":
                state = m
                if m["view"]["legal_actions"]:
                    break
        ws.send_json({"type": "hint", "id": 7})
        while True:
            m = ws.receive_json()
            if m["type"] in ("hint", "error"):
                assert state is not None
                m["_legal"] = state["view"]["legal_actions"]
                return m


def test_hint_message(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, bot_executor="thread")) as c:
        h = _hint_roundtrip(c, "cutthroat", ["human", "easy", "easy"], "es")
        assert h["type"] == "hint" and h["ref"] == 7
        assert h["action"] in h["_legal"]
        assert h["reason_msgid"] in UI_STRINGS
        assert h["reason"] != h["reason_msgid"]  # in Spanish
        h2 = _hint_roundtrip(c, "runfast", ["human", "easy", "easy"], "ru")
        assert h2["type"] == "hint" and h2["action"] in h2["_legal"]
        # a spectator may not ask
        t = create_table(c, "cutthroat", ["human", "easy", "easy"])
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "spectate": True})
            ws.send_json({"type": "hint", "id": 1})
            while True:
                m = ws.receive_json()
                if m["type"] == "error":
                    assert m["code"] == "not_seated"
                    break


def test_hint_reasons() -> None:
    obs: dict[str, Any] = {
        "game": "spades",
        "phase": "play",
        "hand": ["AS", "3H", "9H", "2C"],
        "players": 3,
        "trick": {"cards": [], "seats": []},
        "tricks": [],
        "rules": {"removed": []},
    }
    assert hint_reason(obs, {"seat": 0, "play": "AS"}) == "You hold the master: it wins the trick."
    assert hint_reason(obs, {"seat": 0, "play": "3H"}) == "Lead a low card and keep your winners."
    obs["trick"] = {"cards": ["5D"], "seats": [1]}
    assert hint_reason(obs, {"seat": 0, "play": "AS"}) == "You are out of the suit led: trump with a spade."
    assert hint_reason(obs, {"seat": 0, "play": "2C"}) == "You are out of the suit led: throw away a low card."
    assert (
        hint_reason({"game": "spades", "phase": "bid"}, {"seat": 0, "bid": 4})
        == "Bid from your aces, kings and spades."
    )
    assert hint_reason({"game": "spades"}, {"seat": 0, "bid": 0}) == "Your hand is weak enough to try nil."
    assert hint_reason({"game": "spades"}, {"seat": 0, "look": True}) == "Look at your cards before you bid."
    rf = {"game": "runfast"}
    assert hint_reason(rf, {"seat": 0, "pass": True}) == "You cannot beat this play: pass."
    assert hint_reason(rf, {"seat": 0, "play": ["9S", "9H", "9D", "9C"]}) == "A bomb beats anything and earns a bonus."
    assert hint_reason(rf, {"seat": 0, "play": ["3H"]}) == "Get rid of your lowest cards first."
    for reason in ("Shed several cards in one play.",):
        assert reason in UI_STRINGS
