"""Scenario tests for the rules common to the Spades family, on spades and cutthroat."""

from __future__ import annotations

import pytest

import tapete
from tapete import BadRecord, IllegalAction
from tests.helpers import bid_all, build_deal, play


def worked_trick_game() -> tapete.engine.spades.game.SpadesGame:  # type: ignore[name-defined]
    """The seed's trick: A (seat 0) leads A♥, B (seat 1, no hearts) plays 2♠, C holds K♥ and Q♠."""
    deal = build_deal("cutthroat", 2, {0: ["AH"], 1: ["2S"], 2: ["KH", "QS"]}, void={1: "H"})
    g = tapete.new_game("cutthroat", deal=deal, dealer=2, seed=0)
    bid_all(g, [5, 6, 4])
    return g


def test_seed_worked_trick() -> None:
    g = worked_trick_game()
    assert g.to_act == 0
    play(g, "AH", "2S")
    with pytest.raises(IllegalAction) as err:
        g.apply({"seat": 2, "play": "QS"})
    assert err.value.code == "must_follow_suit"
    assert "you must follow hearts: you hold" in err.value.message and "K♥" in err.value.message
    play(g, "KH")
    assert g.tricks_won == [0, 1, 0]
    assert g.to_act == 1
    assert g.spades_broken
    # B may now lead a spade
    assert any(a.to_record(1) == {"seat": 1, "play": "3S"} or str(a).endswith("S") for a in g.legal_actions())


def test_illegal_action_changes_nothing() -> None:
    g = worked_trick_game()
    play(g, "AH", "2S")
    before = (g.observation(0), g.observation(1), g.observation(2), g.record())
    for bad in ({"seat": 2, "play": "QS"}, {"seat": 1, "play": "3S"}, {"seat": 2, "play": "AH"}, {"seat": 2, "bid": 3}):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert (g.observation(0), g.observation(1), g.observation(2), g.record()) == before


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 1, "play": "AH"}, "not_your_turn"),
        ({"seat": 2, "play": "2S"}, "card_not_in_hand"),
        ({"seat": 2, "play": "ZZ"}, "bad_record"),
        ({"seat": 7, "play": "AS"}, "bad_record"),
        ({"seat": 2}, "bad_record"),
        ({"seat": 2, "bid": 3}, "wrong_phase"),
        ("AS", "bad_record"),
    ],
)
def test_refusal_codes(action: object, code: str) -> None:
    g = worked_trick_game()
    play(g, "AH", "2S")
    with pytest.raises(IllegalAction) as err:
        g.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code


def test_cannot_lead_spades_before_broken() -> None:
    deal = build_deal("cutthroat", 2, {0: ["AS", "2H"]})
    g = tapete.new_game("cutthroat", deal=deal, dealer=2, seed=0)
    bid_all(g, [1, 1, 1])
    with pytest.raises(IllegalAction) as err:
        g.apply({"seat": 0, "play": "AS"})
    assert err.value.code == "spades_not_broken"
    assert all(not str(a).endswith("S") for a in g.legal_actions())


def test_leading_from_an_all_spade_hand_does_not_break_spades() -> None:
    spades = [r + "S" for r in "3456789TJQKA"]
    deal = build_deal(
        "cutthroat",
        2,
        {0: [*spades, "AH", "KH", "QH", "JH", "TH"], 1: ["2H", "3H", "4H", "5H", "2S"], 2: ["6H", "7H", "8H", "9H"]},
    )
    g = tapete.new_game("cutthroat", deal=deal, dealer=2, seed=0)
    bid_all(g, [12, 1, 1])
    for heart in ("AH", "KH", "QH", "JH", "TH"):
        play(g, heart)
        g.apply(g.legal_actions()[0])  # lowest card int: a heart, else a club (never a spade)
        g.apply(g.legal_actions()[0])
        assert g.to_act == 0
    assert not g.spades_broken
    assert {str(a) for a in g.legal_actions()} == {f"play {c}" for c in spades}
    play(g, "3S")
    assert not g.spades_broken


def test_trick_winner_highest_spade_else_highest_of_led_suit() -> None:
    deal = build_deal("cutthroat", 2, {0: ["5D"], 1: ["KC"], 2: ["9D"]}, void={1: "D"})
    g = tapete.new_game("cutthroat", deal=deal, dealer=2, seed=0)
    bid_all(g, [1, 1, 1])
    play(g, "5D", "KC", "9D")  # an off-suit king does not win
    assert g.tricks_won == [0, 0, 1]


def test_first_lead_left_of_dealer_and_dealer_rotates() -> None:
    g = tapete.new_game("cutthroat", seed=11, dealer=1)
    assert g.dealer == 1 and g.to_act == 2
    bid_all(g, [1, 1, 1])
    assert g.to_act == 2
    while g.hand_number == 0:
        g.apply(g.legal_actions()[0])
    assert g.dealer == 2 and g.to_act == 0


def test_bid_range_and_nil_as_zero() -> None:
    g = tapete.new_game("cutthroat", seed=1, dealer=0)
    with pytest.raises(IllegalAction) as err:
        g.apply({"seat": 1, "bid": 18})
    assert err.value.code == "bid_out_of_range"
    with pytest.raises(IllegalAction) as err:
        g.apply({"seat": 1, "bid": -1})
    assert err.value.code == "bid_out_of_range"
    with pytest.raises(IllegalAction) as err:
        g.apply({"seat": 1, "bid": "B6"})
    assert err.value.code == "bid_not_allowed"
    g.apply({"seat": 1, "bid": "nil"})
    assert g.bids[1] == g.legal_actions()[0]  # nil is the bid 0
    assert {a.to_record(2)["bid"] for a in g.legal_actions()} == set(range(18))


def test_cutthroat_deck_and_hand_sizes() -> None:
    g = tapete.new_game("cutthroat", seed=5)
    assert [h.bit_count() for h in g.hands] == [17, 17, 17]
    assert not (sum(g.hands) & 1)  # 2♣ is out
    s = tapete.new_game("spades", seed=5)
    assert [h.bit_count() for h in s.hands] == [13] * 4


def test_cutthroat_game_end_unique_top_and_tie_plays_on() -> None:
    g = tapete.new_game("cutthroat", seed=2, dealer=2, options={"target": 10})
    # everyone bids 1; the winner is decided by tricks — play until the first hand is done
    bid_all(g, [1, 1, 1])
    while g.hand_number == 0 and not g.is_over():
        g.apply(g.legal_actions()[0])
    top = max(g.logs[0].scores)  # type: ignore[arg-type]
    leaders = [s for s, v in enumerate(g.logs[0].scores) if v == top]  # type: ignore[union-attr]
    assert g.is_over() == (top >= 10 and len(leaders) == 1)


def test_tie_at_the_top_plays_another_hand() -> None:
    g2 = tapete.new_game("cutthroat", seed=2, dealer=2, options={"target": 50})
    assert g2._game_winner() is None
    g2.scores_ = [150, 150, 20]
    assert g2._game_winner() is None
    g2.scores_ = [150, 151, 20]
    assert g2._game_winner() == 1


def test_spades_ends_at_500_or_minus_200_and_ties_play_on() -> None:
    g = tapete.new_game("spades", seed=1)
    g.scores_ = [510, 300]
    assert g._game_winner() == 0
    g.scores_ = [-200, 100]
    assert g._game_winner() == 1
    g.scores_ = [520, 520]
    assert g._game_winner() is None
    g.scores_ = [499, -199]
    assert g._game_winner() is None


def test_spades_partnership_hand_scored_per_team() -> None:
    g = tapete.new_game("spades", seed=9)
    bid_all(g, [3, 3, 3, 3])
    while g.hand_number == 0:
        g.apply(g.legal_actions()[0])
    won = g.logs[0].tricks
    per_seat = [sum(1 for t in won if t.winner == s) for s in range(4)]
    team = [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]
    expected = [60 + t - 6 if t >= 6 else -60 for t in team]
    assert g.logs[0].result.contract == tuple(expected)  # type: ignore[union-attr]
    assert len(g.scores()) == 2


def test_game_over_refuses_actions_with_wrong_phase() -> None:
    g = tapete.new_game("spades", seed=3, options={"target": 1})
    while not g.is_over():
        g.apply(g.legal_actions()[0])
    assert g.to_act is None and g.legal_actions() == ()
    with pytest.raises(IllegalAction) as err:
        g.apply(0)
    assert err.value.code == "wrong_phase"


def test_same_seed_same_game() -> None:
    a = tapete.new_game("cutthroat", seed=42)
    b = tapete.new_game("cutthroat", seed=42)
    assert a.record() == b.record()
    assert a.hands == b.hands
    c = tapete.new_game("cutthroat", seed=43)
    assert a.hands != c.hands


@pytest.mark.parametrize(
    "kwargs",
    [{"seed": "abc"}, {"seed": 1.5}, {"seed": True}, {"dealer": "x"}, {"dealer": 9}, {"deals": [None, 5]}],
)
def test_new_game_refuses_malformed_arguments_with_bad_record(kwargs: dict[str, object]) -> None:
    with pytest.raises(BadRecord) as err:
        tapete.new_game("spades", **{"seed": 1, **kwargs})  # type: ignore[arg-type]
    assert err.value.code == "bad_record"


def test_a_hand_shows_spades_jokers_first_then_hearts_clubs_diamonds_high_to_low() -> None:
    profile = "cutthroat-5p-2jokers"
    deal = tapete.new_game(profile, seed=4).record()["hands"][0]["cards"]
    g = tapete.new_game(profile, deal=deal, dealer=0, seed=0)
    order = {"S": 0, "H": 1, "C": 2, "D": 3}
    strength = {"RJ": 100, "BJ": 99, **{r: i for i, r in enumerate("23456789TJQKA")}}
    seen = 0
    while g.phase.name == "BID":
        seat = g.to_act
        if g.observation(seat)["hand"] is None:
            g.apply({"seat": seat, "look": True})
        shown = g.observation(seat)["hand"]
        assert sorted(shown) == sorted(deal[seat])
        keys = [(0 if c[1] == "J" else order[c[1]], -strength[c if c[1] == "J" else c[0]]) for c in shown]
        assert keys == sorted(keys), shown
        seen += 1
        g.apply({"seat": seat, "bid": 3})
    assert seen == g.num_players and any("RJ" in hand for hand in deal)
