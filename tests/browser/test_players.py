"""A person's page and the leaderboard in a real browser, against the real server.

A guest arrives in the lobby (the page makes the guest identity), plays a short game (to 1 point) of
Cutthroat against two bots, claims the account on its page (a refused name first, shown in
Spanish), and finds the game in its history with the statistics updated: the numbers on the
page are the API's, and the API's are those computed here from the stored record. A second
browser signs in with the name and password (a wrong password first) and sees the same
history; the first signs out and the second deletes the account (a confirm dialog). axe finds
no serious violation on either page, at a phone's and a desktop's size.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tapete.i18n import translator
from tapete.records import replay
from tapete.server.wsprotocol import TableSocketProtocol
from tests.browser import driver
from tests.browser.conftest import require_browser, serve

require_browser()
axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed"
)

NAME = "Lucia_7"
PASSWORD = "mesa-verde-42"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("players") / "tapete.db"
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=2, handover_grace=0.0)
    with serve(app, ws=TableSocketProtocol) as url:
        yield url


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def serious(page: Any) -> list[str]:
    results = axe_module.Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    return [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:3]}" for v in bad]


def api(page: Any, path: str) -> Any:
    """A GET of the JSON API with the page's cookies (as the page itself would ask)."""
    origin = page.evaluate("location.origin")
    r = page.request.get(origin + path)
    assert r.ok, (path, r.status, r.text())
    return r.json()


def wait_for_history(page: Any, name: str, table: str) -> dict[str, Any]:
    """The player's API answer once the finished table is in its history (it is written as the game ends)."""
    deadline = time.monotonic() + 20
    while True:
        out: dict[str, Any] = api(page, f"/api/players/{name}")
        if any(g["table"] == table for g in out["history"]):
            return out
        assert time.monotonic() < deadline, f"table {table} never reached {name}'s history: {out['history']}"
        time.sleep(0.2)


def from_record(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The statistics of ``seat`` in one Cutthroat game, computed from its record by replaying it."""
    report = replay(record).report
    hands = report["hands"]
    contracts = [(h["bids"][seat], h["tricks_won"][seat]) for h in hands if isinstance(h["bids"][seat], int)]
    made = [won >= bid for bid, won in contracts if bid > 0]
    nils = [won == 0 for bid, won in contracts if bid == 0]
    points = sum(h["score_change"][seat] for h in hands)
    return {
        "hands": len(hands),
        "score": report["scores"][seat],
        "won": report["winner"] == seat,
        "points_per_hand": round(points / len(hands), 3),
        "contracts_pct": round(100 * sum(made) / len(made), 3) if made else None,
        "nil_pct": round(100 * sum(nils) / len(nils), 3) if nils else None,
        "sets": len(made) - sum(made),
    }


def shown_stats(page: Any, profile: str) -> dict[str, float]:
    """The statistics table of ``profile`` on the page: each row's key and its value."""
    rows = page.eval_on_selector_all(
        f".profile-stats[data-profile='{profile}'] tr[data-stat]",
        "trs => trs.map((tr) => [tr.dataset.stat, tr.dataset.value])",
    )
    return {k: float(v) for k, v in rows}


def test_guest_plays_claims_and_finds_the_game_then_signs_in_elsewhere(browser: Any, base_url: str) -> None:
    first = browser.new_context(**driver.DESKTOP, locale="en-US")
    page = first.new_page()
    driver.fast(page)
    errors = watch_errors(page)

    # the lobby makes a guest and says so, with links to its page and the leaderboard
    page.goto(f"{base_url}/?lang=en")
    page.wait_for_selector("body[data-ready='1'] #identity .who")
    guest = page.get_attribute("#identity .who", "data-player")
    assert guest and guest.startswith("guest-") and page.get_attribute("#identity .who", "data-guest") == "1"
    assert page.inner_text("#identity .who").startswith(f"Playing as {guest}")
    assert page.get_attribute("#my-page", "href") == f"/players/{guest}"
    assert page.get_attribute("#leaderboard-link", "href") == "/leaderboard"

    # Cutthroat to 1 point: over after the first hand unless two players tie at the top (a random deal)
    driver.start_from_lobby(
        page, base_url, "cutthroat", ["you", "easy", "normal"], options={"target": "1", "floor": "-1"}
    )
    table = page.url.split("/table/")[1].split("#")[0].split("?")[0]
    driver.play_spades_game(page)
    wait_for_history(page, guest, table)

    # claim the guest account on its page, in Spanish: the server's refusal is shown translated
    page.goto(f"{base_url}/players/{guest}?lang=es")
    page.wait_for_selector("#player-page[data-ready='1'] #claim")
    page.fill("#claim-name", "no vale!")
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-submit")
    page.wait_for_selector("#claim-error[data-code='name_invalid']")
    es = translator("es")
    assert page.inner_text("#claim-error") == es.gettext(
        "A name has 3 to 20 letters, digits, _ or -, and cannot start with guest-."
    )
    assert page.get_attribute("#claim-name", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "claim-name"
    assert all("status of 400" in e for e in errors), errors  # the browser logs the refused request
    errors.clear()
    page.fill("#claim-name", NAME)
    page.click("#claim-submit")
    page.wait_for_url(f"**/players/{NAME}")
    page.wait_for_selector("#player-page[data-ready='1']")
    assert page.locator("#claim").count() == 0 and page.locator("#signout").count() == 1

    # the game is in the history, with its opponents (bots with their level) and links
    data = api(page, f"/api/players/{NAME}")
    assert data["player"]["guest"] is False and data["player"]["name"] == NAME
    game = next(g for g in data["history"] if g["table"] == table)
    item = page.locator(f"#history-list li.game[data-table='{table}']")
    assert item.count() == 1
    assert item.locator(".opponent").count() == 2
    opponents = item.locator(".opponents").inner_text()
    assert es.gettext("Bot: easy") in opponents and es.gettext("Bot: normal") in opponents
    assert item.locator("a.download-link").get_attribute("href") == game["record_url"]
    assert item.locator("a.replay-link").get_attribute("href").startswith(game["replay_url"])
    record = api(page, game["record_url"])
    mine = from_record(record, game["seat"])
    assert game["result"]["score"] == mine["score"] and game["result"]["won"] is mine["won"]
    assert item.get_attribute("data-score") == str(mine["score"])

    # the statistics: games = 1, the page's numbers are the API's, the API's are the record's
    stats = data["stats"]["cutthroat"]
    assert stats["games"] == 1 and stats["wins"] == int(mine["won"])
    for key in ("hands", "points_per_hand", "contracts_pct", "nil_pct", "sets"):
        assert stats[key] == mine[key], (key, stats[key], mine[key])
    shown = shown_stats(page, "cutthroat")
    assert shown["games"] == 1
    for key, value in stats.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert shown[key] == pytest.approx(value), key
    assert page.locator(".profile-stats[data-profile='cutthroat'] svg.plot title").count() >= 2
    assert data["ratings"]["spades"]["games"] == 1
    assert page.locator("#ratings-table tr[data-family='spades']").count() == 1
    assert page.locator("#history-more").is_hidden()  # one game: nothing more to show
    assert serious(page) == [], "own page (es)"
    page.select_option("#lang", "en")  # the page is drawn again in the language chosen
    page.wait_for_function("() => document.getElementById('history-h').textContent === 'Game history'")
    assert "Won the game" in item.inner_text() or "Lost the game" in item.inner_text()

    # the replay link opens the game in the replay viewer
    item.locator("a.replay-link").click()
    page.wait_for_function("() => Number(document.getElementById('replay').dataset.steps) > 3")

    # a second device: a wrong password first, then the account's; the same history
    second = browser.new_context(**driver.PHONE, locale="ru-RU")
    other = second.new_page()
    other_errors = watch_errors(other)
    other.goto(f"{base_url}/")
    other.wait_for_selector("body[data-ready='1'] #identity .who")
    assert other.get_attribute("#identity .who", "data-player") != NAME
    other.click("#signin-open")
    other.wait_for_selector("#signin-dialog[open]")
    assert other.evaluate("document.activeElement.id") == "signin-name"
    assert serious(other) == [], "sign-in dialog (ru, phone)"
    other.fill("#signin-name", NAME)
    other.fill("#signin-password", "not-the-password")
    other.click("#signin-submit")
    other.wait_for_selector("#signin-error[data-code='bad_credentials']")
    assert other.inner_text("#signin-error") == translator("ru").gettext("Wrong name or password.")
    assert all("status of 401" in e for e in other_errors), other_errors
    other_errors.clear()
    other.fill("#signin-password", PASSWORD)
    other.click("#signin-submit")
    other.wait_for_selector(f"body[data-identity='{NAME}'] #identity .who[data-guest='0']")
    other.click("#my-page")
    other.wait_for_selector("#player-page[data-ready='1']")
    assert other.locator(f"#history-list li.game[data-table='{table}']").count() == 1
    assert shown_stats(other, "cutthroat") == shown
    assert serious(other) == [], "own page (ru, phone)"

    # the leaderboard: the account and the bots with their level, in the family's tab
    other.goto(f"{base_url}/leaderboard")
    other.wait_for_selector("#leaderboard[data-ready='1'] [role=tab]")
    if other.get_attribute("[role=tab][aria-selected=true]", "data-family") != "spades":
        other.click("[role=tab][data-family='spades']")
    other.wait_for_selector("#leaderboard[data-family='spades'] .leaderboard-table[data-family='spades']")
    assert other.get_attribute("[role=tab][aria-selected=true]", "data-family") == "spades"
    assert other.evaluate("document.activeElement.getAttribute('role')") in ("tab", None)
    assert other.locator(f".leaderboard-table tr[data-name='{NAME}']").count() == 1
    assert other.locator(".leaderboard-table tr[data-bot='1'][data-level]").count() >= 1
    assert serious(other) == [], "leaderboard (ru, phone)"
    board = api(other, "/api/leaderboard?family=spades&limit=50")
    assert [r["name"] for r in board["rows"]] == other.eval_on_selector_all(
        ".leaderboard-table tbody tr", "trs => trs.map((tr) => tr.dataset.name)"
    )
    page.goto(f"{base_url}/leaderboard?lang=en&family=spades")
    page.wait_for_selector("#leaderboard[data-ready='1'] .leaderboard-table")
    page.focus("[role=tab][aria-selected=true]")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('leaderboard').dataset.family !== 'spades'")
    assert page.evaluate("document.activeElement.getAttribute('aria-selected')") == "true"
    assert serious(page) == [], "leaderboard (en, desktop)"

    # signing out on the first device: the lobby makes a new guest there
    page.goto(f"{base_url}/players/{NAME}?lang=en")
    page.wait_for_selector("#player-page[data-ready='1'] #signout")
    page.click("#signout")
    page.wait_for_selector("body[data-ready='1'] #identity .who[data-guest='1']")
    assert page.get_attribute("#identity .who", "data-player") != NAME

    # deleting the account on the second: a confirm dialog (Escape keeps it), then it is gone
    other.goto(f"{base_url}/players/{NAME}")
    other.wait_for_selector("#player-page[data-ready='1'] #delete-open")
    other.click("#delete-open")
    other.wait_for_selector("#delete-dialog[open]")
    assert other.evaluate("document.activeElement.id") == "delete-password"
    other.keyboard.press("Escape")
    other.wait_for_selector("#delete-dialog", state="detached")
    assert other.evaluate("document.activeElement.id") == "delete-open"
    other.click("#delete-open")
    other.fill("#delete-password", PASSWORD)
    other.click("#delete-confirm")
    other.wait_for_selector("body[data-ready='1'] #identity .who[data-guest='1']")
    assert other.request.get(f"{base_url}/api/players/{NAME}").status == 404
    second.close()
    first.close()
    assert not errors, errors
    assert not other_errors, other_errors


def test_unknown_player_is_told_and_the_pages_are_served(browser: Any, base_url: str) -> None:
    context = browser.new_context(**driver.DESKTOP, locale="es-ES")
    page = context.new_page()
    try:
        page.goto(f"{base_url}/players/nadie-aqui")
        page.wait_for_selector("#player-page[data-ready='1']")
        assert page.get_attribute("#player-page", "data-error") == "no_player"
        assert page.inner_text("#page-status") == translator("es").gettext("There is no player named {name}.").format(
            name="nadie-aqui"
        )
        assert page.locator("main section[hidden]").count() == 4  # nothing but the message
    finally:
        context.close()
