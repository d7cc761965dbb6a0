"""The replay viewer shows who played each card as the engine says, with no guess.

In ``cutthroat-5p-2jokers`` the dealer sits out the first trick, so the seats of trick 1
are not "the leader, then clockwise": with seed 0 the dealer is seat 4 and the trick is
played by seats 3, 0, 1, 2 (a viewer guessing ``(leader + k) % 5`` shows 3, 4, 0, 1).
The record is replayed by the server's ``POST /api/replay`` (``create_app``; in a worker).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import tapete
from tapete.engine.spades.game import SpadesGame
from tests.browser.conftest import require_browser, serve

require_browser()

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elena"]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tapete.server import create_app

    db = tmp_path_factory.mktemp("replay") / "tapete.db"
    with serve(create_app(f"sqlite:///{db}", bot_delay=0.0, bot_executor="thread", bot_workers=1)) as url:
        yield url


def first_hand_record() -> tuple[dict[str, Any], SpadesGame]:
    """A ``cutthroat-5p-2jokers`` seed-0 record of one hand of legal actions, and the game."""
    game = tapete.new_game("cutthroat-5p-2jokers", seed=0)
    assert isinstance(game, SpadesGame)
    while len(game.logs) == 1 and not game.is_over():
        game.apply(game.legal_actions()[0])
    record = game.record()
    record["players"] = NAMES
    return record, game


def test_5p_two_joker_replay_shows_the_seats_the_engine_logged(browser: Any, base_url: str) -> None:
    record, game = first_hand_record()
    trick = game.logs[0].tricks[0]
    seats = trick.seats(5)
    assert len(trick.cards) == 4 and trick.sitting_out in range(5) and trick.winner is not None
    won_by = NAMES[trick.winner]
    assert seats != [(trick.leader + k) % 5 for k in range(4)], "this trick no longer tells true seats from a guess"
    assert seats == [3, 0, 1, 2]

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{base_url}/replay?lang=en")
        page.wait_for_selector("body[data-ready='1']")
        page.fill("#paste", json.dumps(record))
        page.click("#load")
        page.wait_for_function("() => Number(document.getElementById('replay').dataset.steps) > 2")
        assert page.inner_text("#replay-error") == ""
        page.click("#next")  # step 1 shows the bids, step 2 the first trick
        page.wait_for_function("() => document.getElementById('replay').dataset.step === '1'")
        assert page.inner_text("#center p").startswith("Trick 1")
        shown = page.eval_on_selector_all(
            "#center .played", "els => els.map((e) => [e.dataset.card, e.firstElementChild.textContent])"
        )
        assert shown == [[str(tapete.Card(c)), NAMES[s]] for c, s in zip(trick.cards, seats, strict=True)]
        winner = page.locator("#center .played.winner")
        assert winner.count() == 1 and winner.first.inner_text().startswith(won_by)
        assert f"Won by {won_by}" in page.inner_text("#center p")
        # the keyboard steps too
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('replay').dataset.step === '2'")
    finally:
        context.close()
    assert not errors, errors


def test_a_finished_tables_replay_names_its_players(browser: Any, base_url: str) -> None:
    """The server writes each seat's name into the record (``players``); the viewer shows them."""
    import time
    import urllib.request

    seats = [{"kind": "bot", "level": "easy", "name": "Ana"}, "normal", "easy"]
    body = json.dumps({"profile": "runfast", "seats": seats, "seed": 5}).encode()
    req = urllib.request.Request(f"{base_url}/api/tables", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        table = json.loads(r.read())["table"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{base_url}/api/tables/{table}") as r:
            if json.loads(r.read())["status"] == "finished":
                break
        time.sleep(0.1)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"{base_url}/replay?lang=en&table={table}")
        page.wait_for_function("() => Number(document.getElementById('replay').dataset.steps) > 2")
        names = page.locator(".replay-seat .name").all_inner_texts()
        assert names == ["Ana", "Bot 2 (normal)", "Bot 3 (easy)"]
    finally:
        context.close()
