"""Every seat for itself, every card seen: the max^n value of a hand's ending.

The trick solver (``dds.Solver``) answers for one side against the rest. Where each seat
plays for its own score (Cutthroat, Call Break), that count is the "paranoid" one: the
others are assumed to join against the side, which they do not. ``MaxnSearch`` answers
the question as such games put it: each seat, at its turn, plays the card that leads to
the best outcome for itself, and the value of a position is the vector of what the
hand's end is worth to every seat (the caller's ``worth``: final tricks and prize jacks
won in, one number a seat out). Where a seat is indifferent between cards, the lowest
ranked card is taken (by rank, then by card number: ``dds.ranked_cards``' order).

The rules are the trick core's (``TrickState.play`` from ``playable_cards``: following
suit, spades broken, the dealer sitting out, Call Break's rule to beat, prize jacks).
Touching cards of one hand (no other live card ranked between them, no prize card among
them) are played as one. A table at trick boundaries holds exact positions (the hands,
the leader, the tricks and prize jacks taken from the start of the search). Meant for
small endings; a node budget stops it as ``SearchLimit``.

>>> from tapete.cards import mask_of_names as m
>>> from tapete.engine.spades.dds import position
>>> b = position([m(["AH", "2C"]), m(["KH", "3C"]), m(["QH", "4C"])], turn=0, tricks_left=2, spades_broken=True)
>>> def worth(tricks, jacks):  # each seat: one point a trick
...     return tuple(float(t) for t in tricks)
>>> MaxnSearch(3, worth).card_values(b)  # seat 0: 2♣ (card 0) or A♥ (card 38)
{0: (1.0, 0.0, 1.0), 38: (1.0, 0.0, 1.0)}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tapete.engine.spades.dds import Board, SearchLimit, card_classes, order_of
from tapete.engine.spades.trick import TrickState

Worth = Callable[[Sequence[int], Sequence[tuple[str, int]]], Sequence[float]]
"""What a finished ending is worth to each seat, from the tricks each took in it and the
prize jacks won in it (``(jack, seat)`` pairs, in the order they fell)."""


class MaxnSearch:
    """Max^n searches over one ``worth``; the table of positions is kept until ``clear``.

    ``card_values`` gives, for each card the seat to play may play, the vector of every
    seat's worth once that card is played and every seat then plays for itself. With a
    ``budget`` each answer may visit that many nodes at most.
    """

    def __init__(self, players: int, worth: Worth, budget: int = 0) -> None:
        self.players = players
        self.worth = worth
        self.budget = budget
        self.nodes = 0
        self.stop_at = -1
        self.board = Board(players)
        """The solver's board without spare tricks: a full trick passes the lead to its winner."""
        self.table: dict[tuple[object, ...], tuple[float, ...]] = {}
        self.leaves: dict[tuple[object, ...], tuple[float, ...]] = {}
        """``worth`` by outcome: ``worth`` must not change while the search is kept."""
        self.order = order_of(self.board.tables)
        self.live = 0

    def clear(self) -> None:
        """Forget the positions searched (another deal shares none of them)."""
        self.table = {}

    def load(self, state: TrickState) -> None:
        """Take the position of ``state``; tricks and prize jacks count from here."""
        b = self.board
        b.copy_trick_state(state, list(state.trick), [])
        b.tricks_won = [0] * self.players
        order = order_of(b.tables)
        if order is not self.order:
            self.order = order
            self.table = {}
        live = 0
        for hand in state.hands:
            live |= hand
        for c in state.trick:
            live |= 1 << c
        self.live = live
        self.stop_at = self.nodes + self.budget if self.budget > 0 else -1

    def card_values(self, state: TrickState) -> dict[int, tuple[float, ...]]:
        """For each card the seat to play may play: every seat's worth after it."""
        self.load(state)
        b = self.board
        out: dict[int, tuple[float, ...]] = {}
        for cls in self._classes(b.playable_cards(b.hands[b.turn])):
            v = self._try(cls[0])
            for c in cls:
                out[c] = v
        return out

    def value(self, state: TrickState) -> tuple[float, ...]:
        """Every seat's worth from here when each plays for itself."""
        self.load(state)
        return self._search()

    # --- search ----------------------------------------------------------------------
    def _classes(self, legal: int) -> list[list[int]]:
        """The legal cards in classes of equivalent ones; a prize card is a class of its own."""
        b = self.board
        blockers = self.live & ~b.hands[b.turn]
        prize = b.prize_all
        if not legal & prize:
            return card_classes(legal, blockers, b.follow, self.order)
        out = card_classes(legal & ~prize, blockers | prize, b.follow, self.order)
        m = legal & prize
        while m:
            low = m & -m
            out.append([low.bit_length() - 1])
            m ^= low
        rank = self.order.rank
        out.sort(key=lambda cls: (rank[cls[0]] << 6) | cls[0])  # the order ties are broken in
        return out

    def _try(self, card: int) -> tuple[float, ...]:
        """Play ``card`` for the seat to play, search on, and take it back."""
        b = self.board
        seat = b.turn
        bit = 1 << card
        trick = b.trick
        completes = len(trick) + 1 == b.trick_size
        lead_mask, power, best_card, best_seat = b.lead_mask, b.power, b.best_card, b.best_seat
        broken, lead2c, sitting = b.spades_broken, b.must_lead_2c, b.sitting_out
        jacks = len(b.jack_winners)
        b.play(card)
        if completes:
            w = b.last_winner
            for c in trick:
                self.live &= ~(1 << c)
            v = self._search()
            for c in trick:
                self.live |= 1 << c
            b.tricks_won[w] = b.tricks_won[w] - 1
            b.tricks_left += 1
            del b.jack_winners[jacks:]
            b.trick = trick
            if b.sitting_out != sitting:
                b.sit_out(sitting)
        else:
            v = self._search()
        trick.pop()
        b.hands[seat] = b.hands[seat] | bit
        b.turn = seat
        b.lead_mask, b.power, b.best_card, b.best_seat = lead_mask, power, best_card, best_seat
        b.spades_broken, b.must_lead_2c = broken, lead2c
        return v

    def _search(self) -> tuple[float, ...]:
        """Every seat's worth from here, each seat playing for itself."""
        b = self.board
        self.nodes += 1
        if self.nodes == self.stop_at:
            raise SearchLimit
        if b.tricks_left == 0:
            return self._leaf()
        key: tuple[object, ...] | None = None
        if not b.trick:
            key = (*b.hands, b.turn, *b.tricks_won, *b.jack_winners, b.spades_broken, b.must_lead_2c)
            hit = self.table.get(key)
            if hit is not None:
                return hit
        seat = b.turn
        best: tuple[float, ...] | None = None
        for cls in self._classes(b.playable_cards(b.hands[seat])):
            v = self._try(cls[0])
            if best is None or v[seat] > best[seat]:
                best = v
        assert best is not None  # a seat to play always has a card
        if key is not None:
            self.table[key] = best
        return best

    def _leaf(self) -> tuple[float, ...]:
        """The worth of the ending as it fell (kept for each distinct outcome)."""
        b = self.board
        key = (*b.tricks_won, *b.jack_winners)
        hit = self.leaves.get(key)
        if hit is None:
            hit = self.leaves[key] = tuple(self.worth(list(b.tricks_won), list(b.jack_winners)))
        return hit


__all__ = ["MaxnSearch", "Worth"]
