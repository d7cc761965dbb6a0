"""One conformance suite for every profile: seeded random games with invariants.

For each profile, random legal games are played and after every action we check:
legal actions exist until the end (and none after), cards are conserved, every trick has
one winner (checked against an independent reference), an illegal action changes
nothing, clones are independent, a seat's observation does not change when only other
seats' hidden cards change, the record replays to the same result, and a pickled game
(as a worker hands a rebuilt table to the server) comes back the same and plays on the same.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

import tapete
from tapete import IllegalAction
from tapete.cards import iter_bits
from tapete.records import replay
from tests.helpers import sensible_random_action

PROFILES = tapete.profile_names()
SPADES_PROFILES = [p for p in PROFILES if tapete.profile_info(p).family == "spades"]
GAMES_PER_PROFILE = 25

# Short games so that every profile reaches its end (and its tourney) in a test run.
FAST_OPTIONS: dict[str, dict[str, object]] = {
    name: {"target": 150, "floor": -250, **({"tokens": 2} if tapete.load_profile(name).tokens else {})}
    for name in SPADES_PROFILES
}


# --- an independent reference for the Spades-family trick rules -----------------------
def _suit(card: int, deuces: bool = False) -> int:
    return 3 if card >= 39 or (deuces and card == 13) else card // 13


def _rank(card: int, deuces: bool) -> int:
    """Order within a suit; deuces high puts 2♦ > 2♠ above A♠ and the jokers above them."""
    if card >= 52:
        return 200 + card
    if deuces and card == 13:
        return 101
    if deuces and card == 39:
        return 100
    return card


def reference_playable(game: Any, seat: int) -> set[int]:
    rules = game.rules
    deuces = rules.deuces_high
    hand = set(iter_bits(game.hands[seat]))
    trick = game.trick
    if trick:
        led = _suit(trick[0], deuces)
        follow = {c for c in hand if _suit(c, deuces) == led}
        if not rules.must_beat:
            return follow or hand
        best = max(
            (c for c in trick if _suit(c, deuces) in (led, 3)),
            key=lambda c: (_suit(c, deuces) == 3, _rank(c, deuces)),
        )
        cut = _suit(best, deuces) == 3 and led != 3
        if follow:
            higher = {c for c in follow if _rank(c, deuces) > _rank(best, deuces)}
            return follow if cut else (higher or follow)
        trumps = {c for c in hand if _suit(c, deuces) == 3}
        if not trumps:
            return hand
        if cut:
            return {c for c in trumps if _rank(c, deuces) > _rank(best, deuces)} or hand
        return trumps
    if game.must_lead_2c:
        return {0}
    if rules.lead_spades == "when_broken" and not game.spades_broken:
        return {c for c in hand if _suit(c, deuces) != 3} or hand
    return hand


def reference_winner(leader_seats: list[int], cards: list[int], deuces: bool = False) -> int:
    pairs = list(zip(cards, leader_seats, strict=True))
    trumps = [(_rank(c, deuces), s) for c, s in pairs if _suit(c, deuces) == 3]
    if trumps:
        return max(trumps)[1]
    led = _suit(cards[0], deuces)
    return max((_rank(c, deuces), s) for c, s in pairs if _suit(c, deuces) == led)[1]


def check_spades_invariants(game: Any) -> None:
    rules = game.rules
    deck = sum(1 << int(c) for c in rules.deck)
    hands = game.hands
    union = 0
    for h in hands:
        assert union & h == 0, "a card is in two hands"
        union |= h
    played = 0
    for trick in game.log.tricks:
        for c in trick.cards:
            assert not (played >> c) & 1, "a card was played twice"
            played |= 1 << c
    assert union | played == deck and union & played == 0, "cards are not conserved"
    for trick in game.log.tricks:
        if trick.winner is not None:
            seats = trick.seats(game.num_players)
            assert len(trick.cards) == game.num_players - (1 if trick.sitting_out >= 0 else 0)
            assert trick.winner == reference_winner(seats, trick.cards, rules.deuces_high)
    if game.phase.name == "PLAY":
        expected = reference_playable(game, game.to_act)
        assert {int(a) for a in game.legal_actions()} == expected
        assert game.legal_mask() == sum(1 << c for c in expected)


def swap_hidden_same_suit(game: Any, keep: int, rng: random.Random) -> Any | None:
    """A game identical but for same-suit cards swapped between two seats other than ``keep``.

    Same-suit swaps keep every past action legal (voids and all-spade hands are kept), so
    the swapped game is rebuilt by replaying the same record on the new deal.
    """
    others = [s for s in range(game.num_players) if s != keep]
    if len(others) < 2 or game.rules.must_beat:  # under must-beat a card's rank decides what was legal
        return None
    a, b = rng.sample(others, 2)
    fixed = 1 if game.rules.first_lead == "2C" else 0  # who holds 2♣ decides who leads: public
    remaining_a, remaining_b = game.hands[a] & ~fixed, game.hands[b] & ~fixed
    for suit_mask in game.rules.trick_tables.suit_mask:
        ca = list(iter_bits(remaining_a & suit_mask))
        cb = list(iter_bits(remaining_b & suit_mask))
        if ca and cb:
            x, y = rng.choice(ca), rng.choice(cb)
            record = game.record()
            hand = record["hands"][-1]
            names = {x: tapete.Card(x).__str__(), y: tapete.Card(y).__str__()}
            swap = {names[x]: names[y], names[y]: names[x]}
            hand["cards"] = [[swap.get(c, c) for c in cards] for cards in hand["cards"]]
            result = replay(record)
            assert result.exit_status == 0, result.report["error"]
            return result.game
    return None


def check_replay(game: Any) -> None:
    record = json.loads(json.dumps(game.record()))
    result = replay(record)
    assert result.exit_status == 0, result.report["error"]
    report = result.report
    assert report["finished"] == game.is_over()
    assert report["winner"] == game.winner()
    assert report["scores"] == game.scores()
    assert report["to_act"] == (None if game.is_over() else game.to_act)
    legal = [game.action_to_record(a, game.to_act) for a in game.legal_actions()]
    assert report["legal_actions"] == legal
    for seat in range(game.num_players):
        assert result.game.observation(seat) == game.observation(seat)


def try_illegal(game: Any, rng: random.Random) -> None:
    """Some action that is not legal now must be refused and change nothing."""
    if game.is_over():
        return
    legal = {int(a) for a in game.legal_actions()}
    seat = game.to_act
    candidates: list[Any] = []
    if hasattr(game, "hands") and game.phase.name == "PLAY":
        candidates = [c for c in range(55) if c not in legal]
    candidates += [{"seat": (seat + 1) % game.num_players, "play": "AS"}, {"seat": seat}, {"seat": seat, "bid": 99}]
    bad = rng.choice(candidates)
    before = [game.observation(s) for s in range(game.num_players)], game.record()
    with pytest.raises(IllegalAction):
        game.apply(bad)
    assert ([game.observation(s) for s in range(game.num_players)], game.record()) == before


@pytest.mark.parametrize("profile", SPADES_PROFILES)
def test_spades_family_conformance(profile: str) -> None:
    for k in range(GAMES_PER_PROFILE):
        rng = random.Random(f"{profile}/{k}")
        game = tapete.new_game(profile, seed=k, options=FAST_OPTIONS[profile])
        snapshot: tuple[Any, list[dict[str, Any]]] | None = None
        steps = 0
        while not game.is_over():
            assert game.legal_actions(), "no legal action before the end"
            check_spades_invariants(game)
            if rng.random() < 0.02:
                try_illegal(game, rng)
            if rng.random() < 0.01:
                keep = rng.randrange(game.num_players)
                swapped = swap_hidden_same_suit(game, keep, rng)
                if swapped is not None:
                    assert swapped.observation(keep) == game.observation(keep)
            if snapshot is None and rng.random() < 0.01:
                clone = game.clone()
                snapshot = (clone, [clone.observation(s) for s in range(game.num_players)], clone.record())
            game.apply(sensible_random_action(game, rng))
            steps += 1
            assert steps < 20_000, "the game does not end"
        assert game.legal_actions() == ()
        assert game.to_act is None
        assert game.winner() is not None
        check_spades_invariants(game)
        check_replay(game)
        if snapshot is not None:
            clone, views, record = snapshot
            assert [clone.observation(s) for s in range(game.num_players)] == views
            assert clone.record() == record


@pytest.mark.parametrize("profile", SPADES_PROFILES)
def test_a_clone_played_on_leaves_the_original_as_it_was(profile: str) -> None:
    """Clones share finished hands and tricks: playing a clone on, through hand and game
    ends, must change nothing the original shows (its record and every seat's view)."""
    rng = random.Random(f"clone {profile}")
    game = tapete.new_game(profile, seed=7, options=FAST_OPTIONS[profile])
    checks = 0
    while not game.is_over():
        if rng.random() < 0.05:
            record = game.record()
            views = [game.observation(s) for s in range(game.num_players)]
            clone = game.clone()
            for _ in range(rng.randrange(1, 120)):
                if clone.is_over():
                    break
                clone.apply(sensible_random_action(clone, rng))
            assert game.record() == record
            assert [game.observation(s) for s in range(game.num_players)] == views
            checks += 1
        game.apply(sensible_random_action(game, rng))
    assert checks > 0


@pytest.mark.parametrize("profile", SPADES_PROFILES)
def test_scores_are_the_sum_of_hand_changes(profile: str) -> None:
    game = tapete.new_game(profile, seed=99, options=FAST_OPTIONS[profile])
    rng = random.Random(profile)
    while not game.is_over():
        game.apply(sensible_random_action(game, rng))
    totals: dict[int, list[int]] = {}
    for log in game.logs:
        if log.result is None:
            continue
        r = log.result
        assert r.change == tuple(c + p + q for c, p, q in zip(r.contract, r.prizes, r.penalty, strict=True))
        running = totals.setdefault(log.game, [0] * len(r.change))
        for i, v in enumerate(r.change):
            running[i] += v
        assert running == log.scores
    assert list(totals[game.game_number]) == game.scores_
    assert game.scores() == [x / game.rules.point_scale for x in game.scores_]


def test_observation_changes_when_own_cards_change() -> None:
    """The swap check above can fail: the swapped seats themselves do see a difference."""
    game = tapete.new_game("cutthroat", seed=4)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    rng = random.Random(1)
    swapped = swap_hidden_same_suit(game, keep=0, rng=rng)
    assert swapped is not None
    assert swapped.observation(0) == game.observation(0)
    assert swapped.observation(1) != game.observation(1) or swapped.observation(2) != game.observation(2)


@pytest.mark.parametrize("profile", PROFILES)
def test_observations_together_equal_each_seats_own(profile: str) -> None:
    """``observations(seats)`` (the server builds every watched seat's view at once) gives
    each seat what ``observation(seat)`` gives, for any set of seats, at every step."""
    rng = random.Random(f"observations {profile}")
    options = FAST_OPTIONS.get(profile, {})
    for k in range(3):
        game = tapete.new_game(profile, seed=k, options=options)
        while not game.is_over():
            seats = [s for s in range(game.num_players) if rng.random() < 0.7]
            together = game.observations(seats)
            assert list(together) == seats
            for seat in seats:
                assert json.dumps(together[seat]) == json.dumps(game.observation(seat))
            game.apply(sensible_random_action(game, rng))
        together = game.observations(range(game.num_players))
        assert [json.dumps(together[s]) for s in range(game.num_players)] == [
            json.dumps(game.observation(s)) for s in range(game.num_players)
        ]


@pytest.mark.parametrize("profile", PROFILES)
def test_observation_parts_are_a_public_part_and_each_seats_own_that_make_its_observation(profile: str) -> None:
    """``observation_parts(seats)`` (the server finds the public part's change once for every
    seat): the parts share no key, one public part is built for all, and the public part with a
    seat's own part is that seat's ``observation``, at every step; no own part is the same object
    as another seat's."""
    rng = random.Random(f"parts {profile}")
    options = FAST_OPTIONS.get(profile, {})
    for k in range(3):
        game = tapete.new_game(profile, seed=k, options=options)
        while True:
            seats = [s for s in range(game.num_players) if rng.random() < 0.7]
            public, own = game.observation_parts(seats)
            assert list(own) == seats
            for seat in seats:
                assert not public.keys() & own[seat].keys()
                assert own[seat]["seat"] == seat
                assert json.dumps({**public, **own[seat]}, sort_keys=True) == json.dumps(
                    game.observation(seat), sort_keys=True
                )
            assert len({id(v) for v in own.values()}) == len(seats)
            if game.is_over():
                break
            game.apply(sensible_random_action(game, rng))


@pytest.mark.parametrize("profile", PROFILES)
def test_views_built_together_keep_their_option_values_and_a_seats_own_view_gets_copies(profile: str) -> None:
    """The server reads the views ``observations`` builds and compares them with the ones of
    the version before: their option values are the same objects at every version (nothing
    to compare), while ``observation`` gives copies a caller may change."""
    rng = random.Random(f"kept {profile}")
    game = tapete.new_game(profile, seed=2, options=FAST_OPTIONS.get(profile, {}))
    first = game.observations([0])[0]
    game.apply(sensible_random_action(game, rng))
    later = game.observations([0, 1])
    assert later[0]["rules"] is first["rules"] and later[1]["options"] is first["options"]
    own = game.observation(0)
    assert own["rules"] == first["rules"] and own["rules"] is not first["rules"]
    own["rules"].clear()
    assert game.observations([0])[0]["rules"] == later[0]["rules"] != {}


@pytest.mark.parametrize("profile", PROFILES)
def test_views_built_together_keep_the_phase_and_the_last_hands_result_from_version_to_version(profile: str) -> None:
    """An unchanged phase, and the result of the hand before while it stays the last one, are the
    same objects in the views ``observations`` builds at two versions (the server's change
    between them skips them by identity); ``observation`` gives a copy of the result."""
    rng = random.Random(f"kept phase {profile}")
    game = tapete.new_game(profile, seed=3, options=FAST_OPTIONS.get(profile, {}))
    before = game.observations([0])[0]
    kept_results = 0
    for _ in range(400):
        if game.is_over():
            break
        game.apply(sensible_random_action(game, rng))
        view = game.observations([0])[0]
        if view["phase"] == before["phase"]:
            assert view["phase"] is before["phase"]
        last = view.get("last_hand")
        if last is not None and last == before.get("last_hand"):
            assert last is before["last_hand"]
            own = game.observation(0)["last_hand"]
            assert own == last and own is not last
            kept_results += 1
        before = view
    if "last_hand" in before and game.is_over():  # the last hand's result, built again, is the kept one
        assert before["last_hand"] is not None and game.observations([1])[1]["last_hand"] is before["last_hand"]
        kept_results += 1
    if "last_hand" in before:
        assert kept_results > 0  # a hand ended and its result stayed the last one for a while


@pytest.mark.parametrize("profile", PROFILES)
def test_a_pickled_game_comes_back_the_same_and_plays_on_the_same(profile: str) -> None:
    """The server's workers rebuild a table from its log and send the game back pickled
    (``server/jobs.py``); ``tests/test_compiled.py`` runs this against the compiled engine,
    whose classes pickle only through their own ``__reduce__`` (``engine/pickling.py``)."""
    rng = random.Random(f"pickle {profile}")
    game = tapete.new_game(profile, seed=11, options=FAST_OPTIONS.get(profile, {}))
    checks = 0
    while not game.is_over():
        if checks == 0 or rng.random() < 0.05:
            copy = pickle.loads(pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
            assert type(copy) is type(game)
            assert copy.record() == game.record()
            assert [copy.observation(s) for s in range(game.num_players)] == [
                game.observation(s) for s in range(game.num_players)
            ]
            assert list(copy.legal_actions()) == list(game.legal_actions())
            for _ in range(rng.randrange(1, 60)):  # both play on, through hand ends
                if game.is_over():
                    break
                action = sensible_random_action(game, rng)
                game.apply(action)
                copy.apply(action)
                assert copy.observation(0) == game.observation(0)
            assert copy.record() == game.record()
            assert copy.is_over() == game.is_over() and list(copy.scores()) == list(game.scores())
            checks += 1
            continue
        game.apply(sensible_random_action(game, rng))
    assert checks > 1


@pytest.mark.parametrize("profile", PROFILES)
def test_replay_summary_of_the_last_hands_is_the_tail_of_the_whole(profile: str) -> None:
    """``replay_summary(last_hands=k)`` (the server's end-of-hand summary reads the last two)
    is the whole summary with only its latest ``k`` hands, at every hand boundary and at the end."""
    rng = random.Random(f"last hands {profile}")
    game = tapete.new_game(profile, seed=5, options=FAST_OPTIONS.get(profile, {}))
    checked = 0
    hands_before = len(game.replay_summary()["hands"])
    while not game.is_over():
        game.apply(sensible_random_action(game, rng))
        whole = game.replay_summary()
        if len(whole["hands"]) == hands_before and not game.is_over():
            continue
        hands_before = len(whole["hands"])
        for k in (1, 2, 3):
            tail = game.replay_summary(last_hands=k)
            assert tail["hands"] == whole["hands"][-k:]
            assert {key: v for key, v in tail.items() if key != "hands"} == {
                key: v for key, v in whole.items() if key != "hands"
            }
        checked += 1
    assert checked >= 1
