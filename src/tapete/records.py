"""Game records (``tapete-record/1``) and their replay (``docs/records.md``).

A record is checked in two stages. ``read_record`` checks the record as a whole —
format, profile, options, deals, seating draw — and raises ``BadRecord`` (exit status
2 of ``tapete replay``). ``replay`` then applies the actions one by one through the
engine and stops at the first illegal or malformed one (exit status 1).

>>> import tapete
>>> g = tapete.new_game("cutthroat", seed=3)
>>> for _ in range(5):
...     g.apply(g.legal_actions()[0])
>>> result = replay(g.record())
>>> result.exit_status, result.report["to_act"] == g.to_act, result.report["error"]
(0, True, None)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tapete.engine.base import JSON, Game
from tapete.errors import BadRecord, IllegalAction, ProfileError
from tapete.families import Family, family
from tapete.profiles import load_profile, profile_info

FORMAT = "tapete-record/1"


@dataclass(frozen=True)
class RecordHand:
    dealer: int | None
    cards: list[list[Any]] | None
    actions: list[Any]


@dataclass(frozen=True)
class Record:
    """A record that is readable as a whole; its actions are not checked yet."""

    profile: str
    family: Family
    options: dict[str, Any]
    players: list[str] | None
    seed: int | None
    hands: list[RecordHand]
    draw: list[Any] | None
    rules: Any


@dataclass(frozen=True)
class ReplayResult:
    """What ``tapete replay --json`` prints, and its exit status (0, 1 or 2)."""

    report: dict[str, JSON]
    exit_status: int
    game: Game | None = None


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise BadRecord(message)


def parse_json(text: str) -> Any:
    """Parse JSON text or raise ``BadRecord``."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BadRecord(f"the file is not JSON: {exc}") from exc


def read_record(obj: Any) -> Record:
    """Check a record as a whole and return it, or raise ``BadRecord`` saying why."""
    _require(isinstance(obj, Mapping), "a record is a JSON object")
    _require(obj.get("format") == FORMAT, f"unknown format {obj.get('format')!r}; expected {FORMAT!r}")
    name = obj.get("profile")
    options = obj.get("options", {})
    if options is None:
        options = {}
    _require(isinstance(options, Mapping), "'options' must be an object")
    try:
        info = profile_info(name)
        rules = load_profile(name, options)
    except ProfileError as exc:
        raise BadRecord(exc.message) from exc
    fam = family(info.family)
    layout = fam.records
    players = obj.get("players")
    _require(
        players is None or (isinstance(players, list) and all(isinstance(p, str) for p in players)),
        "'players' must be a list of names",
    )
    _require(players is None or len(players) == rules.players, f"'players' must name {rules.players} players")
    seed = obj.get("seed")
    _require(seed is None or (isinstance(seed, int) and not isinstance(seed, bool)), "'seed' must be an integer")
    raw_hands = obj.get("hands", [])
    _require(isinstance(raw_hands, list), "'hands' must be a list")
    if not layout.many_hands:
        _require(len(raw_hands) <= 1, f"a {fam.name} record has one deal")
    hands: list[RecordHand] = []
    draw = None
    for h, raw in enumerate(raw_hands):
        _require(isinstance(raw, Mapping), f"hand {h} must be an object")
        actions = raw.get("actions", [])
        _require(isinstance(actions, list), f"hand {h}: 'actions' must be a list")
        if h == 0 and actions and isinstance(actions[0], Mapping) and "draw" in actions[0] and rules_have_draw(rules):
            _require(set(actions[0]) == {"draw"}, "the draw action has only 'draw'")
            draw = actions[0]["draw"]
            actions = actions[1:]
        dealer = raw.get("dealer")
        if not layout.dealer:
            _require(dealer is None, f"a {fam.name} record has no dealer")
        else:
            _require(
                dealer is None
                or (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < rules.players),
                f"hand {h}: 'dealer' must be a seat from 0 to {rules.players - 1}",
            )
        cards = raw.get("cards")
        _require(cards is None or isinstance(cards, list), f"hand {h}: 'cards' must be a list per seat")
        _require(cards is not None or seed is not None, f"hand {h} has no cards and the record has no seed")
        hands.append(RecordHand(dealer, cards, list(actions)))
    if layout.dealer:
        _check_dealers(rules, hands)
    record = Record(
        profile=name,
        family=fam,
        options=dict(options),
        players=players,
        seed=seed,
        hands=hands,
        draw=draw,
        rules=rules,
    )
    game = new_record_game(record)  # checks the first deal and the draw
    first_dealer = int(getattr(game, "dealer", 0))
    for h, hand in enumerate(hands):
        if hand.cards is not None:
            try:
                layout.check_deal(rules, hand.cards, (first_dealer + h) % rules.players)
            except BadRecord as exc:
                raise BadRecord(f"hand {h}: {exc.message}" if layout.many_hands else exc.message) from exc
    return record


def rules_have_draw(rules: Any) -> bool:
    return bool(getattr(rules, "seating_draw", False))


def _check_dealers(rules: Any, hands: Sequence[RecordHand]) -> None:
    first = next((h for h, hand in enumerate(hands) if hand.dealer is not None), None)
    if first is None:
        return
    base = hands[first].dealer
    assert base is not None
    for h, hand in enumerate(hands):
        expected = (base + h - first) % rules.players
        if hand.dealer is not None and hand.dealer != expected:
            raise BadRecord(f"hand {h}: the dealer rotates one seat to the left each hand, so it is seat {expected}")


def new_record_game(record: Record) -> Game:
    """The game at the start of the record (deals, first dealer and draw applied)."""
    from tapete import game_from_rules

    seed = record.seed if record.seed is not None else 0
    deals = [hand.cards for hand in record.hands]
    dealer = None
    for h, hand in enumerate(record.hands):
        if hand.dealer is not None:
            dealer = (hand.dealer - h) % record.rules.players
            break
    return game_from_rules(record.rules, seed=seed, deals=deals, dealer=dealer, draw=record.draw)


def _hand_index(game: Game) -> int:
    return int(getattr(game, "hand_number", 0))


def _error(hand: int | None, action: int | None, seat: Any, exc: IllegalAction | BadRecord) -> dict[str, JSON]:
    return {
        "hand": hand,
        "action": action,
        "seat": seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
        "code": exc.code,
        "message": exc.message,
    }


def report_of(game: Game, profile: str, error: dict[str, JSON] | None) -> dict[str, JSON]:
    """The replay report of ``game`` as it stands (``docs/records.md``)."""
    summary = game.replay_summary()
    report: dict[str, JSON] = {"profile": profile, **summary}
    over = game.is_over()
    seat = game.to_act
    report["to_act"] = None if over else seat
    report["legal_actions"] = [] if over else [game.action_to_record(a, seat) for a in game.legal_actions()]
    report["error"] = error
    return report


def bad_record_report(profile: Any, exc: BadRecord) -> dict[str, JSON]:
    return {
        "profile": profile if isinstance(profile, str) else None,
        "hands": [],
        "scores": [],
        "finished": False,
        "winner": None,
        "to_act": None,
        "legal_actions": [],
        "error": _error(None, None, None, exc),
    }


def replay(obj: Any) -> ReplayResult:
    """Replay a record object from the start; never raises for bad input."""
    try:
        record = read_record(obj)
    except BadRecord as exc:
        profile = obj.get("profile") if isinstance(obj, Mapping) else None
        return ReplayResult(bad_record_report(profile, exc), 2)
    game = new_record_game(record)
    error: dict[str, JSON] | None = None
    for h, hand in enumerate(record.hands):
        offset = 1 if h == 0 and record.draw is not None else 0
        if _hand_index(game) != h or game.is_over():
            why = (
                f"the game is over before hand {h}"
                if game.is_over()
                else f"hand {h - 1} is not finished, but the record goes on to hand {h}"
            )
            first = hand.actions[0] if hand.actions else None
            seat = first.get("seat") if isinstance(first, Mapping) else None
            error = _error(h, offset, seat, IllegalAction("wrong_phase", why))
            break
        for i, raw in enumerate(hand.actions):
            seat = raw.get("seat") if isinstance(raw, Mapping) else None
            try:
                if _hand_index(game) != h and not game.is_over():
                    raise IllegalAction("wrong_phase", f"hand {h} is over; this action belongs to no hand")
                if isinstance(raw, Mapping) and "draw" in raw:
                    why = (
                        "the draw can only be the first action of the first hand"
                        if rules_have_draw(record.rules)
                        else f"profile {record.profile!r} has no seating draw"
                    )
                    raise IllegalAction("bad_record", why)
                action = game.parse_action(raw) if isinstance(raw, Mapping) else _not_object(raw)
                game.apply(action)
            except IllegalAction as exc:
                error = _error(h, i + offset, seat, exc)
                break
        if error is not None:
            break
    return ReplayResult(report_of(game, record.profile, error), 1 if error else 0, game)


def _not_object(raw: Any) -> Any:
    raise IllegalAction("bad_record", f"an action must be an object, not {raw!r}")


def replay_text(text: str) -> ReplayResult:
    """Replay a record given as JSON text."""
    try:
        obj = parse_json(text)
    except BadRecord as exc:
        return ReplayResult(bad_record_report(None, exc), 2)
    return replay(obj)
