"""Playing at the browser table like a person: shared by the browser tests and ``scripts/screenshots.py``.

Everything here clicks what a person would click (lobby controls, bid buttons, cards, Next hand)
and waits for what the page shows (``#table``'s data attributes).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
SIZES: dict[str, dict[str, Any]] = {"desktop": DESKTOP, "phone": PHONE}


def fast(page: Any, factor: float = 0.05) -> None:
    """Scale the table's pauses (a completed trick's hold) for the rest of the page's life."""
    page.add_init_script(f"localStorage.setItem('tapete.pace', '{factor}')")


def create_table(
    base_url: str, profile: str, seats: list[Any], options: dict[str, Any] | None = None, seed: int = 7
) -> dict[str, Any]:
    """A table made through the HTTP API (for tests that are not about the lobby)."""
    body = json.dumps({"profile": profile, "seats": seats, "options": options or {}, "seed": seed}).encode()
    req = urllib.request.Request(f"{base_url}/api/tables", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


def open_table(page: Any, base_url: str, table: dict[str, Any], lang: str = "en") -> None:
    page.goto(f"{base_url}/table/{table['table']}?lang={lang}#token={table['seats'][0]['token']}")
    page.wait_for_selector("#table:not([data-version='-1'])")


def start_from_lobby(
    page: Any, base_url: str, profile: str, seats: list[str], lang: str = "en", options: dict[str, str] | None = None
) -> None:
    """Create a table by clicking in the lobby: the game, options, each seat's kind, Start."""
    page.goto(f"{base_url}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#profile", profile)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value)
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("#start")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#table:not([data-version='-1'])")


def dataset(page: Any) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector("#table", "el => ({...el.dataset})")
    return data


def wait_turn_or(page: Any, done_js: str, timeout: float = 30_000) -> None:
    page.wait_for_function(
        f"() => {{ const m = document.getElementById('table'); return m.dataset.myTurn === '1' || ({done_js}); }}",
        timeout=timeout,
    )


def click_and_wait(page: Any, selector: str) -> None:
    version = dataset(page)["version"]
    page.locator(selector).first.click()
    page.wait_for_function(
        f"() => document.getElementById('table').dataset.version !== '{version}'"
        " || document.getElementById('table').dataset.overlay",
        timeout=15_000,
    )


def play_card(page: Any, selector: str = "#hand button.card.playable") -> None:
    """Tap a card to lift it, tap it again to play it."""
    card = page.locator(selector).first
    code = card.get_attribute("data-card")
    tap(page, f"#hand button.card[data-card='{code}']")
    page.wait_for_selector(f"#hand button.card.lifted[data-card='{code}']")
    version = dataset(page)["version"]
    tap(page, f"#hand button.card[data-card='{code}']")
    page.wait_for_function(
        f"() => document.getElementById('table').dataset.version !== '{version}'"
        " || document.getElementById('table').dataset.overlay",
        timeout=15_000,
    )


def tap(page: Any, selector: str) -> None:
    """Tap a card of the fan where it shows (its top-left corner: the rest lies under the next card)."""
    page.locator(selector).first.click(position={"x": 6, "y": 14})


def bid(page: Any, preferred: str = "3") -> None:
    pick = f"#controls button.bid[data-bid='{preferred}']"
    if not page.locator(pick).count():
        pick = (
            "#controls .bids button.bid"
            if page.locator("#controls .bids button.bid").count()
            else "#controls button.bid:not([disabled]), #controls button.look"
        )
    click_and_wait(page, pick)


def play_spades_hand(page: Any, stop_before_last: bool = False) -> str:
    """Bid and play until the hand's summary (or the game over) shows; returns "hand" or "over".

    ``stop_before_last``: return "last" when only your last card is left to play.
    """
    done = "m.dataset.overlay === 'hand' || m.dataset.overlay === 'over'"
    for _ in range(300):
        wait_turn_or(page, done)
        d = dataset(page)
        if d.get("overlay") in ("hand", "over"):
            return d["overlay"]
        if d["phase"] == "bid":
            bid(page)
            continue
        if stop_before_last and page.locator("#hand button.card").count() == 1:
            return "last"
        play_card(page)
    raise AssertionError("the hand did not end")


def next_hand(page: Any) -> None:
    page.click("#next-hand")
    page.wait_for_function("() => !document.getElementById('table').dataset.overlay")


def play_spades_game(page: Any, hands: int = 6) -> None:
    """Play hands until the game is over: a game to a low target can still play on, as when
    two sides tie at the top."""
    for _ in range(hands):
        if play_spades_hand(page) == "over":
            return
        next_hand(page)
    raise AssertionError(f"the game was not over after {hands} hands")


def play_runfast(page: Any, until_plays: int | None = None) -> None:
    """Play Run Fast by selecting the lowest playable card and taking the first play offered."""
    for k in range(300):
        if until_plays is not None and k >= until_plays:
            return
        wait_turn_or(page, "m.dataset.over === '1'")
        if dataset(page)["over"] == "1":
            return
        if page.locator("#pass").count() and not page.locator("#hand button.card.playable").count():
            click_and_wait(page, "#pass")
            continue
        if page.locator("#hand button.card.selected").count():
            page.click("#clear")
        tap(page, "#hand button.card.playable")
        page.locator("#suggestions button").first.wait_for(timeout=5000)
        if page.locator("#controls button.primary.suggestion").count():
            click_and_wait(page, "#controls button.primary.suggestion")
        else:
            click_and_wait(page, "#suggestions button")
    raise AssertionError("the deal did not end")


def inside_viewport(page: Any, selector: str) -> bool:
    """Whether every element matching ``selector`` lies wholly inside the viewport (no scrolling)."""
    result: bool = page.evaluate(
        """async (sel) => {
          await Promise.all(document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)));
          const els = [...document.querySelectorAll(sel)];
          if (!els.length) return false;
          if (document.scrollingElement.scrollTop !== 0 || document.scrollingElement.scrollHeight > innerHeight + 1) return false;
          return els.every((el) => { const r = el.getBoundingClientRect();
            return r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5; });
        }""",
        selector,
    )
    return result
