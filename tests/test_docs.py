"""The docs in ``docs/`` agree with the code: examples replay, codes and options are documented, links resolve."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import tapete
from tapete.engine.runfast.actions import action_of
from tapete.engine.runfast.settlement import settle
from tapete.engine.spades.scoring import score_hand
from tapete.errors import ACTION_CODES, CODE_ALIASES
from tapete.profiles import profile_info, profile_names
from tapete.records import replay

DOCS = Path(__file__).parent.parent / "docs"
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def fenced(text: str, info: str) -> list[str]:
    return [m["body"] for m in FENCE.finditer(text) if m["info"].strip() == info]


def example_records() -> list[dict[str, Any]]:
    blocks = [json.loads(body) for body in fenced(read("records.md"), "json")]
    return [b for b in blocks if isinstance(b, dict) and b.get("format") == "tapete-record/1"]


def test_records_md_has_examples_of_both_families() -> None:
    families = {profile_info(r["profile"]).family for r in example_records()}
    assert families >= {"spades", "runfast"}


@pytest.mark.parametrize("index", range(2))
def test_example_record_replays_and_is_what_the_engine_writes(index: int) -> None:
    record = example_records()[index]
    result = replay(record)
    assert result.exit_status == 0, result.report["error"]
    assert result.report["error"] is None
    assert result.game is not None
    assert result.game.record() == record


def test_example_report_is_the_replay_output() -> None:
    (report,) = fenced(read("records.md"), "json report")
    assert json.loads(report) == replay(example_records()[0]).report


def documented_deal(seed: int, hand: int, deck: list[int], players: int, dealer: int | None) -> list[list[str]]:
    """The seeded deal as docs/records.md describes it, written independently of the engine."""
    rng = random.Random(f"tapete/{seed}/deal/{hand}")
    deck = sorted(deck)
    for i in range(len(deck) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    seats: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(deck):
        seat = k % players if dealer is None else (dealer + 1 + k) % players
        seats[seat].append(str(tapete.Card(card)))
    return seats


def test_seeded_deals_and_dealer_follow_the_documented_recipe() -> None:
    for record in example_records():
        rules = tapete.load_profile(record["profile"])
        deck = [int(tapete.Card.parse(c)) for hand in record["hands"][0]["cards"] for c in hand]
        dealer = record["hands"][0].get("dealer")
        expected = documented_deal(record["seed"], 0, deck, rules.players, dealer)
        assert record["hands"][0]["cards"] == expected
    spades = example_records()[0]
    n = tapete.load_profile(spades["profile"]).players
    rng = random.Random(f"tapete/{spades['seed']}/dealer/0")
    seat = n
    while seat >= n:
        seat = rng.getrandbits(n.bit_length())
    assert spades["hands"][0]["dealer"] == seat


def test_every_report_field_is_documented() -> None:
    text = read("records.md")
    for record in example_records():
        report = replay(record).report
        fields = set(report) | set(report["error"] or {})
        for hand in report["hands"]:
            fields |= set(hand)
            for trick in hand.get("tricks", []):
                fields |= set(trick)
        for field in fields:
            assert f"`{field}`" in text, f"replay report field {field!r} is not in docs/records.md"


def test_every_refusal_code_is_documented() -> None:
    text = read("records.md")
    for code in sorted(ACTION_CODES | set(CODE_ALIASES) | set(CODE_ALIASES.values())):
        assert f"`{code}`" in text, f"code {code!r} is not in docs/records.md"


def test_every_profile_and_option_is_documented() -> None:
    text = read("rules.md")
    for name in profile_names():
        assert f"`{name}`" in text, f"profile {name!r} is not in docs/rules.md"
        options = set(profile_info(name).options) | set(tapete.load_profile(name).options_json())
        for option in sorted(options):
            assert f"`{option}`" in text, f"option {option!r} of {name!r} is not in docs/rules.md"


def test_rules_md_examples_are_computed_by_the_engine() -> None:
    text = " ".join(read("rules.md").split())
    rules = tapete.load_profile("cutthroat-500-3jacks")
    hand = score_hand(rules, [5, 0, 1], [7, 3, 7], [9, 3, 4], [("JH", 0), ("JD", 1)])
    assert hand.change == (-48, -90, -84) and hand.bags == (0, 6, 0)
    assert "change −48, bags 0" in text and "change −90, bags 6" in text and "change −84, bags 0" in text
    seat1 = action_of(["2S", "5H", "6D", "9C", "KS"])
    seat2 = action_of(["7S", "7H", "7D", "7C", "3S", "3C", "4D", "5S", "6S", "8H", "9D", "TS", "JS", "QS", "QC", "KD"])
    result = settle(0, [0, seat1, seat2], [True, True, False], [20, -10, -10])
    assert result.payments == (0, 15, 42) and result.change == (77, -25, -52)
    assert "+77, −25, −52" in text


def test_relative_links_point_to_existing_files() -> None:
    pages = sorted(DOCS.glob("*.md"))
    assert pages
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#", 1)[0]).resolve()
            assert path.exists(), f"{page.name} links to {target}, which does not exist"
