"""The family renderers of the browser table and the catalog, packaging and errors around them.

Each game family names a browser renderer (``Family.renderer``); the static module
``family/<renderer>.js`` draws what differs between families, and the core modules
(table, replay viewer, lobby, …) name no family.
"""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import tapete
from tapete.families import families, family
from tapete.i18n import LANGUAGES
from tapete.web import catalog, static_dir

STATIC = Path(static_dir())
PYPROJECT = Path(__file__).resolve().parent.parent.parent / "pyproject.toml"


def interface() -> list[str]:
    """The names every renderer exports, as ``renderer.js`` checks them."""
    text = (STATIC / "renderer.js").read_text(encoding="utf-8")
    block = re.search(r"const REQUIRED = \[(.*?)\];", text, re.S)
    assert block is not None, "renderer.js lists no REQUIRED exports"
    names = re.findall(r'"(\w+)"', block.group(1))
    assert "center" in names and "replayStep" in names
    return [*names, "selectsCards"]


def shipped_renderers() -> set[str]:
    """The renderers of the families tapete ships (a test's toy family has no module here)."""
    return {f.renderer for f in families() if f.game_class.__module__.startswith("tapete.")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_names_each_profiles_renderer(lang: str) -> None:
    profiles = {p["name"]: p for p in catalog(lang)["profiles"]}
    assert set(profiles) == set(tapete.profile_names())
    for name, p in profiles.items():
        assert p["renderer"] == family(tapete.profile_info(name).family).renderer, name
    assert profiles["cutthroat-5p-2jokers"]["renderer"] == "spades"
    assert profiles["runfast"]["renderer"] == "runfast"


def test_every_shipped_family_has_a_renderer_module_with_the_whole_interface() -> None:
    names = interface()
    renderers = shipped_renderers()
    assert {"spades", "runfast"} <= renderers
    for renderer in renderers:
        path = STATIC / "family" / f"{renderer}.js"
        assert path.is_file(), f"no renderer module for {renderer}"
        text = path.read_text(encoding="utf-8")
        exported = set(re.findall(r"^export (?:async )?(?:function|const|let) (\w+)", text, re.M))
        missing = [n for n in names if n not in exported]
        assert not missing, f"{path.name} lacks {missing}"
    modules = {p.stem for p in (STATIC / "family").glob("*.js")}
    assert modules == renderers, "a renderer module belongs to no family"


def test_core_modules_name_no_family() -> None:
    """Outside ``family/`` no module branches on a family (the suit name "spades" is a card name)."""
    core = sorted(STATIC.glob("*.js"))
    assert {p.name for p in core} >= {"table.js", "replay.js", "lobby.js", "summary.js", "renderer.js"}
    for path in core:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\.game\s*[!=]==?|family\s*[!=]==?", text), f"{path.name} compares a family"
        for renderer in shipped_renderers():
            for m in re.finditer(rf"\b{renderer}\b", text, re.I):
                suit_name = path.name == "i18n.js" and text[m.start() - 1 : m.end() + 1] == f'"{renderer}"'
                assert suit_name, f"{path.name} names the {renderer} family: …{text[m.start() - 40 : m.end() + 40]}…"


def test_table_and_replay_viewer_load_the_renderer_by_name() -> None:
    loader = (STATIC / "renderer.js").read_text(encoding="utf-8")
    assert "import(`./family/${name}.js`)" in loader
    for page in ("table.js", "replay.js"):
        text = (STATIC / page).read_text(encoding="utf-8")
        assert 'from "./renderer.js"' in text and "loadRenderer(" in text, page
        assert "/family/" not in text, f"{page} imports a family module itself"
    table = (STATIC / "table.js").read_text(encoding="utf-8")
    assert "m.renderer" in table, "the table ignores the renderer named in welcome"


def test_package_data_ships_every_static_file() -> None:
    globs = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["tapete"]
    for path in STATIC.rglob("*"):
        if path.is_file():
            rel = "web/static/" + path.relative_to(STATIC).as_posix()
            # setuptools globs do not cross folders: "*" stops at "/"
            assert any(fnmatch(rel, g) and rel.count("/") == g.count("/") for g in globs), f"{rel} is not packaged"
