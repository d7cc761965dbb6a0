"""A card named inside a translated sentence ("must include the three of spades").

The phrase is built from catalog entries: the rank *as the object of a sentence*, with
its article or case (context ``rank, object``: "the three" / "el tres" / "тройку"), then
the suit and the pattern the rules pages already use (context ``card name``: "spades",
"{rank} of {suit}"). Jokers have one entry each (context ``card, object``).

>>> from tapete.i18n import translator
>>> [card_phrase(translator(lang), "3S") for lang in ("en", "es", "ru")]
['the three of spades', 'el tres de picas', 'тройку пик']
>>> card_phrase(translator("es"), "QH"), card_phrase(translator("ru"), "RJ")
('la reina de corazones', 'большого джокера')
"""

from __future__ import annotations

from typing import Final

from tapete.cards import Card
from tapete.i18n import Translator

RANK_OBJECTS: Final = {
    "A": "the ace",
    "K": "the king",
    "Q": "the queen",
    "J": "the jack",
    "T": "the ten",
    "9": "the nine",
    "8": "the eight",
    "7": "the seven",
    "6": "the six",
    "5": "the five",
    "4": "the four",
    "3": "the three",
    "2": "the two",
}
"""Each rank as the object of a sentence (msgids of context ``rank, object``)."""
SUITS: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""Each suit after "of" (msgids of context ``card name``, shared with the rules pages)."""
JOKER_OBJECTS: Final = {"RJ": "the big joker", "BJ": "the little joker", "XJ": "the extra joker"}
"""Each joker as the object of a sentence (msgids of context ``card, object``)."""


def card_phrase(t: Translator, card: str) -> str:
    """``card`` (``"3S"``, ``"10♥"``, ``"RJ"``) as the object of a sentence in ``t``'s language."""
    code = str(Card.parse(card))
    if code in JOKER_OBJECTS:
        return t.pgettext("card, object", JOKER_OBJECTS[code])
    rank = t.pgettext("rank, object", RANK_OBJECTS[code[0]])
    suit = t.pgettext("card name", SUITS[code[1]])
    return t.pgettext("card name", "{rank} of {suit}").replace("{rank}", rank).replace("{suit}", suit)


__all__ = ["JOKER_OBJECTS", "RANK_OBJECTS", "SUITS", "card_phrase"]
