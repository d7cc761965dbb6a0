"""Call Break's refusals (``must_follow_suit``, ``must_beat``, ``must_trump``,
``must_overtrump``) each have an explanation that fits a trick, in en, es and ru."""

from __future__ import annotations

import random
from typing import Any

import tapete
from tapete.errors import IllegalAction
from tapete.server.messages import FALLBACK, explain


def callbreak_refusal_codes(games: int = 30) -> set[str]:
    """The codes the engine gives for every illegal card tried in a few seeded games."""
    codes: set[str] = set()
    for seed in range(games):
        g: Any = tapete.new_game("callbreak", seed=seed, options={"deals": 1})
        rng = random.Random(seed)
        while not g.is_over():
            legal = g.legal_actions()
            if g.phase.name == "PLAY" and g.to_act is not None:
                seat = g.to_act
                held = [c for c in g.observation(seat)["hand"]]
                good = {g.action_to_record(a)["play"] for a in legal}
                for card in held:
                    if card not in good:
                        try:
                            g.apply({"seat": seat, "play": card})
                        except IllegalAction as exc:
                            codes.add(exc.code)
            g.apply(rng.choice(legal))
    return codes


def test_call_break_raises_its_four_codes_and_each_is_explained_for_a_trick() -> None:
    codes = callbreak_refusal_codes()
    assert codes == {"must_follow_suit", "must_beat", "must_trump", "must_overtrump"}
    for code in codes:
        for lang in ("en", "es", "ru"):
            assert explain(code, lang) != explain("no_such_code", lang), (code, lang)
    assert explain("must_beat", "en") != FALLBACK
    assert "suit led" in explain("must_beat", "en") and "cannot pass" not in explain("must_beat", "en")
    assert "palo de salida" in explain("must_beat", "es") and "масти захода" in explain("must_beat", "ru")
