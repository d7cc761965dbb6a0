"""Codecs next to their types: actions to and from records, card names to and from masks, deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.bots.runfast.view import action_mask
from tapete.bots.spades.view import action_code
from tapete.cards import NUM_CARDS, CardError, card_name, mask_of_names, names_of_mask
from tapete.engine import dealing
from tapete.engine.runfast.actions import DECK, RunFastAction
from tapete.engine.spades.actions import ACTIONS, SpadesAction
from tapete.errors import BadRecord, IllegalAction

SPADES_ACTIONS = [a for a in ACTIONS if a is not None]


@pytest.mark.parametrize("action", SPADES_ACTIONS, ids=str)
def test_every_spades_action_reads_back_from_its_record(action: SpadesAction) -> None:
    for seat in (0, 4):
        assert SpadesAction.from_record(action.to_record(seat), players=5) == (seat, action)
    assert action_code(action.to_record(1), 4) == action  # the bots read with the same codec


@pytest.mark.parametrize(
    ("record", "code"),
    [
        ({"seat": 9, "play": "AS"}, "bad_record"),
        ({"seat": 0, "play": "ZZ"}, "bad_record"),
        ({"seat": 0, "play": "AS", "bid": 3}, "bad_record"),
        ({"seat": 0, "look": 1}, "bad_record"),
        ({"seat": 0, "bid": 99}, "bid_out_of_range"),
        ({"seat": 0, "bid": "XX"}, "bid_not_allowed"),
        (["seat", 0], "bad_record"),
    ],
)
def test_malformed_spades_records_are_refused(record: object, code: str) -> None:
    with pytest.raises(IllegalAction) as err:
        SpadesAction.from_record(record, players=4)
    assert err.value.code == code


def test_spades_records_are_read_forgivingly() -> None:
    assert SpadesAction.from_record({"seat": 1, "bid": "nil"}, 4)[1].bid == 0
    assert SpadesAction.from_record({"seat": 1, "bid": "bn"}, 4)[1].bid == "BN"
    assert str(SpadesAction.from_record({"seat": 1, "play": "10♥"}, 4)[1]) == "play TH"


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(DECK), max_size=16), st.integers(0, 2))
def test_every_run_fast_action_reads_back_from_its_record(cards: set[int], seat: int) -> None:
    action = RunFastAction(sum(1 << c for c in cards))
    assert RunFastAction.from_record(action.to_record(seat)) == (seat, action)
    assert action_mask(action.to_record(seat)) == action


@pytest.mark.parametrize(
    "record",
    [{"seat": 0, "play": []}, {"seat": 0, "play": ["9S", "9S"]}, {"seat": 0, "pass": 1}, {"seat": 3, "pass": True}],
)
def test_malformed_run_fast_records_are_refused(record: object) -> None:
    with pytest.raises(IllegalAction) as err:
        RunFastAction.from_record(record)
    assert err.value.code == "bad_record"


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << NUM_CARDS) - 1))
def test_names_and_masks_round_trip(mask: int) -> None:
    names = names_of_mask(mask)
    assert mask_of_names(names) == mask
    assert len(names) == mask.bit_count()


def test_a_bad_name_is_a_card_error() -> None:
    with pytest.raises(CardError):
        mask_of_names(["AS", "1X"])


def test_the_deal_reader_checks_deck_and_repeats() -> None:
    deck = mask_of_names(["AS", "KS", "QS"])
    assert dealing.read_deal([["AS"], ["KS", 49]], deck, "this deck", card_name) == [[51], [50, 49]]
    with pytest.raises(BadRecord, match="2C is not in this deck"):
        dealing.read_deal([["AS"], [0]], deck, "this deck", card_name)
    with pytest.raises(BadRecord, match="AS is dealt twice"):
        dealing.read_deal([["AS"], ["as"]], deck, "this deck", card_name)
    with pytest.raises(BadRecord, match="True is not a card"):
        dealing.read_deal([[True]], deck, "this deck", card_name)
