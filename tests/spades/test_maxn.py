"""The max^n search (``maxn``) equals an exhaustive max^n over the same positions and worth.

Positions are real games of every Spades-family profile cut down to a few cards a hand,
prize jacks kept; the worth is random and coarse (a few values), so ties are common and
the reference must break them as the search does: the lowest ranked card wins a tie.
The reference plays every card (no merging, no table) through the trick core with plain
copies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete.engine.spades.dds import Board, SearchLimit, order_of
from tapete.engine.spades.maxn import MaxnSearch
from tapete.profiles import profile_info, profile_names
from tests.spades.test_dds import _bits, small_position

SPADES_PROFILES = [p for p in profile_names() if profile_info(p).family == "spades"]


def random_worth(seed: int, players: int) -> object:
    """A worth that gives every outcome (tricks, prize jacks) a few coarse values a seat."""

    def worth(tricks: Sequence[int], jacks: Sequence[tuple[str, int]]) -> tuple[float, ...]:
        rng = random.Random(f"{seed}:{tuple(tricks)}:{tuple(jacks)}")
        return tuple(float(rng.randrange(3)) for _ in range(players))

    return worth


def _child(state: Board, card: int) -> Board:
    """A copy of ``state`` with ``card`` played, tricks and prize jacks won kept."""
    out = Board(state.num_players)
    out.copy_trick_state(state, list(state.trick), list(state.jack_winners))
    out.play(card)
    return out


def maxn_reference(state: Board, worth: object) -> tuple[float, ...]:
    """Every seat's worth by exhaustive max^n; a tie goes to the lowest ranked card."""
    assert callable(worth)
    if state.tricks_left == 0:
        return tuple(worth(list(state.tricks_won), list(state.jack_winners)))
    rank = order_of(state.tables).rank
    cards = sorted(_bits(state.playable_cards(state.hands[state.turn])), key=lambda c: (rank[c] << 6) | c)
    best: tuple[float, ...] | None = None
    for card in cards:
        v = maxn_reference(_child(state, card), worth)
        if best is None or v[state.turn] > best[state.turn]:
            best = v
    assert best is not None
    return best


def _from_here(state: Board) -> Board:
    """``state`` with tricks and prize jacks counted from zero, as the search counts them."""
    out = Board(state.num_players)
    out.copy_trick_state(state, list(state.trick), [])
    out.tricks_won = [0] * state.num_players
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(SPADES_PROFILES),
    seed=st.integers(0, 10**6),
    cards=st.integers(1, 4),
    played=st.integers(0, 6),
)
def test_maxn_equals_exhaustive_maxn(profile: str, seed: int, cards: int, played: int) -> None:
    if cards == 4 and tapete.load_profile(profile).players > 3:  # four cards of four or five hands: a long reference
        cards = 3
    ref = _from_here(small_position(profile, seed, cards, played, prizes=True))
    worth = random_worth(seed, ref.num_players)
    search = MaxnSearch(ref.num_players, worth)  # type: ignore[arg-type]
    assert search.value(ref) == maxn_reference(ref, worth)
    if ref.tricks_left == 0:
        return
    values = search.card_values(ref)
    assert set(values) == set(_bits(ref.playable_cards(ref.hands[ref.turn])))
    for card, v in values.items():
        assert v == maxn_reference(_child(ref, card), worth), card


def test_each_seat_plays_for_itself() -> None:
    """Three seats, one point a trick each: seat 1 leads the K♥ into seat 2's A♥ only if
    nothing better is left to it; here it keeps the K♥ for the trick it can win."""
    from tapete.cards import mask_of_names as m
    from tapete.engine.spades.dds import position

    hands = [m(["QH", "2C"]), m(["KH", "3C"]), m(["2H", "4C"])]
    b = position(hands, turn=0, tricks_left=2, spades_broken=True)
    search = MaxnSearch(3, lambda tricks, jacks: tuple(float(t) for t in tricks))
    values = search.card_values(b)
    # 2♣ first: seat 2's 4♣ wins, then 2♥ is led and seat 1's K♥ wins; Q♥ first: K♥ wins
    # it, seat 1 leads 3♣ and seat 2's 4♣ wins.
    assert values[0] == (0.0, 1.0, 1.0)
    assert values[36] == (0.0, 1.0, 1.0)


def test_a_budget_stops_the_search() -> None:
    ref = small_position("cutthroat", 3, 6, 0)
    search = MaxnSearch(ref.num_players, random_worth(1, ref.num_players), budget=5)  # type: ignore[arg-type]
    with pytest.raises(SearchLimit):
        search.card_values(ref)
