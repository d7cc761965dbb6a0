"""The table keeps its socket and says what the server refuses (issue 16 follow-ups).

A uvicorn server whose sockets time out after 2 s of silence: the table pings (the period is
``tapete.ping`` in ``localStorage``, 60 s by default) and stays on one socket, or is closed
(``timeout``, 1008) and reconnects to the same seat and state. A creator's seed is shown at
the table and in the lobby; busy hints and refused table creations (429, 503) are told in the
page's language; a Run Fast match shows its running totals and each deal in the game-over sheet.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest

from tapete.i18n import translator
from tapete.server.messages import explain
from tapete.server.wsprotocol import TableSocketProtocol
from tests.browser import driver
from tests.browser.conftest import require_browser, serve

require_browser()

TABLE_SOCKET = re.compile(r"/ws(\?.*)?$")
"""The table's socket, with its query (``?lang=``)."""
IDLE = 2.0


def make_server(tmp_path_factory: pytest.TempPathFactory, **limits: Any) -> Any:
    from tapete.server import create_app
    from tapete.server.limits import Limits

    db = tmp_path_factory.mktemp("conn") / "tapete.db"
    return create_app(
        f"sqlite:///{db}",
        bot_delay=0.0,
        bot_executor="thread",
        bot_workers=2,
        handover_grace=0.0,
        limits=Limits(**limits),
    )


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_server(tmp_path_factory, idle_seconds=IDLE, tables_per_client_minute=1000)
    with serve(app, ws=TableSocketProtocol) as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**driver.DESKTOP, locale="en-US")
    pg = context.new_page()
    driver.fast(pg)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors


def connects(page: Any) -> int:
    return int(page.evaluate("() => Number(document.getElementById('table').dataset.connects || 0)"))


def test_a_silent_socket_closed_by_the_server_is_replaced(base_url: str, page: Any) -> None:
    t = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"])
    driver.open_table(page, base_url, t)
    version = driver.dataset(page)["version"]
    page.wait_for_function("() => Number(document.getElementById('table').dataset.connects) >= 2", timeout=15_000)
    page.wait_for_function(f"() => document.getElementById('table').dataset.version === '{version}'")
    assert page.locator("#message .refusal").count() == 0  # the timeout is not shown as a refusal
    page.wait_for_function("() => !document.getElementById('status').textContent.includes('Reconnecting')")
    driver.bid(page)  # the seat still plays
    page.wait_for_function(f"() => Number(document.getElementById('table').dataset.version) > {version}")


def test_pings_keep_the_socket_open(base_url: str, page: Any) -> None:
    page.add_init_script("localStorage.setItem('tapete.ping', '500')")
    t = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"])
    driver.open_table(page, base_url, t)
    page.wait_for_timeout(IDLE * 2500)
    assert connects(page) == 1


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_creators_seed_is_shown_at_the_table_and_in_the_lobby(base_url: str, page: Any, lang: str) -> None:
    t = driver.create_table(base_url, "runfast", ["human", "human", "easy"], seed=4242)
    text = translator(lang).gettext("Dealt from the creator's seed {seed}").format(seed=4242)
    driver.open_table(page, base_url, t, lang=lang)
    assert page.locator("#deal-note").inner_text() == text
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    note = page.locator(f"#tables li[data-table='{t['table']}'] .deal-note")
    note.wait_for()
    assert note.inner_text() == text


def test_a_secret_deal_is_not_marked(base_url: str, page: Any) -> None:
    import urllib.request

    body = json.dumps({"profile": "runfast", "seats": ["human", "easy", "easy"]}).encode()
    req = urllib.request.Request(f"{base_url}/api/tables", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        t = json.loads(r.read())
    driver.open_table(page, base_url, t)
    assert page.locator("#deal-note").count() == 0


def test_a_busy_hint_is_told_in_the_pages_language(base_url: str, page: Any) -> None:
    def relay(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            m = json.loads(message)
            if m.get("type") == "hint":  # the workers are "full": the server would answer busy
                ws.send(json.dumps({"type": "error", "code": "busy", "message": "x", "ref": m["id"]}))
            else:
                server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    page.route_web_socket(TABLE_SOCKET, relay)
    t = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"])
    driver.open_table(page, base_url, t, lang="es")
    driver.wait_turn_or(page, "false")
    page.click("#hint")
    expected = translator("es").gettext("The server is busy: try again in a moment.")
    page.wait_for_function(f"() => document.getElementById('hint-text').textContent === {json.dumps(expected)}")
    assert page.locator("#message .refusal").count() == 0


@pytest.fixture(scope="module")
def crowded_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_server(tmp_path_factory, tables_per_client_minute=1)
    with serve(app, ws=TableSocketProtocol) as url:
        yield url


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_too_many_tables_is_told_in_the_lobby(crowded_url: str, browser: Any, lang: str) -> None:
    context = browser.new_context(**driver.DESKTOP)
    pg = context.new_page()
    try:
        with contextlib.suppress(urllib.error.HTTPError):  # the one table of the minute (or refused already)
            driver.create_table(crowded_url, "runfast", ["human", "easy", "easy"])
        pg.goto(f"{crowded_url}/?lang={lang}")
        pg.wait_for_selector("body[data-ready='1']")
        pg.click("#start")
        pg.wait_for_function("() => document.getElementById('create-error').dataset.code")
        tr = translator(lang)
        expected = f"{tr.gettext('Could not create the table.')} {tr.gettext('You have created too many tables: wait a minute and try again.')}"
        assert pg.locator("#create-error").inner_text() == expected
        assert pg.locator("#create-error").get_attribute("data-code") == "too_many_tables"
    finally:
        context.close()


def test_a_plain_503_is_told_as_busy(base_url: str, browser: Any) -> None:
    context = browser.new_context(**driver.DESKTOP)
    pg = context.new_page()
    try:
        pg.route(
            "**/api/tables",
            lambda route: (
                route.fulfill(status=503, body="Service Unavailable")
                if route.request.method == "POST"
                else route.continue_()
            ),
        )
        pg.goto(f"{base_url}/?lang=ru")
        pg.wait_for_selector("body[data-ready='1']")
        pg.click("#start")
        pg.wait_for_function("() => document.getElementById('create-error').dataset.code")
        assert (
            translator("ru").gettext("The server is busy: try again in a moment.")
            in pg.locator("#create-error").inner_text()
        )
    finally:
        context.close()


def test_a_run_fast_match_shows_its_running_totals(base_url: str, page: Any) -> None:
    page.add_init_script("localStorage.setItem('tapete.ping', '500')")
    t = driver.create_table(base_url, "runfast", ["human", "easy", "easy"], options={"deals": 2}, seed=11)
    driver.open_table(page, base_url, t)
    assert "Deal 1 of 2" in page.locator("#extras").inner_text().splitlines()
    assert page.locator("#players .match-total").count() == 3
    driver.play_runfast(page)
    page.wait_for_selector("#match-totals")
    over = page.evaluate("() => fetch(location.pathname.replace('/table/', '/api/tables/')).then((r) => r.json())")
    assert over["status"] == "finished"
    record = json.loads(page.evaluate(f"() => fetch('/api/tables/{t['table']}/record').then((r) => r.text())"))
    assert len(record["hands"]) == 2 and len(record["players"]) == 3
    rows = page.locator("#match-totals tbody tr")
    assert rows.count() == 2
    totals = [int(x.replace("\u2212", "-")) for x in page.locator("#match-totals tfoot td").all_inner_texts()]
    assert sum(totals) == 0


@pytest.mark.parametrize(("lang", "text"), [("en", "3.2"), ("es", "3,2"), ("ru", "3,2")])
def test_fractional_scores_use_the_languages_decimal_separator(base_url: str, page: Any, lang: str, text: str) -> None:
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    shown = page.evaluate(
        f"async () => {{ const m = await import('/static/i18n.js'); await m.loadLanguage('{lang}'); return [m.number(3.2), m.number(-1.5)]; }}"
    )
    assert shown == [text, "-" + text.replace("3", "1").replace("2", "5")]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_bad_option_is_told_in_the_lobby_in_the_persons_language(base_url: str, page: Any, lang: str) -> None:
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#profile", "spades")
    page.click("#advanced summary")
    page.fill("#options", json.dumps({"suicide": True, "partnership": False}))  # each fine, not together
    page.click("#start")
    page.wait_for_function("() => document.getElementById('create-error').dataset.code")
    tr = translator(lang)
    why = explain("bad_option", lang, {"option": "suicide", "allowed": "partnership = true"})
    assert page.locator("#create-error").inner_text() == f"{tr.gettext('Could not create the table.')} {why}"
    assert page.locator("#create-error").get_attribute("data-code") == "bad_option"


def test_bots_wait_for_next_hand_at_the_table(tmp_path_factory: pytest.TempPathFactory, page: Any) -> None:
    """The table sends ``next_hand`` when the person closes the summary; till then the bots wait."""
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("gate") / "tapete.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=2, next_hand_wait=30.0)
    with serve(app, ws=TableSocketProtocol) as url:
        # cutthroat, seed 7: seat 0 (a bot) bids first in the second hand; the person sits at seat 1
        t = driver.create_table(url, "cutthroat", ["easy", "human", "easy"], seed=7)
        page.goto(f"{url}/table/{t['table']}?lang=en#token={t['seats'][1]['token']}")
        page.wait_for_selector("#table:not([data-version='-1'])")
        assert driver.play_spades_hand(page) == "hand"

        def version() -> int:
            return int(
                page.evaluate(f"() => fetch('/api/tables/{t['table']}').then((r) => r.json()).then((x) => x.version)")
            )

        held = version()
        page.wait_for_timeout(1500)
        assert version() == held  # the bot holds its first bid while the summary is open
        driver.next_hand(page)
        page.wait_for_function(
            f"() => Number(document.getElementById('table').dataset.version) > {held}", timeout=15_000
        )


def test_states_come_as_changes_and_a_lost_one_is_made_good_by_a_sync(base_url: str, page: Any) -> None:
    """The table asks for deltas, rebuilds each view as the server's own rebuild does, and when a
    change does not follow the view it holds (one is dropped on the way) asks for the whole view."""
    from tapete.server.deltas import apply_delta

    from_server: list[dict[str, Any]] = []
    from_page: list[dict[str, Any]] = []
    dropped: list[int] = []

    def relay(ws: Any) -> None:
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            from_page.append(json.loads(message))
            server.send(message)

        def down(message: str | bytes) -> None:
            m = json.loads(message)
            if m.get("type") == "state" and "changed" in m and len(from_server) > 12 and not dropped:
                dropped.append(m["version"])  # lost on the way: the table must notice the gap
                return
            from_server.append(m)
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    page.route_web_socket(TABLE_SOCKET, relay)
    t = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=5)
    driver.open_table(page, base_url, t)
    for _ in range(8):
        driver.wait_turn_or(page, "false")
        if driver.dataset(page)["phase"] == "bid":
            driver.bid(page)
        else:
            driver.play_card(page)
    assert dropped, "no change was dropped"
    assert any(m.get("type") == "hello" and m.get("deltas") is True for m in from_page)
    assert sum(1 for m in from_page if m.get("type") == "sync") == 1  # asked once for the gap
    changes = [m for m in from_server if m.get("type") == "state" and "changed" in m]
    assert len(changes) >= 5 and all("view" not in m for m in changes)
    # the server's states as rebuilt here: the whole ones as they are, each change from the one before
    view: dict[str, Any] | None = None
    version = -1
    for m in from_server:
        if m.get("type") != "state":
            continue
        if "view" in m:
            view, version = m["view"], m["version"]
        elif view is not None and m["version"] == version + 1:
            view, version = apply_delta(view, m["changed"], m.get("appended"), m.get("gone")), m["version"]
    assert view is not None
    page.wait_for_function(f"() => document.getElementById('table').dataset.version === '{version}'")
    shown = page.eval_on_selector_all("#hand button.card", "els => els.map((e) => e.dataset.card)")
    assert sorted(shown) == sorted(view["hand"])
