"""Every option combination gives a correct game or a clear ``bad_option``.

Hypothesis draws option overrides for each profile from its family's option
specifications (``engine/options.py``, each rules module's ``OPTIONS``). For each one the
rules load and the game deals equal hands with bids up to the hand size, the rules page
renders as text and HTML in es, ru and en, and the server creates the table; or the
rules refuse it with ``bad_option`` and so do the server and ``/rules/<profile>``. A fuzz
test throws arbitrary option values at the HTTP API: never a 500.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from starlette.testclient import TestClient

import tapete
from tapete.engine.options import OptionSpec
from tapete.errors import ProfileError
from tapete.i18n import catalog_path, translator
from tapete.rulebook import build_page, render_html, render_text
from tapete.server import create_app
from tapete.server.limits import Limits
from tapete.server.requests import OPTION_BOUNDS
from tapete.web import option_specs

PROFILES = tapete.profile_names()
LANGS = ("es", "ru", "en")
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One server for the module: SQLite in a temporary folder, bots in threads."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            f"sqlite:///{Path(tmp) / 't.db'}",
            bot_delay=0,
            bot_executor="thread",
            limits=Limits(
                tables_per_client_minute=100_000, open_tables=100_000, api_per_client_second=1e6, api_burst=100_000
            ),
        )
        with TestClient(app) as c:
            yield c


def _bounds(spec: OptionSpec) -> tuple[int, int]:
    lo, hi = OPTION_BOUNDS.get(spec.name, (-1000, 1000))
    lo = max(lo, spec.minimum) if spec.minimum is not None else lo
    hi = min(hi, spec.maximum) if spec.maximum is not None else hi
    return lo, hi


def value_of(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Any value the spec allows on its own (whether the combination fits is the question)."""
    if spec.kind == "int":
        lo, hi = _bounds(spec)
        base: st.SearchStrategy[Any] = st.integers(lo, hi)
    elif spec.kind == "bool":
        base = st.booleans()
    elif spec.kind == "choice":
        base = st.sampled_from(spec.allowed)
    elif spec.kind == "subset":
        base = st.lists(st.sampled_from(spec.allowed), unique=True).map(sorted)
    else:
        base = st.text(max_size=8)
    return st.one_of(st.none(), base) if spec.nullable else base


@st.composite
def combos(draw: st.DrawFn, profile: str) -> dict[str, Any]:
    specs = option_specs(tapete.profile_info(profile).family)
    chosen = draw(st.lists(st.sampled_from(specs), max_size=4, unique_by=lambda s: s.name))
    return {spec.name: draw(value_of(spec)) for spec in chosen}


def _post(client: TestClient, profile: str, options: dict[str, Any], seats: int) -> Any:
    return client.post("/api/tables", json={"profile": profile, "seats": ["human"] * seats, "options": options})


def _check_game(profile: str, options: dict[str, Any]) -> int:
    """Deal a game: equal hands, every numeric bid within the hand; the number of seats."""
    rules = tapete.load_profile(profile, options)
    game: Any = tapete.new_game(profile, seed=11, options=options)
    first = game.record()["hands"][0]
    sizes = [len(h) for h in first["cards"]]
    others = [n for s, n in enumerate(sizes) if s != first.get("dealer")]
    assert len(sizes) == rules.players and len(set(others)) == 1, (profile, options, sizes)
    if getattr(rules, "dealer_sits_out_first_trick", False):  # the dealer holds one card fewer
        assert sizes[first["dealer"]] == others[0] - 1, (profile, options, sizes)
    else:
        assert len(set(sizes)) == 1, (profile, options, sizes)
    for _ in range(2 * rules.players):  # every bidder of the first hand
        if game.is_over():
            break
        records = [game.action_to_record(a) for a in game.legal_actions()]
        bids = [r["bid"] for r in records if isinstance(r.get("bid"), int)]
        assert all(0 <= b <= max(sizes) for b in bids), (profile, options, bids)
        if not any("bid" in r or "look" in r for r in records):
            break
        pick = next((r for r in records if isinstance(r.get("bid"), int)), records[0])
        game.apply(pick)
    return int(rules.players)


@functools.cache
def _catalog(lang: str) -> Any:
    with open(catalog_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def _check_pages(profile: str, options: dict[str, Any]) -> None:
    """Text and HTML in every language, every string of the page translated."""
    for lang in LANGS:
        t = translator(lang)
        page = build_page(profile, lang, options, t=t)
        assert render_text(page).strip() and "</html>" in render_html(page)
        if lang != "en":
            cat = _catalog(lang)
            missing = [m for ctx, m in t.used if not (e := cat.get(m, context=ctx)) or not e.string]
            assert not missing, (lang, profile, options, missing)


@pytest.mark.parametrize("profile", PROFILES)
def test_every_option_combination_plays_renders_and_opens_a_table(client: TestClient, profile: str) -> None:
    @SETTINGS
    @given(options=combos(profile))
    def check(options: dict[str, Any]) -> None:
        try:
            tapete.load_profile(profile, options)
        except ProfileError as exc:
            assert exc.code == "bad_option", exc
            r = _post(client, profile, options, tapete.load_profile(profile).players)
            assert r.status_code == 400 and r.json()["code"] == "bad_option", r.text
            page = client.get(f"/rules/{profile}", params={"options": json.dumps(options)})
            assert page.status_code == 400, page.text
            return
        seats = _check_game(profile, options)
        _check_pages(profile, options)
        r = _post(client, profile, options, seats)
        assert r.status_code == 201, (options, r.text)
        assert len(r.json()["seats"]) == seats

    check()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
OPTION_NAMES = sorted({s.name for p in PROFILES for s in option_specs(tapete.profile_info(p).family)} | {"x", ""})


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    profile=st.sampled_from(PROFILES),
    options=st.dictionaries(st.sampled_from(OPTION_NAMES), JSON_VALUES, max_size=3),
    seats=st.integers(1, 8),
)
def test_fuzzed_option_values_never_answer_500(
    client: TestClient, profile: str, options: dict[str, Any], seats: int
) -> None:
    r = _post(client, profile, options, seats)
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        assert r.json()["code"] in {
            "bad_option",
            "bad_message",
            "out_of_range",
            "number_too_large",
            "bad_seats",
            "bad_text",
        }, r.text
    page = client.get(f"/rules/{profile}", params={"options": json.dumps(options)})
    assert page.status_code in (200, 400), page.text
