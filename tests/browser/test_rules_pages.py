"""The rules pages in a real browser: headless Debian Chromium driven by Python Playwright.

Serves a small Starlette app built from ``rules_routes()`` with uvicorn on 127.0.0.1 (a
free port, in a thread), opens ``/rules/cutthroat`` in Russian and Spanish, checks every
section (and each titled part of one) is there, and saves phone-viewport screenshots
under ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import ARTIFACTS, require_browser, serve

require_browser()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    from starlette.applications import Starlette

    from tapete.rulebook.web import rules_routes

    with serve(Starlette(routes=rules_routes())) as url:
        yield url


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_cutthroat_page_in_chromium(base_url: str, browser: object, lang: str) -> None:
    from tapete.rulebook import build_page
    from tapete.rulebook.model import Subheading

    page_model = build_page("cutthroat", lang)
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 375, "height": 740},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    try:
        response = page.goto(f"{base_url}/rules/cutthroat?lang={lang}")
        assert response is not None and response.ok
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("h1").inner_text() == page_model.title
        for section in page_model.sections:
            heading = page.locator(f"#{section.anchor} h2")
            assert heading.count() == 1, section.anchor
            assert section.title in heading.inner_text()
            for block in section.blocks:
                if isinstance(block, Subheading):  # parts of a section keep their own anchors
                    sub = page.locator(f"#{section.anchor} h3#{block.anchor}")
                    assert sub.count() == 1 and block.title in sub.inner_text(), block.anchor
        assert [s.anchor for s in page_model.sections][-2:] == ["history", "example"]
        assert page.locator("#history li").count() >= 4  # the chosen variant, item by item
        page.locator('nav.toc a[href="#example-scoring"]').click()
        assert page.evaluate("location.hash") == "#example-scoring"
        assert page.locator("#faq dt").count() == len(page_model.faq)
        # the page itself does not scroll sideways on a phone; wide tables scroll in their own box
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375 + 1, width
        boxes = page.locator(".table-scroll")
        assert boxes.count() >= 2
        assert page.evaluate("[...document.querySelectorAll('.table-scroll')].some(e => e.scrollWidth > e.clientWidth)")
        # the language switcher links to the same page in the other languages
        other = "es" if lang == "ru" else "ru"
        page.locator(f'nav.languages a[hreflang="{other}"]').click()
        page.wait_for_load_state()
        assert page.locator("html").get_attribute("lang") == other
        page.go_back()
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"rules-cutthroat-{lang}-phone.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
    finally:
        context.close()
