"""The project's gettext catalogs (es, ru; English is the msgid source) and a translator.

Catalogs are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/tapete.po``, read at
run time with Babel (no compile step). A :class:`Translator` gives ``gettext``,
``ngettext`` (with the catalog's plural forms) and ``pgettext``, formats numbers per
locale, and remembers every msgid it was asked for, so tests can prove that a page
used no untranslated string.

>>> t = translator("ru")
>>> t.ngettext("Play all {n} trick.", "Play all {n} tricks.", 22)
'Сыграйте все {n} взятки.'
>>> t.number(-48) == format_decimal(-48, locale="ru")
True
>>> translator("en").gettext("Spades")
'Spades'
"""

from __future__ import annotations

import gettext as _stdlib_gettext
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES: Final = ("es", "ru", "en")
"""The languages tapete speaks; English is the source language of every msgid."""
DEFAULT_LANGUAGE: Final = "en"
DOMAIN: Final = "tapete"

MsgKey = tuple[str | None, str]
"""A message as a catalog knows it: ``(context, msgid)``; a plural's msgid is its singular."""


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


@cache
def load_catalog(lang: str) -> Catalog | None:
    """The Babel catalog of ``lang`` (``None`` for English, the source language)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; tapete speaks {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANGUAGE:
        return None
    path = resources.files("tapete.i18n") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def catalog_path(lang: str) -> str:
    """Where the ``.po`` file of ``lang`` lives (for tools and tests)."""
    return str(resources.files("tapete.i18n") / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


class Translator:
    """gettext-style look-ups in one language's catalog, recording the msgids used."""

    def __init__(self, lang: str) -> None:
        self.lang: str = lang
        self.catalog: Catalog | None = load_catalog(lang)
        self.used: set[MsgKey] = set()
        """Every ``(context, msgid)`` looked up through this translator."""
        self._plural: Callable[[int], int] = (
            _english_plural if self.catalog is None else _stdlib_gettext.c2py(self.catalog.plural_expr)
        )

    def _lookup(self, msgid: str, context: str | None) -> str | tuple[str, ...] | None:
        self.used.add((context, msgid))
        if self.catalog is None:
            return None
        message = self.catalog.get(msgid, context=context)
        if message is None or message.fuzzy or not message.string:
            return None
        string = message.string
        return tuple(string) if isinstance(string, (list, tuple)) else string

    def gettext(self, msgid: str) -> str:
        """The translation of ``msgid`` (``msgid`` itself when untranslated)."""
        found = self._lookup(msgid, None)
        return found if isinstance(found, str) and found else msgid

    def pgettext(self, context: str, msgid: str) -> str:
        """The translation of ``msgid`` in ``context``."""
        found = self._lookup(msgid, context)
        return found if isinstance(found, str) and found else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The plural form of a message for the count ``n`` (Russian has three)."""
        found = self._lookup(singular, None)
        index = self._plural(abs(n))
        if isinstance(found, tuple) and index < len(found) and found[index]:
            return found[index]
        return singular if _english_plural(abs(n)) == 0 else plural

    def number(self, value: int) -> str:
        """An integer written the way the language writes it (grouping, minus sign)."""
        return format_decimal(value, locale=self.lang)

    def signed(self, value: int) -> str:
        """A score change: ``+52``, ``0``, or the locale's negative form."""
        return "+" + self.number(value) if value > 0 else self.number(value)


def translator(lang: str) -> Translator:
    """A fresh translator for ``lang`` (its ``used`` set starts empty)."""
    return Translator(lang)


def negotiate(accept_language: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header.

    >>> negotiate("ru-RU,ru;q=0.9,en;q=0.5"), negotiate("fr, es;q=0.4"), negotiate(None)
    ('ru', 'es', 'en')
    """
    best: tuple[float, str] | None = None
    for index, item in enumerate((accept_language or "").split(",")):
        parts = item.strip().split(";")
        tag = parts[0].strip().lower().split("-")[0]
        q = 1.0
        for param in parts[1:]:
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag in LANGUAGES and q > 0 and (best is None or q > best[0]):
            best = (q - index * 1e-6, tag)
    return best[1] if best is not None else default


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Translator",
    "catalog_path",
    "format_decimal",
    "load_catalog",
    "negotiate",
    "translator",
]
