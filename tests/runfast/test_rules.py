"""Scenario tests, one per rule of Run Fast (``docs/rules.md``), on explicitly built deals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tapete
from tapete.engine.runfast import PASS, RunFastGame
from tapete.engine.runfast.actions import DECK, action_of, card_names
from tapete.errors import BadRecord, IllegalAction

Game = Callable[..., RunFastGame]


def play(g: RunFastGame, seat: int, cards: str) -> None:
    g.apply({"seat": seat, "play": cards.split()})


def pass_(g: RunFastGame, seat: int) -> None:
    g.apply({"seat": seat, "pass": True})


def refused(g: RunFastGame, action: dict[str, object], code: str) -> str:
    """Apply an illegal action: check its code and that nothing changed; return the message."""
    before = (g.record(), [g.observation(s) for s in range(3)], g.legal_actions())
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert info.value.code == code, info.value.message
    assert (g.record(), [g.observation(s) for s in range(3)], g.legal_actions()) == before
    return info.value.message


def legal(g: RunFastGame) -> set[str]:
    return {str(a) for a in g.legal_actions()}


# --- cards and deal -------------------------------------------------------------------
def test_deck_has_48_cards_without_ace_of_hearts_and_with_only_the_two_of_spades() -> None:
    names = {str(tapete.Card(c)) for c in DECK}
    assert len(DECK) == 48
    assert "AH" not in names and {"2S"} == {n for n in names if n[0] == "2"}


def test_seeded_deal_is_reproducible_and_the_3h_holder_leads() -> None:
    a = tapete.new_game("runfast", seed=11)
    b = tapete.new_game("runfast", seed=11)
    assert a.record() == b.record()
    cards = a.record()["hands"][0]["cards"]
    assert sorted(len(h) for h in cards) == [16, 16, 16]
    assert "3H" in cards[a.to_act]
    assert "dealer" not in a.record()["hands"][0]


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ([["3H"] * 16] * 2, "3 seats"),
        ([["3H"]] * 3, "dealt 1 cards"),
        (None, "twice"),
        ("foreign", "not in the Run Fast deck"),
        ("unknown", "not a card"),
    ],
)
def test_bad_deals_are_bad_records(deal: object, message: str, game: Game) -> None:
    good = game()
    cards = [list(h) for h in good.record()["hands"][0]["cards"]]
    if deal is None:
        cards[1][0] = cards[0][0]
        deal = cards
    elif deal == "foreign":
        cards[1][0] = "AH"
        deal = cards
    elif deal == "unknown":
        cards[1][0] = "ZZ"
        deal = cards
    with pytest.raises(BadRecord, match=message):
        tapete.new_game("runfast", seed=1, deal=deal)  # type: ignore[arg-type]


# --- the first play -------------------------------------------------------------------
def test_first_play_must_contain_3h(game: Game) -> None:
    g = game("3H 4S")
    assert g.to_act == 0
    message = refused(g, {"seat": 0, "play": ["4S"]}, "must_include_first_card")
    assert message == "the first play must contain 3♥"
    assert all(a >> 27 & 1 for a in g.legal_actions())
    play(g, 0, "3H")
    assert g.to_act == 1


def test_first_lead_3s_option(game: Game) -> None:
    g = game("3H 4S", "3S 5S", first_lead="3S")
    assert g.to_act == 1
    message = refused(g, {"seat": 1, "play": ["5S"]}, "must_include_first_card")
    assert message == "the first play must contain 3♠"
    assert all("3S" in a.names() for a in g.legal_actions())
    play(g, 1, "3S")
    assert g.to_act == 2


def test_a_leader_cannot_pass(game: Game) -> None:
    g = game("3H")
    assert PASS not in g.legal_actions()
    refused(g, {"seat": 0, "pass": True}, "cannot_pass_as_leader")


def test_not_your_turn_and_bad_records(game: Game) -> None:
    g = game("3H")
    refused(g, {"seat": 1, "play": ["4S"]}, "not_your_turn")
    refused(g, {"seat": 3, "play": ["3H"]}, "bad_record")
    refused(g, {"seat": 0, "play": ["3H", "3H"]}, "bad_record")
    refused(g, {"seat": 0, "play": ["XX"]}, "bad_record")
    refused(g, {"seat": 0}, "bad_record")
    refused(g, {"seat": 0, "play": []}, "bad_record")
    refused(g, {"seat": 0, "pass": False}, "bad_record")
    refused(g, ["3H"], "bad_record")  # type: ignore[arg-type]
    refused(g, {"seat": 0, "play": ["2H"]}, "card_not_in_hand")
    g.apply({"seat": 0, "play": "3♥"})  # forgiving card input
    assert g.to_act == 1


def test_card_not_in_hand(game: Game) -> None:
    g = game("3H", "4S")
    message = refused(g, {"seat": 0, "play": ["3H", "4S"]}, "card_not_in_hand")
    assert message == "you do not hold 4♠"


# --- combinations and the beats relation ------------------------------------------------
def test_single_beats_only_a_higher_single(game: Game) -> None:
    g = game("3H 8S", "3S 4S 2S")
    play(g, 0, "3H")
    assert "a single 3 does not beat a single 3" in refused(g, {"seat": 1, "play": ["3S"]}, "does_not_beat")
    assert "play 2♠" in legal(g) and "play 4♠" in legal(g)
    play(g, 1, "4S")
    assert g.current is not None and g.current[0] == 1


def test_pair_of_9s_does_not_beat_pair_of_js(game: Game) -> None:
    g = game("3H 3S", "JS JH", "9S 9H QS QH")
    play(g, 0, "3H 3S")
    play(g, 1, "JS JH")
    message = refused(g, {"seat": 2, "play": ["9S", "9H"]}, "does_not_beat")
    assert message == "a pair of 9s does not beat a pair of Js"
    message = refused(g, {"seat": 2, "play": ["QS"]}, "does_not_beat")
    assert "a single Q does not beat a pair of Js" in message
    play(g, 2, "QS QH")


def test_bare_triple_and_no_attachments(game: Game) -> None:
    g = game("3H 3S 3D 8S", "5S 5H 5D", "4S 4H 4D AS AD AC")
    refused(g, {"seat": 0, "play": ["3H", "3S", "3D", "8S"]}, "not_a_combination")
    play(g, 0, "3H 3S 3D")
    play(g, 1, "5S 5H 5D")
    assert refused(g, {"seat": 2, "play": ["4S", "4H", "4D"]}, "does_not_beat") == "three 4s does not beat three 5s"
    # A-A-A is always a bomb, never a triple: it still answers the triple, as a bomb
    assert "play A♠ A♦ A♣" in legal(g)
    play(g, 2, "AS AD AC")
    assert g.current is not None and g.current[2] == 11


def test_straights_need_five_ranks_end_at_the_ace_and_never_hold_the_2() -> None:
    from tapete.engine.runfast.combos import classify, describe

    def shape(cards: str) -> str:
        return describe(classify(action_of(cards.split())))

    assert shape("TS JH QD KC AS") == "a straight from 10 to A"
    assert shape("3S 4H 5D 6C 7S 8S 9S TS JS QS KS AD") == "a straight from 3 to A"
    assert shape("JS QH KD AC 2S") == "no combination"
    assert shape("2S 3H 4D 5C 6S") == "no combination"
    assert shape("3S 4H 5D 6C") == "no combination"
    assert shape("3S 4H 5D 6C 8S") == "no combination"


def test_straight_beats_same_length_higher_only(game: Game) -> None:
    g = game("3H 4S 5S 6S 7S", "4H 5H 6H 7H 8H 9H", "5D 6D 7D 8D 9D")
    play(g, 0, "3H 4S 5S 6S 7S")
    message = refused(g, {"seat": 1, "play": ["4H", "5H", "6H", "7H", "8H", "9H"]}, "does_not_beat")
    assert message.startswith("a straight from 4 to 9 does not beat a straight from 3 to 7")
    play(g, 1, "4H 5H 6H 7H 8H")
    assert "play 5♦ 6♦ 7♦ 8♦ 9♦" in legal(g)
    play(g, 2, "5D 6D 7D 8D 9D")


def test_pair_runs(game: Game) -> None:
    g = game("3H 3S 4S 4H", "4D 4C 5S 5H 6S 6H", "5D 5C 6D 6C 7S 7H")
    play(g, 0, "3H 3S 4S 4H")
    refused(g, {"seat": 1, "play": ["4D", "4C", "5S", "5H", "6S", "6H"]}, "does_not_beat")
    play(g, 1, "4D 4C 5S 5H")
    assert "play 5♦ 5♣ 6♦ 6♣" in legal(g) and "play 6♦ 6♣ 7♠ 7♥" in legal(g)
    play(g, 2, "6D 6C 7S 7H")
    from tapete.engine.runfast.combos import classify

    assert classify(action_of(["KS", "KH", "AS", "AD", "2S"])) is None
    assert classify(action_of(["5S", "5H", "6S", "6H", "6D"])) is None


def test_bombs_beat_ordinary_plays_and_lower_bombs(game: Game) -> None:
    g = game("3H 4S 5S 6S 7S", "8S 8H 8D 8C", "JS JH JD JC AS AD AC")
    play(g, 0, "3H 4S 5S 6S 7S")
    play(g, 1, "8S 8H 8D 8C")
    assert legal(g) == {"play J♠ J♥ J♦ J♣", "play A♠ A♦ A♣"}
    play(g, 2, "JS JH JD JC")
    assert legal(g) == {"pass"}
    pass_(g, 0)
    assert legal(g) == {"pass"}
    pass_(g, 1)
    assert g.to_act == 2 and g.current is None


def test_four_of_a_kind_does_not_beat_aaa(game: Game) -> None:
    g = game("3H", "AS AD AC", "KS KH KD KC")
    play(g, 0, "3H")
    play(g, 1, "AS AD AC")
    message = refused(g, {"seat": 2, "play": ["KS", "KH", "KD", "KC"]}, "does_not_beat")
    assert message == "a bomb of four Ks does not beat the ace bomb (A-A-A): only a higher bomb beats a bomb"
    assert legal(g) == {"pass"}


def test_celestial_bomb_cannot_be_beaten(game: Game) -> None:
    g = game("3H 3S 3D 3C", "AS AD AC", "KS KH KD KC")
    play(g, 0, "3H 3S 3D 3C")
    assert g.current is not None and g.current[2] == 12
    assert legal(g) == {"pass"}
    message = refused(g, {"seat": 1, "play": ["AS", "AD", "AC"]}, "does_not_beat")
    assert "nothing beats the celestial bomb" in message
    pass_(g, 1)
    pass_(g, 2)
    assert g.to_act == 0 and g.bonus == [0, 0, 0]


def test_four_threes_later_would_be_the_lowest_bomb() -> None:
    from tapete.engine.runfast.combos import FOUR_THREES, SINGLE, TWO, beats, classify, ordinary_key

    four_threes = classify(action_of(["3S", "3H", "3D", "3C"]))
    assert four_threes == FOUR_THREES
    assert beats(four_threes, ordinary_key(SINGLE, 1, TWO))
    assert not beats(four_threes, classify(action_of(["4S", "4H", "4D", "4C"])))  # type: ignore[arg-type]


def test_bombs_may_be_split(game: Game) -> None:
    g = game("3H", "9S 9H 9D 9C AS AD AC")
    play(g, 0, "3H")
    choices = legal(g)
    assert {"play 9♠", "play A♠", "play 9♠ 9♥ 9♦ 9♣", "play A♠ A♦ A♣"} <= choices
    g2 = game("3H 3S", "9S 9H 9D 9C AS AD AC")
    play(g2, 0, "3H 3S")
    assert {"play 9♠ 9♥", "play A♠ A♦", "play 9♠ 9♥ 9♦ 9♣"} <= legal(g2)


# --- must beat, passes, rounds ---------------------------------------------------------
def test_must_beat_forces_a_bomb(game: Game) -> None:
    g = game("3H", "2S", "7S 7H 7D 7C")
    play(g, 0, "3H")
    play(g, 1, "2S")
    assert legal(g) == {"play 7♠ 7♥ 7♦ 7♣"}
    message = refused(g, {"seat": 2, "pass": True}, "must_beat")
    assert message == "you must beat a single 2 when you can: you can (for example with 7♠ 7♥ 7♦ 7♣)"
    play(g, 2, "7S 7H 7D 7C")


def test_pass_refused_while_a_response_exists(game: Game) -> None:
    g = game("3H", "4S")
    play(g, 0, "3H")
    assert "play 4♠" in legal(g) and "pass" not in legal(g)
    message = refused(g, {"seat": 1, "pass": True}, "must_beat")
    assert message.startswith("you must beat a single 3 when you can: you can (for example with ")


def test_a_bomb_is_legal_even_with_an_ordinary_response(game: Game) -> None:
    g = game("3H", "4S 8S 8H 8D 8C")
    play(g, 0, "3H")
    assert {"play 4♠", "play 8♠ 8♥ 8♦ 8♣"} <= legal(g)
    play(g, 1, "8S 8H 8D 8C")


def test_two_passes_give_the_lead_to_the_last_player(game: Game) -> None:
    g = game("3H", "2S")
    play(g, 0, "3H")
    play(g, 1, "2S")
    pass_(g, 2)
    assert g.to_act == 0 and g.observation(0)["passed"] == [2]
    pass_(g, 0)
    assert g.to_act == 1 and g.current is None
    obs = g.observation(1)
    assert obs["current"] is None and obs["passed"] == []
    assert PASS not in g.legal_actions()
    assert any(len(a.names()) == 2 for a in g.legal_actions())  # a free lead: any shape


def test_a_pass_then_a_play_keeps_the_round_going(game: Game) -> None:
    g = game("3H 2S", "AS")
    play(g, 0, "3H")
    play(g, 1, "AS")
    assert legal(g) == {"pass"}  # only 2♠ beats an ace, and seat 0 holds it
    pass_(g, 2)
    play(g, 0, "2S")  # a pass, then a play: the round goes on
    assert g.passes == 0 and g.to_act == 1 and g.observation(1)["passed"] == []
    pass_(g, 1)
    pass_(g, 2)
    assert g.to_act == 0 and g.current is None


# --- settlement and bomb bonuses ----------------------------------------------------------
SPEC_EXAMPLE = (
    "3H 3S 4S 4H 5S 5H 6S 6H 7S 7H 9S 9H 9D 9C TC JC",
    "KS KH KD KC QS QH QD QC AS AD AC 4D 5D 6D 7D 8S",
    "",
)


def test_spec_settlement_example_played_out(game: Game) -> None:
    """B goes out; A played and holds 6 cards with four 9s (pays 16); C never played and
    holds all 16 with 2♠ (pays 42); B receives 58. B's answering bomb adds 20 / −10 / −10."""
    g = game(*SPEC_EXAMPLE)
    play(g, 0, "3H 3S 4S 4H 5S 5H 6S 6H 7S 7H")
    play(g, 1, "KS KH KD KC")
    pass_(g, 2)
    pass_(g, 0)
    assert g.bonus == [-10, 20, -10]
    play(g, 1, "QS QH QD QC")
    pass_(g, 2)
    pass_(g, 0)
    play(g, 1, "AS AD AC")
    pass_(g, 2)
    pass_(g, 0)
    assert g.bonus == [-10, 20, -10]  # led bombs earn nothing
    play(g, 1, "4D 5D 6D 7D 8S")
    assert g.is_over() and g.winner() == 1 and g.to_act is None
    s = g.settlement
    assert s is not None
    assert s.payments == (16, 0, 42)
    assert s.spring == (False, False, True)
    assert s.bombs == (1, 0, 0) and s.two_of_spades == (False, False, True)
    assert s.change == (-16 - 10, 58 + 20, -42 - 10)
    assert g.scores() == [-26, 78, -52] and sum(g.scores()) == 0
    refused(g, {"seat": 2, "pass": True}, "wrong_phase")
    assert g.legal_actions() == []


def test_spec_settlement_example_pure() -> None:
    from tapete.engine.runfast.settlement import settle

    a = action_of(["9S", "9H", "9D", "9C", "TC", "JC"])
    c = action_of(["3D", "3C", "4C", "5C", "6C", "7C", "8H", "8D", "8C", "TS", "TH", "TD", "JS", "JH", "JD", "2S"])
    s = settle(1, [a, 0, c], [True, True, False])
    assert s.payments == (16, 0, 42) and s.change == (-16, 58, -42)


def test_spring_doubles_only_the_per_card_points() -> None:
    from tapete.engine.runfast.settlement import settle

    hand = action_of(["9S", "9H", "9D", "9C", "2S"])
    never = settle(0, [0, hand, hand], [True, False, True])
    assert never.card_points == (0, 10, 5)
    assert never.payments == (0, 10 + 10 + 10, 5 + 10 + 10)


def test_response_bomb_bonus_after_two_passes_and_led_bomb_none(game: Game) -> None:
    g = game("3H", "2S", "8S 8H 8D 8C")
    play(g, 0, "3H")
    play(g, 1, "2S")
    play(g, 2, "8S 8H 8D 8C")
    obs = g.observation(0)
    assert obs["pending_bomb"] == {"seat": 2, "cards": ["8S", "8H", "8D", "8C"]} and g.bonus == [0, 0, 0]
    pass_(g, 0)
    pass_(g, 1)
    assert g.bonus == [-10, -10, 20]
    assert g.observation(1)["bomb_bonuses"] == [{"seat": 2, "cards": ["8S", "8H", "8D", "8C"], "points": 20}]


def test_led_bomb_earns_nothing(game: Game) -> None:
    g = game("3H", "2S 8S 8H 8D 8C")
    play(g, 0, "3H")
    play(g, 1, "2S")
    pass_(g, 2)
    pass_(g, 0)
    play(g, 1, "8S 8H 8D 8C")  # led
    assert g.pending == -1
    pass_(g, 2)
    pass_(g, 0)
    assert g.bonus == [0, 0, 0] and g.to_act == 1


def test_a_bomb_answering_a_led_bomb_is_a_response(game: Game) -> None:
    g = game("3H", "AS AD AC 5S 5H 5D 5C", "8S 8H 8D 8C")
    play(g, 0, "3H")
    play(g, 1, "AS AD AC")  # answers 3♥: pending
    assert legal(g) == {"pass"}  # 8888 cannot beat A-A-A
    pass_(g, 2)
    pass_(g, 0)
    assert g.bonus == [-10, 20, -10]
    play(g, 1, "5S 5H 5D 5C")  # a led bomb earns nothing …
    play(g, 2, "8S 8H 8D 8C")  # … but the bomb answering it does
    pass_(g, 0)
    pass_(g, 1)
    assert g.bonus == [-20, 10, 10]


def test_higher_bomb_takes_the_pending_bonus(game: Game) -> None:
    g = game("3H 5S", "4S 8S 8H 8D 8C", "AS AD AC")
    play(g, 0, "3H")
    play(g, 1, "8S 8H 8D 8C")
    assert g.pending == 1
    play(g, 2, "AS AD AC")
    assert g.pending == 2
    pass_(g, 0)
    pass_(g, 1)
    assert g.bonus == [-10, -10, 20]


def test_last_card_response_bomb_ends_the_deal_and_its_bonus_stands(game: Game) -> None:
    g = game("3H", "2S 5S 6S 7S 8S 9S TS JS QS KS AS 3S 4S 4H 4D 4C")
    play(g, 0, "3H")
    play(g, 1, "2S")
    pass_(g, 2)
    pass_(g, 0)
    play(g, 1, "5S 6S 7S 8S 9S TS JS QS KS AS")
    pass_(g, 2)
    pass_(g, 0)
    play(g, 1, "3S")
    g.apply(g.legal_actions()[0])  # seat 2 must answer the single 3
    seat0 = g.legal_actions()
    g.apply(next((a for a in seat0 if a and a.bit_count() == 1), seat0[0]))
    assert g.to_act == 1
    play(g, 1, "4S 4H 4D 4C")
    assert g.is_over() and g.winner() == 1
    s = g.settlement
    assert s is not None and s.bonus == (-10, 20, -10)
    assert s.change[1] == sum(s.payments) + 20 and sum(s.change) == 0


def test_card_names_are_a_new_list_each_time() -> None:
    """Names are kept per mask (every view lists every play again): changing one answer changes no other."""
    mask = action_of(["2S", "3C", "AS", "3S"])
    first = card_names(mask)
    assert first == ["3S", "3C", "AS", "2S"]
    first.append("XX")
    assert card_names(mask) == ["3S", "3C", "AS", "2S"]
