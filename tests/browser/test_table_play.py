"""The browser table in a real browser: headless Debian Chromium driven by Python Playwright.

A tapete server (``create_app`` with a temporary SQLite db, bot delay 0) runs with uvicorn
on 127.0.0.1 at a free port in a thread. Each test plays like a person (``driver``): it taps
cards, bid buttons and Next hand, and checks what the page shows — where things are on screen
at a phone's and a desktop's size, that a finished trick stays in view before the hand's
summary, and that the summary's numbers are the engine's. Screenshots go under ``artifacts/``.
The table's pauses are scaled down (``tapete.pace``) to keep the tests quick.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tapete
from tapete.server.wsprotocol import TableSocketProtocol
from tests.browser import driver
from tests.browser.conftest import ARTIFACTS, require_browser, serve

require_browser()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("web") / "tapete.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=2, handover_grace=0.0)
    with serve(app, ws=TableSocketProtocol) as url:
        yield url, app


@pytest.fixture(scope="module")
def base_url(server: tuple[str, Any]) -> str:
    return server[0]


def watch_errors(pg: Any) -> list[str]:
    """Every page error and console error (a failed load, such as a missing favicon, included)."""
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


@pytest.fixture(params=["phone", "desktop"])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    context = browser.new_context(**driver.SIZES[request.param], locale="en-US")
    pg = context.new_page()
    pg.size = request.param
    driver.fast(pg)
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**driver.DESKTOP, locale="en-US")
    pg = context.new_page()
    driver.fast(pg)
    errors = watch_errors(pg)
    yield pg
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def assert_inside(page: Any, selector: str) -> None:
    assert driver.inside_viewport(page, selector), f"{selector} is not wholly inside the viewport"


def assert_one_row(page: Any) -> None:
    tops = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.getBoundingClientRect().top)")
    assert tops and max(tops) - min(tops) < 40, tops


@pytest.mark.parametrize(("profile", "players", "cards"), [("cutthroat", 3, 17), ("spades", 4, 13), ("runfast", 3, 16)])
def test_hand_controls_and_trick_fit_the_screen(
    sized: Any, base_url: str, profile: str, players: int, cards: int
) -> None:
    page = sized
    table = driver.create_table(base_url, profile, ["human"] + ["easy"] * (players - 1), seed=3)
    driver.open_table(page, base_url, table)
    driver.wait_turn_or(page, "false")
    assert page.locator("#hand .card").count() == cards
    assert_inside(page, "#hand .card")
    assert_one_row(page)
    assert_inside(page, "#players .player")
    if profile != "runfast":
        assert_inside(page, "#controls button.bid")
        driver.bid(page)
    else:
        assert_inside(page, "#controls button")
    # play until a card of someone else lies in the centre on your turn
    for _ in range(40):
        driver.wait_turn_or(page, "false")
        if page.locator("#center .played").count():
            break
        if profile == "runfast":
            driver.play_runfast(page, until_plays=1)
        else:
            driver.play_card(page)
    assert_inside(page, "#center .played")
    assert_inside(page, "#hand .card")
    if profile == "runfast":
        assert_inside(page, "#controls button")
        # the next seat in Run Fast's counter-clockwise order sits on your right
        assert page.get_attribute("#players .player[data-seat='1']", "data-pos") == "right"
        assert page.get_attribute("#players .player[data-seat='2']", "data-pos") == "left"
    if profile == "spades":
        me = page.locator("#players .player[data-seat='0']").bounding_box()
        partner = page.locator("#players .player[data-seat='2']").bounding_box()
        left = page.locator("#players .player[data-seat='1']").bounding_box()
        right = page.locator("#players .player[data-seat='3']").bounding_box()
        assert partner["y"] + partner["height"] < me["y"], (partner, me)
        assert left["x"] + left["width"] < right["x"]
        assert "partner" in page.inner_text("#players .player[data-seat='2']")
    shot(page, f"table-{profile}-{page.size}")


def test_last_trick_stays_then_the_summary_shows_the_engines_numbers(browser: Any, server: tuple[str, Any]) -> None:
    base_url, app = server
    context = browser.new_context(**driver.PHONE, locale="en-US")
    page = context.new_page()
    driver.fast(page, 0.25)
    errors = watch_errors(page)
    try:
        table = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=9)
        driver.open_table(page, base_url, table)
        assert driver.play_spades_hand(page, stop_before_last=True) == "last"
        # your last card: the completed trick stays in the centre, then the summary opens
        page.evaluate(
            """() => { window.__held = []; new MutationObserver(() => {
                 const m = document.getElementById('table');
                 if (m.dataset.held === '1') window.__held.push([performance.now(), document.querySelectorAll('#center .trick[data-complete="1"] .played').length]);
               }).observe(document.getElementById('table'), { attributes: true, subtree: true, childList: true }); }"""
        )
        driver.tap(page, "#hand button.card")
        page.wait_for_selector("#hand button.card.lifted")
        start = time.monotonic()
        driver.tap(page, "#hand button.card")
        page.wait_for_selector("#table[data-held='1'] #center .trick[data-complete='1'] .played", timeout=10_000)
        assert page.locator("#center .trick .played").count() == 3
        assert_inside(page, "#center .trick .played")
        assert page.locator("#overlay").is_hidden()
        shot(page, "table-last-trick-phone")
        page.wait_for_selector("#hand-summary", timeout=10_000)
        held = time.monotonic() - start
        assert held >= 0.25 * 2.6, held  # the last trick's hold, at a quarter of the pace
        assert_inside(page, "#summary")
        shot(page, "table-hand-summary-phone")
        hub = app.state.hub
        hand = hub.tables[table["table"]].game.replay_summary()["hands"][0]

        def cells(row: str) -> list[str]:
            found: list[str] = page.eval_on_selector_all(
                f"#hand-summary tr[data-row='{row}'] td", "tds => tds.map((td) => td.textContent.trim())"
            )
            return found

        def ints(row: str) -> list[int]:
            return [int(x.replace("−", "-").replace("+", "")) for x in cells(row)]

        assert ints("won") == hand["tricks_won"]
        assert ints("contract") == hand["contract_points"]
        assert ints("change") == hand["score_change"]
        assert ints("total") == hand["scores"]
        assert [int(x.split("→")[1]) for x in cells("bags")] == hand["bags"]
        assert [x for x in cells("bid")] == [str(b) for b in hand["bids"]]
        driver.next_hand(page)
        driver.wait_turn_or(page, "false")
        assert page.locator("#overlay").is_hidden()
    finally:
        context.close()
    assert not errors, errors


def test_hint_is_cleared_by_the_next_state_and_by_a_language_switch(page: Any, base_url: str) -> None:
    table = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=4)
    driver.open_table(page, base_url, table)
    driver.wait_turn_or(page, "false")
    page.locator("body").press("h")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Hint')")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert page.inner_text("#hint-text") == ""
    driver.wait_turn_or(page, "false")
    page.locator("body").press("h")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Pista')")
    driver.bid(page)
    assert page.inner_text("#hint-text") == ""


def test_a_hint_asked_while_a_language_switch_reconnects_is_answered(page: Any, base_url: str) -> None:
    """A language switch replaces the socket (the new hello carries the language); what the
    person asks while the new one is still opening goes out after its hello, not nowhere."""
    table = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=4)
    driver.open_table(page, base_url, table)
    driver.wait_turn_or(page, "false")
    connects = int(page.get_attribute("#table", "data-connects") or "0")
    # the hint is asked right after the new socket is made, in the same task: it cannot be open yet
    page.evaluate(
        """() => {
            const Native = window.WebSocket;
            window.WebSocket = class extends Native {
                constructor(...args) {
                    super(...args);
                    window.WebSocket = Native;
                    queueMicrotask(() => document.getElementById("hint").click());
                }
            };
            const select = document.getElementById("lang");
            select.value = "es";
            select.dispatchEvent(new Event("change"));
        }"""
    )
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Pista')")
    assert int(page.get_attribute("#table", "data-connects") or "0") == connects + 1


def test_language_survives_a_reload_on_the_table_and_in_the_lobby(page: Any, base_url: str) -> None:
    table = driver.create_table(base_url, "spades", ["human", "easy", "easy", "easy"], seed=4)
    driver.open_table(page, base_url, table)
    page.select_option("#lang", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    page.goto(f"{base_url}/table/{table['table']}")
    page.wait_for_selector("#table:not([data-version='-1'])")
    assert page.locator("html").get_attribute("lang") == "ru"
    driver.wait_turn_or(page, "false")
    page.wait_for_function("() => document.getElementById('status').textContent === 'Ваш ход'")
    assert "Пики" in page.title()  # a title per table, in the chosen language
    page.goto(f"{base_url}/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("html").get_attribute("lang") == "ru"


def test_refusal_in_russian_on_a_phone(browser: Any, base_url: str) -> None:
    context = browser.new_context(**driver.PHONE, locale="ru-RU")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        driver.start_from_lobby(page, base_url, "cutthroat", ["you", "easy", "easy"], lang="ru")
        driver.wait_turn_or(page, "false")
        labels = page.locator("#hand button.card").first.get_attribute("aria-label") or ""
        assert any(s in labels for s in ("пик", "черв", "бубен", "треф")), labels
        # a card during the bidding, tapped twice: the server explains, in Russian, and nothing changes
        version = driver.dataset(page)["version"]
        driver.tap(page, "#hand button.card")
        driver.tap(page, "#hand button.card.lifted")
        page.locator("#message .refusal").wait_for(timeout=5000)
        assert "Отказано" in page.inner_text("#message")
        assert driver.dataset(page)["version"] == version
        shot(page, "table-cutthroat-ru-phone")
    finally:
        context.close()
    assert not errors, errors


def test_official_bids_are_explained_and_b6_says_why_not(page: Any, base_url: str) -> None:
    table = driver.create_table(base_url, "cutthroat-official", ["human", "easy", "easy"], seed=3)
    driver.open_table(page, base_url, table)
    driver.wait_turn_or(page, "false")
    assert page.locator("#controls button[data-bid='BN']").count() == 1
    assert "blind nil" in page.inner_text("#controls button[data-bid='BN']")
    b6 = page.locator("#controls button[data-bid='B6']")
    assert b6.is_disabled()
    assert "50" in page.inner_text("#b6-reason")
    page.click("#controls details.bid-notes summary")
    notes = page.inner_text("#bid-notes")
    assert "200 if you take no trick" in notes and "Look at your cards" in notes


def test_runfast_deal_settlement_then_replay_face_up(page: Any, base_url: str, tmp_path: Path) -> None:
    driver.start_from_lobby(page, base_url, "runfast", ["you", "easy", "easy"])
    assert page.locator("#direction").inner_text().strip() == "Play goes counter-clockwise"
    driver.play_runfast(page)
    page.wait_for_selector("#settlement")
    assert page.inner_text("#settlement td[data-row='sum']") == "0"
    changes = page.eval_on_selector_all("#settlement tr[data-row='change'] td", "tds => tds.map((t) => t.textContent)")
    assert sum(int(c.replace("−", "-").replace("+", "")) for c in changes) == 0
    assert page.locator("#winner").count() == 1
    shot(page, "table-runfast-over-desktop")
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(str(path))
    record = json.loads(path.read_text())
    assert record["format"] == "tapete-record/1" and record["profile"] == "runfast"
    page.goto(f"{base_url}/replay?lang=es")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(path))
    page.wait_for_function("() => Number(document.getElementById('replay').dataset.steps) > 3")
    assert page.locator(".replay-seat").count() == 3
    assert page.locator(".replay-seat .mini").count() == 48  # every hand face up at the deal
    page.click("#next")
    page.click("#next")
    page.click("#prev")
    assert page.get_attribute("#replay", "data-step") == "1"
    assert "Paso 2 de" in page.inner_text("#step-label")
    page.click("#last")
    page.wait_for_selector("#center #settlement")
    shot(page, "replay-runfast-es-desktop")


def test_lobby_options_are_form_controls_with_translated_checks(browser: Any, base_url: str) -> None:
    context = browser.new_context(**driver.PHONE, locale="es-ES")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{base_url}/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("html").get_attribute("lang") == "es"
        assert page.inner_text("#start") == "Empezar"
        page.select_option("#profile", "cutthroat-official")
        assert page.locator("#profile option[value='runfast']").inner_text() != "runfast"
        target = page.locator("#opt-target")
        assert target.get_attribute("type") == "number" and target.get_attribute("min") == "1"
        assert target.input_value() == "500"
        assert not page.locator("#advanced").evaluate("d => d.open")
        assert not page.locator("#options").is_visible()  # the JSON box only under Advanced
        assert page.locator("#options-advanced fieldset[data-option='special_bids'] input").count() == 5
        shot(page, "lobby-es-phone")
        target.fill("0")
        page.click("#start")
        page.wait_for_function("() => document.getElementById('opt-target-error').textContent.length > 0")
        assert "número entero" in page.inner_text("#opt-target-error")
        assert page.url.rstrip("/") == base_url
        target.fill("300")
        page.click("#advanced summary")
        page.fill("#options", '{"foo": 1}')
        page.click("#start")
        page.wait_for_function("() => document.getElementById('create-error').textContent.includes('foo')")
        assert "Opción desconocida" in page.inner_text("#create-error")
    finally:
        context.close()
    assert not errors, errors


def test_keyboard_hint_last_trick_and_play(page: Any, base_url: str) -> None:
    """H asks for a hint, L shows the last trick, arrows and Enter lift and play a card."""
    table = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=8)
    driver.open_table(page, base_url, table)
    driver.wait_turn_or(page, "false")
    driver.bid(page)
    for _ in range(60):
        driver.wait_turn_or(page, "false")
        if page.locator("#last-trick").count():
            break
        driver.play_card(page)
    else:
        raise AssertionError("no finished trick")
    page.locator("body").press("l")
    page.wait_for_selector("#last-trick[aria-pressed='true']")
    assert page.inner_text("#center .trick-label").startswith("Last trick")
    page.locator("body").press("L")
    page.wait_for_selector("#last-trick[aria-pressed='false']")
    card = page.locator("#hand button.card.playable").first
    card.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand button.card.lifted")
    version = driver.dataset(page)["version"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.getElementById('table').dataset.version !== '{version}'")
    assert re.match(r"^\d+$", driver.dataset(page)["version"])


def test_your_own_actions_are_told_in_the_second_person(page: Any, base_url: str) -> None:
    table = driver.create_table(base_url, "cutthroat", ["human", "easy", "easy"], seed=3)
    driver.open_table(page, base_url, table)
    page.evaluate(
        """window.__said = [];
        new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => window.__said.push(n.textContent))))
          .observe(document.getElementById("live"), { childList: true });"""
    )
    driver.wait_turn_or(page, "false")
    driver.bid(page, "3")
    page.wait_for_function("window.__said.some((s) => s === 'You bid 3')")
    said = page.evaluate("window.__said")
    assert not [s for s in said if re.match(r"^you (bids|plays|looks|wins)", s)], said


def test_the_seating_draw_is_shown_at_the_start(page: Any, server: tuple[str, Any]) -> None:
    url, app = server
    table = driver.create_table(url, "cutthroat-official", ["human", "easy", "easy"], seed=5)
    driver.open_table(page, url, table)
    page.wait_for_selector("#seating-draw figure")
    game = app.state.hub.tables[table["table"]].game
    shown = page.eval_on_selector_all("#seating-draw figure", "fs => fs.map((f) => f.dataset.card)")
    assert shown == [str(tapete.Card(c)) for c in game.draw]
    dealer = page.eval_on_selector_all(
        "#seating-draw figure", "fs => fs.findIndex((f) => f.textContent.includes('deals'))"
    )
    assert dealer == game.logs[0].dealer
