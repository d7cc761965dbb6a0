"""``POST /api/replay`` refuses in the request's language, negotiated as the rules pages do.

The route is the server's (:mod:`tapete.server.http`, the record replayed in a worker);
HTTP errors have the shape of the WebSocket errors: ``message`` in the negotiated language
(``?lang=``, else the best language of ``Accept-Language`` that tapete speaks), ``detail``
in English, and ``Content-Language`` saying which language was chosen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from tapete.i18n import translator
from tapete.server.limits import MAX_REPLAY_BODY
from tapete.web import web_routes
from tapete.web.strings import REPLAY_ERRORS
from tests.server.helpers import make_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(sqlite_url, bot_workers=1)) as c:
        yield c


def test_the_browser_routes_leave_replay_to_the_server() -> None:
    assert not [r for r in web_routes() if getattr(r, "path", "") == "/api/replay"]


@pytest.mark.parametrize(
    ("headers", "query", "lang"),
    [
        ({"accept-language": "fr-FR, ru;q=0.8, en;q=0.5"}, "", "ru"),  # the best one we speak, not the first
        ({"accept-language": "es-AR,es;q=0.9"}, "", "es"),
        ({"accept-language": "ru"}, "?lang=es", "es"),  # ?lang= wins
        ({"accept-language": "de, fr;q=0.5"}, "", "en"),
        ({}, "", "en"),
    ],
)
def test_replay_errors_are_in_the_negotiated_language(
    client: TestClient, headers: dict[str, str], query: str, lang: str
) -> None:
    r = client.post(f"/api/replay{query}", content=b"{nope", headers=headers)
    assert r.status_code == 400
    assert r.headers["content-language"] == lang
    body = r.json()
    assert body == {
        "type": "error",
        "code": "bad_record",
        "message": translator(lang).gettext(REPLAY_ERRORS["bad_record"]),
        "detail": "the record is not JSON",
    }


def test_replay_refuses_a_record_too_large(client: TestClient) -> None:
    r = client.post("/api/replay", content=b" " * (MAX_REPLAY_BODY + 1), headers={"accept-language": "es"})
    assert r.status_code == 413 and r.headers["content-language"] == "es"
    body = r.json()
    assert body["code"] == "too_large" and str(MAX_REPLAY_BODY) in body["detail"]
    assert body["message"] == translator("es").gettext(REPLAY_ERRORS["too_large"]) != REPLAY_ERRORS["too_large"]
