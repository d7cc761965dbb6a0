"""Players' statistics equal numbers computed directly from the stored records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from starlette.testclient import TestClient

import tapete
from tapete.bots import make_bot
from tapete.engine.base import Game
from tapete.families import family
from tapete.records import replay
from tapete.stats import PlayedGame, profile_stats
from tests.server.helpers import make_app
from tests.server.playing import Person, play_game, wait_games

SPECIAL = {"1F": 1, "2F": 2, "B6": 6}


def bot_game(profile: str, seed: int, levels: list[str], options: Mapping[str, Any] | None = None) -> Game:
    g = tapete.new_game(profile, seed=seed, options=dict(options or {}))
    bots = [make_bot(levels[s % len(levels)], seed=seed * 7 + s) for s in range(g.num_players)]
    while not g.is_over():
        s = g.to_act
        assert s is not None
        g.apply(bots[s].act(g.observation(s)))
    return g


def direct_spades(game: Any, record: Mapping[str, Any], seat: int) -> dict[str, float]:
    """The Spades numbers of ``seat`` counted straight from the record's bids and the engine's hand logs."""
    rules = game.rules
    mates = [s for s in range(rules.players) if rules.side_of(s) == rules.side_of(seat)]
    n = dict.fromkeys(
        ("hands", "points", "contracts", "made", "nils", "nils_made", "bn", "bn_made", "sp", "sp_made", "bags"), 0.0
    )
    for h, log in enumerate(game.logs):
        if log.result is None:
            continue
        bids = {a["seat"]: a["bid"] for a in record["hands"][h]["actions"] if "bid" in a}
        won = [sum(1 for t in log.tricks if t.winner == s) for s in range(rules.players)]
        n["hands"] += 1
        n["points"] += log.result.change[rules.side_of(seat)] / (10 if rules.tenths else 1)
        bid = bids[seat]
        team_bid = sum(bids[s] for s in mates if type(bids[s]) is int and bids[s] > 0)
        team_won = sum(won[s] for s in mates)
        if type(bid) is int and bid > 0:
            n["contracts"] += 1
            n["made"] += (team_won >= team_bid) if rules.partnership else (won[seat] >= bid)
        elif bid == 0:
            n["nils"] += 1
            n["nils_made"] += won[seat] == 0
        elif bid == "BN":
            n["bn"] += 1
            n["bn_made"] += won[seat] == 0
        else:
            n["sp"] += 1
            n["sp_made"] += won[seat] >= 14 if bid == "SM" else won[seat] >= SPECIAL[bid]
        if rules.partnership:
            n["bags"] += max(0, team_won - team_bid) if team_won >= team_bid else 0
        elif type(bid) is int:
            n["bags"] += won[seat] - bid if won[seat] >= bid and bid > 0 else (won[seat] if bid == 0 else 0)
        elif bid == "BN":
            n["bags"] += won[seat]
        elif bid in SPECIAL:
            n["bags"] += max(0, won[seat] - SPECIAL[bid])
    return n


SPADES_CASES = [
    ("spades-blind-nil", {"target": 250}, ["normal", "easy"]),
    ("cutthroat-official", {"target": 120}, ["normal", "easy", "hard"][:2]),
    ("cutthroat", {"target": 150}, ["easy", "normal"]),
    ("callbreak", {}, ["normal"]),
    ("spades-suicide", {"target": 200}, ["normal"]),
]


@pytest.mark.parametrize(("profile", "options", "levels"), SPADES_CASES)
def test_spades_statistics_equal_the_records(profile: str, options: dict[str, Any], levels: list[str]) -> None:
    stats = family("spades").load_stats
    assert stats is not None
    book = stats()
    games = [bot_game(profile, seed, levels, options) for seed in (1, 2)]
    rules = games[0].rules
    for seat in range(rules.players):
        per_game = []
        direct = dict.fromkeys(
            ("hands", "points", "contracts", "made", "nils", "nils_made", "bn", "bn_made", "sp", "sp_made", "bags"), 0.0
        )
        for g in games:
            record = g.record()
            report = replay(record).report
            per_game.append(book.game(report, seat, rules))
            for k, v in direct_spades(g, record, seat).items():
                direct[k] += v
        s = book.summary(per_game, rules)
        assert s["hands"] == direct["hands"] > 0
        assert s["points_per_hand"] == pytest.approx(direct["points"] / direct["hands"], abs=1e-3)
        assert s["contracts_pct"] == (
            pytest.approx(100 * direct["made"] / direct["contracts"], abs=1e-3) if direct["contracts"] else None
        )
        assert s["sets"] == direct["contracts"] - direct["made"]
        nil_ok = rules.min_bid == 0
        assert s["nil_pct"] == (
            pytest.approx(100 * direct["nils_made"] / direct["nils"], abs=1e-3) if nil_ok and direct["nils"] else None
        )
        has_bn = "BN" in rules.special_bids
        assert s["blind_nil_pct"] == (
            pytest.approx(100 * direct["bn_made"] / direct["bn"], abs=1e-3) if has_bn and direct["bn"] else None
        )
        has_special = bool(rules.special_bids - {"BN"})
        assert s["special_pct"] == (
            pytest.approx(100 * direct["sp_made"] / direct["sp"], abs=1e-3) if has_special and direct["sp"] else None
        )
        if rules.bag_rule == "none":
            assert s["bags_per_hand"] is None
        else:
            assert s["bags_per_hand"] == pytest.approx(direct["bags"] / direct["hands"], abs=1e-3)


def test_the_official_profile_has_special_bids_and_the_plain_one_has_none() -> None:
    book = family("spades").load_stats
    assert book is not None
    plain = tapete.load_profile("spades")
    official = tapete.load_profile("cutthroat-official")
    assert book().summary([], plain)["special_pct"] is None
    g = bot_game("cutthroat-official", 3, ["normal"], {"target": 150})
    numbers = [book().game(replay(g.record()).report, s, official) for s in range(3)]
    assert sum(float(str(n["specials"])) for n in numbers) > 0  # the normal bot bids them on this deal


def direct_runfast(game: Any, seat: int) -> dict[str, float]:
    """Run Fast numbers of ``seat`` from the engine's finished deals and the plays of the record."""
    from tapete.engine.runfast.combos import classify, is_bomb

    n = dict.fromkeys(("deals", "won", "settlement", "springs", "bombs"), 0.0)
    for d in game.hand_changes():
        n["deals"] += 1
        n["settlement"] += d[seat]
    deals = [*game.past, game]
    for d in deals:
        s = d.settlement
        if s is not None and s.winner == seat:
            n["won"] += 1
            n["springs"] += any(s.spring)
    for hand in game.record()["hands"]:
        for a in hand["actions"]:
            if a["seat"] == seat and "play" in a:
                from tapete.engine.runfast.actions import action_of

                key = classify(int(action_of(a["play"])))
                n["bombs"] += key is not None and is_bomb(key)
    return n


@pytest.mark.parametrize("profile", ["runfast", "runfast-15", "runfast-3s"])
def test_runfast_statistics_equal_the_records(profile: str) -> None:
    loader = family("runfast").load_stats
    assert loader is not None
    book = loader()
    games = [bot_game(profile, seed, ["normal", "easy"], {"deals": 3} if seed == 2 else {}) for seed in range(1, 5)]
    rules = tapete.load_profile(profile)
    for seat in range(3):
        per_game = [book.game(replay(g.record()).report, seat, rules) for g in games]
        direct = dict.fromkeys(("deals", "won", "settlement", "springs", "bombs"), 0.0)
        for g in games:
            for k, v in direct_runfast(g, seat).items():
                direct[k] += v
        s = book.summary(per_game, rules)
        assert s["deals"] == direct["deals"] == 6
        assert s["deals_won"] == direct["won"]
        assert s["settlement_avg"] == pytest.approx(direct["settlement"] / direct["deals"], abs=1e-3)
        assert s["springs"] == direct["springs"]
        assert s["bombs"] == direct["bombs"]


def test_shared_parts_count_games_wins_levels_and_series() -> None:
    loader = family("runfast").load_stats
    assert loader is not None
    games = [
        PlayedGame(True, 10, ("easy", "easy"), {"deals": 1, "deals_won": 1, "settlement": 10}, 3.0),
        PlayedGame(False, -4, ("hard", "easy"), {"deals": 1, "settlement": -4}, 1.5),
        PlayedGame(False, -1, (), {"deals": 1, "settlement": -1}, None),
    ]
    out = profile_stats(games, loader(), tapete.load_profile("runfast"))
    assert out["games"] == 3 and out["wins"] == 1
    assert out["by_level"] == {"easy": {"games": 2, "wins": 1}, "hard": {"games": 1, "wins": 0}}
    assert out["series"] == {"points": [10, -4, -1], "rating": [3.0, 1.5, None]}
    assert out["deals"] == 3 and out["deals_won"] == 1 and out["settlement_avg"] == pytest.approx(5 / 3, abs=1e-3)


def test_the_profile_page_statistics_equal_the_downloaded_records(db: tuple[str, str]) -> None:
    with TestClient(make_app(db[0], table_prefix=db[1], bot_executor="thread")) as c:
        me = Person(c)
        name = me.guest()["player"]["name"]
        tables = [
            play_game(me, "runfast", ["human", "easy", "normal"], seed=21)["table"],
            play_game(me, "runfast", ["human", "easy", "easy"], seed=22)["table"],
            play_game(me, "spades", ["human", "easy", "normal", "normal"], seed=23, options={"target": 100})["table"],
        ]
        page = wait_games(me, name, 3)
        assert sorted(g["table"] for g in page["history"]) == sorted(tables)
        records = {t: me.get(f"/api/tables/{t}/record").json() for t in tables}
    expected: dict[str, list[tuple[dict[str, Any], bool, float]]] = {}
    for record in records.values():
        result = replay(record)
        report = result.report
        fam = family(tapete.profile_info(record["profile"]).family)
        rules = tapete.load_profile(record["profile"], record["options"])
        loader = fam.load_stats
        assert loader is not None
        won = report["winner"] == fam.side_of(rules, 0)
        score = float(report["scores"][fam.side_of(rules, 0)])  # type: ignore[index]
        expected.setdefault(record["profile"], []).append((loader().game(report, 0, rules), won, score))
    stats = page["stats"]
    assert set(stats) == set(expected) == {"runfast", "spades"}
    for profile, games in expected.items():
        fam = family(tapete.profile_info(profile).family)
        loader = fam.load_stats
        assert loader is not None
        summary = loader().summary([g for g, _, _ in games], tapete.load_profile(profile))
        for key, value in summary.items():
            assert stats[profile][key] == value, (profile, key)
        assert stats[profile]["games"] == len(games)
        assert stats[profile]["wins"] == sum(1 for _, w, _ in games if w)
        assert sorted(stats[profile]["series"]["points"]) == sorted(s for _, _, s in games)
    assert stats["runfast"]["by_level"] == {
        "easy": {"games": 2, "wins": stats["runfast"]["by_level"]["easy"]["wins"]},
        "normal": {"games": 1, "wins": stats["runfast"]["by_level"]["normal"]["wins"]},
    }
    assert stats["spades"]["by_level"] == {
        "easy": {"games": 1, "wins": int(expected["spades"][0][1])},
        "normal": {"games": 1, "wins": int(expected["spades"][0][1])},
    }


def test_what_applies_is_read_from_each_games_own_options() -> None:
    """A table's options, not the profile's defaults, say whether bags count: bags per hand is
    over the hands of games that counted bags, and ``None`` when no game did."""
    stats = family("spades").load_stats
    assert stats is not None
    book = stats()
    no_bags = bot_game("spades", 3, ["normal", "easy"], {"bag_rule": "none", "target": 150})
    with_bags = bot_game("spades", 4, ["normal", "easy"], {"target": 150})
    assert no_bags.rules.bag_rule == "none" and with_bags.rules.bag_rule != "none"
    seat = 0
    only_none = [book.game(replay(no_bags.record()).report, seat, no_bags.rules)]
    assert book.summary(only_none, no_bags.rules)["bags_per_hand"] is None
    both = [*only_none, book.game(replay(with_bags.record()).report, seat, with_bags.rules)]
    direct = direct_spades(with_bags, with_bags.record(), seat)
    s = book.summary(both, with_bags.rules)
    assert s["bags_per_hand"] == pytest.approx(direct["bags"] / direct["hands"], abs=1e-3)
    # the same numbers whichever rules the summary is handed: it reads the games
    assert book.summary(both, no_bags.rules) == s
