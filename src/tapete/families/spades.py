"""The Spades family (partnership Spades, Cutthroat and the official Cutthroat rules) as registered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.engine.base import Game
from tapete.engine.spades.game import SpadesGame, check_deal
from tapete.engine.spades.rules import SpadesRules
from tapete.families.registry import Family, RecordRules, lazy, register


def _new_game(
    rules: Any,
    *,
    seed: int,
    deals: Sequence[Sequence[Sequence[object]] | None],
    dealer: int | None,
    draw: Sequence[object] | None,
) -> Game:
    return SpadesGame(rules, seed=seed, deals=deals, dealer=dealer, draw=draw)


def _hand_changes(game: SpadesGame) -> list[tuple[int, ...]]:
    return [tuple(log.result.change) for log in game.logs if log.result is not None]


def _side_of(rules: SpadesRules, seat: int) -> int:
    return rules.side_of(seat)


SPADES = register(
    Family(
        name="spades",
        title="Spades",
        rules_class=SpadesRules,
        game_class=SpadesGame,
        new_game=_new_game,
        records=RecordRules(many_hands=True, dealer=True, check_deal=check_deal),
        public_fields=(
            "game",
            "profile",
            "options",
            "rules",
            "players",
            "partnership",
            "phase",
            "game_number",
            "hand_number",
            "dealer",
            "to_act",
            "hand_sizes",
            "dealt_sizes",
            "bids",
            "looked",
            "blind_six_used",
            "tricks_won",
            "trick",
            "tricks",
            "spades_broken",
            "sitting_out",
            "scores",
            "bags",
            "tokens",
            "last_hand",
            "winner",
        ),
        renderer="spades",
        load_bots=lazy("tapete.bots.spades:make_spades_bot"),
        load_hint=lazy("tapete.server.hints:spades_reason"),
        load_encoder=lazy("tapete.env.encoding:SpadesEncoder"),
        load_rulebook=lazy("tapete.rulebook.build:spades_page"),
        load_hand_text=lazy("tapete.render:spades_hand"),
        load_stats=lazy("tapete.stats.spades:STATS"),
        load_analysis=lazy("tapete.analysis:analyze_spades_record"),
        hand_results=True,
        hand_changes=_hand_changes,
        side_of=_side_of,
        bot_levels=("easy", "normal", "hard", "ismcts", "expert"),
        ladder=(
            # measured with `tapete arena` (README, the ladder tables): a − b, points a deal
            {"profile": "spades", "a": "normal", "b": "easy", "deals": 2000, "mean": 25.6, "ci95": [24.1, 27.0]},
            {"profile": "cutthroat", "a": "normal", "b": "easy", "deals": 2000, "mean": 8.5, "ci95": [8.0, 8.9]},
            {
                "profile": "cutthroat-official",
                "a": "normal",
                "b": "easy",
                "deals": 2000,
                "mean": 6.4,
                "ci95": [5.8, 6.9],
            },
            {"profile": "spades", "a": "hard", "b": "normal", "deals": 300, "mean": 28.7, "ci95": [23.9, 33.5]},
            {"profile": "cutthroat", "a": "hard", "b": "normal", "deals": 300, "mean": 12.2, "ci95": [11.0, 13.5]},
            {
                "profile": "cutthroat-official",
                "a": "hard",
                "b": "normal",
                "deals": 300,
                "mean": 18.3,
                "ci95": [17.2, 19.4],
            },
            {"profile": "spades", "a": "hard", "b": "ismcts", "deals": 100, "mean": 18.7, "ci95": [10.3, 27.2]},
            {"profile": "cutthroat", "a": "hard", "b": "ismcts", "deals": 300, "mean": 2.1, "ci95": [0.1, 4.2]},
            {
                "profile": "cutthroat-official",
                "a": "hard",
                "b": "ismcts",
                "deals": 100,
                "mean": 4.4,
                "ci95": [1.9, 6.9],
            },
        ),
        bot_anchors={"easy": 20.7347, "normal": 25.0, "hard": 32.4003, "ismcts": 30.5932, "expert": 32.4003},
        search_budgets={
            "hard": (
                {"samples": 64, "rollouts": 800, "bid_samples": 64},
                {"samples": 16, "rollouts": 200, "bid_samples": 16},
            ),
            "ismcts": ({"simulations": 300}, {"simulations": 80}),
            "expert": (
                {"expert_samples": 12, "expert_nodes": 100_000, "samples": 64, "rollouts": 800, "bid_samples": 64},
                {"expert_samples": 4, "expert_nodes": 30_000, "samples": 16, "rollouts": 200, "bid_samples": 16},
            ),
        },
    )
)
