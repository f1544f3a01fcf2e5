"""The later variants against an independent implementation: pydraughts.

pydraughts (0.6.7, the test extra) plays Italian, antidraughts and breakthrough
with code of its own.  Seeded random games are played in both: at every ply the
set of positions one move away must be the same (compared as positions, so
the FEN spelling does not matter), the game must end at the same ply, and with
the same winner.  Where pydraughts' ``legal_moves`` goes on after a game is
over (breakthrough after a crowning) its ``is_over`` is what is compared.
"""
from __future__ import annotations

import random
from typing import Set

import pytest

draughts = pytest.importorskip(
    "draughts", reason="pydraughts is not installed (pip install pydraughts==0.6.7, the test extra)")

from draughts_engine import Game, Position  # noqa: E402

GAMES = 4
MAX_PLIES = 160


def ours(position: Position) -> Set[Position]:
    return {position.play(m) for m in position.legal_moves()}


def theirs(board, variant: str) -> Set[Position]:
    out = set()
    for move in board.legal_moves():
        board.push(move)
        out.add(Position.from_fen(board.fen, variant))
        board.pop()
    return out


def play_random_game(variant: str, seed: int, fen: str = "startpos") -> dict:
    rng = random.Random(f"{variant}-{seed}")
    board = draughts.Board(variant, fen=fen)
    game = Game(variant, fen=None if fen == "startpos" else fen)
    stats = {"plies": 0, "captures": 0}
    for _ in range(MAX_PLIES):
        position = game.position
        mine = ours(position)
        if board.is_over() and not (variant != "breakthrough" and board.winner() == 0):
            # pydraughts says the game is over (a draw by repetition is not
            # compared: ours counts a position's repetitions the same way)
            assert not mine, f"{variant} {position.fen()}: pydraughts says over, we have moves"
            break
        assert mine == theirs(board, variant), f"{variant} {position.fen()}: successors differ"
        if not mine:
            break
        move = rng.choice(position.legal_moves())
        stats["captures"] += bool(move.captured)
        after = position.play(move)
        game.push(move)
        for candidate in board.legal_moves():
            board.push(candidate)
            if Position.from_fen(board.fen, variant) == after:
                break
            board.pop()
        else:  # pragma: no cover - the successor sets were equal
            raise AssertionError("move not found in pydraughts")
        stats["plies"] += 1
    result = game.result()
    if result.outcome in ("white", "black") and board.is_over():
        assert (board.winner() == 2) == (result.outcome == "white"), (variant, result)
    return stats


@pytest.mark.heavy
@pytest.mark.parametrize("variant", ["italian", "antidraughts", "breakthrough"])
def test_random_games_have_the_same_successors_as_pydraughts(variant: str) -> None:
    plies = captures = 0
    for seed in range(GAMES):
        stats = play_random_game(variant, seed)
        plies += stats["plies"]
        captures += stats["captures"]
    assert plies > 200 and captures > 20, (plies, captures)


@pytest.mark.parametrize("variant,fen", [
    # kings on the board from the first ply: Italian precedence and king captures
    ("italian", "W:WK21,K22,14,15,30:BK10,K11,2,3,19,20"),
    ("italian", "W:WK17,25,26,27:BK13,K14,6,7,21"),
    ("antidraughts", "W:WK46,31,32,37:BK5,12,13,23"),
    ("breakthrough", "W:W11,12,31,32:B38,40,17,18"),
])
def test_positions_with_kings_and_races_match_pydraughts(variant: str, fen: str) -> None:
    for seed in range(3):
        play_random_game(variant, seed, fen)


def test_antidraughts_and_breakthrough_winners_match_pydraughts() -> None:
    # White has no piece left: in antidraughts White has won
    board = draughts.Board("antidraughts", fen="W:W:B1,2")
    assert Game("antidraughts", fen="W:W:B1,2").result().outcome == "white"
    assert board.winner() == 2
    # White's man crowns on 1: breakthrough won at once
    game = Game("breakthrough", fen="W:W6:B45")
    game.push("6-1")
    board = draughts.Board("breakthrough", fen="W:W6:B45")
    board.push(board.legal_moves()[0])
    assert game.result().outcome == "white" and board.winner() == 2
