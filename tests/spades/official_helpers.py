"""Scripted hands for the official Cutthroat tests.

A three-player hand of the official family (51 cards, 17 tricks) is built from the
*winners* of its 17 tricks, and the deal is derived from that script, so every trick's
winner is forced by the rules (each trick is one suit, the winner plays its top card):

* tricks 0-3: clubs (AC KC QC | JC TC 9C | 8C 7C 6C | 5C 4C 3C) — J♣ is in trick 1;
* tricks 4-7: diamonds (AD..3D in threes) — J♦ is in trick 5;
* tricks 8-11: hearts (AH..3H in threes) — J♥ is in trick 9;
* trick 12: the leader (winner of trick 11) leads 2H, the other two are void in hearts:
  the winner of trick 12 trumps with 2S, the third seat discards 2D (this breaks spades);
* tricks 13-16: spades (AS..3S in threes).

The leader of every trick is the previous winner (trick 0: left of the dealer); any seat
may win a one-suit trick, so the only constraint is that trick 12 is won by a seat other
than the winner of trick 11.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import tapete

PLAYERS = 3
JACK_TRICK = {"JC": 1, "JD": 5, "JH": 9}

_CLUBS = ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
_DIAMONDS = ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D"]
_HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
_SPADES = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]


def winners_for(counts: Sequence[int], jacks: Mapping[str, int] | None = None) -> list[int]:
    """A sequence of 17 trick winners with ``counts[s]`` tricks for seat s.

    ``jacks`` forces the winner of the trick holding that jack (``{"JC": 2}``).
    """
    assert len(counts) == PLAYERS and sum(counts) == 17, counts
    left = list(counts)
    out: list[int | None] = [None] * 17
    for jack, seat in (jacks or {}).items():
        out[JACK_TRICK[jack]] = seat
        left[seat] -= 1
    # tricks 11 and 12 need two different winners
    seats = sorted((s for s in range(PLAYERS) if left[s] > 0), key=lambda s: -left[s])
    assert len(seats) >= 2, "two seats must win a trick outside the jack tricks"
    out[11], out[12] = seats[1], seats[0]
    left[seats[1]] -= 1
    left[seats[0]] -= 1
    fill = [s for s in range(PLAYERS) for _ in range(left[s])]
    assert min(left) >= 0, counts
    for i in range(17):
        if out[i] is None:
            out[i] = fill.pop(0)
    result = [int(w) for w in out if w is not None]
    assert [result.count(s) for s in range(PLAYERS)] == list(counts)
    return result


def script(winners: Sequence[int], dealer: int) -> list[dict[int, str]]:
    """The 17 tricks (seat -> card) of a hand whose trick winners are ``winners``."""
    assert len(winners) == 17
    assert winners[12] != winners[11], "trick 12 must be won by a trumper, not its leader"
    groups: list[list[str]] = []
    for suit in (_CLUBS, _DIAMONDS, _HEARTS):
        groups += [suit[i : i + 3] for i in range(0, 12, 3)]
    spades = [_SPADES[i : i + 3] for i in range(0, 12, 3)]
    tricks: list[dict[int, str]] = []
    for t in range(12):
        w = winners[t]
        top, *rest = groups[t]
        others = [s for s in range(PLAYERS) if s != w]
        tricks.append({w: top, others[0]: rest[0], others[1]: rest[1]})
    leader = winners[11]
    trumper = winners[12]
    third = next(s for s in range(PLAYERS) if s not in (leader, trumper))
    tricks.append({leader: "2H", trumper: "2S", third: "2D"})
    for t in range(4):
        w = winners[13 + t]
        top, *rest = spades[t]
        others = [s for s in range(PLAYERS) if s != w]
        tricks.append({w: top, others[0]: rest[0], others[1]: rest[1]})
    del dealer  # the first leader does not matter: any seat may win a one-suit trick
    return tricks


def deal_of(tricks: Sequence[Mapping[int, str]]) -> list[list[str]]:
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for trick in tricks:
        for seat, card in trick.items():
            hands[seat].append(card)
    return hands


class Plan:
    """Several scripted hands of one game: ``Plan(...).hand(bids, counts)...start()``."""

    def __init__(
        self, profile: str = "cutthroat-official", dealer: int = 2, options: Mapping[str, object] | None = None
    ):
        self.profile = profile
        self.dealer = dealer
        self.options = dict(options or {})
        self.hands: list[tuple[Sequence[object], list[dict[int, str]]]] = []

    def hand(self, bids: Sequence[object], counts: Sequence[int], jacks: Mapping[str, int] | None = None) -> Plan:
        dealer = (self.dealer + len(self.hands)) % PLAYERS
        self.hands.append((bids, script(winners_for(counts, jacks), dealer)))
        return self

    def start(self) -> Any:
        deals = [deal_of(tricks) for _, tricks in self.hands]
        return tapete.new_game(self.profile, seed=5, deals=deals, dealer=self.dealer, options=self.options)

    def play(self, game: Any, index: int) -> None:
        """Bid and play hand ``index`` of the plan (the game must be at its start)."""
        assert game.hand_number == index, (game.hand_number, index)
        bids, tricks = self.hands[index]
        bid_all(game, bids)
        play_tricks(game, tricks)

    def run(self) -> Any:
        game = self.start()
        for i in range(len(self.hands)):
            self.play(game, i)
        return game


def bid(game: Any, seat: int, value: object) -> None:
    """Bid for ``seat``, looking first when its cards are face down and the bid is not blind."""
    if value not in ("BN", "B6") and game.observation(seat)["hand_face_down"]:
        game.apply({"seat": seat, "look": True})
    game.apply({"seat": seat, "bid": value})


def bid_all(game: Any, bids: Sequence[object]) -> None:
    """Every seat bids, in turn; ``bids`` is indexed by seat."""
    for _ in range(game.num_players):
        seat = game.to_act
        bid(game, seat, bids[seat])


def play_tricks(game: Any, tricks: Sequence[Mapping[int, str]]) -> None:
    for trick in tricks:
        for _ in range(len(trick)):
            seat = game.to_act
            game.apply({"seat": seat, "play": trick[seat]})


def first_legal_policy(game: Any) -> None:
    """A deterministic player: look when face down, else the first legal action."""
    legal = game.legal_actions()
    look = [a for a in legal if a.is_look]
    game.apply(look[0] if look else legal[0])
