"""Cards and card sets: notation both ways and the set API against Python's set."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tapete.cards import CARDS, Card, CardError, CardSet, card_name

cards = st.integers(min_value=0, max_value=54)
card_sets = st.sets(cards)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("10♥", "TH"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("t♦", "TD"),
        ("2c", "2C"),
        (" AS ", "AS"),
        ("rj", "RJ"),
        ("BJ", "BJ"),
        ("xj", "XJ"),
    ],
)
def test_forgiving_input_canonical_output(text: str, name: str) -> None:
    assert str(Card.parse(text)) == name


@pytest.mark.parametrize("text", ["", "1H", "AX", "10", "ASS", "♠", "11H", "J"])
def test_bad_cards_are_refused(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_every_card_round_trips() -> None:
    for c in range(55):
        assert Card.parse(card_name(c)) == c
        assert Card.parse(CARDS[c].symbol()) == c


def test_canonical_names_take_the_quick_path_to_the_same_cards_as_the_forgiving_one() -> None:
    for c in range(55):
        name = card_name(c)
        quick = Card.parse(name)
        assert type(quick) is Card and quick is Card.parse(f" {name.lower()} ") is CARDS[c]


def test_order_and_properties() -> None:
    ace, king, two = Card.parse("AS"), Card.parse("KS"), Card.parse("2S")
    assert two < king < ace < Card.parse("XJ") < Card.parse("BJ") < Card.parse("RJ")
    assert Card.parse("AH").suit == 2 and Card.parse("AH").rank == 12
    assert Card.parse("RJ").suit == 3 and Card.parse("RJ").is_joker


@given(card_sets, card_sets)
def test_cardset_behaves_like_set(a: set[int], b: set[int]) -> None:
    ca, cb = CardSet(a), CardSet(b)
    assert set(ca | cb) == a | b
    assert set(ca & cb) == a & b
    assert set(ca - cb) == a - b
    assert set(ca ^ cb) == a ^ b
    assert len(ca) == len(a)
    assert (ca <= cb) == (a <= b)
    assert (ca < cb) == (a < b)
    assert ca.isdisjoint(cb) == a.isdisjoint(b)
    assert list(ca) == sorted(a)
    assert list(reversed(ca)) == sorted(a, reverse=True)
    assert CardSet.parse(str(ca)) == ca
    assert (ca == cb) == (a == b)


@given(card_sets, cards)
def test_cardset_mutation(a: set[int], c: int) -> None:
    cs = CardSet(a)
    cs.add(c)
    assert c in cs
    cs.discard(c)
    assert c not in cs
    assert set(cs) == a - {c}
    with pytest.raises(KeyError):
        cs.remove(c)


def test_cardset_rejects_non_cards() -> None:
    with pytest.raises(CardError):
        CardSet([55])
    with pytest.raises(CardError):
        CardSet(-1)
