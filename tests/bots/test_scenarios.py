"""Easy and normal in set-up positions: bids, partner's nil, bags."""

from __future__ import annotations

import tapete
from tapete.bots import make_bot
from tests.helpers import bid_all, build_deal, play


def test_easy_bids_aces_and_kings_and_plays_its_lowest_card() -> None:
    deal = build_deal("spades", 3, {0: ["AS", "KH", "AD", "2C", "3C", "9H"]})
    g = tapete.new_game("spades", deal=deal, dealer=3)
    bot = make_bot("easy")
    assert g.to_act == 0
    own = {c for c in deal[0] if c[0] in "AK"}
    assert bot.act(g.observation(0)) == {"seat": 0, "bid": len(own)}
    bid_all(g, [len(own), 3, 3, 3])
    assert bot.act(g.observation(0)) == {"seat": 0, "play": "2C"}


def test_easy_looks_before_bidding_when_cards_are_face_down() -> None:
    g = tapete.new_game("cutthroat-official", seed=4)
    seat = g.to_act
    bot = make_bot("easy")
    assert bot.act(g.observation(seat)) == {"seat": seat, "look": True}
    g.apply({"seat": seat, "look": True})
    assert "bid" in bot.act(g.observation(seat))


def test_normal_covers_its_partners_nil() -> None:
    # seat 1 leads, seat 2 (nil) plays K♥ and is winning; seat 3 plays low; seat 0 must overtake
    deal = build_deal("spades", 0, {0: ["AH", "5H"], 1: ["3H"], 2: ["KH"], 3: ["4H"]}, void={2: "H"})
    g = tapete.new_game("spades", deal=deal, dealer=0)
    bid_all(g, [4, 3, 0, 3])
    play(g, "3H", "KH", "4H")
    assert g.to_act == 0
    assert make_bot("normal").act(g.observation(0)) == {"seat": 0, "play": "AH"}


def test_normal_plays_high_before_its_nil_partner() -> None:
    # seat 3 leads low; seat 0 plays before its nil partner (seat 2): it plays its top heart
    deal = build_deal("spades", 2, {0: ["AH", "QH", "5H"], 3: ["2H"]})
    g = tapete.new_game("spades", deal=deal, dealer=2)
    bid_all(g, [4, 3, 0, 3])
    play(g, "2H")
    assert make_bot("normal").act(g.observation(0)) == {"seat": 0, "play": "AH"}


def _bags_position(bid0: int) -> tuple[object, dict[str, object]]:
    """Cutthroat: seat 0 has won one trick; seat 1 leads 5♣, seat 2 follows; seat 0 holds K♣ 4♣."""
    deal = build_deal(
        "cutthroat",
        0,
        {0: ["AH", "2D", "KC", "4C"], 1: ["3H", "AD", "5C"], 2: ["4H", "3D", "6C"]},
    )
    g = tapete.new_game("cutthroat", deal=deal, dealer=0)
    bid_all(g, [bid0, 5, 5])
    play(g, "3H", "4H", "AH")  # seat 0 wins
    play(g, "2D", "AD", "3D")  # seat 1 wins
    play(g, "5C", "6C")
    return g, g.observation(0)


def test_normal_ducks_when_a_bag_would_cost() -> None:
    _, obs = _bags_position(1)
    obs["bags"] = [9, 0, 0]  # one more bag costs 100
    assert make_bot("normal").act(obs) == {"seat": 0, "play": "4C"}


def test_normal_takes_the_trick_while_its_contract_needs_it() -> None:
    _, obs = _bags_position(3)
    card = make_bot("normal").act(obs)["play"]
    assert card[1] == "C" and "23456789TJQKA".index(card[0]) > "23456789TJQKA".index("6")  # beats 6♣


def test_normal_bids_nil_with_a_safe_hand() -> None:
    low = ["2S", "3S", "2H", "3H", "4H", "5H", "2D", "3D", "4D", "6D", "2C", "3C", "4C"]
    deal = build_deal("spades", 3, {0: low})
    g = tapete.new_game("spades", deal=deal, dealer=3)
    assert make_bot("normal").act(g.observation(0)) == {"seat": 0, "bid": 0}


def test_normal_bids_one_for_fifty_with_a_one_trick_hand() -> None:
    hand = ["AH", "2H", "3H", "4S", "5S", "2D", "3D", "4D", "5D", "6D", "3C", "4C", "5C", "6C", "7C", "8C", "2S"]
    deal = build_deal("cutthroat-official", 2, {0: hand})
    g = tapete.new_game("cutthroat-official", deal=deal, dealer=2)
    bot = make_bot("normal")
    assert g.to_act == 0
    assert bot.act(g.observation(0)) == {"seat": 0, "look": True}
    g.apply({"seat": 0, "look": True})
    assert bot.act(g.observation(0)) == {"seat": 0, "bid": "1F"}
