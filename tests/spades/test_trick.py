"""The one Spades trick core: seats, winners, playable cards; replays show the true seats."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.cards import TRUMP_MASK, TRUMP_START, Card, iter_bits
from tapete.engine.spades.game import SpadesGame
from tapete.engine.spades.trick import (
    FOLLOW,
    SUIT_OF,
    beats,
    next_seats,
    trick_seats,
    trick_winner,
    tricks_in_hand,
    winning_cards,
)
from tapete.records import replay


def _first_trick_done(profile: str, seed: int) -> SpadesGame:
    g = tapete.new_game(profile, seed=seed)
    assert isinstance(g, SpadesGame)
    while len(g.log.tricks) < 2:
        g.apply(g.legal_actions()[0])
    return g


def test_replay_summary_gives_the_true_seats_when_the_dealer_sits_out() -> None:
    g = _first_trick_done("cutthroat-5p-2jokers", 0)
    assert g.dealer == 4 and g.log.tricks[0].sitting_out == 4
    trick = g.replay_summary()["hands"][0]["tricks"][0]
    assert trick["leader"] == 3
    assert trick["seats"] == [3, 0, 1, 2]  # the dealer (4) sits out trick 1
    # the same from a replayed record, and every later trick has all five seats
    report = replay(g.record()).report
    assert report["hands"][0]["tricks"][0]["seats"] == [3, 0, 1, 2]


def test_replayed_seats_are_the_seats_that_played() -> None:
    g = tapete.new_game("cutthroat-5p-2jokers", seed=3, options={"target": 100, "floor": -100})
    assert isinstance(g, SpadesGame)
    rng = random.Random(3)
    played: list[tuple[int, int]] = []
    while not g.is_over() and g.hand_number == 0:
        seat = g.to_act
        assert seat is not None
        action = rng.choice(g.legal_actions())
        if action.is_play:
            played.append((seat, int(action)))
        g.apply(action)
    tricks = g.replay_summary()["hands"][0]["tricks"]
    logged = [(s, int(Card.parse(c))) for t in tricks for s, c in zip(t["seats"], t["cards"], strict=True)]
    assert logged == played


def test_next_seats_and_trick_seats() -> None:
    assert next_seats(4) == (1, 2, 3, 0)
    assert next_seats(5, 0) == (1, 2, 3, 4, 1)
    assert trick_seats(3, 4, 5, 4) == [3, 0, 1, 2]
    assert trick_seats(1, 3, 3) == [1, 2, 0]
    assert tricks_in_hand(52, 4, False) == 13
    assert tricks_in_hand(54, 5, True) == 11  # 4 cards in trick 1, then 10 tricks of 5


def test_a_trump_takes_a_side_suit_and_jokers_are_trumps() -> None:
    kh, ah, two_s, rj = (int(Card.parse(x)) for x in ("KH", "AH", "2S", "RJ"))
    assert two_s == TRUMP_START and all(SUIT_OF[c] == 3 for c in iter_bits(TRUMP_MASK))
    assert trick_winner([kh, two_s, ah], [0, 1, 2]) == (two_s, 1)
    assert trick_winner([two_s, rj], [2, 0]) == (rj, 0)
    assert trick_winner([kh, int(Card.parse("AC"))], [0, 1]) == (kh, 0)  # off suit never wins


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 54), min_size=1, max_size=5, unique=True), st.integers(0, (1 << 55) - 1))
def test_winning_cards_are_the_cards_that_beat_the_best(cards: list[int], mask: int) -> None:
    best, _ = trick_winner(cards, list(range(len(cards))))
    led = cards[0]
    expected = sum(1 << c for c in iter_bits(mask) if beats(c, best, led))
    assert winning_cards(mask, best, FOLLOW[led]) == expected
    # the winner is the card no other card of the trick beats
    assert not any(beats(c, best, led) for c in cards)


def test_views_built_together_keep_each_finished_trick_and_a_seats_own_view_gets_copies() -> None:
    """The server compares each version's views with the ones before: a finished trick is the
    same object in every view ``observations`` builds, version after version, and a copy in
    ``observation``'s."""
    rng = random.Random(4)
    game = tapete.new_game("cutthroat", seed=3)
    assert isinstance(game, SpadesGame)
    before: list[object] = []
    kept = 0
    while not game.is_over() and game.hand_number < 2:
        view = game.observations([0, 1])
        tricks = view[0]["tricks"]
        assert all(a is b for a, b in zip(tricks, view[1]["tricks"], strict=True))
        for old, trick in zip(before, tricks, strict=False):
            if old == trick:  # the same finished trick as at the version before
                assert old is trick
                kept += 1
        before = list(tricks)
        own = game.observation(0)
        assert own["tricks"] == tricks and all(a is not b for a, b in zip(own["tricks"], tricks, strict=True))
        game.apply(game.parse_action(rng.choice(game.observation(game.to_act)["legal_actions"])))
    assert kept > 100
