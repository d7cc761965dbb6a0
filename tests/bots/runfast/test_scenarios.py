"""Scenarios for the easy and normal Run Fast bots."""

from __future__ import annotations

from tapete.bots import make_bot
from tests.bots.runfast.helpers import observation, played


def act(level: str, obs: dict[str, object]) -> list[str]:
    action = make_bot(level, seed=1).act(obs)
    assert action in obs["legal_actions"]  # type: ignore[operator]
    return played(action)


def test_easy_leads_its_lowest_combination() -> None:
    assert act("easy", observation("4S 5H 6D 7C 8S KS KH 2S")) == ["4S"]


def test_easy_answers_with_the_lowest_play_that_beats() -> None:
    assert act("easy", observation("4S 9H JD KS KH 2S", current="8C")) == ["9H"]
    assert act("easy", observation("4S 4H JD JS KS KH", current="8C 8D")) == ["JS", "JD"]


def test_easy_prefers_an_ordinary_play_to_a_bomb_and_passes_only_when_it_must() -> None:
    assert act("easy", observation("9S 9H 9D 9C KS", current="QC")) == ["KS"]
    assert act("easy", observation("9S 9H 9D 9C 4S", current="QC")) == ["9S", "9H", "9D", "9C"]
    obs = observation("4S 5H", current="QC")
    assert make_bot("easy").act(obs) == {"seat": 0, "pass": True}


def test_normal_goes_out_in_one_play_when_it_can() -> None:
    assert sorted(act("normal", observation("5S 6H 7D 8C 9S TS"))) == sorted(["5S", "6H", "7D", "8C", "9S", "TS"])
    assert sorted(act("normal", observation("JS JH QD QC", current="4S 4H 5S 5H"))) == ["JH", "JS", "QC", "QD"]


def test_normal_keeps_a_bomb_instead_of_breaking_it_for_a_single() -> None:
    assert act("normal", observation("9S 9H 9D 9C KS 4D 5D", current="8C")) == ["KS"]
    assert act("normal", observation("9S 9H 9D 9C 4D 5D", current="8C")) != ["9S"]


def test_normal_does_not_break_a_straight_for_a_single() -> None:
    # 5-6-7-8-9 is one play; the Q answers the single without breaking it
    assert act("normal", observation("5S 6H 7D 8C 9S QH", current="4C")) == ["QH"]


def test_normal_leads_a_shape_an_opponent_with_one_card_cannot_follow() -> None:
    lead = act("normal", observation("4S 7H 7D JC", sizes=(4, 1, 10)))
    assert len(lead) > 1  # the pair of 7s, not a single the last card could beat


def test_normal_plays_its_highest_single_when_it_must_lead_one_against_a_last_card() -> None:
    assert act("normal", observation("4S 8H JC", sizes=(3, 1, 10))) == ["JC"]


def test_normal_bombs_when_an_opponent_is_about_to_go_out() -> None:
    assert act("normal", observation("9S 9H 9D 9C 4D 5D 7H", current="KC KD", current_seat=1, sizes=(7, 2, 10))) == [
        "9S",
        "9H",
        "9D",
        "9C",
    ]


def test_normal_plays_a_master_before_its_last_play() -> None:
    # 2♠ cannot be beaten by anything but a bomb: play it, then the pair goes out
    assert act("normal", observation("2S 6S 6H", sizes=(3, 10, 10))) == ["2S"]


def test_hard_goes_out_when_it_can() -> None:
    obs = observation("JS JH QD QC", current="4S 4H 5S 5H")
    action = make_bot("hard", seed=1, samples=2, candidates=2).act(obs)
    assert sorted(played(action)) == ["JH", "JS", "QC", "QD"]
