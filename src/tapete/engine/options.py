"""Typed option specifications shared by every game family.

A profile is a mapping of option names to values; each family lists its options as
``OptionSpec`` objects, which check and normalise a value or raise ``ProfileError``
naming the option and what it allows.

>>> spec = OptionSpec("target", "int", "score that ends a game", minimum=1)
>>> spec.coerce(300)
300
>>> spec.coerce(-5)
Traceback (most recent call last):
...
tapete.errors.ProfileError: bad_option: option 'target' must be an integer ≥ 1, not -5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tapete.errors import ProfileError

OptionKind = Literal["int", "bool", "choice", "subset", "str"]
OptionValue = int | bool | str | frozenset[str] | None


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, kind, meaning and allowed values."""

    name: str
    kind: OptionKind
    doc: str
    allowed: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False

    def describe_allowed(self) -> str:
        if self.kind == "int":
            lo = f" ≥ {self.minimum}" if self.minimum is not None else ""
            hi = f" ≤ {self.maximum}" if self.maximum is not None else ""
            text = f"an integer{lo}{' and' if lo and hi else ''}{hi}"
        elif self.kind == "bool":
            text = "true or false"
        elif self.kind == "choice":
            text = "one of " + ", ".join(repr(a) for a in self.allowed)
        elif self.kind == "subset":
            text = "a list drawn from " + ", ".join(repr(a) for a in self.allowed)
        else:
            text = "a string"
        return text + (" (or null)" if self.nullable else "")

    def allowed_text(self) -> str:
        """What the option allows, without words (``1 … 10000``, ``'3H', '3S'``): a translated refusal quotes it."""
        if self.kind == "int":
            lo, hi = self.minimum, self.maximum
            if lo is not None and hi is not None:
                text = f"{lo} … {hi}"
            elif lo is not None:
                text = f"≥ {lo}"
            elif hi is not None:
                text = f"≤ {hi}"
            else:
                text = "…"
        elif self.kind == "bool":
            text = "true, false"
        elif self.kind == "choice":
            text = ", ".join(repr(a) for a in self.allowed)
        elif self.kind == "subset":
            text = "[" + ", ".join(repr(a) for a in self.allowed) + "]"
        else:
            text = '"…"'
        return text + (", null" if self.nullable else "")

    def _bad(self, value: object) -> ProfileError:
        return ProfileError(
            f"option {self.name!r} must be {self.describe_allowed()}, not {value!r}",
            "bad_option",
            {"option": self.name, "allowed": self.allowed_text()},
        )

    def coerce(self, value: object) -> OptionValue:
        """Check ``value`` and return it in normal form (subsets become frozensets)."""
        if value is None:
            if self.nullable:
                return None
            raise self._bad(value)
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._bad(value)
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise self._bad(value)
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._bad(value)
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.allowed:
                raise self._bad(value)
            return value
        if self.kind == "subset":
            items = value.split() if isinstance(value, str) else value
            if not isinstance(items, (list, tuple, set, frozenset)):
                raise self._bad(value)
            out = set()
            for item in items:
                if not isinstance(item, str) or item not in self.allowed:
                    raise ProfileError(
                        f"option {self.name!r}: {item!r} is not one of " + ", ".join(repr(a) for a in self.allowed),
                        "bad_option",
                        {"option": self.name, "allowed": self.allowed_text()},
                    )
                out.add(item)
            return frozenset(out)
        if not isinstance(value, str):
            raise self._bad(value)
        return value

    @staticmethod
    def to_json(value: OptionValue) -> object:
        if isinstance(value, frozenset):
            return sorted(value)
        return value


def coerce_options(
    specs: Sequence[OptionSpec], values: Mapping[str, object], *, profile: str
) -> dict[str, OptionValue]:
    """Check every option of ``values`` against ``specs``; unknown names are errors."""
    by_name = {s.name: s for s in specs}
    out: dict[str, OptionValue] = {}
    for key, value in values.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name))
            raise ProfileError(
                f"unknown option {key!r} for profile {profile!r}; known options: {known}",
                "unknown_option",
                {"option": str(key), "allowed": known},
            )
        out[key] = spec.coerce(value)
    return out
