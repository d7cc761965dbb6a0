"""One solve over several processes gives the one-process answer, and the hooks it rests on.

``ParallelSolver`` shares each null-window test's root cards out between processes
(``tapete.parallel_solve``); its answer must be ``Solver.solve``'s on every profile,
whichever process answers a test. The solver's own pieces it uses — ``root_cards``,
``test_card``, ``poll`` — are checked against the solver's other answers.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete.engine.spades.dds import SearchLimit, Solver
from tapete.parallel_solve import ParallelSolver, arranged
from tests.spades.test_dds import SPADES_PROFILES, _side, small_position

_SOLVERS: dict[tuple[int, int, int], ParallelSolver] = {}


def _parallel(players: int, side: int, processes: int) -> ParallelSolver:
    """A solver kept for the module (its processes start once)."""
    key = (players, side, processes)
    if key not in _SOLVERS:
        _SOLVERS[key] = ParallelSolver(players, side, processes)
    return _SOLVERS[key]


@pytest.fixture(scope="module", autouse=True)
def _close_solvers() -> Iterator[None]:
    yield
    for solver in _SOLVERS.values():
        solver.close()
    _SOLVERS.clear()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(SPADES_PROFILES),
    seed=st.integers(0, 10**6),
    cards=st.integers(1, 7),
    played=st.integers(0, 6),
    seat=st.integers(0, 4),
    processes=st.sampled_from([2, 3]),
)
def test_parallel_solve_equals_solve(
    profile: str, seed: int, cards: int, played: int, seat: int, processes: int
) -> None:
    state = small_position(profile, seed, cards, played)
    side = _side(profile, seat % state.num_players)
    expected = Solver(state.num_players, side).solve(state)
    assert _parallel(state.num_players, side, processes).solve(state) == expected


def test_a_full_deal_at_the_first_lead() -> None:
    """A 13-card partnership deal under the profile's own first-lead rules (2♣ lead,
    spades not broken), on a solver whose processes and tables carry over from other solves."""
    g = tapete.new_game("spades", seed=6)
    while g.phase.name != "PLAY":
        g.apply(g.legal_actions()[0])
    small = small_position("spades", 11, 9, 0)
    side = _side("spades", g.turn)
    solver = _parallel(4, side, 2)
    assert solver.solve(small) == Solver(4, side).solve(small)
    assert solver.solve(g) == Solver(4, side).solve(g)


def test_one_process_is_the_plain_solver() -> None:
    state = small_position("cutthroat", 3, 6, 2)
    with ParallelSolver(3, 1 << state.turn, processes=1) as solver:
        assert solver.solve(state) == Solver(3, 1 << state.turn).solve(state)
        assert solver.helpers == []


def test_processes_must_be_positive() -> None:
    with pytest.raises(ValueError):
        ParallelSolver(4, 0b0101, processes=0)


def test_each_process_has_its_own_order() -> None:
    cards = [5, 1, 9, 3, 7, 2]
    assert arranged(cards, 0, 3) == cards
    assert arranged(cards, 1, 3) == [2, 7, 3, 9, 1, 5]
    assert arranged(cards, 2, 3) == [7, 2, 5, 1, 9, 3]
    assert sorted(arranged(cards, 3, 4)) == sorted(cards)


@pytest.mark.parametrize("profile", ["spades", "cutthroat", "spades-jokers", "callbreak"])
def test_root_cards_are_one_card_of_each_class(profile: str) -> None:
    state = small_position(profile, 5, 8, 1)
    solver = Solver(state.num_players, _side(profile, state.turn))
    values = solver.card_values(state)
    solver.load(state)
    cards = solver.root_cards()
    assert len(cards) == len(set(cards))
    assert set(cards) <= set(values)
    classes = solver._classes(state.playable_cards(state.hands[state.turn]))
    assert sorted(len(set(c) & set(cards)) for c in classes) == [1] * len(classes)


@pytest.mark.parametrize("profile", ["spades", "cutthroat", "spades-deuces"])
def test_test_card_brackets_each_cards_value(profile: str) -> None:
    state = small_position(profile, 8, 7, 2)
    side = _side(profile, state.turn)
    values = Solver(state.num_players, side).card_values(state)
    solver = Solver(state.num_players, side)
    solver.load(state)
    for card in solver.root_cards():
        v = values[card]
        assert solver.test_card(card, v) >= v
        assert solver.test_card(card, v + 1) <= v


def test_poll_stops_a_search_and_the_table_stays_exact() -> None:
    state = small_position("spades", 21, 10, 0)  # 5,566 nodes: one poll, at 4,096
    side = _side("spades", state.turn)
    expected = Solver(4, side).solve(state)
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return True

    solver = Solver(4, side)
    solver.poll = stop
    with pytest.raises(SearchLimit):
        solver.solve(state)
    assert len(calls) == 1
    assert solver.nodes == 4096
    solver.poll = None
    assert solver.solve(state) == expected


def test_the_budget_still_holds_with_a_poll() -> None:
    state = small_position("spades", 21, 10, 0)  # 5,566 nodes without a budget
    solver = Solver(4, _side("spades", state.turn), budget=5000)
    polls: list[int] = []
    solver.poll = lambda: bool(polls.append(solver.nodes))
    with pytest.raises(SearchLimit, match="5000"):
        solver.solve(state)
    assert solver.nodes == 5000
    assert polls == [4096]
