"""The Analysis view shows the engine's numbers: a hand played at the table (phone size) and a
hand of the replay viewer, each compared with :func:`tapete.analysis.analyze` on the same
record and node budget; axe finds no serious violation in the view.

The server's node budget is small (``NODES``), so the whole deal at the first lead and the
early cards are over it: the view must show them as unknown, and the endings as numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import tapete
from tapete.analysis import analyze
from tapete.server.limits import Limits
from tapete.server.wsprotocol import TableSocketProtocol
from tests.browser import driver
from tests.browser.conftest import require_browser, serve

require_browser()
axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed"
)

NODES = 1500
LEAD = 3000
TABLES: dict[str, Any] = {}
"""The server's tables by id (seen through the observer), to read a hand's record from its game."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("analysis") / "tapete.db"
    limits = Limits(
        tables_per_client_minute=1000,
        analysis_nodes=NODES,
        analysis_lead_nodes=LEAD,
        analysis_seconds=120.0,
        analysis_more_seconds=0.0,  # the node budgets alone: the answers the page shows are the analyser's
    )
    app = create_app(
        f"sqlite:///{db}",
        bot_delay=0.0,
        bot_executor="thread",
        bot_workers=2,
        handover_grace=0.0,
        limits=limits,
        observer=lambda table, seat, role, message: TABLES.setdefault(table.id, table),
    )
    with serve(app, ws=TableSocketProtocol) as url:
        yield url


def serious(page: Any) -> list[str]:
    results = axe_module.Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    return [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:3]}" for v in bad]


def shown(page: Any, box: str) -> dict[str, Any]:
    """What the view shows: each side's bid and makeable tricks, each card's kept tricks, the costly cards."""
    out: dict[str, Any] = page.evaluate(
        """(box) => {
          const root = document.querySelector(box);
          const num = (s) => (s === "" ? null : Number(s));
          return {
            sides: [...root.querySelectorAll(".analysis-sides tr[data-side]")].map((tr) => num(tr.querySelector(".a-makeable").dataset.value)),
            plays: Object.fromEntries([...root.querySelectorAll("td.a-play")].map((td) => [td.dataset.card, num(td.dataset.kept)])),
            costly: [...root.querySelectorAll(".analysis-costly li")].map((li) => [li.dataset.card, Number(li.dataset.loss)]),
            unknownText: [...root.querySelectorAll(".a-play.unknown .a-kept")].map((e) => e.textContent),
          };
        }""",
        box,
    )
    return out


def check_numbers(page: Any, box: str, hand: dict[str, Any]) -> None:
    got = shown(page, box)
    assert got["sides"] == [s["makeable"] for s in hand["sides"]]
    assert got["plays"] == {p["card"]: p["kept"] for p in hand["plays"]}
    assert got["costly"] == [[p["card"], p["loss"]] for p in hand["costly"]]
    unknown = [p for p in hand["plays"] if p["kept"] is None]
    assert unknown, "the budget leaves the whole deal unknown"
    assert any(p["kept"] is not None for p in hand["plays"])
    assert all(text.startswith("?") for text in got["unknownText"]) and len(got["unknownText"]) == len(unknown)


def test_the_analysis_of_a_hand_played_at_the_table(browser: Any, base_url: str) -> None:
    context = browser.new_context(**driver.PHONE, locale="es-ES")
    page = context.new_page()
    driver.fast(page)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        table = driver.create_table(base_url, "spades", ["human", "easy", "easy", "easy"], seed=5)
        driver.open_table(page, base_url, table, lang="es")
        assert driver.play_spades_hand(page) == "hand"
        record = TABLES[table["table"]].game.record()
        record["hands"] = record["hands"][:1]
        expected = analyze(record, nodes=NODES, lead_nodes=LEAD, hands=[0])["hands"][0]

        button = page.locator("#analysis-open")
        assert button.inner_text() == "Análisis"
        button.click()
        page.wait_for_selector("#analysis-box[data-state='done']", timeout=120_000)
        assert page.evaluate("document.activeElement.id") == "analysis-h"  # a screen reader starts at its title
        assert page.inner_text("#analysis-h") == "Análisis de la mano 1"
        check_numbers(page, "#analysis-box", expected)
        if expected["costly"]:
            assert "Baza " in page.inner_text(".analysis-costly li")
        # at 390 px the view stays inside the screen (its card table scrolls inside itself)
        right = page.evaluate("document.getElementById('analysis-box').getBoundingClientRect().right")
        assert right <= 390
        assert serious(page) == []
        # the keyboard closes and reopens it without asking the server again
        page.focus("#analysis-open")
        page.keyboard.press("Enter")
        page.wait_for_selector("#analysis-box", state="hidden")
        page.keyboard.press("Enter")
        page.wait_for_selector("#analysis-box[data-state='done']")
        driver.next_hand(page)
        assert errors == []
    finally:
        context.close()


def test_the_analysis_in_the_replay_viewer(browser: Any, base_url: str) -> None:
    game = tapete.new_game("cutthroat", seed=12)
    while getattr(game, "hand_number", 0) == 0:
        game.apply(game.legal_actions()[-1])
    record = game.record()
    record["hands"] = record["hands"][:1]
    expected = analyze(record, nodes=NODES, lead_nodes=LEAD, hands=[0])["hands"][0]

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{base_url}/replay?lang=ru")
        page.wait_for_selector("body[data-ready='1']")
        page.fill("#paste", json.dumps(record))
        page.click("#load")
        page.wait_for_function("() => Number(document.getElementById('replay').dataset.steps) > 2")
        for _ in range(100):  # step to the end of the hand, where its summary offers the analysis
            if page.locator("#analysis-open").count():
                break
            page.keyboard.press("ArrowRight")
        assert page.inner_text("#hand-label") == "Раздача 1"
        page.click("#analysis-open")
        page.wait_for_selector("#analysis[data-state='done']", timeout=120_000)
        assert page.inner_text("#analysis-h") == "Анализ раздачи 1"
        check_numbers(page, "#analysis", expected)
        assert "Каждый игрок анализируется" in page.inner_text("#analysis")  # three seats, each for themself
        assert serious(page) == []
        page.click("#last")  # the next hand, only dealt when the record stops: nothing to analyse
        assert page.inner_text("#hand-label") == "Раздача 2"
        assert page.locator("#analysis-open").count() == 0
        assert errors == []
    finally:
        context.close()
