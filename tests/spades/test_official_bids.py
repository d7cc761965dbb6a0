"""Special bids of the official Cutthroat family (``docs/rules.md``)."""

from __future__ import annotations

import pytest

import tapete
from tapete.engine.spades.scoring import score_bid, score_hand
from tests.spades.official_helpers import Plan, bid, bid_all, play_tricks

NO_JACKS = {"prize_jacks": []}


def records(game, seat=None):
    seat = game.to_act if seat is None else seat
    return [a.to_record(seat) for a in game.legal_actions()]


def codes(fn):
    with pytest.raises(tapete.IllegalAction) as info:
        fn()
    return info.value.code


# --- the scoring function -------------------------------------------------------------
@pytest.mark.parametrize(
    ("bid_", "tricks", "points", "bags", "made"),
    [
        ("1F", 1, 50, 0, True),  # made
        ("1F", 0, -50, 0, False),  # set
        ("1F", 2, 11, 1, True),  # overtaken: an ordinary bid of 1
        ("1F", 4, 13, 3, True),
        ("2F", 2, 40, 0, True),
        ("2F", 1, -40, 0, False),
        ("2F", 0, -40, 0, False),
        ("2F", 3, 21, 1, True),  # overtaken: an ordinary bid of 2
        ("2F", 5, 23, 3, True),
        ("B6", 6, 100, 0, True),
        ("B6", 9, 103, 3, True),
        ("B6", 5, -100, 0, False),
        ("B6", 0, -100, 0, False),
        ("BN", 0, 200, 0, True),
        ("BN", 1, -200, 1, False),
        ("BN", 3, -200, 3, False),
        (0, 0, 100, 0, True),
        (0, 2, -100, 2, False),
        ("SM", 14, 150, 0, True),
        ("SM", 17, 150, 0, True),
        ("SM", 13, -150, 0, False),
        ("SM", 0, -150, 0, False),
        (14, 14, 140, 0, True),  # integer bids 14..17 stay ordinary bids
        (5, 7, 52, 2, True),
        (5, 4, -50, 0, False),
    ],
)
def test_score_bid_table(bid_, tricks, points, bags, made):
    result = score_bid(bid_, tricks)
    assert (result.points, result.bags, result.made) == (points, bags, made)


@pytest.mark.parametrize(
    ("bids", "tricks", "bags_before", "change", "bags_after", "penalty"),
    [
        # 1F / 2F overtaken: the overtricks are bags and reach the official limit of 10
        (["1F", "2F", 5], [3, 4, 10], [8, 8, 0], [-88, -78, 55], [0, 0, 5], [-100, -100, 0]),
        # a made moon adds no bags and pays no penalty, even on 9 bags; a set moon: -150
        (["SM", 1, 2], [15, 0, 2], [9, 9, 9], [150, -10, 20], [9, 9, 9], [0, 0, 0]),
        (["SM", 1, 1], [13, 2, 2], [9, 9, 9], [-150, -89, -89], [9, 0, 0], [0, -100, -100]),
        # blind six made with overtricks, blind nil set (its tricks are bags)
        (["B6", "BN", 0], [8, 9, 0], [0, 5, 0], [102, -340, 100], [2, 0, 0], [0, -140, 0]),
    ],
)
def test_score_hand_official(bids, tricks, bags_before, change, bags_after, penalty):
    rules = tapete.load_profile("cutthroat-official", NO_JACKS)
    result = score_hand(rules, bids, tricks, bags_before)
    assert list(result.change) == change
    assert list(result.bags) == bags_after
    assert list(result.penalty) == penalty


# --- special bids through played hands --------------------------------------------------
@pytest.mark.parametrize(
    ("bids", "tricks", "scores", "bags"),
    [
        pytest.param(["1F", "2F", 5], [1, 2, 14], [50, 40, 59], [0, 0, 9], id="1F-2F-made"),
        pytest.param(["1F", "2F", 4], [3, 5, 9], [12, 23, 45], [2, 3, 5], id="1F-2F-overtaken"),
        pytest.param(["1F", "2F", 17], [0, 1, 16], [-50, -40, -170], [0, 0, 0], id="1F-2F-set"),
        pytest.param(["BN", 0, 12], [0, 2, 15], [200, -100, 123], [0, 2, 3], id="BN-made-nil-set"),
        pytest.param(["BN", 0, 6], [2, 0, 15], [-200, 100, 69], [2, 0, 9], id="BN-set-nil-made"),
        pytest.param(["SM", 1, 1], [14, 2, 1], [150, 11, 10], [0, 1, 0], id="SM-made"),
        pytest.param(["SM", 2, 2], [13, 2, 2], [-150, 20, 20], [0, 0, 0], id="SM-set"),
    ],
)
def test_special_bids_in_a_played_hand(bids, tricks, scores, bags):
    game = Plan(options=NO_JACKS).hand(bids, tricks).run()
    assert game.hand_number == 1
    assert game.logs[0].result is not None
    summary = game.replay_summary()["hands"][0]
    assert summary["bids"] == bids
    assert summary["tricks_won"] == tricks
    assert game.scores() == scores
    assert game.bags() == bags


def test_special_bids_with_the_official_prize_jacks():
    # official: J♣ and J♦ are worth +10 to the winner of their trick, whatever the bid
    game = Plan().hand(["1F", "2F", 5], [1, 2, 14], jacks={"JC": 0, "JD": 1}).run()
    assert game.scores() == [60, 50, 59]
    assert game.bags() == [0, 0, 9]


# --- blind six ---------------------------------------------------------------------------
def b6_plan(first_bids, first_tricks, **options):
    """Hand 0 (dealer 2) leaves the totals; hand 1 is dealt by seat 0 and seat 1 bids first."""
    return Plan(options={**NO_JACKS, **options}).hand(first_bids, first_tricks)


def test_blind_six_made_at_exactly_fifty_behind():
    plan = b6_plan([7, 6, 2], [7, 8, 2]).hand([4, 4, "B6"], [4, 7, 6])
    game = plan.start()
    plan.play(game, 0)
    assert game.scores() == [70, 62, 20]
    bid(game, 1, 4)
    assert game.to_act == 2
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "bid": "B6"}, {"seat": 2, "look": True}]
    assert game.observation(2)["blind_six_eligible"] is True
    assert game.observation(2)["hand"] is None
    game.apply({"seat": 2, "bid": "B6"})
    assert game.observation(2)["hand"] is not None  # a blind bidder sees the cards once bid
    bid(game, 0, 4)
    play_tricks(game, plan.hands[1][1])
    assert game.scores() == [110, 105, 120]
    assert game.bags() == [0, 5, 0]


def test_blind_six_set_and_overtaken():
    game = b6_plan([7, 6, 2], [7, 8, 2]).hand([4, 4, "B6"], [6, 6, 5]).run()
    assert game.scores() == [112, 104, -80]
    assert game.bags() == [2, 4, 0]
    game = b6_plan([7, 6, 2], [7, 8, 2]).hand([3, 0, "B6"], [3, 0, 14]).run()
    assert game.scores() == [100, 162, 128]
    assert game.bags() == [0, 2, 8]


def test_blind_six_refused_at_49_behind():
    plan = b6_plan([7, 6, 2], [7, 7, 3])
    game = plan.start()
    plan.play(game, 0)
    assert game.scores() == [70, 61, 21]
    bid(game, 1, 4)
    assert game.to_act == 2
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "look": True}]
    assert game.observation(2)["blind_six_eligible"] is False
    assert codes(lambda: game.apply({"seat": 2, "bid": "B6"})) == "bid_not_allowed"
    assert game.to_act == 2 and game.observation(2)["bids"] == [None, 4, None]


def test_the_leader_and_players_in_the_first_hand_never_have_blind_six():
    game = Plan().hand([1, 1, 1], [5, 6, 6]).start()
    for seat in (0, 1, 2):
        assert records(game, seat) == [{"seat": seat, "bid": "BN"}, {"seat": seat, "look": True}]
        assert codes(lambda s=seat: game.apply({"seat": s, "bid": "B6"})) == "bid_not_allowed"
        bid(game, seat, 1)


def test_blind_six_once_per_game():
    # hand 1: seat 2 sets its blind six and is 192 behind; hand 2: no second blind six
    plan = b6_plan([7, 6, 2], [7, 8, 2]).hand([4, 4, "B6"], [6, 6, 5])
    game = plan.run()
    assert game.scores() == [112, 104, -80]
    assert game.observation(0)["blind_six_used"] == [0, 0, 1]
    assert game.dealer == 1 and game.to_act == 2
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "look": True}]
    assert codes(lambda: game.apply({"seat": 2, "bid": "B6"})) == "bid_not_allowed"


def test_blind_six_unlimited_allows_it_again():
    plan = b6_plan([7, 6, 2], [7, 8, 2], blind_six="unlimited").hand([4, 4, "B6"], [6, 6, 5])
    game = plan.run()
    assert game.scores() == [112, 104, -80]
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "bid": "B6"}, {"seat": 2, "look": True}]
    game.apply({"seat": 2, "bid": "B6"})
    assert game.observation(0)["blind_six_used"] == [0, 0, 2]


def test_profile_500_3jacks_has_unlimited_blind_six():
    plan = Plan("cutthroat-500-3jacks", options=NO_JACKS).hand([7, 6, 2], [7, 8, 2]).hand([4, 4, "B6"], [6, 6, 5])
    game = plan.run()
    assert game.scores() == [112, 104, -80]
    assert {"seat": 2, "bid": "B6"} in records(game)


def test_blind_six_count_resets_with_a_new_game_of_the_tourney():
    opts = {"target": 100, "tokens": 2}
    plan = (
        b6_plan([7, 6, 2], [7, 8, 2], **opts)
        .hand([4, 4, "B6"], [4, 7, 6])  # seat 2 wins game 0 with 120
        .hand([7, 6, 2], [7, 8, 2])  # game 1: seat 2 is 50 behind again
    )
    game = plan.run()
    assert game.game_number == 1
    assert game.tokens() == [0, 0, 1]
    assert game.scores() == [70, 62, 20]
    assert game.observation(0)["blind_six_used"] == [0, 0, 0]
    assert game.dealer == 2 and game.to_act == 0
    bid(game, 0, 4)
    bid(game, 1, 4)
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "bid": "B6"}, {"seat": 2, "look": True}]
    game.apply({"seat": 2, "bid": "B6"})
    assert game.observation(0)["bids"] == [4, 4, "B6"]


def test_blind_six_is_refused_where_the_profile_lacks_it():
    game = tapete.new_game("cutthroat", seed=4, dealer=2)
    assert codes(lambda: game.apply({"seat": 0, "bid": "B6"})) == "bid_not_allowed"
    plan = b6_plan([7, 6, 2], [7, 8, 2], special_bids=["1F", "2F", "BN", "SM"])
    game = plan.start()
    plan.play(game, 0)
    bid(game, 1, 4)
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "look": True}]
    assert codes(lambda: game.apply({"seat": 2, "bid": "B6"})) == "bid_not_allowed"


# --- face-down hands ---------------------------------------------------------------------
def test_hands_start_face_down_with_blind_bids():
    game = tapete.new_game("cutthroat-official", seed=11, dealer=2)
    assert game.to_act == 0
    for seat in range(3):
        obs = game.observation(seat)
        assert obs["hand"] is None
        assert obs["hand_face_down"] is True
    assert records(game) == [{"seat": 0, "bid": "BN"}, {"seat": 0, "look": True}]
    assert codes(lambda: game.apply({"seat": 0, "bid": 5})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "nil"})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "1F"})) == "bid_not_allowed"
    assert game.to_act == 0 and game.observation(0)["hand"] is None

    game.apply({"seat": 0, "look": True})
    obs = game.observation(0)
    assert obs["hand_face_down"] is False
    assert len(obs["hand"]) == 17
    assert game.observation(1)["hand"] is None
    expected = [{"seat": 0, "bid": n} for n in range(18)]
    expected += [{"seat": 0, "bid": "1F"}, {"seat": 0, "bid": "2F"}, {"seat": 0, "bid": "SM"}]
    assert records(game) == expected
    assert codes(lambda: game.apply({"seat": 0, "bid": "BN"})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "B6"})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "look": True})) == "bid_not_allowed"
    assert game.to_act == 0
    game.apply({"seat": 0, "bid": 5})

    # a blind nil shows the cards once made
    assert game.to_act == 1
    game.apply({"seat": 1, "bid": "BN"})
    assert len(game.observation(1)["hand"]) == 17
    assert game.observation(2)["hand"] is None
    rec = game.record()["hands"][0]["actions"]
    assert rec[1:] == [{"seat": 0, "look": True}, {"seat": 0, "bid": 5}, {"seat": 1, "bid": "BN"}]


def test_every_hand_starts_face_down_again():
    game = Plan(options=NO_JACKS).hand([1, 1, 1], [5, 6, 6]).run()
    assert game.hand_number == 1
    assert all(game.observation(s)["hand"] is None for s in range(3))
    assert [a.to_record(1) for a in game.legal_actions()] == [{"seat": 1, "bid": "BN"}, {"seat": 1, "look": True}]


@pytest.mark.parametrize(
    ("profile", "options"),
    [("cutthroat", None), ("cutthroat-official", {"special_bids": ["1F", "2F", "SM"]})],
)
def test_without_blind_bids_cards_are_seen_at_once(profile, options):
    game = tapete.new_game(profile, seed=2, dealer=2, options=options)
    for seat in range(3):
        assert len(game.observation(seat)["hand"]) == 17
        assert game.observation(seat)["hand_face_down"] is False
    assert {"seat": 0, "look": True} not in records(game)
    assert {"seat": 0, "bid": 17} in records(game)
    assert codes(lambda: game.apply({"seat": 0, "look": True})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "BN"})) == "bid_not_allowed"
    game.apply({"seat": 0, "bid": 4})
    assert game.to_act == 1


# --- shoot the moon ----------------------------------------------------------------------
def test_moon_offered_to_seventeen_cards_not_to_thirteen():
    game = tapete.new_game("cutthroat-official", seed=3, dealer=2)
    game.apply({"seat": 0, "look": True})
    assert {"seat": 0, "bid": "SM"} in records(game)

    four = tapete.new_game("cutthroat-4p", seed=3, dealer=3)
    assert game.observation(0)["dealt_sizes"] == [17, 17, 17]
    assert four.observation(0)["dealt_sizes"] == [13, 13, 13, 13]
    four.apply({"seat": 0, "look": True})
    legal = [a.to_record(0) for a in four.legal_actions()]
    assert {"seat": 0, "bid": "SM"} not in legal
    assert legal == [{"seat": 0, "bid": n} for n in range(14)] + [{"seat": 0, "bid": "1F"}, {"seat": 0, "bid": "2F"}]
    assert codes(lambda: four.apply({"seat": 0, "bid": "SM"})) == "bid_not_allowed"
    assert codes(lambda: four.apply({"seat": 0, "bid": 14})) == "bid_out_of_range"
    assert four.to_act == 0


def test_integer_bids_above_thirteen_stay_ordinary():
    game = Plan(options=NO_JACKS).hand([15, 1, 0], [15, 2, 0]).run()
    assert game.scores() == [150, 11, 100]
    assert game.bags() == [0, 1, 0]


def test_moon_made_adds_no_bags_and_skips_the_penalty():
    # hand 2 is dealt by seat 0: seat 1 shoots the moon holding 1 bag, seat 0 has 9 bags
    plan = Plan(options=NO_JACKS).hand([1, 3, 3], [10, 4, 3]).hand([1, "SM", 0], [2, 15, 0])
    game = plan.start()
    plan.play(game, 0)
    assert game.scores() == [19, 31, 30]
    assert game.bags() == [9, 1, 0]
    plan.play(game, 1)
    assert game.scores() == [19 + 11 - 100, 31 + 150, 130]
    assert game.bags() == [0, 1, 0]


def test_moon_made_on_nine_bags_keeps_them():
    plan = Plan(options=NO_JACKS).hand([1, 3, 3], [10, 4, 3]).hand(["SM", 1, 0], [15, 2, 0]).hand([1, 1, 1], [2, 10, 5])
    game = plan.start()
    plan.play(game, 0)
    assert game.bags() == [9, 1, 0]
    plan.play(game, 1)
    assert game.scores() == [169, 42, 130]
    assert game.bags() == [9, 2, 0]
    plan.play(game, 2)  # one more bag reaches the limit: 10 × 10 = -100
    assert game.scores() == [169 + 11 - 100, 42 + 19 - 110, 130 + 14]
    assert game.bags() == [0, 0, 4]


def test_moon_set_costs_150():
    plan = Plan(options=NO_JACKS).hand(["SM", 2, 1], [13, 3, 1])
    game = plan.run()
    assert game.scores() == [-150, 21, 10]
    assert game.bags() == [0, 1, 0]


def test_bid_all_helper_matches_record():
    plan = Plan(options=NO_JACKS).hand(["2F", "1F", "BN"], [2, 15, 0])
    game = plan.start()
    bid_all(game, plan.hands[0][0])
    acts = game.record()["hands"][0]["actions"]
    assert acts[1:] == [
        {"seat": 0, "look": True},
        {"seat": 0, "bid": "2F"},
        {"seat": 1, "look": True},
        {"seat": 1, "bid": "1F"},
        {"seat": 2, "bid": "BN"},
    ]


def test_blind_six_made_also_uses_the_allowance():
    plan = b6_plan([7, 6, 17], [7, 8, 2]).hand([4, 4, "B6"], [4, 7, 6])
    game = plan.run()
    assert game.scores() == [110, 105, -70]
    assert game.observation(0)["blind_six_used"] == [0, 0, 1]
    assert game.to_act == 2
    assert records(game) == [{"seat": 2, "bid": "BN"}, {"seat": 2, "look": True}]
    assert codes(lambda: game.apply({"seat": 2, "bid": "B6"})) == "bid_not_allowed"


def test_an_eligible_seat_that_looks_can_no_longer_bid_blind_six():
    plan = b6_plan([7, 6, 2], [7, 8, 2])
    game = plan.start()
    plan.play(game, 0)
    bid(game, 1, 4)
    game.apply({"seat": 2, "look": True})
    assert game.observation(2)["blind_six_eligible"] is False
    assert {"seat": 2, "bid": "B6"} not in records(game)
    assert codes(lambda: game.apply({"seat": 2, "bid": "B6"})) == "bid_not_allowed"
    game.apply({"seat": 2, "bid": 6})
    assert game.observation(0)["bids"] == [None, 4, 6]


def test_moon_made_still_collects_prize_jacks():
    game = Plan().hand(["SM", 0, "BN"], [15, 1, 1], jacks={"JC": 1, "JD": 0}).run()
    assert game.scores() == [150 + 10, -100 + 10, -200]
    assert game.bags() == [0, 1, 1]


def test_heart_jack_still_removes_a_bag_after_a_made_moon():
    # SM made adds no bags and pays no penalty; the J♥ then takes one bag off the count
    rules = tapete.load_profile("cutthroat-500-3jacks")
    result = score_hand(rules, ["SM", 1, 1], [15, 1, 1], [5, 0, 0], jack_winners=[("JH", 0)])
    assert result.change == (150, 10, 10)
    assert result.penalty == (0, 0, 0)
    assert result.bags == (4, 0, 0)


def test_heart_jack_after_a_made_moon_in_a_played_hand():
    plan = (
        Plan("cutthroat-500-3jacks")
        .hand([1, 3, 3], [6, 4, 7], jacks={"JC": 1, "JD": 2, "JH": 1})
        .hand(["SM", 1, 1], [14, 2, 1], jacks={"JH": 0, "JC": 1, "JD": 2})
    )
    game = plan.start()
    plan.play(game, 0)
    assert game.scores() == [15, 41, 44]
    assert game.bags() == [5, 0, 4]
    plan.play(game, 1)
    assert game.scores() == [165, 62, 64]
    assert game.bags() == [4, 1, 4]
