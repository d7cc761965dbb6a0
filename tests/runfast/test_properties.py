"""Hypothesis properties of the Run Fast engine, checked against a slow reference."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tapete
from tapete.cards import card_name, iter_bits
from tapete.engine.runfast import PASS, RunFastAction, RunFastGame
from tapete.engine.runfast.actions import DECK, DECK_MASK
from tapete.engine.runfast.combos import CELESTIAL, classify
from tapete.errors import IllegalAction

seeds = st.integers(min_value=0, max_value=2**31 - 1)
ORDER = "3456789TJQKA2"


# --- a slow, independent reading of the rules ------------------------------------------
def ref_classify(cards: list[str], opening: bool = False) -> tuple[str, int, int] | None:
    """(shape, length, power) of a set of card names, straight from the rules in ``docs/rules.md``."""
    ranks = [ORDER.index(c[0]) for c in cards]
    count = Counter(ranks)
    n = len(cards)
    if len(count) == 1:
        r = ranks[0]
        if n == 4 and r == 0 and opening:
            return ("bomb", 0, 1000)
        return {1: ("single", 1, r), 2: ("pair", 1, r), 4: ("bomb", 0, r)}.get(n) or (
            ("bomb", 0, 100) if r == ORDER.index("A") else ("triple", 1, r)
        )
    rs = sorted(count)
    if ORDER.index("2") in count or rs != list(range(rs[0], rs[0] + len(rs))):
        return None
    if set(count.values()) == {1} and len(rs) >= 5:
        return ("straight", len(rs), rs[-1])
    if set(count.values()) == {2} and len(rs) >= 2:
        return ("pair run", len(rs), rs[-1])
    return None


def ref_beats(new: tuple[str, int, int], cur: tuple[str, int, int]) -> bool:
    if new[0] == "bomb":
        return cur[0] != "bomb" or new[2] > cur[2]
    return new[:2] == cur[:2] and new[2] > cur[2]


def ref_legal(g: RunFastGame) -> set[int]:
    """Every legal action by brute force over all subsets of the hand."""
    seat = g.to_act
    assert seat is not None
    hand = list(iter_bits(g.hands[seat]))
    cur = g.current
    cur_shape = None
    if cur is not None:
        cur_shape = ref_classify([card_name(c) for c in iter_bits(cur[1])], opening=(len(g.log) == 1))
        assert cur_shape is not None
    out: set[int] = set()
    for size in range(1, len(hand) + 1):
        for combo in combinations(hand, size):
            mask = sum(1 << c for c in combo)
            if g.opening and not mask >> g.first_card & 1:
                continue
            shape = ref_classify([card_name(c) for c in combo], opening=g.opening)
            if shape is None:
                continue
            if cur_shape is None or ref_beats(shape, cur_shape):
                out.add(mask)
    if cur is not None and not out:
        out.add(0)
    return out


def play_random(g: RunFastGame, rng: random.Random, steps: int | None = None) -> list[RunFastAction]:
    done: list[RunFastAction] = []
    while not g.is_over() and (steps is None or len(done) < steps):
        action = rng.choice(g.legal_actions())
        g.apply(action)
        done.append(action)
    return done


# --- properties -------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(seeds, seeds, st.sampled_from(["3H", "3S"]))
def test_random_games_keep_every_invariant(seed: int, choices: int, first_lead: str) -> None:
    g = tapete.new_game("runfast", seed=seed, options={"first_lead": first_lead})
    rng = random.Random(choices)
    assert first_lead in g.record()["hands"][0]["cards"][g.to_act]
    played = 0
    while not g.is_over():
        legal = g.legal_actions()
        assert legal, "legal actions are never empty before the end"
        assert len(set(legal)) == len(legal)
        assert (PASS in legal) == (legal == [PASS])
        action = rng.choice(legal)
        g.apply(action)
        played |= action
        hands = g.hands
        assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
        assert (hands[0] | hands[1] | hands[2]) & played == 0
        assert hands[0] | hands[1] | hands[2] | played == DECK_MASK
    assert g.hands[g.winner()] == 0 and all(g.hands[s] for s in range(3) if s != g.winner())
    assert sum(g.scores()) == 0
    assert g.scores()[g.winner()] == sum(g.settlement.payments) + g.bonus[g.winner()]  # type: ignore[union-attr]
    assert g.legal_actions() == [] and g.to_act is None


@settings(max_examples=40, deadline=None)
@given(seeds, seeds, st.integers(min_value=0, max_value=60))
def test_every_listed_action_applies(seed: int, choices: int, steps: int) -> None:
    g = tapete.new_game("runfast", seed=seed)
    rng = random.Random(choices)
    play_random(g, rng, steps)
    if g.is_over():
        return
    before = g.record()
    for action in g.legal_actions():
        h = g.clone()
        h.apply(action)
        h2 = g.clone()
        h2.apply(action.to_record(g.to_act))  # type: ignore[arg-type]
        assert h.record() == h2.record()
    assert g.record() == before


@settings(max_examples=100, deadline=None)
@given(seeds, seeds, st.integers(min_value=0, max_value=40))
def test_legal_actions_match_a_brute_force_reading(seed: int, choices: int, steps: int) -> None:
    g = tapete.new_game("runfast", seed=seed)
    rng = random.Random(choices)
    play_random(g, rng, steps)
    while not g.is_over() and g.hands[g.to_act].bit_count() > 11:  # type: ignore[index]
        g.apply(rng.choice(g.legal_actions()))
    if g.is_over():
        return
    assert set(g.legal_actions()) == ref_legal(g)


@pytest.mark.parametrize("seed", [3, 14, 2024])
def test_full_hand_leads_match_a_brute_force_reading(seed: int) -> None:
    from tapete.engine.runfast.combos import lead_plays, plays_with

    hand = tapete.new_game("runfast", seed=seed).hands[0]
    cards = list(iter_bits(hand))
    expected = set()
    for size in range(1, len(cards) + 1):
        for combo in combinations(cards, size):
            if ref_classify([card_name(c) for c in combo]) is not None:
                expected.add(sum(1 << c for c in combo))
    plays = lead_plays(hand)
    assert len(plays) == len(set(plays)) and set(plays) == expected
    for card in cards:  # the opening lead's choices: every play holding that card
        with_card = plays_with(hand, card)
        assert len(with_card) == len(set(with_card))
        assert set(with_card) == {m for m in expected if m >> card & 1}


@settings(max_examples=200, deadline=None)
@given(seeds, seeds, st.integers(min_value=0, max_value=60), st.integers(min_value=1, max_value=2**16))
def test_illegal_actions_are_refused_and_change_nothing(seed: int, choices: int, steps: int, pick: int) -> None:
    g = tapete.new_game("runfast", seed=seed)
    rng = random.Random(choices)
    play_random(g, rng, steps)
    if g.is_over():
        return
    hand = list(iter_bits(g.hands[g.to_act]))  # type: ignore[index]
    mask = sum(1 << c for i, c in enumerate(hand) if pick >> i & 1)
    legal = set(g.legal_actions())
    before = g.record()
    h = g.clone()
    try:
        h.apply(RunFastAction(mask))
    except IllegalAction as exc:
        assert mask not in legal
        assert exc.code in {
            "not_a_combination",
            "does_not_beat",
            "must_include_first_card",
            "must_beat",
            "cannot_pass_as_leader",
        }
        assert h.record() == before
    else:
        assert mask in legal


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=12, unique=True))
def test_classification_matches_the_reference(cards: list[int]) -> None:
    mask = sum(1 << c for c in cards)
    names = [card_name(c) for c in cards]
    mine = classify(mask)
    ref = ref_classify(names)
    assert (mine is None) == (ref is None)
    if len(names) == 4 and len({n[0] for n in names}) == 1 and names[0][0] == "3":
        assert mine == 0 and ref_classify(names, opening=True) == ("bomb", 0, 1000)
        assert CELESTIAL > 0


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True),
    st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True),
)
def test_beats_matches_the_reference(a: list[int], b: list[int]) -> None:
    from tapete.engine.runfast.combos import beats

    ka, kb = classify(sum(1 << c for c in a)), classify(sum(1 << c for c in b))
    ra, rb = ref_classify([card_name(c) for c in a]), ref_classify([card_name(c) for c in b])
    if ka is None or kb is None:
        return
    assert ra is not None and rb is not None
    assert beats(ka, kb) == ref_beats(ra, rb)


SETTLED: frozenset[str] = frozenset({"settlement", "scores", "match"})
"""What of an observation the end of a game settles from the cards left in the losers' hands."""


def _without_settlement(observation: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in observation.items() if k not in SETTLED}


@settings(max_examples=150, deadline=None)
@given(seeds, seeds, st.integers(min_value=1, max_value=50), st.integers(min_value=0, max_value=2), seeds)
@example(seed=932700, choices=238766, steps=21, observer=0, swap_seed=1)  # the 2♠ swapped between the losers
def test_observation_ignores_the_other_seats_hidden_cards(
    seed: int, choices: int, steps: int, observer: int, swap_seed: int
) -> None:
    g = tapete.new_game("runfast", seed=seed)
    rng = random.Random(choices)
    observations = [g.observation(observer)]
    actions: list[RunFastAction] = []
    while not g.is_over() and len(actions) < steps:
        action = rng.choice(g.legal_actions())
        g.apply(action)
        actions.append(action)
        observations.append(g.observation(observer))
    # swap some cards the other two seats still hold (never played, so never seen)
    b, c = [s for s in range(3) if s != observer]
    hb, hc = list(iter_bits(g.hands[b])), list(iter_bits(g.hands[c]))
    swap = random.Random(swap_seed)
    k = min(len(hb), len(hc), swap.randint(1, 5))
    if k == 0:
        return
    out_b, out_c = swap.sample(hb, k), swap.sample(hc, k)
    exchange = dict(zip(out_b, out_c, strict=True)) | dict(zip(out_c, out_b, strict=True))
    deal = [[card_name(exchange.get(x, x)) for x in hand] for hand in g.dealt]
    g2 = RunFastGame(g.rules, seed=seed, deal=deal)
    assert g2.observation(observer) == observations[0]
    for i, action in enumerate(actions):
        try:
            g2.apply(action)
        except IllegalAction:
            break  # a pass the other deal does not allow: the histories part here
        if g2.is_over():  # the settlement tells who was left with the 2♠ or a bomb: the scores follow it
            assert _without_settlement(g2.observation(observer)) == _without_settlement(observations[i + 1])
        else:
            assert g2.observation(observer) == observations[i + 1]
    # and an observation never names a card another seat holds
    text = json.dumps(observations[-1])
    for s in (b, c):
        for card in iter_bits(g.hands[s]):
            assert f'"{card_name(card)}"' not in text or card == g.first_card


@settings(max_examples=40, deadline=None)
@given(seeds, seeds)
def test_records_replay_to_the_same_game(seed: int, choices: int) -> None:
    g = tapete.new_game("runfast", seed=seed)
    play_random(g, random.Random(choices))
    rec = json.loads(json.dumps(g.record()))
    h = tapete.new_game(rec["profile"], seed=rec["seed"], deal=rec["hands"][0]["cards"], options=rec["options"])
    for action in rec["hands"][0]["actions"]:
        h.apply(action)
    assert h.replay_summary() == g.replay_summary()
    assert h.scores() == g.scores() and h.winner() == g.winner()
    summary = json.loads(json.dumps(g.replay_summary()))
    assert summary["finished"] is True and sum(summary["hands"][0]["score_change"]) == 0
    assert sum(len(x) for x in summary["hands"][0]["remaining"]) + sum(
        len(p.get("cards", [])) for p in summary["hands"][0]["plays"]
    ) == len(DECK)
