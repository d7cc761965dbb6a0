"""The worth search (``score_search``) equals exhaustive minimax over the same worth table.

Once every watched seat has taken a trick both the search and the reference play on for
the most tricks (the reference by its own exhaustive count) and read the worth there.

Positions are the trick solver's test positions (real games of every partnership profile
cut down to a few cards a hand); the worth table is random, so that every trick count and
every set of watched seats that took a trick is worth something different. The reference
plays through the trick core with plain copies, as the trick solver's reference does.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete.engine.spades.dds import Board
from tapete.engine.spades.score_search import ScoreSearch
from tapete.profiles import profile_info, profile_names
from tests.spades.test_dds import _bits, _child, minimax, small_position

PARTNERSHIP_PROFILES = [
    p for p in profile_names() if profile_info(p).family == "spades" and tapete.load_profile(p).partnership
]


def _outcome(before: Board, after: Board, side: int, watched: int) -> tuple[int, int]:
    """What one card did: the side's trick if it completed one for the side, and the
    watched seat (as a mask) if it completed one for a watched seat."""
    won = [a - b for a, b in zip(after.tricks_won, before.tricks_won, strict=True)]
    winner = next((s for s, w in enumerate(won) if w), -1)
    if winner < 0:
        return 0, 0
    return (side >> winner) & 1, watched & (1 << winner)


def worth_minimax(
    state: Board,
    side: int,
    watched: int,
    worth: list[int],
    stride: int,
    t: int,
    broken: int,
    memo: dict[tuple[object, ...], int] | None = None,
) -> int:
    """The worth by exhaustive minimax: ``t`` side tricks and ``broken`` watched seats so
    far (``memo``: positions finished, as the trick solver's reference keeps them)."""
    if state.tricks_left == 0 or (broken == watched and not state.trick):
        return worth[broken * stride + t + (minimax(state, side, {}) if state.tricks_left else 0)]
    memo = {} if memo is None else memo
    key = (tuple(state.hands), state.turn, tuple(state.trick), state.spades_broken, state.must_lead_2c, t, broken)
    if key in memo:
        return memo[key]
    values = []
    for card in _bits(state.playable_cards(state.hands[state.turn])):
        child = _child(state, card)
        gain, hit = _outcome(state, child, side, watched)
        values.append(worth_minimax(child, side, watched, worth, stride, t + gain, broken | hit, memo))
    v = max(values) if (side >> state.turn) & 1 else min(values)
    memo[key] = v
    return v


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(PARTNERSHIP_PROFILES),
    seed=st.integers(0, 10**6),
    cards=st.integers(1, 4),  # five a hand: up to a minute of exhaustive reference a run
    played=st.integers(0, 9),
    seat=st.integers(0, 3),
    watched=st.integers(0, 15),
)
def test_worth_search_equals_minimax(profile: str, seed: int, cards: int, played: int, seat: int, watched: int) -> None:
    ref = small_position(profile, seed, cards, played)
    side = 0b0101 << (seat % 2)
    stride = ref.tricks_left + 1
    rng = random.Random(seed)
    worth = [rng.randrange(-300, 300) for _ in range(16 * stride)]
    search = ScoreSearch(4, side, watched, worth)
    memo: dict[tuple[object, ...], int] = {}
    want = worth_minimax(ref, side, watched, worth, stride, 0, 0, memo)
    assert search.value(ref) == want
    if ref.tricks_left == 0:
        return
    values = search.card_values(ref)
    assert set(values) == set(_bits(ref.playable_cards(ref.hands[ref.turn])))
    for card, v in values.items():
        child = _child(ref, card)
        gain, hit = _outcome(ref, child, side, watched)
        assert v == worth_minimax(child, side, watched, worth, stride, gain, hit, memo), card


def test_a_budget_stops_the_search() -> None:
    from tapete.engine.spades.dds import SearchLimit

    ref = small_position("spades", 3, 6, 0)
    worth = [0] * 16 * 7
    for t in range(7):
        worth[t], worth[0b0100 * 7 + t] = 100 + 10 * t, 10 * t - 100
    search = ScoreSearch(4, 0b0101, 0b0100, worth, budget=5)
    try:
        search.card_values(ref)
    except SearchLimit:
        return
    raise AssertionError("a search of six cards a hand took five nodes or fewer")
