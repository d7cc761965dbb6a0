"""Double-dummy search for what a hand is worth when its tricks are not all alike.

The trick solver (``dds.Solver``) counts a side's tricks, every one the same. A nil still
being played breaks that: the first trick its bidder takes costs the team the nil, any
trick after that is one more for the team. ``ScoreSearch`` answers the question whole: every
hand seen, best play by both sides, the side maximizing and the others minimizing the
hand's *worth*, a table the caller gives (in points, say the side's score change minus the
other side's) by the side's tricks from here and by which *watched* seats (the open nils)
have taken a trick. Each card's worth comes out of one search, so a line that keeps the
nil and the line that makes the tricks are weighed against each other, not asked apart.
Once every watched seat has taken a trick, what is left is a count of tricks: from that
trick boundary on both sides play for the most tricks (the trick solver's answer), as
the expert level values a hand without a nil, and the worth is read at that count.

The rules are the trick core's: the board is a ``dds.Board`` and cards are played with
``TrickState.play`` from ``playable_cards``. Null-window alpha-beta tests (the worth is
one of the table's values: each test halves the values still possible), a transposition
table at trick boundaries keyed on the exact position (every live card's owner: the trick
solver's winning-ranks shortcut is not sound when it matters which seat of a team takes
a trick), with touching cards of one hand played as one. Meant for small endings (the
expert level's, nine cards a hand and fewer); a node budget stops it as ``SearchLimit``.

>>> from tapete.cards import mask_of_names as m
>>> from tapete.engine.spades.dds import position
>>> hands = [m(["4C", "4D"]), m(["AH", "5C"]), m(["2C", "3C"]), m(["JH", "3D"])]
>>> b = position(hands, turn=0, tricks_left=2, spades_broken=True)
>>> worth = [0] * 16 * 3  # 16 masks of broken nils, 0 to 2 tricks for seats 0 and 2
>>> for t in range(3):
...     worth[t] = 10 * t  # seat 2's nil kept: ten points a trick
...     worth[0b0100 * 3 + t] = 10 * t - 100  # seat 2 took a trick: the nil is lost
>>> ScoreSearch(4, 0b0101, 0b0100, worth).card_values(b)  # 4♣ (2): no trick; 4♦ (15): one
{2: 0, 15: 10}
"""

from __future__ import annotations

from collections.abc import Sequence

from tapete.engine.spades.dds import Board, SearchLimit, Solver, card_classes, order_of
from tapete.engine.spades.trick import TrickState, winning_cards

INFINITE = 1 << 30
"""Beyond any worth."""


class ScoreSearch:
    """Searches for one side (a mask of seats) over a worth table; the table of positions is reused.

    ``worth[broken * (tricks + 1) + t]`` is the hand's worth to the side when it takes
    ``t`` of the ``tricks`` left at the first search and ``broken`` is the mask of the
    ``watched`` seats that took a trick in them. With a ``budget`` each answer may visit
    that many nodes at most.
    """

    def __init__(self, players: int, side: int, watched: int, worth: Sequence[int], budget: int = 0) -> None:
        self.players = players
        self.side = side
        self.watched = watched
        self.worth = list(worth)
        self.budget = budget
        self.nodes = 0
        self.stop_at = -1
        self.stride = 0
        self.board = Board(players)
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.live = 0
        self.tricks = Solver(players, side)
        """Answers the lines where every watched seat has taken a trick."""

    def load(self, state: TrickState) -> None:
        """Take the position of ``state``; the worth table counts tricks from here."""
        b = self.board
        b.copy_trick_state(state, list(state.trick), [])
        b.prize_masks = ()
        b.prize_all = 0
        b.spares = []
        left = b.tricks_left
        if self.stride != left + 1:
            self.stride = left + 1
            self.table = {}
        if len(self.worth) < (1 << self.players) * self.stride:
            raise ValueError("the worth table needs an entry for every broken mask and trick count")
        live = 0
        for hand in state.hands:
            live |= hand
        self.live = live
        self.stop_at = self.nodes + self.budget if self.budget > 0 else -1

    def clear(self) -> None:
        """Forget the positions searched (another deal shares none of them)."""
        self.table = {}

    def card_values(self, state: TrickState) -> dict[int, int]:
        """For each card the seat to play may play: the hand's worth to the side after it."""
        self.load(state)
        b = self.board
        out: dict[int, int] = {}
        for cls in self._classes(b.playable_cards(b.hands[b.turn])):
            v = self._bisect(cls[0])
            for c in cls:
                out[c] = v
        return out

    def value(self, state: TrickState) -> int:
        """The hand's worth to the side from here under best play."""
        self.load(state)
        return self._bisect(-1)

    def _bisect(self, card: int) -> int:
        """The exact worth (after ``card``, or from here with -1) by null-window tests:
        the worth is one of the table's values, so each test asks whether it reaches the
        middle one still possible, and the answer (a bound) narrows the range."""
        levels = sorted(set(self.worth))
        lo, hi = levels[0], levels[-1]
        while lo < hi:
            between = [w for w in levels if lo < w <= hi]
            level = between[len(between) // 2]
            r = self._search(0, 0, level - 1, level) if card < 0 else self._try(card, 0, 0, level - 1, level)
            if r >= level:
                lo = r
            else:
                hi = r
        return lo

    # --- search ----------------------------------------------------------------------
    def _try(self, card: int, t: int, broken: int, alpha: int, beta: int) -> int:
        """Play ``card`` for the seat to play, search on, and take it back."""
        b = self.board
        seat = b.turn
        bit = 1 << card
        trick = b.trick
        completes = len(trick) + 1 == b.trick_size
        lead_mask, power, best_card, best_seat = b.lead_mask, b.power, b.best_card, b.best_seat
        broken_before, lead2c, sitting = b.spades_broken, b.must_lead_2c, b.sitting_out
        self.live ^= bit
        b.play(card)
        if completes:
            w = b.last_winner
            v = self._search(t + ((self.side >> w) & 1), broken | (self.watched & (1 << w)), alpha, beta)
            b.tricks_won[w] = b.tricks_won[w] - 1
            b.tricks_left += 1
            b.trick = trick
            if b.sitting_out != sitting:
                b.sit_out(sitting)
        else:
            v = self._search(t, broken, alpha, beta)
        trick.pop()
        b.hands[seat] = b.hands[seat] | bit
        b.turn = seat
        b.lead_mask, b.power, b.best_card, b.best_seat = lead_mask, power, best_card, best_seat
        b.spades_broken, b.must_lead_2c = broken_before, lead2c
        self.live ^= bit
        return v

    def _search(self, t: int, broken: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta over the worth, ``t`` and ``broken`` being the tricks so far."""
        b = self.board
        self.nodes += 1
        if self.nodes >= self.stop_at >= 0:
            raise SearchLimit(f"more than {self.budget} nodes")
        boundary = not b.trick
        if boundary and (b.tricks_left == 0 or broken == self.watched):
            return self.worth[broken * self.stride + t + self._tricks_from_here()]
        key: tuple[int, ...] = ()
        hint = -1
        alpha0, beta0 = alpha, beta
        lo, hi = -INFINITE, INFINITE
        if boundary:
            key = (*b.hands, b.turn, t, broken, int(b.spades_broken), b.sitting_out, int(b.must_lead_2c))
            entry = self.table.get(key)
            if entry is not None:
                lo, hi, hint = entry
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
        maximize = (self.side >> b.turn) & 1 == 1
        best = -INFINITE if maximize else INFINITE
        best_card = -1
        classes = self._classes(b.playable_cards(b.hands[b.turn]))
        if len(classes) > 1:
            self._order(classes, broken, hint)
        for cls in classes:
            v = self._try(cls[0], t, broken, alpha, beta)
            if maximize:
                if v > best:
                    best, best_card = v, cls[0]
                    if v >= beta:
                        break
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_card = v, cls[0]
                if v <= alpha:
                    break
                if v < beta:
                    beta = v
        if boundary:
            if best <= alpha0:
                hi = min(hi, best)
            elif best >= beta0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi, best_card)
        return best

    def _order(self, classes: list[list[int]], broken: int, hint: int) -> None:
        """Put the likeliest best card first: the table's, then as the open nils want it —
        the bidder under the trick's winner with its highest such card (leading, its
        lowest), its partner high to cover, its opponents low to leave it the trick."""
        b = self.board
        seat = b.turn
        rank = b.tables.rank
        open_nils = self.watched & ~broken
        high_first = False
        if (open_nils >> seat) & 1:
            if b.trick:
                wins = winning_cards(b.hands[seat], b.best_card, b.lead_mask, b.tables)
                classes.sort(key=lambda cls: ((wins >> cls[0]) & 1, -rank[cls[0]]))
            else:
                classes.sort(key=lambda cls: rank[cls[0]])
        elif open_nils:
            partners = self.side if (self.side >> seat) & 1 else ((1 << self.players) - 1) & ~self.side
            high_first = bool(open_nils & partners)
            classes.sort(key=lambda cls: -rank[cls[-1]] if high_first else rank[cls[0]])
        if hint >= 0:
            classes.sort(key=lambda cls: hint not in cls)  # stable: the rest keep their order

    def _tricks_from_here(self) -> int:
        """The side's most tricks from this trick boundary (the trick solver's answer),
        its nodes counted as this search's."""
        b = self.board
        if b.tricks_left == 0:
            return 0
        solver = self.tricks
        solver.budget = self.stop_at - self.nodes if self.stop_at >= 0 else 0
        start = solver.nodes
        try:
            return solver.solve(b)
        finally:
            self.nodes += solver.nodes - start

    def _classes(self, legal: int) -> list[list[int]]:
        """The legal cards in groups that play alike (``dds.card_classes``; prize jacks are
        not told apart: the worth counts tricks only)."""
        b = self.board
        blockers = self.live & ~legal
        for c in b.trick:
            blockers |= 1 << c
        return card_classes(legal, blockers, b.follow, order_of(b.tables))


__all__ = ["INFINITE", "ScoreSearch"]
