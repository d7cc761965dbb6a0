"""The browser table: static pages and JS modules, the JSON catalogs, the replay endpoint.

``web_routes()`` serves

- ``/`` the lobby, ``/table/{id}`` the table, ``/replay`` the replay viewer,
  ``/players/{name}`` a person's page and ``/leaderboard`` (static HTML pages that load ES
  modules from ``/static/`` and draw from the JSON API; no build step);
- ``/static/...`` the files of ``tapete/web/static``;
- ``/i18n/{lang}.json`` every UI string of :mod:`tapete.web.strings` in ``lang``, plus
  the profiles' translated titles and descriptions, and the game families' titles.

The replay viewer's ``POST /api/replay`` is the server's (:mod:`tapete.server.http`: the
record is replayed in a worker, within a size and time budget).

Each profile of the catalog names its family's browser renderer (``renderer``: the module
``/static/family/<renderer>.js``), so that the lobby and the replay viewer can pick it
without a table, its option values (``options``) and its family's option specifications
(``specs``: name, kind, allowed values, range, nullable), from which the lobby builds its
form controls and checks values before it asks the server.
"""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import tapete
from tapete.engine.options import OptionSpec
from tapete.families import families, family
from tapete.i18n import LANGUAGES, Translator, translator
from tapete.web.strings import CONTEXT_STRINGS, UI_STRINGS


def static_dir() -> Path:
    """The folder of the static files (HTML, CSS, JS)."""
    return Path(str(resources.files("tapete.web") / "static"))


def catalog(lang: str) -> dict[str, Any]:
    """The JSON catalog of ``lang``: ``{"lang", "messages", "profiles", "families"}``."""
    t: Translator = translator(lang)
    messages: dict[str, str] = {m: t.gettext(m) for m in UI_STRINGS}
    for ctx, m in CONTEXT_STRINGS:
        messages[f"{ctx}|{m}"] = t.pgettext(ctx, m)
    return {
        "lang": lang,
        "messages": messages,
        "profiles": [_profile(name, t) for name in tapete.profile_names()],
        "families": {fam.name: t.gettext(fam.title) for fam in families()},
    }


def _profile(name: str, t: Translator) -> dict[str, Any]:
    info = tapete.profile_info(name)
    return {
        "name": name,
        "title": t.gettext(info.title),
        "description": t.gettext(info.description),
        "family": info.family,
        "renderer": family(info.family).renderer,
        "analysis": family(info.family).load_analysis is not None,
        "players": info.options.get("players", 3),
        "target": info.options.get("target"),
        "partnership": bool(info.options.get("partnership", False)),
        "options": _effective_options(name),
        "specs": [_spec(spec) for spec in option_specs(info.family)],
    }


def option_specs(family_name: str) -> list[OptionSpec]:
    """The option specifications of a family (its rules module's ``OPTIONS``), in their order."""
    module = importlib.import_module(family(family_name).rules_class.__module__)
    specs = getattr(module, "OPTIONS", ())
    return [spec for spec in specs if isinstance(spec, OptionSpec)]


def _effective_options(name: str) -> dict[str, object]:
    """Every option's value in the profile (the family's defaults filled in)."""
    info = tapete.profile_info(name)
    rules = family(info.family).rules_class.from_options(info.options, profile=name, overrides={})
    values: dict[str, object] = rules.options_json()
    return values


def _spec(spec: OptionSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "kind": spec.kind,
        "allowed": list(spec.allowed),
        "min": spec.minimum,
        "max": spec.maximum,
        "nullable": spec.nullable,
    }


def _page(name: str) -> Response:
    return FileResponse(
        static_dir() / name, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"}
    )


async def lobby_page(request: Request) -> Response:
    return _page("lobby.html")


async def table_page(request: Request) -> Response:
    return _page("table.html")


async def replay_page(request: Request) -> Response:
    return _page("replay.html")


async def player_page(request: Request) -> Response:
    return _page("players.html")


async def leaderboard_page(request: Request) -> Response:
    return _page("leaderboard.html")


async def i18n_catalog(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return JSONResponse(
            {"type": "error", "code": "bad_message", "message": f"unknown language {lang[:8]!r}"}, status_code=404
        )
    return JSONResponse(catalog(lang), headers={"Cache-Control": "no-cache"})


FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    '<rect x="2" y="2" width="60" height="60" rx="12" fill="#1f6b3f"/>'
    '<rect x="14" y="9" width="32" height="46" rx="5" fill="#fff" stroke="#0b3a20" stroke-width="2" transform="rotate(-10 30 32)"/>'
    '<path d="M32 18c-7 8-13 12-13 18a6 6 0 0 0 11 3l-3 8h10l-3-8a6 6 0 0 0 11-3c0-6-6-10-13-18z" fill="#111"/>'
    "</svg>"
)
"""The tab icon: a spade on a card on green felt."""


async def favicon(request: Request) -> Response:
    return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def web_routes() -> list[BaseRoute]:
    """The pages, static files and catalogs of the browser table."""
    return [
        Route("/", lobby_page, methods=["GET"]),
        Route("/table/{table_id}", table_page, methods=["GET"]),
        Route("/replay", replay_page, methods=["GET"]),
        Route("/players/{name}", player_page, methods=["GET"]),
        Route("/leaderboard", leaderboard_page, methods=["GET"]),
        Route("/favicon.ico", favicon, methods=["GET"]),
        Route("/favicon.svg", favicon, methods=["GET"]),
        Route("/i18n/{lang}.json", i18n_catalog, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=str(static_dir())), name="static"),
    ]


__all__ = ["catalog", "option_specs", "static_dir", "web_routes"]
