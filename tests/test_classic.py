"""Tests for the textbook searches in draughts_engine.search.classic."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

import pytest

from draughts_engine.games.tatedrez import Tatedrez
from draughts_engine.games.tictactoe import TicTacToe
from draughts_engine.search.classic import (
    SEARCHES,
    ClassicResult as SearchResult,
    alphabeta,
    minimax,
    negamax,
    negascout,
)
from draughts_engine.search.interface import (
    LOSS,
    MATE_BOUND,
    WIN,
    GameState,
    is_decisive,
    loss_in,
    ply_adjusted,
    win_in,
)

ALGORITHMS = list(SEARCHES.items())
ALGORITHM_IDS = [name for name, _ in ALGORITHMS]


# ---------------------------------------------------------------------------
# An explicit game tree, to test searches against hand-computed values.


@dataclass(frozen=True)
class TreeState:
    """A node of an explicit tree; values are for the side to move.

    A tuple is an inner node (its moves are child indices), an int a leaf
    with that static value (it has one move, to a draw, so that it is not a
    finished game), and 'W'/'L'/'D' a finished game won/lost/drawn by the
    side to move.
    """

    node: Any

    def legal_moves(self) -> List[int]:
        if isinstance(self.node, tuple):
            return list(range(len(self.node)))
        if isinstance(self.node, int):
            return [0]
        return []

    def play(self, move: int) -> "TreeState":
        if isinstance(self.node, int):
            return TreeState("D")
        return TreeState(self.node[move])

    def terminal_score(self) -> Optional[int]:
        return {"W": WIN, "L": LOSS, "D": 0}.get(self.node) if isinstance(self.node, str) else None

    def evaluate(self) -> int:
        return self.node if isinstance(self.node, int) else 0

    def key(self) -> Hashable:
        return self.node


def search_all(state: GameState, depth: int) -> Dict[str, SearchResult]:
    return {name: search(state, depth) for name, search in ALGORITHMS}


def test_score_helpers() -> None:
    assert LOSS == -WIN == -30000
    assert MATE_BOUND == WIN - 1000
    assert win_in(3) == WIN - 3 and loss_in(3) == -(WIN - 3)
    assert ply_adjusted(WIN, 5) == win_in(5)
    assert ply_adjusted(LOSS, 5) == loss_in(5)
    assert ply_adjusted(0, 5) == 0
    assert is_decisive(win_in(10)) and is_decisive(loss_in(10)) and not is_decisive(500)


def test_games_implement_protocol() -> None:
    assert isinstance(TicTacToe.start(), GameState)
    assert isinstance(Tatedrez.start(), GameState)
    assert isinstance(TreeState(()), GameState)


@pytest.mark.parametrize("search", [minimax, negamax, alphabeta, negascout])
@pytest.mark.parametrize("depth", [0, -1])
def test_depth_below_one_is_rejected(search: Callable[..., SearchResult], depth: int) -> None:
    with pytest.raises(ValueError, match="depth"):
        search(TicTacToe.start(), depth)


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_textbook_tree_value(name: str, search: Callable[..., SearchResult]) -> None:
    # The minimax example of Russell & Norvig: MAX to move, three MIN nodes.
    tree = TreeState(((3, 12, 8), (2, 4, 6), (14, 5, 2)))
    result = search(tree, 2)
    assert (result.score, result.best_move) == (3, 0)
    expected_nodes = {"minimax": 13, "negamax": 13, "alphabeta": 11}
    if name in expected_nodes:
        assert result.nodes == expected_nodes[name]


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_first_of_equal_moves_is_chosen(name: str, search: Callable[..., SearchResult]) -> None:
    tree = TreeState(((-2,), (4,), (4,), (1,)))
    assert (search(tree, 2).score, search(tree, 2).best_move) == (4, 1)


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_faster_win_is_preferred(name: str, search: Callable[..., SearchResult]) -> None:
    win_in_three = (("L",),)
    win_in_one = "L"  # the opponent is to move and has lost
    result = search(TreeState((win_in_three, win_in_one)), 3)
    assert (result.score, result.best_move) == (win_in(1), 1)


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_slower_loss_is_preferred(name: str, search: Callable[..., SearchResult]) -> None:
    loss_in_two = ("L",)
    loss_in_four = ((("L",),),)
    result = search(TreeState((loss_in_two, loss_in_four)), 4)
    assert (result.score, result.best_move) == (loss_in(4), 1)


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_finished_root_has_no_best_move(name: str, search: Callable[..., SearchResult]) -> None:
    finished = TicTacToe.from_fen("xxx/oo1/3 o")
    assert search(finished, 3) == SearchResult(LOSS, None, 1)


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
def test_tictactoe_empty_board_is_a_draw(name: str, search: Callable[..., SearchResult]) -> None:
    result = search(TicTacToe.start(), 9)
    assert result.score == 0
    assert result.best_move == 0  # every opening move draws: the first one, a1
    if name in ("minimax", "negamax"):
        assert result.nodes == 549946  # the full tic-tac-toe game tree


@pytest.mark.parametrize("name, search", ALGORITHMS, ids=ALGORITHM_IDS)
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_tictactoe_win_in_one_is_found(
    name: str, search: Callable[..., SearchResult], depth: int
) -> None:
    # X has a3 and b3, O has a2 and b2 and threatens c2: X must play c3 now.
    state = TicTacToe.from_fen("xx1/oo1/3 x")
    result = search(state, depth)
    assert state.move_text(result.best_move) == "c3"
    assert result.score == win_in(1)


# ---------------------------------------------------------------------------
# The four searches on random reachable positions.


def random_positions(
    start: GameState, seed: int, count: int, min_ply: int, max_ply: int
) -> List[GameState]:
    """``count`` positions reached by random play of ``min_ply`` to ``max_ply`` plies."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        state = start
        for _ in range(rng.randint(min_ply, max_ply)):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(rng.choice(moves))
        positions.append(state)
    return positions


# Tatedrez starts at ply 2: a depth-4 tree of its opening holds ~100k nodes.
GAME_POSITIONS = {
    "tictactoe": random_positions(TicTacToe.start(), seed=2024, count=30, min_ply=0, max_ply=7),
    "tatedrez": random_positions(Tatedrez.start(), seed=2025, count=30, min_ply=2, max_ply=30),
}
DEPTHS = (1, 2, 3, 4)


@pytest.fixture(scope="module")
def results() -> Dict[str, List[Tuple[GameState, int, Dict[str, SearchResult]]]]:
    return {
        game: [(state, depth, search_all(state, depth)) for state in positions for depth in DEPTHS]
        for game, positions in GAME_POSITIONS.items()
    }


def test_random_positions_cover_both_phases() -> None:
    tatedrez = GAME_POSITIONS["tatedrez"]
    assert any(state.legal_moves() and state.history == () for state in tatedrez)
    assert any(state.legal_moves() and state.history for state in tatedrez)
    assert any(not state.legal_moves() for state in GAME_POSITIONS["tictactoe"])


@pytest.mark.parametrize("game", sorted(GAME_POSITIONS))
def test_searches_agree_on_score_and_best_move(game: str, results: Dict[str, Any]) -> None:
    for state, depth, by_name in results[game]:
        outcomes = {name: (result.score, result.best_move) for name, result in by_name.items()}
        assert len(set(outcomes.values())) == 1, (state.fen(), depth, outcomes)
        assert (by_name["minimax"].best_move is None) == (not state.legal_moves())


@pytest.mark.parametrize("game", sorted(GAME_POSITIONS))
def test_pruning_visits_fewer_nodes(game: str, results: Dict[str, Any]) -> None:
    totals = dict.fromkeys(SEARCHES, 0)
    for state, depth, by_name in results[game]:
        nodes = {name: result.nodes for name, result in by_name.items()}
        where = (state.fen(), depth, nodes)
        assert nodes["negamax"] == nodes["minimax"], where
        # Alpha-beta visits a subset of the minimax tree (same move order).
        assert nodes["alphabeta"] <= nodes["minimax"], where
        # NegaScout only re-searches at depth >= 3; without re-searches it
        # also visits a subset.  With re-searches and no move ordering it can
        # exceed minimax on a small tree, so deeper searches are only
        # compared in aggregate.
        if depth <= 2:
            assert nodes["negascout"] <= nodes["minimax"], where
        for name in totals:
            totals[name] += nodes[name]
    assert totals["alphabeta"] < totals["minimax"], totals
    assert totals["negascout"] < totals["minimax"], totals


# ---------------------------------------------------------------------------
# The classic searches under the engine's one budget (every limit, through Searcher).


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negascout"])
def test_a_classic_search_stops_at_its_node_limit_and_reports_them_all(algorithm: str) -> None:
    from draughts_engine.position import Position
    from draughts_engine.search.engine import Searcher
    from draughts_engine.search.limits import SearchLimits

    infos: List[Any] = []
    result = Searcher(algorithm=algorithm).search(
        Position.start("international"), SearchLimits(depth=30, nodes=3000), on_info=infos.append)
    assert result.nodes == 3000 and infos[-1].nodes == 3000
    assert result.best_move in Position.start("international").legal_moves()


def test_a_classic_search_without_a_depth_uses_its_node_limit_in_full() -> None:
    """Only a search with no limit at all gets the default depth; ``nodes`` alone is a limit."""
    from draughts_engine.position import Position
    from draughts_engine.search.engine import DEFAULT_CLASSIC_DEPTH, Searcher
    from draughts_engine.search.limits import SearchLimits

    start = Position.start("english")
    limited = Searcher(algorithm="alphabeta").search(start, SearchLimits(nodes=20000))
    assert limited.nodes == 20000 and limited.depth > DEFAULT_CLASSIC_DEPTH
    bare = Searcher(algorithm="alphabeta").search(start, SearchLimits())
    assert bare.depth == DEFAULT_CLASSIC_DEPTH


def test_a_classic_ponder_search_ends_after_its_ponderhit() -> None:
    import threading

    from draughts_engine.position import Position
    from draughts_engine.search.engine import Searcher
    from draughts_engine.search.limits import SearchLimits

    searcher = Searcher(algorithm="negamax")
    done: List[Any] = []
    thread = threading.Thread(target=lambda: done.append(searcher.search(
        Position.start("english"), SearchLimits(ponder=True, depth=2))), daemon=True)
    thread.start()
    thread.join(0.5)
    assert thread.is_alive()  # pondering: no end before the ponderhit
    searcher.ponderhit()
    thread.join(60)
    # it searched on past depth 2 while pondering; the ponderhit ends it (as the engine's)
    assert not thread.is_alive() and done[0].depth >= 2
