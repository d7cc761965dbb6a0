"""The browser table in a real browser: headless Debian Chromium driven by Python Playwright.

A tapete server (``create_app`` with a temporary SQLite db, bot delay 0) runs with uvicorn
on 127.0.0.1 at a free port in a thread. Each test plays like a person: it clicks in the
lobby, on bid buttons and on cards, and waits for what the page shows. Screenshots of a
desktop and a phone viewport are saved under ``artifacts/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS, require_browser, serve

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

require_browser()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("web") / "tapete.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=2, handover_grace=0.0)
    with serve(app, ws="websockets-sansio") as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_from_lobby(page: Any, base_url: str, profile: str, seats: list[str], lang: str = "en") -> None:
    """Create a table by clicking in the lobby: the game, each seat's kind, Start."""
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#profile", profile)
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("#start")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#table[data-version]:not([data-version='-1'])")


def dataset(page: Any) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector("#table", "el => ({...el.dataset})")
    return data


def wait_turn_or(page: Any, done_js: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        f"() => {{ const m = document.getElementById('table'); return m.dataset.myTurn === '1' || ({done_js}); }}",
        timeout=timeout,
    )


def click_and_wait(page: Any, selector: str) -> None:
    version = dataset(page)["version"]
    page.locator(selector).first.click()
    page.wait_for_function(f"() => document.getElementById('table').dataset.version !== '{version}'", timeout=10_000)


def play_spades_hand(page: Any, refuse_once: bool = False) -> bool:
    """Bid and play one hand by clicking; returns whether a refusal was provoked and seen."""
    hands = int(dataset(page)["hands"])
    done = f"Number(m.dataset.hands) > {hands} || m.dataset.over === '1'"
    refused = False
    for _ in range(200):
        wait_turn_or(page, done)
        d = dataset(page)
        if int(d["hands"]) > hands or d["over"] == "1":
            return refused
        if d["phase"] == "bid":
            bids = page.locator("#controls button.bid")
            pick = (
                "#controls button.bid[data-bid='3']"
                if page.locator("#controls button.bid[data-bid='3']").count()
                else "#controls button.bid"
            )
            assert bids.count() > 0
            click_and_wait(page, pick)
            continue
        illegal = page.locator("#hand button.card:not(.playable)")
        if refuse_once and not refused and illegal.count() and page.locator("#hand button.card.playable").count():
            version = d["version"]
            illegal.first.click()
            refusal = page.locator("#message .refusal")
            refusal.wait_for(timeout=5000)
            assert refusal.get_attribute("data-code") in ("must_follow_suit", "spades_not_broken")
            assert dataset(page)["version"] == version  # nothing changed
            refused = True
            shot(page, "table-refusal-desktop")
        click_and_wait(page, "#hand button.card.playable")
    raise AssertionError("the hand did not end")


def test_cutthroat_hand_against_two_bots_with_refusal_and_hint(page: Any, base_url: str) -> None:
    start_from_lobby(page, base_url, "cutthroat", ["you", "easy", "easy"])
    wait_turn_or(page, "false")
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.length > 5")
    assert "Hint" in page.inner_text("#hint-text")
    shot(page, "table-cutthroat-bid-desktop")
    refused = play_spades_hand(page, refuse_once=True)
    assert refused, "no chance to click a card that may not be played"
    page.wait_for_selector("#hand-summary")
    summary = page.inner_text("#hand-summary")
    for word in ("Bid", "Won", "Points", "Penalty", "Bags"):
        assert word in summary
    assert page.locator("#chart svg polyline").count() == 3
    assert page.locator("#live p").count() > 0
    shot(page, "table-cutthroat-summary-desktop")


def test_spades_hand_with_bot_partner(page: Any, base_url: str) -> None:
    start_from_lobby(page, base_url, "spades", ["you", "easy", "normal", "easy"])
    assert "partner" in page.inner_text("#players .player[data-seat='2']")
    assert "Team 1" in page.inner_text("#players")
    play_spades_hand(page)
    page.wait_for_selector("#hand-summary")
    assert page.locator("#chart svg polyline").count() == 2


def test_russian_table_and_refusal_in_russian(browser: Any, base_url: str) -> None:
    context = browser.new_context(**PHONE, locale="ru-RU")
    page = context.new_page()
    try:
        start_from_lobby(page, base_url, "cutthroat", ["you", "easy", "easy"])
        page.select_option("#lang", "ru")
        page.wait_for_function("() => document.documentElement.lang === 'ru'")
        wait_turn_or(page, "false")
        assert "Очки" in page.inner_text("#players")
        page.wait_for_function("() => document.getElementById('status').textContent === 'Ваш ход'")
        labels = page.locator("#hand button.card").first.get_attribute("aria-label") or ""
        assert any(s in labels for s in ("пик", "черв", "бубен", "треф")), labels
        # a card during the bidding: the server explains, in Russian
        version = dataset(page)["version"]
        page.locator("#hand button.card").first.click()
        page.locator("#message .refusal").wait_for(timeout=5000)
        assert "Отказано" in page.inner_text("#message")
        assert dataset(page)["version"] == version
        shot(page, "table-cutthroat-ru-phone")
    finally:
        context.close()


def test_runfast_deal_then_record_in_replay_viewer(page: Any, base_url: str, tmp_path: Path) -> None:
    start_from_lobby(page, base_url, "runfast", ["you", "easy", "easy"])
    for _ in range(200):
        wait_turn_or(page, "m.dataset.over === '1'")
        if dataset(page)["over"] == "1":
            break
        if page.locator("#pass").count() and not page.locator("#hand button.card.playable").count():
            click_and_wait(page, "#pass")
            continue
        # select the lowest card that some legal play uses, then take the first play offered
        page.locator("#hand button.card.playable").first.click()
        page.locator("#suggestions button").first.wait_for(timeout=5000)
        if page.locator("#controls button.primary.suggestion").count():
            click_and_wait(page, "#controls button.primary.suggestion")
        else:
            click_and_wait(page, "#suggestions button")
    else:
        raise AssertionError("the deal did not end")
    page.wait_for_selector("#settlement")
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
    page.click("#next")
    page.click("#next")
    assert page.get_attribute("#replay", "data-step") == "2"
    assert "Paso 3 de" in page.inner_text("#step-label")
    page.click("#last")
    shot(page, "replay-runfast-es-desktop")


def test_lobby_phone_screenshot_and_open_tables(browser: Any, base_url: str) -> None:
    context = browser.new_context(**PHONE, locale="es-ES")
    page = context.new_page()
    try:
        page.goto(f"{base_url}/")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("html").get_attribute("lang") == "es"
        assert page.inner_text("#start") == "Empezar"
        shot(page, "lobby-es-phone")
    finally:
        context.close()


def test_keyboard_shortcuts_hint_and_last_trick(page: Any, base_url: str) -> None:
    """H asks for a hint and L shows the last trick, from the controls' aria-keyshortcuts."""
    start_from_lobby(page, base_url, "cutthroat", ["you", "easy", "easy"])
    wait_turn_or(page, "false")
    page.locator("body").press("h")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Hint')")
    for _ in range(60):
        wait_turn_or(page, "m.dataset.over === '1'")
        if page.locator("#last-trick").count():
            break
        if dataset(page)["phase"] == "bid":
            click_and_wait(page, "#controls button.bid")
        else:
            click_and_wait(page, "#hand button.card.playable")
    else:
        raise AssertionError("no trick was ever shown beside a finished one")
    assert page.get_attribute("#last-trick", "aria-pressed") == "false"
    page.locator("body").press("l")
    page.wait_for_selector("#last-trick[aria-pressed='true']")
    assert page.inner_text("#center .trick-label").startswith("Last trick")
    page.locator("body").press("L")
    page.wait_for_selector("#last-trick[aria-pressed='false']")
    assert not page.locator("#center .trick-label").count()
