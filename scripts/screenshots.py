"""Screenshots of the browser table: lobby, bidding, mid-trick, end of hand and game over, for each game
at a phone (390×844) and a desktop (1280×800) size; then a person's page (after a short game played
as the guest the lobby made) and the leaderboard.

    python scripts/screenshots.py OUT_DIR [--games cutthroat,spades,runfast] [--sizes phone,desktop]

A tapete server with a temporary SQLite database runs in a thread; headless Chromium (Debian's
``/usr/bin/chromium``) plays like a person through Playwright. ``.ci/run`` keeps ``OUT_DIR`` as artefacts when
``CI_SCREENSHOTS=1`` is set.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import driver  # noqa: E402
from tests.browser.conftest import ARGS, chromium_path, serve  # noqa: E402

GAMES: dict[str, dict[str, Any]] = {
    "cutthroat": {
        "profile": "cutthroat-official",
        "seats": ["human", "normal", "easy"],
        "short": {"target": 1, "floor": -1, "tokens": None},
    },
    "spades": {"profile": "spades", "seats": ["human", "easy", "normal", "easy"], "short": {"target": 1, "floor": -1}},
    "runfast": {"profile": "runfast", "seats": ["human", "easy", "easy"], "short": {}},
}


def shoot(page: Any, out: Path, name: str) -> None:
    page.screenshot(path=str(out / f"{name}.png"))
    print(out / f"{name}.png")


def spades_game(page: Any, base: str, out: Path, game: str, size: str) -> None:
    spec = GAMES[game]
    table = driver.create_table(base, spec["profile"], spec["seats"], seed=11)
    driver.open_table(page, base, table)
    driver.wait_turn_or(page, "false")
    if driver.dataset(page)["phase"] == "bid" and page.locator("#controls button.look").count():
        driver.click_and_wait(page, "#controls button.look")
        driver.wait_turn_or(page, "false")
    shoot(page, out, f"{game}-bidding-{size}")
    driver.bid(page)
    for _ in range(100):
        driver.wait_turn_or(page, "false")
        if driver.dataset(page)["phase"] == "play" and page.locator("#center .played").count() >= 1:
            break
        if driver.dataset(page)["phase"] == "bid":
            driver.bid(page)
        else:
            driver.play_card(page)
    driver.tap(page, "#hand button.card.playable")  # lifted, ready to play
    shoot(page, out, f"{game}-mid-trick-{size}")
    page.keyboard.press("Escape")
    assert driver.play_spades_hand(page) == "hand"
    page.wait_for_timeout(300)
    shoot(page, out, f"{game}-hand-over-{size}")
    short = driver.create_table(base, spec["profile"], spec["seats"], options=spec["short"], seed=5)
    driver.open_table(page, base, short)
    assert driver.play_spades_hand(page) == "over"
    page.wait_for_timeout(300)
    shoot(page, out, f"{game}-game-over-{size}")


def runfast_game(page: Any, base: str, out: Path, size: str) -> None:
    table = driver.create_table(base, "runfast", GAMES["runfast"]["seats"], seed=4)
    driver.open_table(page, base, table)
    driver.wait_turn_or(page, "false")
    shoot(page, out, f"runfast-start-{size}")
    driver.play_runfast(page, until_plays=3)
    driver.wait_turn_or(page, "m.dataset.over === '1'")
    driver.tap(page, "#hand button.card.playable")
    shoot(page, out, f"runfast-mid-round-{size}")
    driver.play_runfast(page)
    page.wait_for_selector("#settlement")
    page.wait_for_timeout(300)
    shoot(page, out, f"runfast-game-over-{size}")


def players_pages(page: Any, base: str, out: Path, size: str, lang: str) -> None:
    """A one-hand game started from the lobby (so it is the guest's), then its page and the leaderboard."""
    driver.start_from_lobby(
        page, base, "cutthroat", ["you", "easy", "normal"], lang=lang, options={"target": "1", "floor": "-1"}
    )
    assert driver.play_spades_hand(page) == "over"
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1'] #identity .who")
    name = page.get_attribute("#identity .who", "data-player")
    for _ in range(50):  # the history row is written as the game ends
        page.goto(f"{base}/players/{name}?lang={lang}")
        page.wait_for_selector("#player-page[data-ready='1']")
        if page.locator("#history-list li.game").count():
            break
        page.wait_for_timeout(200)
    page.screenshot(path=str(out / f"player-{size}.png"), full_page=True)
    print(out / f"player-{size}.png")
    page.goto(f"{base}/leaderboard?lang={lang}&family=spades")
    page.wait_for_selector("#leaderboard[data-ready='1']")
    shoot(page, out, f"leaderboard-{size}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--games", default="cutthroat,spades,runfast")
    ap.add_argument("--sizes", default="phone,desktop")
    ap.add_argument("--lang", default="en")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    from tapete.server import create_app

    exe = chromium_path()
    if exe is None:
        print("Debian's chromium is not installed (apt-get install -y chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            f"sqlite:///{tmp}/tapete.db", bot_delay=0.0, bot_executor="thread", bot_workers=2, handover_grace=0.0
        )
        with serve(app, ws="websockets-sansio") as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=ARGS, headless=True)
            for size in args.sizes.split(","):
                ctx = browser.new_context(**driver.SIZES[size], locale=args.lang)
                page = ctx.new_page()
                driver.fast(page, 0.3)
                page.goto(f"{base}/?lang={args.lang}")
                page.wait_for_selector("body[data-ready='1']")
                shoot(page, args.out, f"lobby-{size}")
                for game in args.games.split(","):
                    if game == "runfast":
                        runfast_game(page, base, args.out, size)
                    else:
                        spades_game(page, base, args.out, game, size)
                players_pages(page, base, args.out, size, args.lang)
                ctx.close()
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
