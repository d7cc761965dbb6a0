"""Pass inference: the sampler never produces a deal that contradicts a pass."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.bots.runfast.sampler import Sampler, consistent, pass_facts
from tapete.bots.runfast.search import build_game
from tapete.bots.runfast.view import read_view
from tapete.engine.runfast.combos import responses
from tests.bots.runfast.helpers import random_position


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), seat_shift=st.integers(0, 2), draw=st.integers(0, 2**32))
def test_sampled_deals_never_contradict_a_pass(seed: int, seat_shift: int, draw: int) -> None:
    game = random_position(seed, 90)
    seat = (game.to_act + seat_shift) % 3  # type: ignore[operator]
    view = read_view(game.observation(seat))
    sampler = Sampler(view)
    deals = sampler.deals(random.Random(draw), 6, 200)
    truth = {s: game.hands[s] for s in sampler.others}
    assert consistent(truth[sampler.others[0]], sampler.facts, sampler.others[0])  # the real deal is possible
    for hidden in deals:
        assert set(hidden) == set(sampler.others)
        assert hidden[sampler.others[0]] | hidden[sampler.others[1]] == view.out
        assert not hidden[sampler.others[0]] & hidden[sampler.others[1]]
        for s in sampler.others:
            assert hidden[s].bit_count() == view.sizes[s]
        # the engine itself replays every pass of the record on the sampled deal: a pass
        # with a legal response would raise IllegalAction
        build_game(view, hidden)
        for fact in pass_facts(view.log):
            if fact.seat != seat:
                assert responses(hidden[fact.seat] | fact.later, fact.key) == []


def test_pass_inference_finds_deals_in_most_positions() -> None:
    found = 0
    with_passes = 0
    for seed in range(40):
        game = random_position(seed, 90)
        view = read_view(game.observation(game.to_act))  # type: ignore[arg-type]
        if any(f.seat != view.seat for f in pass_facts(view.log)):
            with_passes += 1
            found += bool(Sampler(view).deals(random.Random(seed), 1, 200))
    assert with_passes >= 20
    assert found >= 0.9 * with_passes


def test_a_pass_over_a_single_king_leaves_no_ace_and_no_two_with_the_passer() -> None:
    # find a game where a seat other than the observer passes over a single K
    for seed in range(400):
        game = random_position(seed, 90)
        view = read_view(game.observation(game.to_act))  # type: ignore[arg-type]
        facts = [f for f in pass_facts(view.log) if f.seat != view.seat and f.key == 0x110 + 10]
        if not facts:
            continue
        deals = Sampler(view).deals(random.Random(seed), 5, 200)
        for hidden in deals:
            for f in facts:
                held = hidden[f.seat] | f.later
                ranks = {(c % 13 + 12) % 13 for c in range(52) if held >> c & 1}
                assert not ranks & {11, 12}
        return
    raise AssertionError("no pass over a single K in 400 random positions")
