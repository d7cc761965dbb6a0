"""axe-core (``axe-playwright-python`` vendors it) finds no serious or critical violation on the
lobby, a table in play, the end-of-hand overlay and a rules page; no page logs a console error
(a missing favicon included)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tapete.server.wsprotocol import TableSocketProtocol
from tests.browser import driver
from tests.browser.conftest import require_browser, serve

require_browser()
axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed"
)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("a11y") / "tapete.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=2, handover_grace=0.0)
    with serve(app, ws=TableSocketProtocol) as url:
        yield url


def serious(page: Any) -> list[str]:
    page.evaluate(
        "() => Promise.all(document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))"
    )
    results = axe_module.Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    return [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:3]}" for v in bad]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_serious_violations_and_no_console_errors(browser: Any, base_url: str, size: str) -> None:
    context = browser.new_context(**driver.SIZES[size], locale="es-ES")
    page = context.new_page()
    driver.fast(page)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{base_url}/")
        page.wait_for_selector("body[data-ready='1']")
        assert serious(page) == [], "lobby"
        table = driver.create_table(base_url, "cutthroat-official", ["human", "easy", "easy"], seed=3)
        driver.open_table(page, base_url, table, lang="es")
        driver.wait_turn_or(page, "false")
        assert serious(page) == [], "table (bidding)"
        page.goto(f"{base_url}/rules/cutthroat?lang=ru")
        page.wait_for_load_state("load")
        assert serious(page) == [], "rules page"
        page.goto(f"{base_url}/replay")
        page.wait_for_selector("body[data-ready='1']")
        assert serious(page) == [], "replay viewer"
        if size == "phone":
            short = driver.create_table(
                base_url, "cutthroat", ["human", "easy", "easy"], options={"target": 1, "floor": -1}, seed=2
            )
            driver.open_table(page, base_url, short)
            assert driver.play_spades_hand(page) == "over"
            assert serious(page) == [], "game over overlay"
    finally:
        context.close()
    assert not errors, errors
