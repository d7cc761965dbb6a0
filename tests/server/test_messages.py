"""Refusals in the player's language: every code explained in every language, params named in the sentence."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import tapete
from tapete.errors import ACTION_CODES, CODE_ALIASES, IllegalAction, canonical_code
from tapete.families import family
from tapete.i18n import LANGUAGES, load_catalog
from tapete.server.errors import SERVER_CODES, ServerError
from tapete.server.handlers import HANDLERS
from tapete.server.hub import check_level
from tapete.server.messages import EXPLANATIONS, FALLBACK, WITHOUT_PARAMS, error_message, explain
from tapete.server.protocol import CLIENT_TYPES
from tests.server.helpers import Player, create_table, make_app

SRC = Path(tapete.__file__).parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ERROR_CLASSES = {"IllegalAction", "ServerError", "TapeteError"}

FIRST_LEAD_3S = {
    "en": "The first play of the deal must include the three of spades.",
    "es": "La primera jugada de la mano debe incluir el tres de picas.",
    "ru": "Первый ход раздачи должен включать тройку пик.",
}


def codes_raised_in_source() -> set[str]:
    """Every code literally given to an engine or server error class anywhere in ``src/tapete``."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            first = node.args[0]
            if name in ERROR_CLASSES and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def all_codes() -> set[str]:
    return set(ACTION_CODES) | set(SERVER_CODES) | set(CODE_ALIASES)


def test_the_code_lists_cover_every_code_raised() -> None:
    raised = codes_raised_in_source()
    assert {"must_include_first_card", "stale_version", "no_table"} <= raised
    assert raised <= all_codes(), sorted(raised - all_codes())


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_code_has_a_translated_explanation(lang: str) -> None:
    cat = load_catalog(lang)
    assert cat is not None
    for code in sorted(all_codes()):
        msgid = EXPLANATIONS.get(canonical_code(code))
        assert msgid is not None, f"{code} has no explanation"
        message = cat.get(msgid)
        assert message is not None and isinstance(message.string, str) and message.string.strip(), (lang, msgid)
        assert not message.fuzzy and message.string != msgid, (lang, msgid)
        assert set(PLACEHOLDER.findall(message.string)) == set(PLACEHOLDER.findall(msgid)), (lang, msgid)
    assert cat.get(FALLBACK) is not None
    for msgid in WITHOUT_PARAMS.values():
        message = cat.get(msgid)
        assert message is not None and message.string and message.string != msgid, (lang, msgid)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explanations_fill_their_params_and_the_old_code_still_reads(lang: str) -> None:
    assert explain("must_include_first_card", lang, {"card": "3S"}) == FIRST_LEAD_3S[lang]
    hearts = explain("must_include_3h", lang)
    assert hearts == explain("must_include_first_card", lang, {"card": "3H"}) and "{" not in hearts
    assert hearts != FIRST_LEAD_3S[lang]
    for code in all_codes():
        text = explain(code, lang, {"card": "AS"})
        assert text and "{" not in text and text != explain("no_such_code", lang), (code, lang)


def test_one_wire_shape_for_engine_and_server_refusals() -> None:
    engine = error_message(IllegalAction("must_include_first_card", "play 3♠", {"card": "3S"}), "es", ref=4)
    assert engine == {
        "type": "error",
        "code": "must_include_first_card",
        "message": FIRST_LEAD_3S["es"],
        "detail": "play 3♠",
        "params": {"card": "3S"},
        "ref": 4,
    }
    server = error_message(ServerError("stale_version"), "ru")
    assert server == {"type": "error", "code": "stale_version", "message": explain("stale_version", "ru")}


def test_first_lead_3s_refusal_names_the_three_of_spades_over_the_socket(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["human"] * 3, seed=3, options={"first_lead": "3S"})
        leader = c.get(f"/api/tables/{t['table']}").json()["to_act"]
        for lang, text in FIRST_LEAD_3S.items():
            with c.websocket_connect("/ws") as ws:
                p = Player(ws)
                welcome = p.hello(t["table"], t["seats"][leader]["token"], lang=lang)
                assert welcome["renderer"] == family("runfast").renderer
                assert p.state is not None
                hand = p.state["view"]["hand"]
                assert "3S" in hand
                p.send({"type": "action", "version": 0, "action": {"seat": leader, "play": [hand[-1]]}, "id": 1})
                err = p.recv_type("error")
                assert err["code"] == "must_include_first_card" and err["params"] == {"card": "3S"}
                assert err["message"] == text and err["ref"] == 1


def test_http_errors_negotiate_the_language(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        cases = {"fr, ru;q=0.5": "ru", "es-AR": "es", "de": "en", "": "en"}
        for header, lang in cases.items():
            r = c.get("/api/tables/nope", headers={"accept-language": header})
            body = r.json()
            assert r.status_code == 404 and body["type"] == "error" and body["code"] == "no_table"
            assert body["message"] == explain("no_table", lang), header
        r = c.post("/api/tables", json={"profile": "runfast", "seats": ["human", "grandmaster", "easy"]})
        assert r.status_code == 400 and r.json()["code"] == "bad_message"
        assert all(level in r.json()["detail"] for level in family("runfast").bot_levels)


def test_bot_levels_and_handlers_come_from_one_list_each() -> None:
    assert set(HANDLERS) == CLIENT_TYPES
    for name in ("spades", "runfast"):
        fam = family(name)
        for level in fam.bot_levels:
            assert check_level(fam, level) == level
        with pytest.raises(ServerError):
            check_level(fam, "grandmaster")
