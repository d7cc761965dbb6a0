"""Cards named inside translated sentences (``tapete.i18n.cards``), for every card and language."""

from __future__ import annotations

import pytest

from tapete.cards import CARDS
from tapete.i18n import LANGUAGES, load_catalog, translator
from tapete.i18n.cards import JOKER_OBJECTS, RANK_OBJECTS, card_phrase


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_entry_is_translated(lang: str) -> None:
    cat = load_catalog(lang)
    assert cat is not None
    for context, msgids in (("rank, object", RANK_OBJECTS.values()), ("card, object", JOKER_OBJECTS.values())):
        for msgid in msgids:
            message = cat.get(msgid, context=context)
            assert message is not None and message.string and message.string != msgid, (lang, msgid)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_its_own_phrase(lang: str) -> None:
    t = translator(lang)
    phrases = [card_phrase(t, str(card)) for card in CARDS]
    assert len(set(phrases)) == len(phrases)
    assert all(p and "{" not in p for p in phrases)


def test_phrases_in_each_language() -> None:
    expected = {
        "3H": ("the three of hearts", "el tres de corazones", "тройку червей"),
        "QS": ("the queen of spades", "la reina de picas", "даму пик"),
        "10♦": ("the ten of diamonds", "el diez de diamantes", "десятку бубен"),
        "AC": ("the ace of clubs", "el as de tréboles", "туза треф"),
        "BJ": ("the little joker", "el comodín pequeño", "малого джокера"),
    }
    for card, names in expected.items():
        assert tuple(card_phrase(translator(lang), card) for lang in ("en", "es", "ru")) == names
