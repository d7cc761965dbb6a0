"""Games, tourneys, the seating draw and the 4- and 5-player tables of the official family."""

from __future__ import annotations

import copy
import itertools

import pytest

import tapete
from tapete.cards import Card
from tapete.records import replay
from tests.helpers import build_deal
from tests.spades.official_helpers import Plan, first_legal_policy

NO_JACKS = {"prize_jacks": []}


def codes(fn):
    with pytest.raises(tapete.IllegalAction) as info:
        fn()
    return info.value.code


def rank(name):
    return Card.parse(name).rank


def look_and_bid_all(game, value=1):
    for _ in range(game.num_players):
        seat = game.to_act
        if game.observation(seat)["hand_face_down"]:
            game.apply({"seat": seat, "look": True})
        game.apply({"seat": seat, "bid": value})


def finish_hand(game):
    hand = game.hand_number
    while game.hand_number == hand and not game.is_over():
        first_legal_policy(game)


# --- end of a game, ties, tourneys ---------------------------------------------------------
def test_a_tie_at_the_top_plays_on():
    plan = Plan(options={**NO_JACKS, "target": 60}).hand([6, 6, 5], [6, 6, 5]).hand([1, 1, 1], [5, 6, 6])
    game = plan.start()
    plan.play(game, 0)
    assert game.scores() == [60, 60, 50]
    assert not game.is_over()
    assert game.game_number == 0 and game.tokens() == [0, 0, 0]
    assert game.hand_number == 1
    plan.play(game, 1)
    # 74, 75, 65: seat 1 alone on top wins the game and a token; a new game starts
    assert game.tokens() == [0, 1, 0]
    assert game.game_number == 1
    assert game.scores() == [0, 0, 0] and game.bags() == [0, 0, 0]
    assert game.logs[1].scores == [74, 75, 65]
    assert game.observation(2)["tokens"] == [0, 1, 0]
    assert not game.is_over()


def test_a_single_game_with_tokens_null():
    plan = (
        Plan(options={**NO_JACKS, "target": 60, "tokens": None}).hand([6, 6, 5], [6, 6, 5]).hand([1, 1, 1], [5, 6, 6])
    )
    game = plan.run()
    assert game.is_over()
    assert game.winner() == 1
    assert game.scores() == [74, 75, 65]
    assert game.to_act is None and game.legal_actions() == ()


def test_scripted_tourney_to_two_tokens():
    opts = {**NO_JACKS, "target": 100, "tokens": 2}
    plan = (
        Plan(options=opts)
        .hand([7, 6, 2], [7, 8, 2])  # 70, 62, 20
        .hand([4, 4, "B6"], [4, 7, 6])  # 110, 105, 120: seat 2 wins game 0
        .hand([7, 6, 2], [7, 8, 2])  # game 1
        .hand([4, 4, "B6"], [4, 7, 6])  # seat 2 again: the tourney is over
    )
    game = plan.start()
    dealers = []
    for i in range(4):
        dealers.append(game.dealer)
        plan.play(game, i)
        if i == 1:
            assert game.tokens() == [0, 0, 1]
            assert game.game_number == 1
            assert game.scores() == [0, 0, 0]
            assert game.bags() == [0, 0, 0]  # seat 1 had 5 bags
            assert game.observation(0)["blind_six_used"] == [0, 0, 0]
            assert not game.is_over()
    assert dealers == [2, 0, 1, 2]  # no new draw: the dealer keeps rotating
    assert game.is_over()
    assert game.winner() == 2
    assert game.tokens() == [0, 0, 2]
    assert game.scores() == [110, 105, 120]
    assert game.to_act is None and game.legal_actions() == ()
    assert codes(lambda: game.apply({"seat": 0, "bid": 1})) == "wrong_phase"

    result = replay(game.record())
    assert result.exit_status == 0
    report = result.report
    assert report["error"] is None
    assert report["finished"] is True
    assert report["winner"] == 2
    assert report["tokens"] == [0, 0, 2]
    assert [h["dealer"] for h in report["hands"]] == [2, 0, 1, 2]
    assert [h["scores"] for h in report["hands"]] == [[70, 62, 20], [110, 105, 120], [70, 62, 20], [110, 105, 120]]
    assert report["to_act"] is None and report["legal_actions"] == []
    draws = [a for h in game.record()["hands"] for a in h["actions"] if "draw" in a]
    assert len(draws) == 1  # no new seating draw for a new game of the tourney


def test_tourney_with_a_simple_policy_ends_at_the_token_count():
    game = tapete.new_game("cutthroat-official", seed=21, options={"target": 10, "tokens": 2})
    steps = 0
    while not game.is_over() and steps < 20_000:
        seat = game.to_act
        if game.observation(seat)["phase"] == "bid" and not game.observation(seat)["hand_face_down"]:
            game.apply({"seat": seat, "bid": 1})
        else:
            first_legal_policy(game)
        steps += 1
    assert game.is_over()
    tokens = game.tokens()
    assert max(tokens) == 2 and tokens.count(2) == 1
    assert tokens[game.winner()] == 2
    assert sum(tokens) == game.game_number + 1

    record = game.record()
    first = record["hands"][0]["dealer"]
    assert [h["dealer"] for h in record["hands"]] == [(first + i) % 3 for i in range(len(record["hands"]))]
    result = replay(record)
    assert result.exit_status == 0
    report = result.report
    assert report["tokens"] == tokens
    assert report["winner"] == game.winner()
    # every new game of the tourney starts from zero totals
    hands = report["hands"]
    for prev, cur in itertools.pairwise(hands):
        if cur["game"] != prev["game"]:
            assert cur["scores"] == cur["score_change"]


def test_replay_of_a_played_official_game_reports_tokens():
    game = tapete.new_game("cutthroat-official", seed=8)
    finish_hand(game)
    assert game.hand_number == 1
    result = replay(game.record())
    assert result.exit_status == 0
    assert result.report["error"] is None
    assert result.report["tokens"] == [0, 0, 0]
    assert result.report["finished"] is False
    assert result.report["scores"] == game.scores()
    assert len(result.report["hands"]) == 2


# --- the seating draw ------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_seating_draw_is_the_first_action_and_orders_the_seats(seed):
    game = tapete.new_game("cutthroat-official", seed=seed)
    record = game.record()
    first = record["hands"][0]["actions"][0]
    assert set(first) == {"draw"}
    draw = first["draw"]
    assert len(draw) == 3
    dealer = record["hands"][0]["dealer"]
    assert dealer == game.dealer
    ranks = [rank(c) for c in draw]
    assert len(set(ranks)) == 3
    assert ranks[dealer] == max(ranks)
    # descending clockwise from the dealer; the next highest is first to bid
    assert ranks[dealer] > ranks[(dealer + 1) % 3] > ranks[(dealer + 2) % 3]
    assert game.to_act == (dealer + 1) % 3
    assert all("draw" not in a for h in record["hands"] for a in h["actions"][1:])


def test_explicit_draw_names_the_dealer():
    game = tapete.new_game("cutthroat-official", seed=1, draw=["2D", "QS", "7H"])
    assert game.dealer == 1 and game.to_act == 2
    assert game.record()["hands"][0]["actions"][0] == {"draw": ["2D", "QS", "7H"]}
    # suits do not rank; jokers rank above aces
    five = tapete.new_game("cutthroat-5p-2jokers", seed=1, draw=["3C", "RJ", "BJ", "AS", "5D"])
    assert five.dealer == 1 and five.to_act == 2
    with pytest.raises(tapete.BadRecord):
        tapete.new_game("cutthroat-official", seed=1, draw=["AS", "AH", "7H"])
    with pytest.raises(tapete.BadRecord):
        tapete.new_game("cutthroat-official", seed=1, draw=["7H", "QS", "2D"])  # ascending clockwise


def _inconsistent(record, draw):
    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"][0] = {"draw": draw}
    return replay(bad)


def test_replay_refuses_an_inconsistent_draw():
    game = tapete.new_game("cutthroat-official", seed=3, dealer=1)
    finish_hand(game)
    record = game.record()
    assert record["hands"][0]["dealer"] == 1
    assert replay(record).exit_status == 0
    assert _inconsistent(record, ["2D", "KS", "7H"]).exit_status == 0  # a different but consistent draw
    for draw in (
        ["7H", "KS", "2D"],  # ascending clockwise from the dealer
        ["KS", "7H", "2D"],  # the highest card is not the dealer's
        ["7H", "KS", "7D"],  # equal ranks are redrawn, never recorded
        ["7H", "KS"],  # one card per seat
        ["2C", "KS", "7H"],  # 2♣ is not in the deck
    ):
        result = _inconsistent(record, draw)
        assert result.exit_status == 2, draw
        assert result.report["error"]["code"] == "bad_record"


def test_no_draw_in_profiles_without_seating_draw():
    game = tapete.new_game("cutthroat", seed=3)
    assert all("draw" not in a for a in game.record()["hands"][0]["actions"])
    with pytest.raises(tapete.BadRecord):
        tapete.new_game("cutthroat", seed=3, draw=["2D", "KS", "7H"])


# --- four and five players -----------------------------------------------------------------
def test_four_player_table():
    game = tapete.new_game("cutthroat-4p", seed=5, dealer=1)
    hands = game.record()["hands"][0]["cards"]
    assert [len(h) for h in hands] == [13, 13, 13, 13]
    cards = {c for h in hands for c in h}
    assert len(cards) == 52 and "2C" in cards
    assert game.to_act == 2
    finish_hand(game)
    summary = game.replay_summary()["hands"][0]
    assert len(summary["tricks"]) == 13
    assert sum(summary["tricks_won"]) == 13
    assert summary["tricks"][0]["leader"] == 2
    assert all(len(t["cards"]) == 4 for t in summary["tricks"])
    assert game.dealer == 2


def test_five_player_table():
    game = tapete.new_game("cutthroat-5p", seed=5, dealer=4)
    hands = game.record()["hands"][0]["cards"]
    assert [len(h) for h in hands] == [10] * 5
    cards = {c for h in hands for c in h}
    assert len(cards) == 50 and "2C" not in cards and "2D" not in cards
    assert game.to_act == 0
    game.apply({"seat": 0, "look": True})
    assert [a.to_record(0) for a in game.legal_actions()][-2:] == [{"seat": 0, "bid": "1F"}, {"seat": 0, "bid": "2F"}]
    finish_hand(game)
    summary = game.replay_summary()["hands"][0]
    assert len(summary["tricks"]) == 10 and summary["tricks"][0]["leader"] == 0


@pytest.mark.parametrize("dealer", [0, 3])
def test_two_joker_table_deals_ten_to_the_dealer(dealer):
    game = tapete.new_game("cutthroat-5p-2jokers", seed=9, dealer=dealer)
    hands = game.record()["hands"][0]["cards"]
    assert [len(h) for h in hands] == [10 if s == dealer else 11 for s in range(5)]
    cards = {c for h in hands for c in h}
    assert len(cards) == 54 and {"RJ", "BJ", "2C"} <= cards and "XJ" not in cards


def test_two_joker_table_first_trick():
    deal = build_deal("cutthroat-5p-2jokers", 0, {2: ["2C"]})
    game = tapete.new_game("cutthroat-5p-2jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    assert game.to_act == 2
    assert [a.to_record(2) for a in game.legal_actions()] == [{"seat": 2, "play": "2C"}]
    assert codes(lambda: game.apply({"seat": 2, "play": deal[2][1]})) == "must_lead_2c"
    assert codes(lambda: game.apply({"seat": 1, "play": deal[1][0]})) == "not_your_turn"
    assert game.observation(0)["sitting_out"] == 0
    order = []
    for _ in range(4):
        order.append(game.to_act)
        first_legal_policy(game)
    assert order == [2, 3, 4, 1]  # clockwise from the leader, skipping the dealer
    trick = game.replay_summary()["hands"][0]["tricks"][0]
    assert trick["leader"] == 2 and len(trick["cards"]) == 4 and trick["cards"][0] == "2C"
    assert trick["winner"] is not None
    assert game.observation(0)["sitting_out"] is None
    assert game.observation(0)["hand_sizes"] == [10] * 5
    finish_hand(game)
    summary = game.replay_summary()["hands"][0]
    assert len(summary["tricks"]) == 11
    assert [len(t["cards"]) for t in summary["tricks"]] == [4] + [5] * 10
    assert sum(summary["tricks_won"]) == 11


def test_two_joker_table_dealer_holding_two_of_clubs():
    deal = build_deal("cutthroat-5p-2jokers", 0, {0: ["2C"], 1: ["AS", "3H"]})
    game = tapete.new_game("cutthroat-5p-2jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    assert game.to_act == 1  # left of the dealer leads under the ordinary rule
    legal = [a.to_record(1)["play"] for a in game.legal_actions()]
    assert "AS" not in legal and "3H" in legal
    assert sorted(legal) == sorted(c for c in deal[1] if c[1] != "S" and c not in ("RJ", "BJ"))
    assert codes(lambda: game.apply({"seat": 1, "play": "AS"})) == "spades_not_broken"
    game.apply({"seat": 1, "play": "3H"})
    order = [1]
    for _ in range(3):
        order.append(game.to_act)
        first_legal_policy(game)
    assert order == [1, 2, 3, 4]
    trick = game.replay_summary()["hands"][0]["tricks"][0]
    assert len(trick["cards"]) == 4
    assert "2C" in game.observation(0)["hand"]


def test_three_joker_table():
    game = tapete.new_game("cutthroat-5p-3jokers", seed=4, dealer=2)
    hands = game.record()["hands"][0]["cards"]
    assert [len(h) for h in hands] == [11] * 5
    cards = {c for h in hands for c in h}
    assert len(cards) == 55 and {"RJ", "BJ", "XJ", "2C"} <= cards
    holder = next(s for s in range(5) if "2C" in hands[s])
    look_and_bid_all(game)
    assert game.to_act == holder
    assert [a.to_record(holder) for a in game.legal_actions()] == [{"seat": holder, "play": "2C"}]
    other = next(c for c in hands[holder] if c != "2C")
    assert codes(lambda: game.apply({"seat": holder, "play": other})) == "must_lead_2c"
    assert game.observation(0)["sitting_out"] is None
    finish_hand(game)
    summary = game.replay_summary()["hands"][0]
    assert summary["tricks"][0]["leader"] == holder
    assert [len(t["cards"]) for t in summary["tricks"]] == [5] * 11


# --- jokers ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("played", "winner"),
    [
        (["AS", "XJ", "3C", "4C"], 3),
        (["BJ", "XJ", "AS", "3C"], 2),
        (["BJ", "RJ", "XJ", "3C"], 3),
        (["XJ", "3C", "4C", "AS"], 2),
        (["3C", "AS", "KS", "4C"], 3),
        (["4C", "3C", "RJ", "5C"], 4),
    ],
)
def test_jokers_are_the_top_spades(played, winner):
    # dealer 0: seat 1 leads 2C, then seats 2, 3, 4, 0 play ``played``
    seats = [2, 3, 4, 0]
    fixed = {1: ["2C"]}
    void = {}
    for seat, card in zip(seats, played, strict=True):
        fixed[seat] = [card]
        if card[1] != "C":
            void[seat] = "C"
    deal = build_deal("cutthroat-5p-3jokers", 0, fixed, void=void)
    game = tapete.new_game("cutthroat-5p-3jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    game.apply({"seat": 1, "play": "2C"})
    for seat, card in zip(seats, played, strict=True):
        game.apply({"seat": seat, "play": card})
    trick = game.replay_summary()["hands"][0]["tricks"][0]
    assert trick["winner"] == winner
    assert game.to_act == winner
    assert game.observation(0)["spades_broken"] is any(c[1] != "C" for c in played)


def test_a_joker_on_another_suit_breaks_spades():
    deal = build_deal(
        "cutthroat-5p-3jokers", 0, {1: ["2C", "3D"], 2: ["3C"], 3: ["4C"], 4: ["XJ"], 0: ["5C"]}, void={4: "C"}
    )
    game = tapete.new_game("cutthroat-5p-3jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    for seat, card in [(1, "2C"), (2, "3C"), (3, "4C")]:
        game.apply({"seat": seat, "play": card})
    assert game.observation(0)["spades_broken"] is False
    game.apply({"seat": 4, "play": "XJ"})
    assert game.observation(0)["spades_broken"] is True
    game.apply({"seat": 0, "play": "5C"})
    assert game.to_act == 4
    spades = [c for c in deal[4] if (c[1] == "S" or c.endswith("J")) and c != "XJ"]
    assert spades
    legal = [a.to_record(4)["play"] for a in game.legal_actions()]
    assert set(spades) <= set(legal)
    game.apply({"seat": 4, "play": spades[0]})


def test_leading_a_joker_before_spades_are_broken():
    fixed = {1: ["2C"], 2: ["3C"], 3: ["AC", "RJ"], 4: ["4C"], 0: ["5C"]}
    deal = build_deal("cutthroat-5p-3jokers", 0, fixed, void={3: "S"})
    game = tapete.new_game("cutthroat-5p-3jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    for seat, card in [(1, "2C"), (2, "3C"), (3, "AC"), (4, "4C"), (0, "5C")]:
        game.apply({"seat": seat, "play": card})
    assert game.to_act == 3 and not game.observation(0)["spades_broken"]
    legal = [a.to_record(3)["play"] for a in game.legal_actions()]
    assert "RJ" not in legal and len(legal) == 9
    assert codes(lambda: game.apply({"seat": 3, "play": "RJ"})) == "spades_not_broken"
    assert game.to_act == 3


def test_leading_a_joker_from_a_hand_of_only_spades_and_jokers():
    only = ["AC", "RJ", "BJ", "XJ", "AS", "KS", "QS", "JS", "TS", "9S", "8S"]
    fixed = {1: ["2C"], 2: ["3C"], 3: only, 4: ["4C"], 0: ["5C"]}
    deal = build_deal("cutthroat-5p-3jokers", 0, fixed)
    game = tapete.new_game("cutthroat-5p-3jokers", seed=1, deal=deal, dealer=0)
    look_and_bid_all(game)
    for seat, card in [(1, "2C"), (2, "3C"), (3, "AC"), (4, "4C"), (0, "5C")]:
        game.apply({"seat": seat, "play": card})
    assert game.to_act == 3
    legal = [a.to_record(3)["play"] for a in game.legal_actions()]
    assert sorted(legal) == sorted(only[1:])
    game.apply({"seat": 3, "play": "RJ"})
    assert game.observation(0)["spades_broken"] is False  # leading from all spades does not break them


# --- bad options ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "code", "word"),
    [
        ({"target": -5}, "bad_option", "target"),
        ({"target": 0}, "bad_option", "target"),
        ({"special_bids": ["1F", "3F"]}, "bad_option", "3F"),
        ({"special_bids": ["1F", "B7"]}, "bad_option", "B7"),
        ({"bag_rule": "double"}, "bad_option", "bag_rule"),
        ({"bag_limit": 0}, "bad_option", "bag_limit"),
        ({"blind_six": "twice"}, "bad_option", "blind_six"),
        ({"prize_jacks": ["QS"]}, "bad_option", "QS"),
        ({"tokens": 0}, "bad_option", "tokens"),
        ({"colour": "red"}, "unknown_option", "colour"),
    ],
)
def test_bad_options_give_clear_errors(options, code, word):
    with pytest.raises(tapete.ProfileError) as info:
        tapete.load_profile("cutthroat-official", options)
    assert info.value.code == code
    assert word in info.value.message
    with pytest.raises(tapete.ProfileError):
        tapete.new_game("cutthroat-official", seed=1, options=options)
    record = tapete.new_game("cutthroat-official", seed=1).record()
    record["options"] = options
    result = replay(record)
    assert result.exit_status == 2
    assert result.report["error"]["code"] == "bad_record"
    assert word in result.report["error"]["message"]


def test_blind_six_on_a_profile_without_it_is_refused():
    game = tapete.new_game("cutthroat-official", seed=1, dealer=2, options={"special_bids": ["1F", "2F", "SM"]})
    assert codes(lambda: game.apply({"seat": 0, "bid": "B6"})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "BN"})) == "bid_not_allowed"
    assert codes(lambda: game.apply({"seat": 0, "bid": "B7"})) == "bid_not_allowed"
    assert game.to_act == 0 and game.observation(0)["bids"] == [None, None, None]


def test_two_joker_record_replays_and_checks_the_dealer_hand_size():
    deal = build_deal("cutthroat-5p-2jokers", 0, {2: ["2C"]})
    game = tapete.new_game("cutthroat-5p-2jokers", seed=1, deal=deal, dealer=0)
    finish_hand(game)
    record = game.record()
    result = replay(record)
    assert result.exit_status == 0
    tricks = result.report["hands"][0]["tricks"]
    assert tricks[0]["leader"] == 2 and len(tricks[0]["cards"]) == 4
    assert result.report["tokens"] == [0] * 5
    bad = copy.deepcopy(record)
    cards = bad["hands"][0]["cards"]
    cards[0].append(cards[1].pop())  # the dealer with 11 cards, seat 1 with 10
    result = replay(bad)
    assert result.exit_status == 2
    assert result.report["error"]["code"] == "bad_record"


def test_a_draw_after_the_first_action_is_a_bad_action():
    game = tapete.new_game("cutthroat-official", seed=3, dealer=1)
    record = game.record()
    draw = record["hands"][0]["actions"][0]
    record["hands"][0]["actions"].append(draw)
    result = replay(record)
    assert result.exit_status == 1
    assert result.report["error"]["code"] == "bad_record"
    assert result.report["error"]["action"] == 1


def test_two_joker_dealer_bids_up_to_ten():
    game = tapete.new_game("cutthroat-5p-2jokers", seed=2, dealer=4)
    for _ in range(4):
        seat = game.to_act
        game.apply({"seat": seat, "look": True})
        assert [a.to_record(seat) for a in game.legal_actions()][-3:] == [
            {"seat": seat, "bid": 11},
            {"seat": seat, "bid": "1F"},
            {"seat": seat, "bid": "2F"},
        ]
        game.apply({"seat": seat, "bid": 2})
    assert game.to_act == 4
    game.apply({"seat": 4, "look": True})
    bids = [a.to_record(4)["bid"] for a in game.legal_actions()]
    assert bids == [*range(11), "1F", "2F"]
    assert codes(lambda: game.apply({"seat": 4, "bid": 11})) == "bid_out_of_range"
