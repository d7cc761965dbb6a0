"""Run Fast (Pao De Kuai) as registered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.engine.base import Game
from tapete.engine.runfast.game import RunFastGame, check_deal
from tapete.engine.runfast.rules import RunFastRules
from tapete.errors import BadRecord
from tapete.families.registry import Family, RecordRules, lazy, register


def _new_game(
    rules: Any,
    *,
    seed: int,
    deals: Sequence[Sequence[Sequence[object]] | None],
    dealer: int | None,
    draw: Sequence[object] | None,
) -> Game:
    if dealer is not None or draw is not None:
        raise BadRecord("runfast has no dealer and no seating draw")
    if len(deals) > rules.deals:
        raise BadRecord(f"this runfast game has {rules.deals} deal(s); the record lists {len(deals)}")
    return RunFastGame(rules, seed=seed, deals=deals)


def _check_deal(rules: Any, cards: Sequence[Sequence[object]], dealer: int) -> object:
    return check_deal(cards, rules.deck)


def _hand_changes(game: RunFastGame) -> list[tuple[int, ...]]:
    return game.hand_changes()


RUNFAST = register(
    Family(
        name="runfast",
        title="Run Fast",
        rules_class=RunFastRules,
        game_class=RunFastGame,
        new_game=_new_game,
        records=RecordRules(many_hands=True, dealer=False, check_deal=_check_deal),
        public_fields=(
            "game",
            "profile",
            "options",
            "rules",
            "players",
            "phase",
            "to_act",
            "first_leader",
            "hand_sizes",
            "has_played",
            "plays",
            "current",
            "passed",
            "pending_bomb",
            "bomb_bonuses",
            "bonus",
            "scores",
            "settlement",
            "winner",
            "match",
        ),
        renderer="runfast",
        load_bots=lazy("tapete.bots.runfast:make_runfast_bot"),
        load_hint=lazy("tapete.server.hints:runfast_reason"),
        load_encoder=lazy("tapete.env.encoding:RunFastEncoder"),
        load_rulebook=lazy("tapete.rulebook.build:runfast_page"),
        load_hand_text=lazy("tapete.render:runfast_hand"),
        load_stats=lazy("tapete.stats.runfast:STATS"),
        bot_levels=("easy", "normal", "hard", "ismcts"),
        ladder=(
            # measured with `tapete arena` (README, the ladder tables): a − b, points a deal
            {"profile": "runfast", "a": "normal", "b": "easy", "deals": 2000, "mean": 11.5, "ci95": [11.1, 11.9]},
            {"profile": "runfast", "a": "hard", "b": "normal", "deals": 300, "mean": 5.3, "ci95": [4.4, 6.1]},
        ),
        bot_anchors={"easy": 17.3645, "normal": 25.0, "hard": 29.2757, "ismcts": 29.2757},
        search_budgets={
            "hard": ({"samples": 12, "steps": 2000}, {"samples": 4, "steps": 600}),
            "ismcts": ({"samples": 12, "steps": 2000}, {"samples": 4, "steps": 600}),
        },
        hand_changes=_hand_changes,
    )
)
