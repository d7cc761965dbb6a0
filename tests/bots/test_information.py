"""The information rule: a bot's decision depends only on its own observation."""

from __future__ import annotations

import random

import pytest

import tapete
from tapete.bots import make_bot, sample_deal
from tapete.cards import TRUMP_MASK, card_name, iter_bits
from tapete.engine.spades.trick import suit_of

PROFILES = ["spades", "cutthroat", "cutthroat-official", "cutthroat-5p-2jokers"]


def _swap_hidden(hands: list[list[str]], a: int, b: int, held: list[int], rng: random.Random) -> list[list[str]] | None:
    """Exchange one same-suit pair of still-held cards between seats a and b."""
    hand_a = {c for c in iter_bits(held[a])}
    hand_b = {c for c in iter_bits(held[b])}
    pairs = [(x, y) for x in sorted(hand_a) for y in sorted(hand_b) if suit_of(x) == suit_of(y) and x != y]
    if not pairs:
        return None
    x, y = rng.choice(pairs)
    out = [list(h) for h in hands]
    out[a] = [card_name(y) if c == card_name(x) else c for c in out[a]]
    out[b] = [card_name(x) if c == card_name(y) else c for c in out[b]]
    return out


@pytest.mark.parametrize("profile", PROFILES)
def test_other_seats_hidden_cards_do_not_change_decisions(profile: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        g = tapete.new_game(profile, seed=seed)
        deal = [[card_name(c) for c in hand] for hand in g.logs[0].cards]
        dealer = g.dealer
        driver = [make_bot("normal", seed=s) for s in range(g.num_players)]
        actions = []
        steps = rng.randrange(0, 25)
        for _ in range(steps):
            seat = g.to_act
            action = driver[seat].act(g.observation(seat))
            actions.append(action)
            g.apply(action)
        me = g.to_act
        others = [s for s in range(g.num_players) if s != me]
        swapped = _swap_hidden(deal, others[0], others[1], g.hands, rng)
        if swapped is None:
            continue
        kw = {"draw": [card_name(c) for c in g.draw]} if g.draw is not None else {}
        h = tapete.new_game(profile, seed=seed, deal=swapped, dealer=dealer, **kw)
        for action in actions:
            h.apply(action)
        assert h.hands != g.hands
        obs_g, obs_h = g.observation(me), h.observation(me)
        assert obs_g == obs_h
        for level in ("easy", "normal", "hard", "ismcts"):
            params = (
                {"samples": 6, "rollouts": 30, "bid_samples": 8}
                if level == "hard"
                else {"simulations": 30}
                if level == "ismcts"
                else {}
            )
            assert make_bot(level, seed=3, **params).act(obs_g) == make_bot(level, seed=3, **params).act(obs_h)
        assert sample_deal(obs_g, random.Random(1)) == sample_deal(obs_h, random.Random(1))
        checked += 1
    assert checked >= 2


def test_trump_mask_is_the_suit_of_spades() -> None:
    assert all(suit_of(c) == 3 for c in iter_bits(TRUMP_MASK))
