"""The expert level: legal, deterministic, and playing the solver's card once the deal is known."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tapete
from tapete.bots import make_bot
from tapete.bots.budget import NO_DEADLINE
from tapete.bots.spades.expert import expert_play, nil_holds, open_nil_seats, side_mask
from tapete.bots.spades.view import is_nil, read_view
from tapete.cards import mask_of_names
from tapete.engine.spades.dds import position

FAST = {"expert_samples": 3, "expert_nodes": 30_000, "samples": 8, "rollouts": 60, "bid_samples": 8}


@pytest.mark.parametrize("profile", ["spades", "cutthroat", "cutthroat-official"])
def test_expert_plays_a_legal_hand(profile: str) -> None:
    g = tapete.new_game(profile, seed=5)
    bots = [make_bot("expert", seed=s, **FAST) for s in range(g.rules.players)]
    hand = g.hand_number
    while not g.is_over() and g.hand_number == hand:
        seat = g.to_act
        action = bots[seat].act(g.observation(seat))
        g.apply(g.parse_action(action))  # refuses anything illegal
    assert g.hand_number != hand or g.is_over()


def test_expert_plays_a_legal_hand_with_maxn_endings() -> None:
    """The official Cutthroat rules (prize jacks) with the max^n endings on."""
    g = tapete.new_game("cutthroat-official", seed=6)
    bots = [make_bot("expert", seed=s, **FAST, maxn_cards=12) for s in range(g.rules.players)]
    hand = g.hand_number
    while not g.is_over() and g.hand_number == hand:
        seat = g.to_act
        g.apply(g.parse_action(bots[seat].act(g.observation(seat))))
    assert g.hand_number != hand or g.is_over()


def _late_position(seed: int, profile: str = "spades") -> tapete.engine.spades.game.SpadesGame:
    rng = random.Random(seed)
    g = tapete.new_game(profile, seed=seed)
    while g.phase.name != "PLAY":
        legal = g.legal_actions()
        plain = [a for a in legal if g.action_to_record(a, g.to_act).get("bid") not in (0, "0", "nil", "BN")]
        g.apply(rng.choice(plain or legal))
    while max(bin(h).count("1") for h in g.hands) > 3:
        g.apply(rng.choice(g.legal_actions()))
    return g  # type: ignore[return-value]


def test_expert_is_deterministic_and_uses_the_solver_late() -> None:
    for seed in range(4):
        g = _late_position(seed)
        obs = g.observation(g.to_act)
        view = read_view(obs)
        a = make_bot("expert", seed=1, **FAST).act(obs)
        assert a == make_bot("expert", seed=1, **FAST).act(obs)
        card = expert_play(view, random.Random(0), 6, 200_000, 7)
        assert card is not None and card in view.legal
        assert expert_play(view, random.Random(0), 6, 200_000, 2) is None  # too many cards: hard decides
        assert side_mask(view) == 0b0101 << (g.to_act % 2)


def test_expert_defers_to_hard_on_a_full_hand() -> None:
    g = tapete.new_game("spades", seed=2)
    rng = random.Random(2)
    while g.phase.name != "PLAY":
        g.apply(rng.choice(g.legal_actions()))
    view = read_view(g.observation(g.to_act))
    assert expert_play(view, random.Random(0), 4, 10_000, 7) is None


def test_expert_defers_to_hard_when_too_few_deals_are_solved() -> None:
    from tapete.bots.budget import Deadline

    g = _late_position(1)
    view = read_view(g.observation(g.to_act))
    assert len(view.legal) > 1
    spent = Deadline.after(0.0)  # the time is up after the first deal
    assert expert_play(view, random.Random(0), 24, 200_000, 7, spent) is None
    card = expert_play(view, random.Random(0), 1, 200_000, 7, spent)  # one deal asked, one solved
    assert card is not None and card in view.legal


def test_a_deferred_card_is_hard_s_own_card() -> None:
    """When the expert level defers after sampling (no deal solved within one node), hard
    decides from its own draws for the position, so both levels play the same card (what
    lets `tapete arena --same-seeds` cancel the bots' luck)."""
    hard = {k: v for k, v in FAST.items() if not k.startswith("expert")}
    for seed in range(8):
        g = _late_position(seed)
        obs = g.observation(g.to_act)
        for bot_seed in range(3):
            expert = make_bot("expert", seed=bot_seed, **{**FAST, "expert_nodes": 1})
            assert expert.act(obs) == make_bot("hard", seed=bot_seed, **hard).act(obs)


def _three_tricks_left(*, their_bids: tuple[int, int], my_bags: int, lasting: bool = False) -> list[float]:
    """``trick_utilities`` three tricks from the end of a partnership hand: the observer's
    team has bid 3 + 3 and won 3 + 3 with ``my_bags`` banked, the other team bid
    ``their_bids`` and won 2 + 2."""
    from tapete.bots.spades.expert import trick_utilities
    from tapete.engine.spades.determinize import FastHand

    g = _late_position(11)
    while max(bin(h).count("1") for h in g.hands) > 3 or g.trick:
        g.apply(g.legal_actions()[0])
    seat = g.to_act
    obs = g.observation(seat)
    mine, theirs = seat % 2, 1 - seat % 2
    won = [0, 0, 0, 0]
    bids: list[int] = [0, 0, 0, 0]
    won[mine], won[mine + 2], won[theirs], won[theirs + 2] = 3, 3, 2, 2
    bids[mine], bids[mine + 2] = 3, 3
    bids[theirs], bids[theirs + 2] = their_bids
    bags = [0, 0]
    bags[mine] = my_bags
    obs["tricks_won"], obs["bids"], obs["bags"] = won, bids, bags
    view = read_view(obs)
    f = FastHand.from_observation(obs, list(g.hands))
    assert f.tricks_left == 3
    return trick_utilities(view, f, side_mask(view), f.tricks_left, lasting)


def test_expert_values_a_trick_by_the_profile_s_scoring_bags_and_sets_included() -> None:
    """Ten tricks played in partnership Spades, three left; the observer's team has made its
    6 with 9 bags, the other team needs one more trick for its 5. A trick more for the
    observer's team is worth less (the tenth bag costs 100) until it sets the other team."""
    u = _three_tricks_left(their_bids=(3, 2), my_bags=9)
    assert len(u) == 4
    assert u[1] < u[0] - 0.9  # the tenth bag: -100 points for nothing
    assert u[3] > u[2] + 0.9  # the third trick sets the other team (-50 for them)


def test_lasting_charges_a_bag_its_share_of_the_penalty() -> None:
    """The observer's team has made its 6 with no bag banked, the other team its 4; three
    tricks left. Scored as the hand alone, a trick more is a point more; valued with
    ``lasting``, it is a bag that costs 10 points less its 1."""
    hand_only = _three_tricks_left(their_bids=(2, 2), my_bags=0)
    lasting = _three_tricks_left(their_bids=(2, 2), my_bags=0, lasting=True)
    for t in range(3):  # each trick moves a bag from one team to the other
        assert hand_only[t + 1] - hand_only[t] == pytest.approx(0.02)
        assert lasting[t + 1] - lasting[t] == pytest.approx(0.02 - 0.2)


def test_lasting_valuation_is_a_parameter_off_by_default() -> None:
    from tapete.bots.spades import SpadesBot

    assert not SpadesBot("expert").lasting and SpadesBot("expert", params={"lasting": 1}).lasting
    assert not SpadesBot("hard").lasting and SpadesBot("hard", params={"lasting": 1}).lasting


def test_expert_plays_individual_endings_by_maxn() -> None:
    """Every seat for itself: from ``maxn_cards`` cards in all hands down, the card is the one worth
    most to the seat summed over the sampled deals, each searched max^n with the hard
    level's valuation (``seat_worth``); above it, or with ``maxn_cards=0``, hard decides."""
    from tapete.bots.spades.expert import individual_play, sampled_deals, seat_worth
    from tapete.bots.spades.search import candidate_plays
    from tapete.engine.spades.determinize import FastHand
    from tapete.engine.spades.maxn import MaxnSearch

    for seed in (3, 4, 5):
        g = _late_position(seed, "cutthroat")
        view = read_view(g.observation(g.to_act))
        if len(view.legal) < 2:
            continue
        assert expert_play(view, random.Random(0), 6, 200_000, 7, maxn_cards=0) is None
        left = sum(view.hand_sizes)
        assert expert_play(view, random.Random(0), 6, 200_000, 7, maxn_cards=left - 1) is None  # one card too many
        card = expert_play(view, random.Random(0), 6, 200_000, 7, maxn_cards=left)
        assert card is not None and card in view.legal
        totals: dict[int, float] = {}
        for hands in sampled_deals(view, random.Random(0), 6, NO_DEADLINE):
            f = FastHand.from_observation(view.obs, hands)
            for c, v in MaxnSearch(view.n, seat_worth(view, f)).card_values(f).items():
                totals[c] = totals.get(c, 0.0) + v[view.seat]
        cands = sorted(totals)
        want = max(cands, key=lambda c: (totals[c], -c))
        assert totals[card] == pytest.approx(totals[want])
        assert individual_play(view, random.Random(0), candidate_plays(view), 6, 1, NO_DEADLINE) is None  # no deal fits


def test_seat_worth_is_the_hard_level_s_valuation() -> None:
    """The worth of an ending adds its tricks to those taken and scores the hand by the
    profile: each seat's points less the mean of the others', in hundreds."""
    from tapete.bots.spades.expert import seat_worth
    from tapete.bots.spades.search import seat_utilities
    from tapete.engine.spades.determinize import FastHand
    from tapete.engine.spades.scoring import score_hand

    g = _late_position(3, "cutthroat")
    obs = g.observation(g.to_act)
    view = read_view(obs)
    f = FastHand.from_observation(obs, list(g.hands))
    left = f.tricks_left
    worth = seat_worth(view, f)
    for split in ([left, 0, 0], [0, left, 0], [1, 0, left - 1]):
        total = [a + b for a, b in zip(view.tricks_won, split, strict=True)]
        change = score_hand(f.rules, f.bids, total, f.bags, f.jack_winners).change
        assert list(worth(split, [])) == pytest.approx(seat_utilities(change, [0, 1, 2], 3))
    assert sum(worth([left, 0, 0], [])) == pytest.approx(0.0)  # three sides: it sums to nothing


def test_expert_plays_hands_with_a_nil_open_or_failed() -> None:
    """A nil whose bidder has taken no trick is searched for the hand's score (the worth
    search) when ``nil_cards`` allows it, else left to hard; once it has failed the rest is
    the teams' tricks (the trick solver), whatever ``nil_cards`` says."""
    g = _late_position(2)
    obs = g.observation(g.to_act)
    assert len(read_view(obs).legal) > 1
    nil_seat = (g.to_act + 1) % 4
    bids = list(obs["bids"])
    bids[nil_seat] = 0
    won = list(obs["tricks_won"])
    won[(nil_seat + 2) % 4] += won[nil_seat]
    won[nil_seat] = 0
    obs["bids"], obs["tricks_won"] = bids, list(won)
    view = read_view(obs)
    assert open_nil_seats(view) == 1 << nil_seat
    assert expert_play(view, random.Random(0), 6, 200_000, 7) is None  # by default hard decides
    card = expert_play(view, random.Random(0), 6, 200_000, 7, nil_cards=7)
    assert card is not None and card in view.legal
    won[nil_seat] += 1
    won[(nil_seat + 2) % 4] -= 1
    obs["tricks_won"] = list(won)
    view = read_view(obs)
    assert open_nil_seats(view) == 0
    card = expert_play(view, random.Random(0), 6, 200_000, 7)
    assert card is not None and card in view.legal


def test_the_nil_worth_table_scores_a_lost_nil_and_the_same_tricks_otherwise() -> None:
    """With the observer's partner on an open nil, every trick count the team can take is
    worth 200 points less (+100 becomes -100) when the partner takes one of them; for the
    other team's open nil, 200 more. Tricks go to the team either way."""
    from tapete.bots.spades.expert import nil_worth
    from tapete.engine.spades.determinize import FastHand

    g = _late_position(4)
    seat = g.to_act
    obs = g.observation(seat)
    partner, opponent = (seat + 2) % 4, (seat + 1) % 4
    bids = [2, 2, 2, 2]
    bids[partner] = 0
    bids[opponent] = 0
    won = [1, 1, 1, 1]
    won[partner] = won[opponent] = 0
    obs["bids"], obs["tricks_won"] = bids, won
    view = read_view(obs)
    watched = open_nil_seats(view)
    assert watched == (1 << partner) | (1 << opponent)
    f = FastHand.from_observation(obs, list(g.hands))
    left = f.tricks_left
    worth = nil_worth(view, f, side_mask(view), watched, left)
    stride = left + 1
    for t in range(1, left):
        kept = worth[t]
        assert worth[(1 << partner) * stride + t] == kept - 200
        assert worth[(1 << opponent) * stride + t] == kept + 200
        assert worth[watched * stride + t] == kept
    assert worth[(1 << partner) * stride + 0] == 0  # the partner cannot take one of none


def test_a_nil_that_every_card_keeps_holds_and_one_the_ace_of_spades_breaks_does_not() -> None:
    """Three seats, two cards each, seat 1 to lead: seat 0's deuces never win a trick; seat
    0's A♠ wins one whatever the others do."""
    safe = position(
        [mask_of_names(["2C", "2D"]), mask_of_names(["AC", "KD"]), mask_of_names(["QC", "AD"])],
        turn=1,
        tricks_left=2,
        spades_broken=True,
    )
    doomed = position(
        [mask_of_names(["AS", "2D"]), mask_of_names(["AC", "KD"]), mask_of_names(["QC", "AD"])],
        turn=1,
        tricks_left=2,
        spades_broken=True,
    )
    assert nil_holds([safe], 0, 0.5)
    assert not nil_holds([doomed], 0, 0.5)
    assert nil_holds([safe, doomed], 0, 0.5) and not nil_holds([safe, doomed], 0, 0.75)
    assert not nil_holds([], 0, 0.5)  # nothing sampled: no nil


def _bidding_turn(profile: str, seed: int, seat: int) -> Any:
    """The observation of ``seat`` when it is to bid, the seats before it bidding as hard bots."""
    g = tapete.new_game(profile, seed=seed)
    bots = [make_bot("hard", seed=seed * 10 + s) for s in range(g.rules.players)]
    while g.to_act != seat:
        g.apply(g.parse_action(bots[g.to_act].act(g.observation(g.to_act))))
    return g.observation(seat)


def test_expert_bids_no_nil_the_others_can_set() -> None:
    """A Cutthroat deal on which hard bids nil (and loses it in play): on the sampled deals
    the two others can set it, so the expert level bids its best other candidate."""
    obs = _bidding_turn("cutthroat", 2095, 2)
    assert make_bot("hard", seed=20952).act(obs)["bid"] == 0
    expert = make_bot("expert", seed=20952).act(obs)
    assert not is_nil(expert["bid"])
    assert expert in obs["legal_actions"]
    # with the check off it bids as hard does
    assert make_bot("expert", seed=20952, nil_keep=0).act(obs)["bid"] == 0


def test_the_nil_check_is_asked_only_where_every_seat_plays_for_itself() -> None:
    from tapete.bots.spades import SpadesBot

    partnership = read_view(_bidding_turn("spades", 3, 1))
    individual = read_view(_bidding_turn("cutthroat", 3, 1))
    assert SpadesBot("expert")._nil_check(partnership, NO_DEADLINE) is None
    assert SpadesBot("expert")._nil_check(individual, NO_DEADLINE) is not None
    assert SpadesBot("expert", params={"nil_keep": 0})._nil_check(individual, NO_DEADLINE) is None
    assert SpadesBot("hard")._nil_check(individual, NO_DEADLINE) is None


def test_hard_bid_asks_the_nil_check_with_starts_of_play() -> None:
    """The check is asked only about a nil, with the first sampled deals at the first lead;
    a refusal gives a bid that is not a nil, and an approval leaves hard's nil."""
    from tapete.bots.spades import decision_rng
    from tapete.bots.spades.bidding import NIL_STARTS, NilCheck, hard_bid
    from tapete.engine.spades.actions import action_of_code
    from tapete.engine.spades.determinize import FastHand

    obs = _bidding_turn("cutthroat", 2095, 2)
    view = read_view(obs)
    asked: list[tuple[int, int, int]] = []

    def check(answer: bool) -> NilCheck:
        def nil_check(starts: list[FastHand], seat: int) -> bool:
            asked.append((len(starts), seat, max(f.tricks_left for f in starts)))
            return answer

        return nil_check

    approved = hard_bid(view, decision_rng(20952, obs), 200, nil_check=check(True))
    assert action_of_code(approved).bid == 0
    refused = hard_bid(view, decision_rng(20952, obs), 200, nil_check=check(False))
    assert action_of_code(refused).bid not in (0, None)
    assert asked == [(NIL_STARTS, 2, 17)] * 2
    assert hard_bid(view, decision_rng(20952, obs), 200) == approved  # hard's own bid
