"""One double-dummy solve on several cores: ``ParallelSolver``.

``Solver.solve`` (``engine/spades/dds.py``) finds the side's most tricks by null-window
tests stepping up from none: "does the side make ``t``?" for ``t`` = 1, 2, … until one
fails. Each test is answered at the root by the root's cards, one after the other: where
the side is to play, one card that makes ``t`` answers yes and every card must fail for
no; where the other seats play, the other way round. How long one card takes to answer
varies a great deal (on a slow full deal the card a test tries first can take five
times the nodes of another card that answers it as well), and the cards' answers are
independent questions.

So each of ``processes`` processes runs the same tests on a solver of its own, trying
the root's cards in its own order (the solver's order, the reverse of it, or that order
turned round by a share of the cards), and they share, through a small block of shared
memory, what each found: a card that answers the test ends it for all (the others stop
their searches within ``POLL_NODES`` nodes), and a card that does not is marked, so no
other process searches it again. Both answers are exact, so every process takes the same
value from each test and the same next test; the result is ``Solver.solve``'s, whichever
process answers first. The cost is the cores: it is for one deal wanted soon (a hand just
played, analysed with cores to spare), not for many deals at once, which are better
spread one a core.

Processes are started once (``fork`` where the system has it) and kept for the next
solves with their tables; ``close`` (or ``with``) ends them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import SynchronizedArray
from types import TracebackType
from typing import Any

from tapete.engine.pickling import fields_of, rebuilt
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.engine.spades.trick import TRICK_FIELDS, TrickState

MAX_TESTS = 24
"""Null-window tests one solve may ask (at most tricks + 1: 18 for 17 tricks)."""
CARD_SLOTS = 64
"""A mark for each card a test's root may have (the deck's cards, jokers included)."""
WAIT = 0.0002
"""Seconds a process that has nothing left to search sleeps between looks at the answers."""


class SharedAnswers:
    """The shared block: each test's answer (0: not yet, else the value + 1) and, for each
    test, each root card's answer once searched (0: not yet, else the value + 1)."""

    def __init__(self, cells: SynchronizedArray[Any]) -> None:
        self.cells = cells
        self.raw: Any = cells.get_obj()

    def clear(self) -> None:
        for i in range(len(self.raw)):
            self.raw[i] = 0

    def answer(self, test: int) -> int:
        """The test's answer, -1 while there is none."""
        return int(self.raw[test]) - 1

    def settle(self, test: int, value: int) -> int:
        """Give the test its answer unless another process did first; return the answer kept."""
        with self.cells.get_lock():
            if self.raw[test] == 0:
                self.raw[test] = value + 1
            return int(self.raw[test]) - 1

    def mark(self, test: int, card: int, value: int) -> None:
        self.raw[MAX_TESTS + test * CARD_SLOTS + card] = value + 1

    def marked(self, test: int, card: int) -> int:
        """The card's answer in the test, -1 if no process has it."""
        return int(self.raw[MAX_TESTS + test * CARD_SLOTS + card]) - 1


def arranged(cards: list[int], index: int, processes: int) -> list[int]:
    """Process ``index``'s order of the root's cards: the solver's own for the first, the
    reverse for the second, and for the others the order turned round by their share."""
    if index == 0:
        return list(cards)
    if index == 1:
        return cards[::-1]
    turn = index * len(cards) // processes
    return cards[turn:] + cards[:turn]


def portfolio_solve(solver: Solver, state: TrickState, index: int, processes: int, shared: SharedAnswers) -> int:
    """``solver``'s part of one solve of ``state`` as process ``index`` of ``processes``
    sharing ``shared`` (cleared before the solve): the side's most tricks from ``state``."""
    test = -1
    solver.poll = lambda: shared.answer(test) >= 0
    try:
        solver.load(state)
        lo, hi = 0, solver.board.tricks_left
        target = 1
        while lo < hi:
            test += 1
            value = _test(solver, state, target, test, index, processes, shared)
            if value >= target:
                lo = value
                target = lo + 1
            else:
                hi = value
                target = hi
        return lo
    finally:
        solver.poll = None


def _test(
    solver: Solver, state: TrickState, target: int, test: int, index: int, processes: int, shared: SharedAnswers
) -> int:
    """Whether the side makes ``target``: the shared answer of test number ``test``."""
    side_plays = (solver.side >> solver.board.turn) & 1 == 1
    cards = arranged(solver.root_cards(), index, processes)
    try:
        for card in cards:
            if shared.answer(test) >= 0:
                break
            if shared.marked(test, card) >= 0:
                continue
            value = solver.test_card(card, target)
            if (value >= target) == side_plays:
                return shared.settle(test, value)  # this card answers the test
            shared.mark(test, card, value)
        else:
            # every card of this order was searched or marked: the answer is theirs together
            while shared.answer(test) < 0:
                values = [shared.marked(test, c) for c in cards]
                if min(values) >= 0:
                    return shared.settle(test, max(values) if side_plays else min(values))
                time.sleep(WAIT)
    except SearchLimit:
        solver.load(state)  # stopped mid-search: the board is where the search left it
    while shared.answer(test) < 0:
        time.sleep(WAIT)
    return shared.answer(test)


def _snapshot(state: TrickState) -> dict[str, Any]:
    """What a position is made of, to send to another process."""
    return fields_of(state, TRICK_FIELDS)


def _position(snapshot: dict[str, Any]) -> TrickState:
    return rebuilt(TrickState, (int(snapshot["num_players"]), ()), snapshot)  # type: ignore[no-any-return]


def _serve(
    conn: Connection, players: int, side: int, index: int, processes: int, cells: SynchronizedArray[Any]
) -> None:
    """A helper process: solve each position it is sent, until it is sent ``None`` or its
    caller is gone (the pipe closed) or interrupted (Ctrl-C reaches the whole group)."""
    solver = Solver(players, side)
    shared = SharedAnswers(cells)
    try:
        while True:
            job = conn.recv()
            if job is None:
                return
            try:
                answer: object = portfolio_solve(solver, _position(job), index, processes, shared)
            except Exception as exc:  # reported to the caller, which raises it
                answer = exc
            conn.send(answer)
    except (EOFError, OSError, KeyboardInterrupt):
        return


class ParallelSolver:
    """``Solver(players, side).solve`` over ``processes`` processes (this one included)."""

    def __init__(self, players: int, side: int, processes: int = 2) -> None:
        if processes < 1:
            raise ValueError("processes must be at least 1")
        self.players = players
        self.side = side
        self.processes = processes
        self.solver = Solver(players, side)
        self.context: Any = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        self.cells = self.context.Array("q", MAX_TESTS + MAX_TESTS * CARD_SLOTS)
        self.shared = SharedAnswers(self.cells)
        self.helpers: list[tuple[Any, Connection]] = []

    def start(self) -> None:
        """Start the helper processes now (else the first ``solve`` does)."""
        if self.helpers or self.processes == 1:
            return
        for index in range(1, self.processes):
            mine, theirs = self.context.Pipe()
            args = (theirs, self.players, self.side, index, self.processes, self.cells)
            process = self.context.Process(target=_serve, args=args, daemon=True)
            process.start()
            theirs.close()
            self.helpers.append((process, mine))

    def solve(self, state: TrickState) -> int:
        """The most tricks from ``state`` the side can take (``Solver.solve``'s answer)."""
        if self.processes == 1:
            return self.solver.solve(state)
        self.start()
        self.shared.clear()
        snapshot = _snapshot(state)
        try:
            for _, conn in self.helpers:
                conn.send(snapshot)
            mine = portfolio_solve(self.solver, state, 0, self.processes, self.shared)
            answers = [conn.recv() for _, conn in self.helpers]
        except BaseException:
            self.close()  # helpers left mid-solve would answer the next one wrongly
            raise
        for theirs in answers:
            if isinstance(theirs, BaseException):
                self.close()
                raise theirs
            if theirs != mine:
                raise RuntimeError(f"processes disagree: {mine} and {theirs}")
        return mine

    def close(self) -> None:
        """End the helper processes."""
        for process, conn in self.helpers:
            with contextlib.suppress(OSError):
                conn.send(None)
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
            conn.close()
        self.helpers = []

    def __enter__(self) -> ParallelSolver:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


__all__ = ["ParallelSolver", "arranged", "portfolio_solve"]
