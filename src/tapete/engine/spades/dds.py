"""A double-dummy solver for the Spades family: every card seen, best play on all sides.

Given every seat's hand, the trick in progress and who is to play, ``Solver`` finds the
most tricks a *side* (a set of seats, as a bit mask) takes from here against best play
by all the other seats, and for each legal card the tricks the side keeps after it. In
partnership Spades the side is a team; in the individual profiles (3–5 players) a seat
is analysed against all the others playing together to hold it down — the "paranoid"
reading, a bound the seat can make whatever the others do.

The rules are the trick core's (``engine/spades/trick.py``): the solver's board is a
``TrickState``, so which cards may be played (``playable_cards``: follow suit, spades
not led until broken, the 2♣ lead) and who wins and leads next (``play``, the seat
sitting out trick 1) are decided there and nowhere else. The search is alpha-beta on
the trick count, driven by null-window (MTD(f)) searches, with:

- a transposition table at trick boundaries holding bounds per position, with winning
  ranks: an entry holds for every position with the same leader, flags and suit
  lengths per hand whose owners of each suit's live cards agree from the top down to
  the lowest card whose rank the answer depended on (relative ranks: the cards
  already played do not matter, and neither do the low cards below that one);
- equivalent cards merged (touching cards of one hand, no card still live or in the
  trick between them, are one move), and once a card was tried, the cards of its suit
  below every rank the answers so far depend on skipped (they would meet the same
  answer);
- quick-trick bounds (top cards the leader can cash; the team's highest cards of each
  suit played together, trumps drawn first), bounds for whether a team takes every
  trick left (the other team's guarded trump; too few suits it can lead and win), the
  side holding the highest card a trick in progress can still get being sure of it, and
  move ordering (the best move remembered per position, the cheapest winner, low
  cards when the side wins).

Pure: no I/O, no global state but the solver's own table.

>>> from tapete.cards import mask_of_names as m
>>> s = Solver(4, 0b0101)
>>> hands = [m(["AH", "2C"]), m(["KH", "3C"]), m(["QH", "4C"]), m(["JH", "5C"])]
>>> s.solve(position(hands, turn=0, tricks_left=2, spades_broken=True))
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mypy_extensions import i64

from tapete.engine.spades.trick import TrickState, TrickTables, beats

TABLE_LIMIT: Final = 2_000_000
"""Entries kept in the transposition table before it is cleared."""
MAX_PLY: Final = 5 * 18
"""Depths a search can reach: five places a trick (its start and up to four cards played)
for up to 17 tricks left."""
POLL_NODES: Final = 4096
"""Nodes between two calls of a solver's ``poll``."""
NO_CLASSES: Final[list[int]] = []
"""An empty list shared where nothing is merged (never added to)."""


class SearchLimit(Exception):
    """A search went past its node budget (``Solver(..., budget=...)``)."""


class Order:
    """The card order of one ``TrickTables``: each suit's cards from low to high, by rank."""

    __slots__ = ("above", "down", "groups", "identity", "monotone", "rank", "suits", "trumps")

    def __init__(self, tables: TrickTables) -> None:
        self.rank: tuple[int, ...] = tables.rank
        self.above: tuple[int, ...] = tables.above
        self.trumps: int = tables.trumps
        self.groups: tuple[int, ...] = tuple(tables.suit_mask)
        suits: list[tuple[int, ...]] = []
        for g in self.groups:
            cards = [c for c in range(len(tables.rank)) if (g >> c) & 1]
            cards.sort(key=lambda c: tables.rank[c])
            suits.append(tuple(cards))
        self.suits: tuple[tuple[int, ...], ...] = tuple(suits)
        self.down: tuple[tuple[int, ...], ...] = tuple(tuple(reversed(x)) for x in suits)
        self.monotone: bool = all(list(x) == sorted(x) for x in suits)
        """Whether a higher card of a suit is always a higher bit (``STANDARD``, not deuces high)."""
        self.identity: bool = all(tables.rank[c] == c for c in range(len(tables.rank)))
        """Whether every card's rank is its int (``STANDARD``): bit order is rank order."""

    def top(self, mask: int) -> int:
        """The highest-ranked card of ``mask`` (not empty)."""
        if self.identity:
            return mask.bit_length() - 1
        return _top_of(mask, self.above, self.rank)


_ORDERS: dict[str, Order] = {}


def order_of(tables: TrickTables) -> Order:
    """The (cached) card order of ``tables``."""
    order = _ORDERS.get(tables.name)
    if order is None:
        order = _ORDERS[tables.name] = Order(tables)
    return order


class Bucket:
    """The table's entries for one leader, flags and suit lengths per hand: for each pattern
    (``Solver._pattern``, in the order first stored) the bounds by the owners it covers."""

    __slots__ = ("index", "slots", "tables")

    def __init__(self) -> None:
        self.slots: list[int] = []
        """Each pattern (24 bits) with its filter above it: a bit for each ``_filter_bit``
        of its stored keys (most misses end there, without a dictionary lookup)."""
        self.tables: list[dict[int, int]] = []
        self.index: dict[int, int] = {}
        """Each pattern's place in ``slots``."""


class Board(TrickState):
    """The solver's position: a ``TrickState`` whose full trick passes the lead to its winner.

    With ``spares`` (the solver's), the next trick is kept in the empty list for its number
    of tricks left instead of a new one: a search takes each card back, so a trick's list is
    empty again whenever the search returns to where that trick began."""

    __slots__ = ("last_winner", "spares")

    def __init__(self, players: int) -> None:
        TrickState.__init__(self, players, ())
        self.last_winner: int = -1
        self.spares: list[list[int]] = []

    def end_trick(self, winner: int) -> None:
        self.last_winner = winner
        self.turn = winner
        self.trick = self.spares[self.tricks_left] if self.spares else []


def position(
    hands: Sequence[int],
    *,
    turn: int,
    tricks_left: int,
    spades_broken: bool = False,
    trick: Sequence[int] = (),
    must_lead_2c: bool = False,
    sitting_out: int = -1,
) -> Board:
    """A board from bare facts: the hands, who plays next, the cards of the trick so far.

    The trick's cards are played through the trick core from its leader (found by
    walking back from ``turn``), so lead, suit to follow and best card are the core's.
    """
    n = len(hands)
    b = Board(n)
    b.sit_out(sitting_out)
    b.tricks_left = tricks_left
    b.spades_broken = spades_broken
    b.must_lead_2c = must_lead_2c
    leader = turn
    for _ in range(len(trick)):
        leader = b.next_of.index(leader)
    b.hands = list(hands)
    seat = leader
    for c in trick:
        b.hands[seat] = b.hands[seat] | (1 << c)
        seat = b.next_of[seat]
    b.turn = leader
    for c in trick:
        b.play(c)
    return b


def team_of(side: int, seat: int, players: int) -> int:
    """The seats playing together with ``seat``: ``side`` if it is in it, else the rest."""
    everyone = (1 << players) - 1
    return side if (side >> seat) & 1 else everyone & ~side


class Solver:
    """Double-dummy searches for one side (``side``: a mask of seats); the table is reused.

    With a ``budget`` each answer (``solve``, ``card_values``) may visit that many nodes
    at most and raises ``SearchLimit`` past it (the table keeps what was proved). With
    ``winning_ranks=False`` a table entry serves only its own position (every live card's
    owner in its key), and with ``quick_tricks=False`` no quick-trick bound is used: many
    more nodes, the same answers, which the tests check.

    ``poll``, when set, is called every ``POLL_NODES`` nodes of a search; if it returns
    true the search stops with ``SearchLimit``. That is how a caller searching the same
    position elsewhere (``tapete.parallel_solve``) ends a search made useless; the table
    keeps what was proved, and the position is to be ``load``ed again before more is asked.
    """

    def __init__(
        self, players: int, side: int, budget: int = 0, winning_ranks: bool = True, quick_tricks: bool = True
    ) -> None:
        self.players = players
        self.side = side
        self.budget = budget
        self.winning_ranks = winning_ranks
        self.quick_tricks = quick_tricks
        self.stop_at = 0
        self.budget_end = -1
        """The node count at which the budget is spent (-1: no budget)."""
        self.poll: Callable[[], bool] | None = None
        self.board = Board(players)
        self.order = order_of(self.board.tables)
        self.table: dict[int, dict[int, Bucket]] = {}
        self.entries = 0
        self.guess = -1
        self.width = 5 * players
        """Bits a suit's length vector (``Solver._code``) takes: 5 a seat."""
        self.part0 = self.part1 = self.part2 = self.part3 = 0
        self.len0 = self.len1 = self.len2 = self.len3 = 0
        self.lens23 = 0
        self.rel = 0
        self.owner = bytes(64)
        """Each live card's seat (bytes: read far more often than written, and a byte is read
        without the unboxing a list's item costs in the compiled solver)."""
        self.nodes = 0
        self.tricks_played = 0
        """Tricks completed in the search (what DDS reports as its nodes: one a trick)."""
        self.move_first = -1
        self.moves5 = self.moves4 = self.moves35 = self.moves3 = self.moves2 = self.moves1 = 0
        """``_ordered_moves``'s answer: the first card to try, and the others by kind."""
        self.class_lists: list[list[int]] = [[] for _ in range(MAX_PLY)]
        """``_ordered_moves``'s classes, one list for each depth (tricks left and cards in
        the trick): a depth's list is read while the depths below it refill theirs."""
        self.cash_hands: list[int] = [0] * players
        self.cash_top: list[int] = [-1] * (4 * players)
        self.cash_held: list[int] = [0] * (4 * players)
        """``_team_cash``'s working lists, kept to be refilled at each call."""
        self.live = 0
        self.trick_mask = 0
        self.cashed = 0
        self.merged: list[int] = NO_CLASSES
        """The classes of two or more equivalent cards the last ``_ordered_moves`` merged,
        each as its lowest card << 7 | its highest."""

    # --- set-up -------------------------------------------------------------------------
    def load(self, state: TrickState) -> None:
        """Take the position of ``state`` (any trick-core state: game, fast hand, board)."""
        b = self.board
        b.copy_trick_state(state, list(state.trick), [])
        b.prize_masks = ()
        b.prize_all = 0
        b.spares = [[] for _ in range(MAX_PLY // 5)]  # fresh: a search stopped by its budget leaves cards
        if self.entries > TABLE_LIMIT:
            self.clear()
        order = order_of(b.tables)
        if order is not self.order:
            self.order = order
            self.clear()
        live = 0
        owner = bytearray(self.owner)
        for seat in range(self.players):
            hand = state.hands[seat]
            live |= hand
            m = hand
            while m:
                low = m & -m
                owner[low.bit_length() - 1] = seat
                m ^= low
        self.owner = bytes(owner)
        self.live = live
        tm = 0
        for c in state.trick:
            tm |= 1 << c
        self.trick_mask = tm
        self._code()
        self.budget_end = self.nodes + self.budget if self.budget > 0 else -1
        self._next_stop()

    def clear(self) -> None:
        """Forget the transposition table."""
        self.table = {}
        self.entries = 0

    # --- the answers --------------------------------------------------------------------
    def solve(self, state: TrickState) -> int:
        """The most tricks from here (the trick in progress included) the side can take.

        The null-window tests step up from none: a test below the answer is cheap (the
        bounds usually settle it at once), one above it is the costly kind."""
        self.load(state)
        return self._mtd(0, self.board.tricks_left)

    def card_values(self, state: TrickState) -> dict[int, int]:
        """For each card the seat to play may play: the side's tricks from here after it."""
        self.load(state)
        b = self.board
        out: dict[int, int] = {}
        self.guess = -1
        for cls in self._classes(b.playable_cards(b.hands[b.turn])):
            v = self._value_after(cls[-1])
            self.guess = v  # the next card's value is likely close
            for c in cls:
                out[c] = v
        return out

    def root_cards(self) -> list[int]:
        """One card of each class of equivalent legal cards in the ``load``ed position, in
        the order ``_search`` takes them when the table has no best card for it."""
        b = self.board
        cards: list[int] = []
        self._ordered_moves(b.turn, -1, b.tricks_left * 5 + len(b.trick))
        first = self.move_first
        heads: list[int] = []
        for mask, base in (
            (self.moves5, 500),
            (self.moves4, 400),
            (self.moves35, 350),
            (self.moves3, 300),
            (self.moves2, 200),
            (self.moves1, 100),
        ):
            while mask:
                k = self._head(mask, base)
                heads.append(k)
                mask ^= 1 << (k & 127)
        heads.sort(reverse=True)
        if first >= 0:
            cards.append(first)
        cards.extend(k & 127 for k in heads)
        return cards

    def test_card(self, card: int, target: int) -> int:
        """Whether the side makes ``target`` tricks from the ``load``ed position once ``card``
        is played: a null-window search, fail-soft (at least ``target`` means yes, and the
        answer is then a lower bound of the exact value; below it, an upper bound)."""
        self.rel = 0
        return self._try(card, target - 1, target)

    # --- search -------------------------------------------------------------------------
    def _mtd(self, lo: int, hi: int, guess: int = -1) -> int:
        """The exact value in ``[lo, hi]`` by null-window searches: stepping up from ``lo``,
        or first testing ``guess`` (a neighbour's value) and stepping from there."""
        t = guess if lo < guess <= hi else lo + 1
        while lo < hi:
            r = self._search(t - 1, t)
            if r >= t:
                lo = r
                t = lo + 1
            else:
                hi = r
                t = hi
        return lo

    def _value_after(self, card: int) -> int:
        """The exact value once ``card`` is played by the seat to play."""
        return self._try(card, -1, -1)

    def _try(self, card: int, alpha: int, beta: int) -> int:
        """Play ``card``, search (exactly when ``alpha`` < 0, else in the window), take it back."""
        b = self.board
        seat = b.turn
        bit = 1 << card
        trick = b.trick
        completes = len(trick) + 1 == b.trick_size
        lead_mask, power, best_card, best_seat = b.lead_mask, b.power, b.best_card, b.best_seat
        broken, lead2c, sitting = b.spades_broken, b.must_lead_2c, b.sitting_out
        saved_mask = self.trick_mask
        self.live ^= bit
        self.trick_mask = saved_mask | bit
        b.play(card)
        if completes:
            self.tricks_played += 1
            w = b.last_winner
            gain = (self.side >> w) & 1
            self.trick_mask = 0
            v = gain + (
                self._mtd(0, b.tricks_left, self.guess - gain) if alpha < 0 else self._search(alpha - gain, beta - gain)
            )
            # the winning card's rank mattered if it beat a card of its own suit
            wc = card
            for c in trick:
                if power[c] > power[wc]:
                    wc = c
            if (saved_mask | bit) & b.follow[wc] & ~(1 << wc):
                self.rel |= 1 << wc
            b.tricks_won[w] = b.tricks_won[w] - 1  # not -=: compiled, that is a generic call
            b.tricks_left += 1
            b.trick = trick
            if b.sitting_out != sitting:
                b.sit_out(sitting)
        elif alpha < 0:
            v = self._mtd(0, b.tricks_left, self.guess)
        else:
            v = self._search(alpha, beta)
        trick.pop()
        b.hands[seat] = b.hands[seat] | bit
        b.turn = seat
        b.lead_mask, b.power, b.best_card, b.best_seat = lead_mask, power, best_card, best_seat
        b.spades_broken, b.must_lead_2c = broken, lead2c
        self.live ^= bit
        self.trick_mask = saved_mask
        return v

    def _search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: the side's tricks from here, with the window ``(alpha, beta)``.

        Leaves in ``self.rel`` the cards whose ranks the answer depends on ("winning
        ranks"): at a trick boundary the table stores the answer for every position with
        the same suit lengths and the same owners of each suit's live cards from the top
        down to the lowest relevant one, so positions differing in low cards share it.
        """
        b = self.board
        self.nodes += 1
        if self.nodes == self.stop_at:
            self._at_stop()
        boundary = not b.trick
        outer = 0
        inner = 0
        p0 = p1 = p2 = p3 = 0
        lo = 0
        hi = 0
        hint = -1
        narrowed = 0
        if boundary:
            left = b.tricks_left
            if left == 0 or beta <= 0:
                self.rel = 0
                return 0
            if alpha >= left:
                self.rel = 0
                return left
            if left == 1:
                return self._last_trick()
            # the trumps nobody can beat first: they cost little, and where they settle the
            # search they rest on a few top trumps, fewer ranks than a table entry's
            self.rel = 0
            ours = self._sure_trumps(self.side, beta)
            if ours >= beta:
                return ours
            rel_ours = self.rel
            self.rel = 0
            others = ((1 << self.players) - 1) & ~self.side
            theirs = left - self._sure_trumps(others, left - alpha)
            if theirs <= alpha:
                return theirs
            rel_theirs = self.rel
            outer = self._code()
            inner = self.lens23
            p0, p1, p2, p3 = self.part0, self.part1, self.part2, self.part3
            hi = left
            used_lo = used_hi = 0  # the patterns of the entries the bounds came from
            level = self.table.get(outer)
            bucket = level.get(inner) if level is not None else None
            if bucket is not None:
                tables = bucket.tables
                c0: i64 = p0
                c1: i64 = p1
                c2: i64 = p2
                c3: i64 = p3
                j = -1
                cut_m = -1  # the entry that makes a cutoff
                cut_v = 0
                for slot in bucket.slots:
                    j += 1
                    x: i64 = slot
                    w0: i64 = x & 63
                    w1: i64 = (x >> 6) & 63
                    w2: i64 = (x >> 12) & 63
                    w3: i64 = (x >> 18) & 63
                    # the top cards' owners (shifting variables: a literal 1 would be shifted as a C int)
                    q0: i64 = c0 ^ ((c0 >> w0) << w0)
                    q1: i64 = c1 ^ ((c1 >> w1) << w1)
                    q2: i64 = c2 ^ ((c2 >> w2) << w2)
                    q3: i64 = c3 ^ ((c3 >> w3) << w3)
                    # ``_filter_bit`` written out in native ints (a call here costs a node's time)
                    if not (x >> (24 + (q0 ^ (q1 << 2) ^ (q2 << 5) ^ (q3 << 9)) % 37)) & 1:
                        continue
                    m = slot & 0xFFFFFF
                    d = tables[j].get(_key(m, p0, p1, p2, p3), -1)  # may pass 64 bits: not i64
                    if d >= 0:
                        elo = (d >> 6) & 63
                        ehi = d & 63
                        if elo >= beta or ehi <= alpha:
                            cut_m = m
                            cut_v = elo if elo >= beta else ehi
                            break  # the patterns go narrowest first: none rests on fewer cards
                        if elo > lo:
                            lo = elo
                            used_lo = m
                            hint = d >> 12
                        if ehi < hi:
                            hi = ehi
                            used_hi = m
                            if hint < 0:
                                hint = d >> 12
                if cut_m >= 0:
                    # an entry's bound makes the cutoff: it rests on that entry's ranks alone
                    self.rel = self._cards_of(cut_m)
                    return cut_v
            # each bound rests on the ranks of where it came from (the last to improve it)
            rel_lo = self._cards_of(used_lo) if used_lo else 0
            rel_hi = self._cards_of(used_hi) if used_hi else 0
            if self.quick_tricks and b.sitting_out < 0 and not b.must_lead_2c:
                self.rel = 0
                side_leads = (self.side >> b.turn) & 1
                q = self._quick_tricks(beta if side_leads else left - alpha)
                if side_leads:
                    if q > lo:
                        lo = q
                        rel_lo = self.rel
                elif left - q < hi:
                    hi = left - q
                    rel_hi = self.rel
            if ours > lo:
                lo = ours
                rel_lo = rel_ours
            if theirs < hi:
                hi = theirs
                rel_hi = rel_theirs
            # a test whether one team takes every trick left: the other's guarded trump, or
            # too few suits it can lead and win, says no
            every = self.quick_tricks and hi == left and alpha >= left - 1
            if every and (self._guarded_trump(others) or self._short_of_leads(self.side)):
                hi = left - 1
                rel_hi = self.rel
            every = self.quick_tricks and lo == 0 and beta <= 1
            if every and (self._guarded_trump(self.side) or self._short_of_leads(others)):
                lo = 1
                rel_lo = self.rel
            if lo >= beta or hi <= alpha:
                self.rel = rel_lo if lo >= beta else rel_hi
                return lo if lo >= beta else hi
            if alpha < lo or beta > hi:
                # only a window wider than null (the searches here use null ones) is
                # narrowed by the bounds; then what it finds rests on them too
                alpha = max(alpha, lo)
                beta = min(beta, hi)
                narrowed = rel_lo | rel_hi
        elif (beta <= 1 or alpha >= b.tricks_left - 1) and self.quick_tricks and not self._first_or_must_beat():
            # one side can make sure of the trick in progress: a search asking for one
            # trick, or for every trick, may be settled by that alone
            if self._trick_forced_by_side():
                if beta <= 1:
                    return 1
            elif alpha >= b.tricks_left - 1:
                return b.tricks_left - 1
        maximize = (self.side >> b.turn) & 1 == 1
        best = -1 if maximize else 1000
        best_move = -1
        a = alpha
        z = beta
        rel = narrowed
        self._ordered_moves(b.turn, hint, b.tricks_left * 5 + len(b.trick))
        merged = self.merged
        # the moves, best first: the table's card, then by score (``_ordered_moves``), taken
        # from one mask per kind of move (no list of boxed scores to build and sort)
        first = self.move_first
        m5, m4, m35 = self.moves5, self.moves4, self.moves35
        m3, m2, m1 = self.moves3, self.moves2, self.moves1
        k5 = self._head(m5, 500)
        k4 = self._head(m4, 400)
        k35 = self._head(m35, 350)
        k3 = self._head(m3, 300)
        k2 = self._head(m2, 200)
        k1 = self._head(m1, 100)
        cut = False
        # cards that play as one already tried (``_small_cards``); not where ranks decide
        # what may be played or in the first trick, nor in the reference search
        may_skip = self.winning_ranks and not self._first_or_must_beat()
        skip = 0
        while True:
            if first >= 0:
                card = first
                first = -1
            else:
                k = k5
                if k4 > k:
                    k = k4
                if k35 > k:
                    k = k35
                if k3 > k:
                    k = k3
                if k2 > k:
                    k = k2
                if k1 > k:
                    k = k1
                if k < 0:
                    break
                card = k & 127
                if k == k5:
                    m5 ^= 1 << card
                    k5 = self._head(m5, 500)
                elif k == k4:
                    m4 ^= 1 << card
                    k4 = self._head(m4, 400)
                elif k == k35:
                    m35 ^= 1 << card
                    k35 = self._head(m35, 350)
                elif k == k3:
                    m3 ^= 1 << card
                    k3 = self._head(m3, 300)
                elif k == k2:
                    m2 ^= 1 << card
                    k2 = self._head(m2, 200)
                else:
                    m1 ^= 1 << card
                    k1 = self._head(m1, 100)
            if (skip >> card) & 1:
                continue
            self.rel = 0
            v = self._try(card, a, z)
            if maximize:
                if v > best:
                    best = v
                    best_move = card
                    if v >= z:
                        # a cutoff rests on this card alone
                        rel = narrowed | self.rel
                        cut = True
                        break
                    if v > a:
                        a = v
            elif v < best:
                best = v
                best_move = card
                if v <= a:
                    rel = narrowed | self.rel
                    cut = True
                    break
                if v < z:
                    z = v
            rel |= self.rel
            if may_skip:
                skip |= self._small_cards(card, rel)
        if not cut and merged:
            rel = self._classes_kept(rel, merged)
        if boundary:
            # what this search proved; the bounds it started from have entries of their own
            if best <= alpha:
                lo = 0
                hi = best
            elif best >= beta:
                lo = best
                hi = b.tricks_left
            else:
                lo = best
                hi = best
            if self._first_or_must_beat():
                rel = self.live  # ranks decide what may be played, or the first trick: keep all
            self._store(outer, inner, p0, p1, p2, p3, rel, (best_move << 12) | (lo << 6) | hi)
        self.rel = rel
        return best

    def _next_stop(self) -> None:
        """Where the search next stops to look: the budget's end or the next poll."""
        stop = self.budget_end
        if self.poll is not None and (stop < 0 or self.nodes + POLL_NODES < stop):
            stop = self.nodes + POLL_NODES
        self.stop_at = stop

    def _at_stop(self) -> None:
        """The budget is spent (``SearchLimit``), or it is time to ``poll``."""
        if self.nodes == self.budget_end:
            raise SearchLimit(f"more than {self.budget} nodes")
        poll = self.poll
        if poll is not None and poll():
            raise SearchLimit("stopped by its caller")
        self._next_stop()

    def _store(self, outer: int, inner: int, p0: int, p1: int, p2: int, p3: int, rel: int, data: int) -> None:
        """Keep ``data`` (bounds and best card) for the pattern of the ``rel`` cards; ``p0``
        to ``p3`` are the suits' parts of the position's code (separate, not a tuple: a
        tuple a node is an allocation the garbage collector counts)."""
        mask = self._pattern(rel)
        key = _key(mask, p0, p1, p2, p3)
        bit = 1 << (
            24
            + _filter_bit(
                p0 & ((1 << (mask & 63)) - 1),
                p1 & ((1 << ((mask >> 6) & 63)) - 1),
                p2 & ((1 << ((mask >> 12) & 63)) - 1),
                p3 & ((1 << (mask >> 18)) - 1),
            )
        )
        level = self.table.get(outer)
        if level is None:
            level = self.table[outer] = {}
        bucket = level.get(inner)
        if bucket is None:
            bucket = level[inner] = Bucket()
        j = bucket.index.get(mask, -1)
        if j < 0:
            # the patterns are kept narrowest first (fewest cards), so that a probe meets
            # the entry that makes a cutoff on the fewest ranks first
            slots = bucket.slots
            width = _width(mask)
            j = len(slots)
            while j > 0 and _width(slots[j - 1] & 0xFFFFFF) > width:
                j -= 1
            slots.insert(j, mask)
            bucket.tables.insert(j, {})
            for k in range(j, len(slots)):
                bucket.index[slots[k] & 0xFFFFFF] = k
        entries = bucket.tables[j]
        bucket.slots[j] = bucket.slots[j] | bit
        old = entries.get(key, -1)
        if old >= 0:
            lo = (data >> 6) & 63
            hi = data & 63
            olo = (old >> 6) & 63
            ohi = old & 63
            if olo > lo:
                lo = olo
            if ohi < hi:
                hi = ohi
            data = (data >> 12 << 12) | (lo << 6) | hi
        else:
            self.entries += 1
        entries[key] = data

    def _classes_kept(self, rel: int, merged: list[int]) -> int:
        """``rel`` with what an answer over every class of equivalent cards depends on.

        One card answered for each class. Where the answer depended on no card of the
        class's suit ranked at or below its highest card, that card played as a small one
        and so does any card below the relevant ones. Otherwise the class must be the same
        in every position the answer serves: its owners count down to its lowest card.
        """
        follow = self.board.follow
        above = self.order.above
        rank = self.order.rank
        for pair in merged:
            top = pair & 127
            if rel & follow[top] & ~above[rank[top]]:
                rel |= 1 << (pair >> 7)
        return rel

    def _first_or_must_beat(self) -> bool:
        """Whether ranks decide what may be played (must-beat) or the trick is the first
        (the 2♣ lead, a seat sitting out): where the shortcuts that read ranks stay off."""
        b = self.board
        return b.must_beat or b.must_lead_2c or b.sitting_out >= 0

    def _trick_forced_by_side(self) -> bool:
        """In a trick in progress: whether the side, rather than the other seats, can make
        sure of it (``self.rel`` gets the card that does).

        The highest card the trick can still get decides it: the best card played so far
        or, for each seat still to play, its highest card of the led suit (void: its
        highest trump). Whoever holds that card, or played it, wins the trick by playing
        it; every card it beats ranks below it, so its rank is the one that matters.
        """
        b = self.board
        power = b.power
        side = self.side
        best = b.best_card
        card = -1
        for c in b.trick:
            if power[c] == best:
                card = c
        owner = b.best_seat
        nxt = b.next_of
        seat = b.turn
        for _ in range(b.trick_size - len(b.trick)):
            c = self._reach_card(seat)
            if c >= 0 and power[c] > best:
                best = power[c]
                card = c
                owner = seat
            seat = nxt[seat]
        self.rel = 1 << card
        return (side >> owner) & 1 == 1

    def _reach_card(self, seat: int) -> int:
        """The card of ``seat`` with the most power in the trick in progress: its highest of
        the led suit, or void its highest trump (-1: neither)."""
        b = self.board
        hand = b.hands[seat]
        mine = hand & b.lead_mask
        if not mine:
            mine = hand & self.order.trumps
            if not mine:
                return -1
        return self.order.top(mine)

    def _small_cards(self, card: int, rel: int) -> int:
        """The cards of ``card``'s suit that play as it did, once it was tried without a
        cutoff and the answers so far depend on the ranks ``rel``.

        When no card of the suit at or below ``card`` is in ``rel``, what ``card`` brought
        rested only on the suit's higher cards and on the lengths: any card of the suit
        ranked below the lowest relevant one, played instead, meets the same answer (the
        positions agree on every relevant card's owner). Those need no search of their
        own; the answer over the moves still rests on ``rel``, which covers them.
        """
        order = self.order
        suit = self.board.follow[card]
        r = rel & suit
        if r & ~order.above[order.rank[card]]:
            return 0  # the answer depended on a card at or below this one
        if not r:
            return suit
        return suit & ~order.above[order.rank[_bottom(r, order)] - 1]

    def _flags(self) -> int:
        """The leader and the flags of the position, 11 bits."""
        b = self.board
        sig = b.turn | ((b.sitting_out + 1) << 4)
        if b.spades_broken:
            sig |= 256
        if b.must_lead_2c:
            sig |= 512
        if b.must_beat:
            sig |= 1024
        return sig

    def _code(self) -> int:
        """Each suit's owners of its live cards from the top down, 3 bits each (``part0`` to
        ``part3``, the top card lowest), and each hand's length in it (5 bits a seat:
        ``len0`` to ``len3``).

        Returns the flags with the lengths in suits 0 and 1 (the table's first key) and
        leaves the lengths in suits 2 and 3 (its second) in ``lens23``.
        """
        owner = self.owner
        live = self.live
        order = self.order
        monotone = order.monotone
        width = self.width
        lens01 = 0
        lens23 = 0
        for i in range(4):
            part = 0
            n = 0
            if monotone:
                m = live & order.groups[i]
                while m:
                    low = m & -m
                    o = owner[low.bit_length() - 1]
                    part = (part << 3) | o  # the top card ends lowest
                    n += 1 << (5 * o)
                    m ^= low
            else:
                j = 0
                for c in order.down[i]:
                    if (live >> c) & 1:
                        o = owner[c]
                        part |= o << j
                        n += 1 << (5 * o)
                        j += 3
            if i == 0:
                self.part0 = part
                self.len0 = n
                lens01 = n
            elif i == 1:
                self.part1 = part
                self.len1 = n
                lens01 |= n << width
            elif i == 2:
                self.part2 = part
                self.len2 = n
                lens23 = n
            else:
                self.part3 = part
                self.len3 = n
                lens23 |= n << width
        self.lens23 = lens23
        return self._flags() | (lens01 << 11)

    def _pattern(self, rel: int) -> int:
        """How many bits of each suit's part of ``_code`` the ``rel`` cards make relevant:
        its live cards down to its lowest card in ``rel``, 3 bits each; 6 bits a suit."""
        live = self.live
        if not self.winning_ranks:
            rel = live
        mask = 0
        groups = self.order.groups
        down = self.order.down
        monotone = self.order.monotone
        for i in range(4):
            if monotone:
                r = rel & live & groups[i]
                if r:
                    k = _count(live & groups[i] & ~((r & -r) - 1))
                    mask |= (3 * k) << (6 * i)
            elif rel & groups[i]:
                j = 0
                k = 0
                for c in down[i]:
                    if (live >> c) & 1:
                        j += 1
                        if (rel >> c) & 1:
                            k = j
                mask |= (3 * k) << (6 * i)
        return mask

    def _cards_of(self, mask: int) -> int:
        """The live cards whose owners ``mask`` (a ``_pattern``) covers."""
        live = self.live
        out = 0
        order = self.order
        for i in range(4):
            k = ((mask >> (6 * i)) & 63) // 3
            if k == 0:
                continue
            if order.monotone:
                m = live & order.groups[i]
                while k and m:
                    top = 1 << (m.bit_length() - 1)
                    out |= top
                    m ^= top
                    k -= 1
                continue
            for c in order.down[i]:
                if (live >> c) & 1:
                    out |= 1 << c
                    k -= 1
                    if k == 0:
                        break
        return out

    # --- helpers ------------------------------------------------------------------------
    def _last_trick(self) -> int:
        """The last trick, every card forced: 1 if the side wins it (the trick core's ``beats``
        decides, card by card; no lists, so no allocation)."""
        b = self.board
        tables = b.tables
        hands = b.hands
        nxt = b.next_of
        seat = b.turn
        led = hands[seat].bit_length() - 1
        wc = led
        ws = seat
        cards = 1 << led
        for _ in range(b.trick_size - 1):
            seat = nxt[seat]
            c = hands[seat].bit_length() - 1
            cards |= 1 << c
            if beats(c, wc, led, tables):
                wc = c
                ws = seat
        self.rel = 1 << wc if cards & b.follow[wc] & ~(1 << wc) else 0
        return (self.side >> ws) & 1

    def _held_by(self, seats: int) -> int:
        """The cards in the hands of ``seats`` (a mask of seats)."""
        hands = self.board.hands
        out = 0
        for seat in range(self.players):
            if (seats >> seat) & 1:
                out |= hands[seat]
        return out

    def _sure_trumps(self, team: int, need: int) -> int:
        """Tricks ``team`` takes with trumps the other seats cannot beat: each such trump
        wins whenever it is played, whatever the lead (every card gets played), and one
        seat's cards fall in different tricks — so the most any one seat of it holds.

        Counted from the top trump down, stopping once a seat of the team has ``need``
        (enough to end the search): the ranks of the trumps counted become relevant, and
        the fewer they are, the more positions the answer serves. With no trump of the
        other seats left, the lengths alone say it (no rank is relevant)."""
        b = self.board
        order = self.order
        trumps = self.live & order.trumps
        if not trumps:
            return 0
        everyone = (1 << self.players) - 1
        best = 0
        if not self._held_by(everyone & ~team) & trumps:
            for seat in range(self.players):
                if (team >> seat) & 1:
                    n = _count(b.hands[seat] & trumps)
                    if n > best:
                        best = n
            return best
        owner = self.owner
        counts = 0  # 5 bits a seat
        rel = 0
        if order.monotone:
            m = trumps
            while m:
                c = m.bit_length() - 1
                m ^= 1 << c
                o = owner[c]
                if not (team >> o) & 1:
                    break
                rel |= 1 << c
                counts += 1 << (5 * o)
                n = (counts >> (5 * o)) & 31
                if n > best:
                    best = n
                    if best >= need:
                        break
        else:
            for c in order.down[len(order.groups) - 1]:
                if not (trumps >> c) & 1:
                    continue
                o = owner[c]
                if not (team >> o) & 1:
                    break
                rel |= 1 << c
                counts += 1 << (5 * o)
                n = (counts >> (5 * o)) & 31
                if n > best:
                    best = n
                    if best >= need:
                        break
        self.rel = rel
        return best

    def _guarded_trump(self, team: int) -> bool:
        """Whether ``team`` is sure of a trick should the other seats win every trick left
        (so that they lead all of them but perhaps the one starting now): whether the other
        seats cannot take every trick left.

        ``team``'s highest trump wins a trick when each live trump above it belongs to a
        seat that plays before its holder whichever seat leads (the other seats, or the one
        on lead now), and the holder has more trumps than there are trumps above it. The
        holder plays a trump only when made to; each time, either none of those above it
        has been played to the trick (it plays its highest and wins) or one has (it plays a
        lower trump and keeps the count). Not under must-beat, which may force a higher
        trump, nor in the first trick (the 2♣ lead, a seat sitting out). The ranks of that
        trump and those above it become relevant.
        """
        if self._first_or_must_beat():
            return False
        b = self.board
        order = self.order
        trumps = self.live & order.trumps
        ours = self._held_by(team) & trumps
        if not ours:
            return False
        top = order.top(ours)
        holder = self.owner[top]
        above = trumps & order.above[order.rank[top]]
        n = _count(above)
        if n == 0 or _count(b.hands[holder] & trumps) <= n:
            return False  # none above: a sure trick, counted by ``_sure_trumps``
        before = 0  # the seats holding a trump above it
        m = above
        while m:
            low = m & -m
            before |= 1 << self.owner[low.bit_length() - 1]
            m ^= low
        leaders = (((1 << self.players) - 1) & ~team) | (1 << b.turn)
        nxt = b.next_of
        for lead in range(self.players):
            if not (leaders >> lead) & 1:
                continue
            seat = lead
            ahead = 0
            while seat != holder:
                ahead |= 1 << seat
                seat = nxt[seat]
            if before & ~ahead:
                return False
        self.rel = above | (1 << top)
        return True

    def _short_of_leads(self, team: int) -> bool:
        """Whether ``team``, on lead with no trumps left in play, cannot take every trick left.

        Taking them all, it leads every trick, and never a suit whose highest live card
        another seat holds (that seat would win it); a suit whose highest card it holds it
        leads at most as often as its longest holding of the suit (each of its seats
        holding the suit follows to every round). When those counts add up to fewer than
        the tricks left, it cannot. Not in the first trick (the 2♣ lead, a seat sitting
        out). The owners of each suit's highest card become relevant.
        """
        b = self.board
        if not (team >> b.turn) & 1 or self.live & self.order.trumps or b.sitting_out >= 0 or b.must_lead_2c:
            return False
        order = self.order
        rel = 0
        total = 0
        for i in range(len(order.groups) - 1):
            m = self.live & order.groups[i]
            if not m:
                continue
            top = order.top(m)
            rel |= 1 << top
            if (team >> self.owner[top]) & 1:
                most = 0
                for seat in range(self.players):
                    if (team >> seat) & 1:
                        k = self._length(seat, i)
                        if k > most:
                            most = k
                total += most
        if total >= b.tricks_left:
            return False
        self.rel = rel
        return True

    def _quick_tricks(self, need: int) -> int:
        """Tricks the leader's team takes at once: the leader cashing its top cards, or
        leading to a teammate's top card of a suit and that teammate cashing (``_cash``);
        where that gives fewer than ``need`` (the count that would end the search), the
        team's cards of each suit played together (``_team_cash``). Each counts up to
        ``need`` and no further: the cards counted are the ranks the bound rests on, and
        the fewer they are, the more positions a table entry built on it serves."""
        b = self.board
        leader = b.turn
        hands = b.hands
        team = team_of(self.side, leader, self.players)
        trumps = self.order.trumps
        groups = self.order.groups
        outer = self.rel
        self.rel = 0
        best = self._cash(leader, team, need)
        rel = self.rel
        lead = hands[leader]
        may_trump = lead & trumps != 0 and (b.spades_broken or lead & ~trumps == 0)
        for seat in range(self.players):
            if best >= need:
                break  # enough to end the search: no wider set of ranks
            if seat == leader or not (team >> seat) & 1 or not hands[seat]:
                continue
            self.rel = 0
            q = self._cash(seat, team, need)
            if q <= best:
                continue
            entries = 0
            for i in range(len(groups)):
                if (self.cashed >> i) & 1 and lead & groups[i] and (groups[i] != trumps or may_trump):
                    entries += 1
            if entries:
                best = q
                rel = self.rel
        if best < need and b.spades_broken and not b.must_beat:
            self.rel = 0
            q = self._team_cash(leader, team, need)
            if q > best:
                best = q
                rel = self.rel
        self.rel = outer | rel
        left = b.tricks_left
        return best if best < left else left

    def _team_cash(self, leader: int, team: int, need: int) -> int:
        """Tricks the leader's team takes in a row, up to ``need``, by playing round after
        round its highest card of a suit it can win with: trumps first, then the side suits.

        In a round the seat holding the team's highest card of the suit leads it if on lead;
        otherwise the seat on lead leads its lowest card of the suit and the holder takes the
        trick and the lead. Every other teammate plays its lowest card of the suit or, void,
        discards its lowest card of its longest side suit. A round is played only when that
        highest card beats the best card of every opponent who may still hold the suit (one
        holding ``n`` cards of it follows in each of its first ``n`` rounds), every opponent
        still holding a trump follows a side suit (so nobody ruffs), and no teammate would
        have to ruff. Opponents run out of trumps as trump rounds are played; what they
        discard is not assumed. The ranks of the cards that win become relevant. For
        profiles without must-beat whose higher cards are higher bits, once spades are broken.
        """
        order = self.order
        if not order.monotone:
            return 0
        b = self.board
        owner = self.owner
        players = self.players
        groups = order.groups
        trumps = order.trumps
        trump = len(groups) - 1
        hands = self.cash_hands  # the teammates' cards as they are played away
        top = self.cash_top  # an opponent's highest card of a suit
        held = self.cash_held  # how many cards of a suit an opponent may still hold
        mates = 0
        for seat in range(players):
            h = b.hands[seat]
            hands[seat] = h
            if (team >> seat) & 1:
                mates |= h
                continue
            for i in range(trump + 1):
                m = h & groups[i]
                k = 4 * seat + i
                if m:
                    top[k] = m.bit_length() - 1
                    held[k] = self._length(seat, i)
                else:
                    top[k] = -1
                    held[k] = 0
        on_lead = leader
        total = 0
        left = b.tricks_left if b.tricks_left < need else need
        while total < left:
            played = False
            for n in range(trump + 1):
                i = trump - n  # trumps first
                g = groups[i]
                if not mates & g or not hands[on_lead] & g:
                    continue
                best = (mates & g).bit_length() - 1
                holder = owner[best]
                ok = True
                for seat in range(players):
                    k = 4 * seat + i
                    if (team >> seat) & 1:
                        if i != trump and not hands[seat] & g and not hands[seat] & ~trumps:
                            ok = False  # void with only trumps: it would have to ruff
                    elif held[k] > 0:
                        if top[k] > best:
                            ok = False
                    elif i != trump and held[4 * seat + trump] > 0:
                        ok = False  # void with a trump: it may ruff
                if not ok:
                    continue
                for seat in range(players):
                    if (team >> seat) & 1:
                        h = hands[seat]
                        if seat == holder:
                            gone = 1 << best
                        elif h & g:
                            gone = h & g & -(h & g)
                        else:
                            gone = self._discard(h, trump)
                        hands[seat] = h & ~gone
                        mates &= ~gone
                    elif held[4 * seat + i] > 0:
                        held[4 * seat + i] -= 1
                self.rel |= 1 << best
                on_lead = holder
                total += 1
                played = True
                break
            if not played:
                break
        return total

    def _discard(self, hand: int, trump: int) -> int:
        """The card a teammate void in the suit played lets go of in ``_team_cash``: the
        lowest of its longest side suit, or its lowest trump if it has nothing else."""
        groups = self.order.groups
        pick = 0
        most = 0
        for i in range(trump):
            m = hand & groups[i]
            n = _count(m)
            if n > most:
                most = n
                pick = m
        if not pick:
            pick = hand
        return pick & -pick

    def _cash(self, seat: int, team: int, most: int = 64) -> int:
        """Tricks ``seat`` takes in a row by cashing its top cards once it is on lead (its
        team is ``team``), at most ``most`` (counting past what ends the search would only
        make more ranks relevant); ``cashed`` gets the suits (``Order.groups`` indexes) it
        cashes.

        Its top trumps count when it may lead them. In a side suit its top cards count as
        long as every other seat that could ruff still has a card of the suit: an
        opponent holding a trump, or under must-beat any seat holding one. A teammate
        holding a trump is never made to ruff while it has another card to play, so the
        side-suit rounds are at most each such teammate's non-trump cards. Nobody ruffs,
        so the lengths the caps read do not change while the cards are cashed.
        """
        b = self.board
        hands = b.hands
        order = self.order
        trumps = order.trumps
        groups = order.groups
        last = len(groups) - 1
        self.cashed = 0
        q = 0
        if b.spades_broken or hands[seat] & ~trumps == 0:
            q = self._top_run(seat, last, most)
            if q:
                self.cashed = 1 << last
        side = 0
        rounds = 64
        for other in range(self.players):
            if other != seat and (team >> other) & 1 and hands[other] & trumps and not b.must_beat:
                n = self._length(other, 0) + self._length(other, 1) + self._length(other, 2)
                if n < rounds:
                    rounds = n
        for i in range(last):
            if side >= rounds or q + side >= most:
                break
            cap = rounds - side if rounds - side < most - q - side else most - q - side
            for other in range(self.players):
                if other != seat and hands[other] & trumps and (b.must_beat or not (team >> other) & 1):
                    n = self._length(other, i)
                    if n < cap:
                        cap = n
            if cap > 0:
                n = self._top_run(seat, i, cap)
                if n:
                    side += n
                    self.cashed |= 1 << i
        return q + side

    def _length(self, seat: int, suit: int) -> int:
        """How many cards of suit ``suit`` (an ``Order.groups`` index) ``seat`` holds, as of
        the last ``_code``."""
        n = self.len0 if suit == 0 else self.len1 if suit == 1 else self.len2 if suit == 2 else self.len3
        return (n >> (5 * seat)) & 31

    def _top_run(self, seat: int, suit: int, cap: int) -> int:
        """How many of the highest live cards of suit ``suit`` (an index of ``Order.groups``)
        ``seat`` holds without a gap, at most ``cap``; their ranks become relevant."""
        hand = self.board.hands[seat]
        live = self.live
        n = 0
        if self.order.monotone:  # the suit's highest live card is its highest bit
            m = live & self.order.groups[suit]
            while m and n < cap:
                top = 1 << (m.bit_length() - 1)
                if not hand & top:
                    break
                n += 1
                self.rel |= top
                m ^= top
            return n
        for c in self.order.down[suit]:
            if (live >> c) & 1:
                if not (hand >> c) & 1 or n == cap:
                    break
                n += 1
                self.rel |= 1 << c
        return n

    def _classes(self, legal: int) -> list[list[int]]:
        """The legal cards in classes of equivalent ones, each from low to high."""
        return card_classes(legal, (self.live | self.trick_mask) & ~legal, self.board.follow, self.order)

    def _head(self, mask: int, base: int) -> int:
        """The best move of ``mask`` (moves scored ``base`` less their rank, ``_ordered_moves``)
        as its score << 7 | the card, or -1 if ``mask`` is empty: the lowest-ranked card
        scores highest, ties (between kinds) go to the higher card."""
        if not mask:
            return -1
        c = _bottom(mask, self.order)
        return ((base - self.order.rank[c]) << 7) | c

    def _ordered_moves(self, seat: int, hint: int, ply: int) -> None:
        """One card of each class of equivalent legal cards, sorted into kinds: the
        likeliest best first, ``move_first`` (the table's card; -1: none), then the others
        by score, a kind's base less the card's rank (``moves5`` scored 500, ``moves4`` 400,
        ``moves35`` 350, ``moves3`` 300, ``moves2`` 200, ``moves1`` 100; ``_head``).

        First the table's best card. Following: low when the trick is the side's already;
        else the cheapest card that wins against everything the later opponents can
        bring, then other winners, then low cards. Leading: top cards of suits no
        opponent can ruff, a suit a teammate can ruff, top cards the opponents can ruff,
        low toward a teammate's top card, then the rest.
        """
        b = self.board
        legal = b.playable_cards(b.hands[seat])
        self.merged = NO_CLASSES
        self.move_first = -1
        self.moves5 = self.moves4 = self.moves35 = self.moves3 = self.moves2 = self.moves1 = 0
        if legal & (legal - 1) == 0:
            self.move_first = legal.bit_length() - 1
            return
        blockers = (self.live | self.trick_mask) & ~legal
        team = team_of(self.side, seat, self.players)
        following = len(b.trick) > 0
        power = b.power
        best_card = b.best_card
        order = self.order
        trumps = order.trumps
        ours = following and (team >> b.best_seat) & 1 == 1
        theirs_later = -1  # following: the highest power a later opponent can bring
        ruffable = 0  # leading: the side suits an opponent can ruff
        partner_ruffs = 0  # leading: the other side suits a teammate can ruff
        if following:
            nxt = b.next_of
            t = nxt[seat]
            for _ in range(b.trick_size - len(b.trick) - 1):
                if not (team >> t) & 1:
                    c = self._reach_card(t)
                    p = order.rank[c] if c >= 0 else -1
                    if p > theirs_later:
                        theirs_later = p
                t = nxt[t]
        else:
            for t in range(self.players):
                h = b.hands[t]
                if t != seat and h & trumps:
                    voids = 0
                    for g in order.groups:
                        if h & g == 0:
                            voids |= g
                    if (team >> t) & 1:
                        partner_ruffs |= voids
                    else:
                        ruffable |= voids
            ruffable &= ~trumps
            partner_ruffs &= ~trumps & ~ruffable
        live = self.live
        above = order.above
        follow = b.follow
        merged = self.class_lists[ply]
        merged.clear()
        start = -1
        prev = -1
        identity = order.identity
        ranked = NO_CLASSES if identity else ranked_cards(legal, order.rank)
        m = legal
        i = 0
        pending = -1  # the highest card so far of the class being read
        pending_hint = False
        m5 = m4 = m35 = m3 = m2 = m1 = 0
        while True:
            if identity:  # bit order is rank order: no sorting, classes by the bits between
                if not m:
                    c = -1
                else:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    same = (
                        prev >= 0 and follow[c] == follow[prev] and blockers & follow[c] & ((1 << c) - (2 << prev)) == 0
                    )
            elif i == len(ranked):
                c = -1
            else:
                c = ranked[i] & 63
                i += 1
                same = prev >= 0 and same_class(prev, c, blockers, follow, order)
            if c >= 0 and same:
                # the class of the card before: it goes on, kept as its higher card
                if merged and merged[-1] & 127 == prev:
                    merged[-1] = (start << 7) | c
                else:
                    merged.append((start << 7) | c)
                pending = c
                pending_hint = pending_hint or c == hint
                prev = c
                continue
            if pending >= 0:
                # a class ends: score its card (kept as the class's highest)
                x = pending
                r = order.rank[x]
                bit = 1 << x
                if pending_hint:
                    self.move_first = x
                elif following:
                    if ours and best_card > theirs_later:
                        m2 |= bit
                    elif power[x] > best_card:
                        if power[x] > theirs_later:
                            m5 |= bit
                        else:
                            m4 |= bit
                    else:
                        m2 |= bit
                elif live & follow[x] & above[r] == 0:
                    if follow[x] & ruffable == 0:  # the top card of its suit
                        m4 |= bit
                    else:
                        m3 |= bit
                elif follow[x] & partner_ruffs:
                    m35 |= bit
                elif (team >> self.owner[order.top(live & follow[x])]) & 1:
                    m2 |= bit
                else:
                    m1 |= bit
            if c < 0:
                break
            start = c
            pending = c
            pending_hint = c == hint
            prev = c
        self.moves5, self.moves4, self.moves35 = m5, m4, m35
        self.moves3, self.moves2, self.moves1 = m3, m2, m1
        self.merged = merged


def ranked_cards(legal: int, rank: Sequence[int]) -> list[int]:
    """The cards of ``legal`` as ``rank << 6 | card``, lowest rank first."""
    out: list[int] = []
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        out.append((rank[c] << 6) | c)
        m ^= low
    out.sort()
    return out


def same_class(prev: int, c: int, blockers: int, follow: Sequence[int], order: Order) -> bool:
    """Whether ``c`` (ranked just above ``prev``) plays as ``prev`` does: the same suit
    (``follow``) and no card of ``blockers`` ranked between them."""
    if follow[c] != follow[prev]:
        return False
    rank = order.rank
    above = order.above
    between = follow[c] & above[rank[prev]] & ~above[rank[c] - 1]
    return blockers & between == 0


def card_classes(legal: int, blockers: int, follow: Sequence[int], order: Order) -> list[list[int]]:
    """The cards of ``legal`` in classes of equivalent ones, each from low to high, the
    classes by their lowest card's rank (``same_class``: ``blockers`` are the other cards
    still live or in the trick)."""
    out: list[list[int]] = []
    prev = -1
    for x in ranked_cards(legal, order.rank):
        c = x & 63
        if prev >= 0 and same_class(prev, c, blockers, follow, order):
            out[-1].append(c)
        else:
            out.append([c])
        prev = c
    return out


def _count(mask: int) -> int:
    """The number of cards in ``mask``."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _key(mask: int, p0: int, p1: int, p2: int, p3: int) -> int:
    """The suits' parts of a position's code (``Solver._code``) cut to ``mask``'s widths, end to end."""
    w0 = mask & 63
    w1 = (mask >> 6) & 63
    w2 = (mask >> 12) & 63
    w3 = mask >> 18
    key = p0 & ((1 << w0) - 1)
    key |= (p1 & ((1 << w1) - 1)) << w0
    key |= (p2 & ((1 << w2) - 1)) << (w0 + w1)
    return key | ((p3 & ((1 << w3) - 1)) << (w0 + w1 + w2))


def _width(mask: int) -> int:
    """How many bits of the position's code a pattern (``Solver._pattern``) keeps: 3 a card."""
    return (mask & 63) + ((mask >> 6) & 63) + ((mask >> 12) & 63) + ((mask >> 18) & 63)


def _filter_bit(q0: int, q1: int, q2: int, q3: int) -> int:
    """A key's bit in its pattern's filter (``Bucket.slots``), from the suits' cut parts."""
    return (q0 ^ (q1 << 2) ^ (q2 << 5) ^ (q3 << 9)) % 37


def _bottom(mask: int, order: Order) -> int:
    """The lowest-ranked card of ``mask`` (not empty)."""
    if order.identity:
        return (mask & -mask).bit_length() - 1
    rank = order.rank
    low = -1
    m = mask
    while m:
        bit = m & -m
        c = bit.bit_length() - 1
        if low < 0 or rank[c] < rank[low]:
            low = c
        m ^= bit
    return low


def _top_of(mask: int, above: tuple[int, ...], rank: tuple[int, ...]) -> int:
    """The highest-ranked card of ``mask`` (not empty)."""
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if mask & above[rank[c]] == 0:
            return c
        m ^= low
    return -1


__all__ = ["Board", "Order", "SearchLimit", "Solver", "order_of", "position", "team_of"]
