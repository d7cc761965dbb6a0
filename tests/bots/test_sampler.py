"""sample_deal respects hand sizes, voids shown and cards gone (a Hypothesis property)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete.bots import sample_deal
from tapete.bots.spades.sampler import Sampler
from tapete.bots.spades.view import read_view
from tapete.cards import Card
from tests.helpers import sensible_random_action

PROFILES = [p for p in tapete.profile_names() if tapete.profile_info(p).family == "spades"]


TWO_OF_DIAMONDS = 13


def _suit(card: int, deuces_high: bool = False) -> int:
    """The suit a card follows as: spades and jokers are trumps, and so is 2♦ when deuces are high."""
    return 3 if card >= 39 or (deuces_high and card == TWO_OF_DIAMONDS) else card // 13


def reference_voids(obs: dict[str, object]) -> list[set[int]]:
    """Suits each seat has shown void in, read independently from the observation's tricks."""
    n = int(obs["players"])  # type: ignore[call-overload]
    voids: list[set[int]] = [set() for _ in range(n)]
    high = bool((obs.get("rules") or {}).get("deuces_high"))  # type: ignore[attr-defined]
    tricks = list(obs["tricks"])  # type: ignore[call-overload]
    if obs["trick"]:
        tricks.append(obs["trick"])
    for t in tricks:
        cards = [int(Card.parse(c)) for c in t["cards"]]
        for seat, c in zip(t["seats"], cards, strict=False):
            if _suit(c, high) != _suit(cards[0], high):
                voids[seat].add(_suit(cards[0], high))
    return voids


@settings(max_examples=60, deadline=None)
@given(
    profile=st.sampled_from(PROFILES),
    game_seed=st.integers(0, 10_000),
    steps=st.integers(0, 80),
    sample_seed=st.integers(0, 1_000_000),
    weighted=st.booleans(),
)
def test_sample_deal_is_consistent_with_the_observation(
    profile: str, game_seed: int, steps: int, sample_seed: int, weighted: bool
) -> None:
    g = tapete.new_game(profile, seed=game_seed)
    rng = random.Random(game_seed)
    for _ in range(steps):
        if g.logs[0].result is not None:
            break
        g.apply(sensible_random_action(g, rng))
    if g.logs[0].result is not None:
        return
    seat = g.to_act
    obs = g.observation(seat)
    hands = sample_deal(obs, random.Random(sample_seed), weighted=weighted)
    check_deal(g, obs, seat, hands)
    # the exact (Hall-checked) placement used when quick placement keeps failing
    check_deal(g, obs, seat, Sampler(read_view(obs))._exact(random.Random(sample_seed)))


def check_deal(g: object, obs: dict[str, object], seat: int, hands: list[int]) -> None:
    n = g.num_players  # type: ignore[attr-defined]
    assert len(hands) == n
    assert [h.bit_count() for h in hands] == obs["hand_sizes"]
    union = 0
    for h in hands:
        assert union & h == 0, "a card sampled twice"
        union |= h
    assert union == sum(g.hands), "the sampled cards are exactly the cards not yet played"
    if obs["hand"] is not None:
        assert hands[seat] == g.hands[seat], "the observer keeps its own hand"
    voids = reference_voids(obs)
    high = bool((obs.get("rules") or {}).get("deuces_high"))  # type: ignore[attr-defined]
    for s in range(n):
        for c in range(55):
            if (hands[s] >> c) & 1:
                assert _suit(c, high) not in voids[s], f"seat {s} was given a card of a suit it showed void in"
