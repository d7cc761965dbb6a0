"""Rules pages for every profile, in Spanish, Russian and English.

A page is built from the profile's rules (``build.build_page``) with worked examples
computed by the engine (``examples``), then rendered as terminal text (``text``) or as
an HTML document (``html``); ``web.rules_routes()`` serves the HTML pages.

>>> from tapete.rulebook import build_page, render_text
>>> "−48" in render_text(build_page("cutthroat", "en")) or "-48" in render_text(build_page("cutthroat", "en"))
True
"""

from __future__ import annotations

from tapete.rulebook.build import build_page
from tapete.rulebook.html import render_html
from tapete.rulebook.model import Page
from tapete.rulebook.text import render_text

__all__ = ["Page", "build_page", "render_html", "render_text"]
