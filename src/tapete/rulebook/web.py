"""Starlette routes for the rules pages: ``/rules`` (index) and ``/rules/<profile>``.

The language comes from ``?lang=`` or else the ``Accept-Language`` header; option
overrides from ``?options=<JSON>``. Pages are rendered on request (the examples are
computed by the engine each time) and sent with a ``Content-Language`` header.
"""

from __future__ import annotations

import json
from html import escape
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

import tapete
from tapete.errors import TapeteError
from tapete.i18n import LANGUAGES, negotiate, translator
from tapete.rulebook.build import build_page
from tapete.rulebook.html import CSS, LANGUAGE_NAMES, render_html


def request_language(request: Request) -> str:
    """``?lang=`` when it is one of ours, else the best match of ``Accept-Language``."""
    lang = request.query_params.get("lang", "")
    if lang in LANGUAGES:
        return lang
    return negotiate(request.headers.get("accept-language"))


def _headers(lang: str) -> dict[str, str]:
    return {"Content-Language": lang, "Vary": "Accept-Language"}


async def rules_index(request: Request) -> Response:
    """A list of every profile, linking to its rules page."""
    lang = request_language(request)
    t = translator(lang)
    items = "".join(
        f'<li><a href="/rules/{escape(name)}?lang={lang}">{escape(t.gettext(tapete.profile_info(name).title))}</a> '
        f"— {escape(t.gettext(tapete.profile_info(name).description))}</li>"
        for name in tapete.profile_names()
    )
    current = ' aria-current="page"'
    langs = "".join(
        f'<li><a href="/rules?lang={x}" hreflang="{x}" lang="{x}"{current if x == lang else ""}>'
        f"{LANGUAGE_NAMES[x]}</a></li>"
        for x in LANGUAGES
    )
    title = escape(t.gettext("Rules pages"))
    body = (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title} — tapete</title>'
        f"<style>{CSS}</style></head><body><header>"
        f'<nav class="languages" aria-label="{escape(t.gettext("Language"))}"><ul>{langs}</ul></nav>'
        f"<h1>{title}</h1></header><main><ul>{items}</ul></main></body></html>\n"
    )
    return HTMLResponse(body, headers=_headers(lang))


async def rules_page(request: Request) -> Response:
    """The rules page of one profile (404 for an unknown profile, 400 for bad options)."""
    lang = request_language(request)
    profile = request.path_params["profile"]
    raw = request.query_params.get("options")
    try:
        options = json.loads(raw) if raw else None
        if profile not in tapete.profile_names():
            return HTMLResponse(
                f"<!doctype html><title>404</title><p>{escape(profile)}: unknown profile</p>", status_code=404
            )
        page = build_page(profile, lang, options)
    except (TapeteError, json.JSONDecodeError) as exc:
        return HTMLResponse(f"<!doctype html><title>400</title><p>{escape(str(exc))}</p>", status_code=400)

    def link(other: str) -> str:
        query = {"lang": other}
        if raw:
            query["options"] = raw
        return f"/rules/{profile}?{urlencode(query)}"

    return HTMLResponse(render_html(page, link), headers=_headers(lang))


def rules_routes() -> list[Route]:
    """The routes to mount in the server app: ``/rules`` and ``/rules/{profile}``."""
    return [
        Route("/rules", rules_index, methods=["GET"]),
        Route("/rules/{profile}", rules_page, methods=["GET"]),
    ]


__all__ = ["request_language", "rules_routes"]
