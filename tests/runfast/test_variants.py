"""Scenario tests for the Run Fast options of ``docs/rules.md``: the 15-card deal, the
one-card rule, 3♠ opening (profile ``runfast-3s``) and matches of several deals."""

from __future__ import annotations

import dataclasses
import random

import pytest

import tapete
from tapete.cards import Card, card_name, iter_bits
from tapete.engine.runfast import RunFastGame
from tapete.engine.runfast.actions import DECK, RunFastAction, rf_rank
from tapete.engine.runfast.game import check_deal, deal_from_seed
from tapete.errors import BadRecord, IllegalAction, ProfileError
from tapete.records import replay


def _names(cards: list[int]) -> set[str]:
    return {card_name(c) for c in cards}


# --- the 15-card deal ----------------------------------------------------------------
def test_fifteen_card_deal_uses_45_cards_without_two_aces_and_the_king_of_spades() -> None:
    g = tapete.new_game("runfast-15", seed=4)
    assert isinstance(g, RunFastGame)
    dealt = [c for h in g.dealt for c in h]
    assert [len(h) for h in g.dealt] == [15, 15, 15] and len(set(dealt)) == 45
    assert _names(list(DECK)) - _names(dealt) == {"AC", "AD", "KS"}
    assert g.rules.deal_size == 15 and g.rules.one_card_rule


def test_fifteen_card_deal_refuses_a_sixteen_card_deal_and_the_removed_cards() -> None:
    rules = tapete.load_profile("runfast-15")
    with pytest.raises(BadRecord, match="deals 15 to each seat"):
        check_deal(deal_from_seed(1), rules.deck)
    hands = deal_from_seed(1, rules.deck)
    bad = [list(h) for h in hands]
    bad[0][0] = int(Card.parse("AC"))
    with pytest.raises(BadRecord):
        check_deal(bad, rules.deck)


def test_no_ace_bomb_and_no_bomb_of_kings_can_be_dealt_in_fifteen() -> None:
    rules = tapete.load_profile("runfast-15")
    aces = [c for c in rules.deck if rf_rank(c) == 11]
    kings = [c for c in rules.deck if rf_rank(c) == 10]
    assert len(aces) == 1 and len(kings) == 3


@pytest.mark.parametrize("size", [14, 17, "15", True])
def test_deal_size_outside_15_or_16_is_a_bad_option(size: object) -> None:
    with pytest.raises(ProfileError) as info:
        tapete.load_profile("runfast", {"deal_size": size})
    assert info.value.code == "bad_option"


# --- the one-card rule ---------------------------------------------------------------
def _one_card_position(profile: str, options: dict[str, object]) -> RunFastGame:
    """A seeded position where the next player holds one card and the player to act may
    play singles of two ranks or more."""
    for seed in range(400):
        g = tapete.new_game(profile, seed=seed, options=options)
        assert isinstance(g, RunFastGame)
        rng = random.Random(seed)
        while not g.is_over():
            seat = g.to_act
            assert seat is not None
            nxt = (seat + 1) % 3
            singles = [a for a in _singles_ignoring_rule(g) if a]
            if g.hands[nxt].bit_count() == 1 and len({rf_rank(a.bit_length() - 1) for a in singles}) >= 2:
                return g
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no such position in 400 deals")


def _singles_ignoring_rule(g: RunFastGame) -> list[RunFastAction]:
    free = g.clone()
    free.rules = dataclasses.replace(g.rules, one_card_rule=False)
    return [a for a in free.legal_actions() if a.bit_count() == 1]


def test_one_card_rule_allows_only_the_highest_single_and_refuses_a_lower_one() -> None:
    g = _one_card_position("runfast-15", {})
    seat = g.to_act
    assert seat is not None
    top = max(rf_rank(c) for c in iter_bits(g.hands[seat]))
    singles = [a for a in g.legal_actions() if a.bit_count() == 1]
    assert singles and all(rf_rank(a.bit_length() - 1) == top for a in singles)
    lower = min(_singles_ignoring_rule(g), key=lambda a: rf_rank(a.bit_length() - 1))
    before = g.record()
    with pytest.raises(IllegalAction) as info:
        g.apply(lower)
    assert info.value.code == "must_play_highest_single"
    assert g.record() == before
    g.apply(singles[0])


def test_one_card_rule_leaves_other_shapes_and_is_off_by_default() -> None:
    g = _one_card_position("runfast", {"one_card_rule": True})
    legal = g.legal_actions()
    free = _singles_ignoring_rule(g)
    plain = g.clone()
    plain.rules = dataclasses.replace(g.rules, one_card_rule=False)
    assert {a for a in plain.legal_actions() if a.bit_count() != 1} == {a for a in legal if a.bit_count() != 1}
    assert len(free) > len([a for a in legal if a.bit_count() == 1])
    assert not tapete.load_profile("runfast").one_card_rule


# --- 3♠ opens ------------------------------------------------------------------------
def test_runfast_3s_profile_gives_the_first_play_to_the_three_of_spades() -> None:
    g = tapete.new_game("runfast-3s", seed=2)
    assert isinstance(g, RunFastGame)
    assert g.to_act is not None and g.hands[g.to_act] >> int(Card.parse("3S")) & 1
    assert all(a >> int(Card.parse("3S")) & 1 for a in g.legal_actions())
    other = next(a for a in g.legal_actions() if a.bit_count() == 1)
    with pytest.raises(IllegalAction) as info:
        g.apply(RunFastAction(g.hands[g.to_act] & ~other & -(g.hands[g.to_act] & ~other)))
    assert info.value.code == "must_include_first_card"


# --- a match of several deals --------------------------------------------------------
def _play_out(g: RunFastGame, seed: int) -> None:
    rng = random.Random(seed)
    while not g.is_over():
        g.apply(rng.choice(g.legal_actions()))


def test_a_match_plays_every_deal_and_adds_up_the_settlements() -> None:
    g = tapete.new_game("runfast", seed=9, options={"deals": 3})
    assert isinstance(g, RunFastGame)
    first_deal = [list(h) for h in g.dealt]
    assert first_deal == tapete.new_game("runfast", seed=9).dealt  # type: ignore[attr-defined]
    seen = []
    rng = random.Random(9)
    while not g.is_over():
        obs = g.observation(0)
        seen.append(obs["match"]["deal"])
        assert obs["match"]["totals"] == [sum(r[s] for r in obs["match"]["results"]) for s in range(3)]
        g.apply(rng.choice(g.legal_actions()))
    assert sorted(set(seen)) == [0, 1, 2]
    changes = g.hand_changes()
    assert len(changes) == 3 and all(sum(c) == 0 for c in changes)
    assert g.scores() == [sum(c[s] for c in changes) for s in range(3)]
    top = max(g.scores())
    assert g.winner() is not None and g.scores()[g.winner()] == top  # type: ignore[index]
    record = g.record()
    assert len(record["hands"]) == 3
    result = replay(record)
    assert result.exit_status == 0 and result.report["scores"] == g.scores()
    assert len(result.report["hands"]) == 3


def test_a_one_deal_game_keeps_one_deal_and_the_going_out_winner() -> None:
    g = tapete.new_game("runfast", seed=5)
    assert isinstance(g, RunFastGame)
    _play_out(g, 5)
    assert g.winner() == g.winner_ and g.scores() == list(g.hand_changes()[0])
    assert g.observation(1)["match"] == {"deal": 0, "deals": 1, "totals": g.scores(), "results": [g.scores()]}


def test_a_record_with_more_deals_than_the_match_is_refused() -> None:
    g = tapete.new_game("runfast", seed=5, options={"deals": 2})
    assert isinstance(g, RunFastGame)
    _play_out(g, 5)
    record = g.record()
    record["options"] = {}
    assert replay(record).exit_status == 2
    short = tapete.new_game("runfast", seed=5, options={"deals": 2}).record()
    assert replay(short).exit_status == 0


@pytest.mark.parametrize("deals", [0, -1, 21, 2.5, "3"])
def test_deals_outside_its_bounds_is_a_bad_option(deals: object) -> None:
    with pytest.raises(ProfileError) as info:
        tapete.load_profile("runfast", {"deals": deals})
    assert info.value.code == "bad_option"


@pytest.mark.parametrize("profile", ["runfast-15", "runfast-3s"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bots_play_the_variants_legally_over_a_match(profile: str, level: str) -> None:
    from tapete.bots import make_bot

    g = tapete.new_game(profile, seed=3, options={"deals": 2})
    assert isinstance(g, RunFastGame)
    bots = [
        make_bot(level, seed=s, samples=4, candidates=2, steps=300) if level == "hard" else make_bot(level, seed=s)
        for s in range(3)
    ]
    while not g.is_over():
        seat = g.to_act
        assert seat is not None
        g.apply(bots[seat].act(g.observation(seat)))
    assert g.hand_number == 1 and sum(g.scores()) == 0


# --- the variants against the brute-force reading of the rules --------------------------
def _ref_legal_with_one_card_rule(g: RunFastGame) -> set[int]:
    from tests.runfast.test_properties import ref_legal

    out = ref_legal(g)
    seat = g.to_act
    assert seat is not None
    if g.rules.one_card_rule and g.hands[(seat + 1) % 3].bit_count() == 1:
        top = max(rf_rank(c) for c in iter_bits(g.hands[seat]))
        out = {m for m in out if m.bit_count() != 1 or rf_rank(m.bit_length() - 1) == top}
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fifteen_card_games_match_the_brute_force_reading_and_conserve_the_deck(seed: int) -> None:
    g = tapete.new_game("runfast-15", seed=seed, options={"deals": 2})
    assert isinstance(g, RunFastGame)
    rng = random.Random(seed)
    deck = g.rules.deck_mask
    checked = 0
    while not g.is_over():
        hands = g.hands
        held = hands[0] | hands[1] | hands[2]
        played = sum(m for _, m in g.log)
        assert held & played == 0 and held | played == deck
        if sum(h.bit_count() for h in hands) <= 20:  # small hands: the brute force stays quick
            assert set(g.legal_actions()) == _ref_legal_with_one_card_rule(g)
            checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked > 0 and sum(g.scores()) == 0
