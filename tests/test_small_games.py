"""Tests for the tic-tac-toe and Tatedrez game states."""

from __future__ import annotations

import random
from typing import List

import pytest

from draughts_engine.errors import DraughtsError
from draughts_engine.games.tatedrez import (
    PASS,
    Drop,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Step,
    Tatedrez,
)
from draughts_engine.games.tictactoe import TicTacToe
from draughts_engine.search.classic import SEARCHES
from draughts_engine.search.interface import LOSS, MATE_BOUND, win_in


def assert_over(state, score: int, result: str, reason: str) -> None:
    """A finished game: its score for the side to move, no legal move, its result and why."""
    assert state.terminal_score() == score
    assert state.legal_moves() == []
    assert state.result_text() == result
    assert state.result_reason() == reason


def random_states(start, seed: int, count: int) -> List:
    """Every state along ``count`` seeded random games from ``start``."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = start
        states.append(state)
        while state.legal_moves():
            state = state.play(rng.choice(state.legal_moves()))
            states.append(state)
    return states


def play_texts(state, *texts: str):
    for text in texts:
        state = state.play(state.parse_move(text))
    return state


def test_errors_are_value_errors() -> None:
    for error in (InvalidFenError, InvalidMoveError, IllegalMoveError):
        assert issubclass(error, DraughtsError) and issubclass(error, ValueError)


# ---------------------------------------------------------------------------
# Tic-tac-toe


def test_tictactoe_start() -> None:
    start = TicTacToe.start()
    assert start.fen() == "3/3/3 x"
    assert start.side_to_move == "x"
    assert [start.move_text(move) for move in start.legal_moves()] == [
        "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"
    ]
    assert start.result_text() == "*" and start.result_reason() is None


def test_tictactoe_moves_and_diagram() -> None:
    state = play_texts(TicTacToe.start(), "b2", "a1", "c3")
    assert state.fen() == "2x/1x1/o2 o"
    assert state.side_to_move == "o"
    assert state.diagram() == ["3 . . x", "2 . x .", "1 o . .", "  a b c"]
    assert state.parse_move("b1") == 1 and state.move_text(1) == "b1"


def test_tictactoe_line_ends_the_game() -> None:
    state = play_texts(TicTacToe.start(), "a1", "a2", "b1", "b2", "c1")
    assert_over(state, LOSS, "1-0", "x completed a line")


def test_tictactoe_full_board_is_a_draw() -> None:
    state = TicTacToe.from_fen("xox/xoo/oxx o")
    assert_over(state, 0, "1/2-1/2", "the board is full")


def test_tictactoe_finished_position_fen_is_accepted() -> None:
    state = TicTacToe.from_fen("3/oo1/xxx o")
    assert state.terminal_score() == LOSS and state.result_text() == "1-0"


def test_tictactoe_fen_round_trips() -> None:
    for state in random_states(TicTacToe.start(), seed=11, count=20):
        again = TicTacToe.from_fen(state.fen())
        assert again == state and again.key() == state.key()
        assert again.fen() == state.fen()


def test_tictactoe_illegal_moves() -> None:
    state = play_texts(TicTacToe.start(), "b2")
    with pytest.raises(IllegalMoveError, match="'b2'.*occupied"):
        state.parse_move("b2")
    finished = TicTacToe.from_fen("xxx/oo1/3 o")
    with pytest.raises(IllegalMoveError, match="game is over"):
        finished.parse_move("c2")


# ---------------------------------------------------------------------------
# Tatedrez


def test_tatedrez_start() -> None:
    start = Tatedrez.start()
    assert start.fen() == "3/3/3 w -"
    assert start.side_to_move == "white"
    moves = start.legal_moves()
    assert len(moves) == 27 and moves[0] == Drop("R", 0)
    assert start.move_text(Drop("N", 4)) == "N@b2"
    assert start.parse_move("N@b2") == Drop("N", 4)
    assert start.parse_move("n@b2") == Drop("N", 4)


def test_tatedrez_placement_then_movement() -> None:
    state = play_texts(Tatedrez.start(), "R@a1", "r@b1", "B@c1", "b@a2", "N@c2", "n@b3")
    assert state.fen() == "1n1/b1N/RrB w -"
    assert state.side_to_move == "white"
    assert state.diagram() == ["3 . n .", "2 b . N", "1 R r B", "  a b c"]
    assert state.history == ((state.board, "white"),)
    assert all(isinstance(move, Step) for move in state.legal_moves())
    texts = sorted(state.move_text(move) for move in state.legal_moves())
    assert texts == ["c1-a3", "c1-b2", "c2-a3"]
    assert state.parse_move("c1-b2") == Step(2, 4)


def test_tatedrez_placement_completing_a_line_wins() -> None:
    state = Tatedrez.from_fen("3/B2/Rrb w -")
    won = state.play(state.parse_move("N@a3"))
    assert_over(won, LOSS, "1-0", "white completed a line")
    for name, search in SEARCHES.items():
        result = search(state, 2)
        assert (state.move_text(result.best_move), result.score) == ("N@a3", win_in(1)), name


def test_tatedrez_stuck_player_passes() -> None:
    # White: rook a1 (blocked by b1 and a2), bishop b1 (a2 and c2 taken),
    # knight b2 (no knight move from the centre of a 3x3 board).
    stuck = Tatedrez.from_fen("r2/bNn/RB1 w -")
    assert stuck.terminal_score() is None
    assert stuck.legal_moves() == [PASS]
    assert stuck.parse_move("pass") == PASS and stuck.move_text(PASS) == "pass"
    with pytest.raises(IllegalMoveError, match="'a1-a3'"):
        stuck.parse_move("a1-a3")
    passed = stuck.play(PASS)
    assert passed.fen() == "r2/bNn/RB1 b p"
    assert passed.board == stuck.board and passed.side_to_move == "black"
    assert passed.terminal_score() is None
    assert PASS not in passed.legal_moves()


def test_tatedrez_second_pass_in_a_row_draws() -> None:
    both_stuck = Tatedrez.from_fen("r2/bNn/RB1 w p")
    assert_over(both_stuck, 0, "1/2-1/2", "both players had to pass")


def test_tatedrez_threefold_repetition_draws() -> None:
    start = Tatedrez.from_fen("1Rb/1rB/1Nn w -")
    shuffle = ("b1-a3", "c1-a2", "a3-b1", "a2-c1")
    twice = play_texts(start, *shuffle)
    assert (twice.board, twice.side_to_move) == (start.board, start.side_to_move)
    assert twice.terminal_score() is None and twice.legal_moves()
    # Same board and side, different repetition counts: different keys.
    assert twice.key() != start.key()
    three_times = play_texts(twice, *shuffle)
    assert_over(three_times, 0, "1/2-1/2", "threefold repetition")


def test_tatedrez_key_ignores_move_order() -> None:
    one_order = play_texts(Tatedrez.start(), "R@a1", "r@b1", "B@c1")
    other_order = play_texts(Tatedrez.start(), "B@c1", "r@b1", "R@a1")
    assert one_order.key() == other_order.key()
    assert one_order.key() != play_texts(Tatedrez.start(), "R@a1", "r@b2", "B@c1").key()


def test_tatedrez_evaluation_is_bounded_and_symmetric() -> None:
    for state in random_states(Tatedrez.start(), seed=5, count=20):
        if state.terminal_score() is None:
            assert abs(state.evaluate()) < MATE_BOUND
    # White threatens a1-a2-a3 and is to move: good for White.
    assert Tatedrez.from_fen("3/B2/Rrb w -").evaluate() > 0


def test_tatedrez_fen_round_trips() -> None:
    for state in random_states(Tatedrez.start(), seed=13, count=20):
        again = Tatedrez.from_fen(state.fen())
        assert again.fen() == state.fen()
        assert (again.board, again.side_to_move, again.last_move_was_pass) == (
            state.board, state.side_to_move, state.last_move_was_pass
        )
        if not state.history:  # placement phase: nothing is lost in the FEN
            assert again == state


def test_tatedrez_illegal_moves() -> None:
    placed = play_texts(Tatedrez.start(), "R@a1")
    with pytest.raises(IllegalMoveError, match="'r@a1'"):
        placed.parse_move("r@a1")  # occupied square
    with pytest.raises(IllegalMoveError, match="'R@b2'"):
        play_texts(placed, "r@c3").parse_move("R@b2")  # the rook is already placed
    with pytest.raises(IllegalMoveError, match="'a1-a2'"):
        placed.parse_move("a1-a2")  # no movement during placement
    with pytest.raises(IllegalMoveError, match="'pass'"):
        placed.parse_move("pass")
    moving = Tatedrez.from_fen("1n1/b1N/RrB w -")
    with pytest.raises(IllegalMoveError, match="'a1-a3'"):
        moving.parse_move("a1-a3")  # the rook may not jump over the bishop on a2
    with pytest.raises(IllegalMoveError, match="'c1-b1'"):
        moving.parse_move("c1-b1")  # no captures, and bishops move diagonally


# ---------------------------------------------------------------------------
# Input errors of both games


BAD_FENS = {
    TicTacToe: [
        ("3/3/3", "needs 2 fields"),
        ("3/3 x", "3 ranks"),
        ("3/3/4 x", "'4'"),
        ("3/3/xq1 x", "'q'"),
        ("3/3/x1 x", "rank 1 'x1' covers 2 squares"),
        ("3/3/3 z", "'z'"),
        ("3/3/xx1 o", "2 x and 0 o"),
        ("3/3/x2 x", "'o' is to move"),
        ("3/ooo/xxx x", "lines for both"),
        ("xxx/oo1/o2 x", "'x' has a line but is to move"),
    ],
    Tatedrez: [
        ("3/3/3", "needs 2 or 3 fields"),
        ("3/3/3 w - extra", "needs 2 or 3 fields"),
        ("3/3 w", "3 ranks"),
        ("3/3/K2 w", "'K'"),
        ("3/3/R3 b", "rank 1 'R3' covers 4 squares"),
        ("3/3/3 white", "'white'"),
        ("3/3/3 w x", "pass flag 'x'"),
        ("3/3/3 w p", "only possible once all pieces are placed"),
        ("3/3/RR1 b", "more than one 'R'"),
        ("3/3/RB1 b", "2 white and 0 black"),
        ("3/3/R2 w", "'b' places next"),
        ("rbn/3/RBN b", "lines for both"),
        ("1b1/rn1/RBN w", "white has a line but is to move"),
    ],
}

MALFORMED_MOVES = {
    TicTacToe: ("not a tic-tac-toe square", ["", "d1", "a4", "B2", "b2 c3", "pass"]),
    Tatedrez: ("not a Tatedrez move", ["", "Q@a1", "N@d1", "Na1", "a1a2", "a1-a4", "PASS", "N@"]),
}


@pytest.mark.parametrize("game, fen, fragment", [
    pytest.param(game, fen, fragment, id=f"{game.__name__}: {fen}")
    for game, cases in BAD_FENS.items() for fen, fragment in cases])
def test_bad_fen_is_rejected(game, fen: str, fragment: str) -> None:
    with pytest.raises(InvalidFenError) as error:
        game.from_fen(fen)
    assert fragment in str(error.value)


@pytest.mark.parametrize("game, text, message", [
    pytest.param(game, text, message, id=f"{game.__name__}: {text!r}")
    for game, (message, texts) in MALFORMED_MOVES.items() for text in texts])
def test_malformed_move_is_invalid(game, text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        game.start().parse_move(text)


def test_a_small_game_search_stops_at_its_node_limit() -> None:
    from draughts_engine.search.generic import search_game_state
    from draughts_engine.search.limits import SearchLimits

    infos: list = []
    result = search_game_state(Tatedrez.start(), SearchLimits(nodes=5000), on_info=infos.append)
    assert result.nodes == 5000 and infos[-1].nodes == 5000
