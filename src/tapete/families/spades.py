"""The Spades family (partnership Spades, Cutthroat and the official Cutthroat rules) as registered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.engine.base import Game
from tapete.engine.spades.game import SpadesGame, check_deal
from tapete.engine.spades.rules import SpadesRules
from tapete.families.registry import BotFactory, Family, HandText, HintReason, RecordRules, register


def _new_game(
    rules: Any,
    *,
    seed: int,
    deals: Sequence[Sequence[Sequence[object]] | None],
    dealer: int | None,
    draw: Sequence[object] | None,
) -> Game:
    return SpadesGame(rules, seed=seed, deals=deals, dealer=dealer, draw=draw)


def _hand_changes(game: Any) -> list[tuple[int, ...]]:
    return [tuple(log.result.change) for log in game.logs if log.result is not None]


def _side_of(rules: Any, seat: int) -> int:
    return int(rules.side_of(seat))


def _bots() -> BotFactory:
    from tapete.bots.spades import make_spades_bot

    return make_spades_bot


def _hint() -> HintReason:
    from tapete.server.hints import spades_reason

    reason: HintReason = spades_reason
    return reason


def _encoder() -> Any:
    from tapete.env.encoding import SpadesEncoder

    return SpadesEncoder


def _rulebook() -> Any:
    from tapete.rulebook.build import spades_page

    return spades_page


def _hand_text() -> HandText:
    from tapete.render import spades_hand

    return spades_hand


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
        load_bots=_bots,
        load_hint=_hint,
        load_encoder=_encoder,
        load_rulebook=_rulebook,
        load_hand_text=_hand_text,
        hand_results=True,
        hand_changes=_hand_changes,
        side_of=_side_of,
        bot_levels=("easy", "normal", "hard", "ismcts"),
    )
)
