"""Profiles: shipped data files, option overrides and clear errors."""

from __future__ import annotations

import pytest

import tapete
from tapete import ProfileError

EXPECTED = {
    "spades",
    "cutthroat",
    "cutthroat-official",
    "cutthroat-300-5bags",
    "cutthroat-300-perbag",
    "cutthroat-500-3jacks",
    "cutthroat-4p",
    "cutthroat-5p",
    "cutthroat-5p-2jokers",
    "cutthroat-5p-3jokers",
}


def test_shipped_profiles() -> None:
    assert set(tapete.profile_names()) >= EXPECTED
    for name in tapete.profile_names():
        info = tapete.profile_info(name)
        assert info.description and info.title
        assert tapete.load_profile(name).profile == name


def test_spades_and_cutthroat_settings() -> None:
    s = tapete.load_profile("spades")
    assert (s.players, s.partnership, s.target, s.floor, s.deck_size) == (4, True, 500, -200, 52)
    c = tapete.load_profile("cutthroat")
    assert (c.players, c.partnership, c.target, c.deck_size, c.bag_rule) == (3, False, 200, 51, "accumulate")
    assert c.special_bids == frozenset() and c.prize_jacks == frozenset() and c.tokens is None


def test_official_family_settings() -> None:
    o = tapete.load_profile("cutthroat-official")
    assert (o.target, o.bag_rule, o.bag_limit, o.blind_six, o.tokens) == (500, "limit", 10, "once", 5)
    assert o.special_bids == {"1F", "2F", "B6", "BN", "SM"} and o.prize_jacks == {"JD", "JC"}
    assert tapete.load_profile("cutthroat-300-5bags").bag_limit == 5
    assert tapete.load_profile("cutthroat-300-perbag").bag_rule == "per_hand"
    j = tapete.load_profile("cutthroat-500-3jacks")
    assert j.blind_six == "unlimited" and j.prize_jacks == {"JD", "JC", "JH"}
    assert tapete.load_profile("cutthroat-4p").hand_sizes(0) == [13] * 4
    assert tapete.load_profile("cutthroat-5p").hand_sizes(0) == [10] * 5
    assert tapete.load_profile("cutthroat-5p-2jokers").hand_sizes(0) == [10, 11, 11, 11, 11]
    assert tapete.load_profile("cutthroat-5p-3jokers").hand_sizes(0) == [11] * 5


def test_options_override_single_fields() -> None:
    r = tapete.load_profile("cutthroat", {"target": 300, "prize_jacks": ["JD"]})
    assert r.target == 300 and r.prize_jacks == {"JD"}
    assert r.overrides_json() == {"prize_jacks": ["JD"], "target": 300}
    g = tapete.new_game("cutthroat", seed=1, options={"target": 300})
    assert g.record()["options"] == {"target": 300}


@pytest.mark.parametrize(
    ("profile", "options", "code", "words"),
    [
        ("nope", None, "unknown_profile", "known profiles"),
        ("cutthroat", {"target": -5}, "bad_option", "'target' must be an integer ≥ 1"),
        ("cutthroat", {"target": "500"}, "bad_option", "'target'"),
        ("cutthroat", {"target": True}, "bad_option", "'target'"),
        ("cutthroat", {"special_bids": ["XX"]}, "bad_option", "'XX' is not one of"),
        ("cutthroat", {"bag_rule": "never"}, "bad_option", "'bag_rule'"),
        ("cutthroat", {"colour": "red"}, "unknown_option", "known options"),
        ("spades", {"special_bids": ["B6"]}, "bad_option", "partnership"),
        ("cutthroat", {"players": 60}, "bad_option", "'players'"),
        ("cutthroat", {"first_lead": "2C"}, "bad_option", "2C is removed"),
        ("cutthroat", [1, 2], "bad_option", "options must be an object"),
    ],
)
def test_bad_profiles_and_options(profile: str, options: object, code: str, words: str) -> None:
    with pytest.raises(ProfileError) as err:
        tapete.load_profile(profile, options)  # type: ignore[arg-type]
    assert err.value.code == code
    assert words in err.value.message
