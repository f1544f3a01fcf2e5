"""Russian and Brazilian PDN and FEN as other tools read them: pydraughts as an independent oracle.

We write a game with ``Game.to_pdn()``; pydraughts' own PDN reader takes the moves and its
board replays them one by one, and after every move its FEN names the same pieces as ours.
FENs go both ways.  Skipped when pydraughts is not installed (``pip install .[test]``).
"""
from __future__ import annotations

import random
from typing import Optional, Tuple

import pytest

from draughts_engine import Game, Position

draughts = pytest.importorskip("draughts", reason="pydraughts is not installed (it is in the test extra)")
from draughts import Board, Move  # noqa: E402  (after the skip)
from draughts.PDN import PDNReader  # noqa: E402

ALGEBRAIC_VARIANTS = ("russian", "brazilian")


def random_game(variant: str, seed: int, max_plies: int = 200, fen: Optional[str] = None) -> Game:
    rng = random.Random(seed)
    game = Game(variant, fen=fen)
    while game.ply < max_plies and not game.result().is_over:
        game.push(rng.choice(game.position.legal_moves()))
    return game


def pieces(fen: str) -> Tuple[str, Tuple[str, ...], Tuple[str, ...]]:
    """Side to move and each side's squares, order aside (pydraughts does not sort them)."""
    side, white, black = fen.split(":")
    return (side, tuple(sorted(filter(None, white[1:].split(",")))),
            tuple(sorted(filter(None, black[1:].split(",")))))


def replay_in_pydraughts(game: Game) -> None:
    text = game.to_pdn({"Event": "interop"})
    (read,) = PDNReader(pdn_text=text).games
    assert read.variant == game.variant.name
    assert len(read.moves) == game.ply
    board = Board(read.variant, read.tags.get("FEN", "startpos"))
    for ply, move_text in enumerate(read.moves, 1):
        board.push(Move(board, pdn_move=move_text))
        assert pieces(board.fen) == pieces(game.positions[ply].fen("algebraic")), (ply, move_text)


@pytest.mark.parametrize("variant", ALGEBRAIC_VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_written_games_replay_move_by_move_in_pydraughts(variant: str, seed: int) -> None:
    game = random_game(variant, seed)
    text = game.to_pdn()
    assert f'[GameType "{game.variant.game_type}"]' in text
    assert any("x" in line for line in text.splitlines() if line[:1].isdigit())  # captures too
    replay_in_pydraughts(game)


@pytest.mark.parametrize("variant", ALGEBRAIC_VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_games_from_a_set_up_position_replay_in_pydraughts(variant: str, seed: int) -> None:
    # White to move at the set-up: pydraughts' reader counts the first move twice after "1..."
    opening = random_game(variant, 100 + seed, max_plies=10)
    if not opening.position.white_to_move:
        pytest.skip("the opening ended with Black to move")
    game = random_game(variant, 200 + seed, max_plies=60, fen=opening.position.fen())
    assert '[FEN "' + opening.position.fen("algebraic") + '"]' in game.to_pdn()
    replay_in_pydraughts(game)


@pytest.mark.parametrize("variant", ALGEBRAIC_VARIANTS)
@pytest.mark.parametrize("seed", range(5))
def test_fen_round_trips_through_pydraughts(variant: str, seed: int) -> None:
    position = random_game(variant, 300 + seed, max_plies=20 + seed).position
    ours = position.fen("algebraic")
    board = Board(variant, ours)
    assert pieces(board.fen) == pieces(ours)
    assert Position.from_fen(board.fen, variant) == position


@pytest.mark.parametrize("variant", ALGEBRAIC_VARIANTS)
def test_start_fen_and_first_moves_match_pydraughts(variant: str) -> None:
    start = Position.start(variant)
    board = Board(variant)
    assert pieces(board.fen) == pieces(start.fen("algebraic"))
    theirs = set()
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        theirs.add(pieces(after.fen))
    ours = {pieces(start.play(m).fen("algebraic")) for m in start.legal_moves()}
    assert theirs == ours
