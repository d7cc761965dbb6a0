"""Rule profiles: small TOML files shipped in the package, read into frozen rules.

A profile file names its game ``family`` and sets that family's options; it may
``extends`` another profile and change a few options. User ``options`` override single
options on top, checked like the file's own.

>>> rules = load_profile("cutthroat", {"target": 300})
>>> rules.players, rules.target, rules.overrides_json()
(3, 300, {'target': 300})
>>> load_profile("cutthroat", {"target": -5})
Traceback (most recent call last):
...
tapete.errors.ProfileError: bad_option: option 'target' must be an integer ≥ 1 and ≤ 10000, not -5
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from tapete.errors import ProfileError
from tapete.families import families, family, on_change


@dataclass(frozen=True)
class ProfileInfo:
    """A profile as its file states it (before user overrides)."""

    name: str
    family: str
    title: str
    description: str
    options: Mapping[str, Any]


def _data_files() -> dict[str, str]:
    folder = resources.files("tapete.profiles") / "data"
    return {p.name[:-5]: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name.endswith(".toml")}


@cache
def _shipped_profiles() -> dict[str, dict[str, Any]]:
    return {name: tomllib.loads(text) for name, text in _data_files().items()}


@cache
def _raw_profiles() -> dict[str, dict[str, Any]]:
    """The shipped profile files plus those a registered family brings."""
    raw = dict(_shipped_profiles())
    for fam in families():
        for name, text in fam.profiles.items():
            raw[name] = tomllib.loads(text)
    return raw


def forget_cached() -> None:
    """Drop what was read from profiles (a family was registered or removed)."""
    for fn in (_raw_profiles, profile_info, _load_profile_cached):
        fn.cache_clear()


def profile_names() -> list[str]:
    """Every shipped profile, sorted."""
    return sorted(_raw_profiles())


@cache
def profile_info(name: str) -> ProfileInfo:
    """The profile's family, title, description and options (``extends`` resolved)."""
    raw = _raw_profiles()
    if not isinstance(name, str) or name not in raw:
        raise ProfileError(f"unknown profile {name!r}; known profiles: {', '.join(profile_names())}", "unknown_profile")
    data = raw[name]
    parent = data.get("extends")
    options: dict[str, Any] = {}
    family_name: str | None = data.get("family")
    if parent is not None:
        base = profile_info(parent)
        options.update(base.options)
        family_name = family_name or base.family
    options.update(data.get("options", {}))
    try:
        fam = family(str(family_name))
    except ProfileError:
        raise ProfileError(f"profile {name!r} names an unknown family {family_name!r}", "bad_profile") from None
    return ProfileInfo(
        name=name,
        family=fam.name,
        title=data.get("title", name),
        description=data.get("description", ""),
        options=options,
    )


def load_profile(name: str, options: Mapping[str, object] | None = None) -> Any:
    """The frozen rules of profile ``name`` with ``options`` applied (both validated).

    Rules are immutable, so equal requests share one object.
    """
    if options is not None and not isinstance(options, Mapping):
        raise ProfileError(f"options must be an object of option names and values, not {options!r}", "bad_option")
    if not options and isinstance(name, str):
        return _load_profile_cached(name, "{}")
    try:
        key = json.dumps(options or {}, sort_keys=True)
    except (TypeError, ValueError):
        key = None
    if key is None or not isinstance(name, str):
        return _load_profile(name, options or {})
    return _load_profile_cached(name, key)


@lru_cache(maxsize=512)
def _load_profile_cached(name: str, options_json: str) -> Any:
    return _load_profile(name, json.loads(options_json))


def _load_profile(name: str, options: Mapping[str, object]) -> Any:
    info = profile_info(name)
    return family(info.family).rules_class.from_options(info.options, profile=name, overrides=options)


on_change(forget_cached)
