"""Frisian, Frysk! and Turkish against pydraughts, an independent implementation.

Random games are played in both implementations side by side; at every ply
the set of positions one legal move away must be the same in both (pieces of
each colour, kings, side to move).  pydraughts' core ``Game`` works in its
internal square numbers, which for these variants are ours (square 1 top
left, White moving towards it), so positions compare without conversion.

Where pydraughts departs from the rules its moves are corrected before the
comparison, and the difference is documented in docs/variants-orthogonal.md:
its Turkish kings' quiet moves jump over pieces (:func:`passes_a_piece` drops
those).  Two further differences do not show in these games: pydraughts
weighs a captured Frisian king 1.501 men (the rules: n kings outweigh 2n - 1
men, so three kings outweigh five men; we weigh 1.99), and it removes the
pieces a Frisian man captures at once instead of at the end of the move.

Skipped when pydraughts is not installed (``pip install .[test]``).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import FrozenSet, Set, Tuple

import pytest

from draughts_engine import Game, Position

pytest.importorskip("draughts", reason="pydraughts is not installed (it is in the test extra)")
from draughts.core.game import Game as PyGame  # noqa: E402  (after the skip)

Placement = Tuple[FrozenSet[int], FrozenSet[int], FrozenSet[int], bool]

PYDRAUGHTS_NAMES = {"frisian": "frisian", "frysk": "frysk!", "turkish": "turkish"}


def placement_of_fen(fen: str) -> Placement:
    """Pieces of an internal pydraughts FEN (``W:W31,K32:B1``)."""
    side, white, black = fen.split(":")[:3]
    sides = []
    kings = set()
    for field in (white[1:], black[1:]):
        squares = set()
        for item in filter(None, field.split(",")):
            if item.startswith("K"):
                kings.add(int(item[1:]))
                item = item[1:]
            squares.add(int(item))
        sides.append(frozenset(squares))
    return sides[0], sides[1], frozenset(kings), side == "W"


def placement(position: Position) -> Placement:
    geo = position.geometry
    return (frozenset(geo.squares_of(position.white)), frozenset(geo.squares_of(position.black)),
            frozenset(geo.squares_of(position.kings & position.geometry.board)),
            position.white_to_move)


def ours(position: Position) -> Set[Placement]:
    return {placement(position.play_raw(m)) for m in position.raw_moves()}


def passes_a_piece(game: PyGame, move: list, captures: list) -> bool:
    """Whether a quiet move of pydraughts' runs over a piece (its Turkish kings do)."""
    if captures[0] is not None or len(move) != 1:
        return False
    (start, end), = move
    row, col = divmod(start - 1, 8)
    end_row, end_col = divmod(end - 1, 8)
    dr, dc = (end_row > row) - (end_row < row), (end_col > col) - (end_col < col)
    filled = game.board.searcher.filled_positions
    row, col = row + dr, col + dc
    while (row, col) != (end_row, end_col):
        if row * 8 + col + 1 in filled:
            return True
        row, col = row + dr, col + dc
    return False


def theirs(game: PyGame) -> Set[Placement]:
    out = set()
    moves, captures = game.legal_moves()
    for move, taken in zip(moves, captures):
        if game.variant == "turkish" and passes_a_piece(game, move, taken):
            continue  # pydraughts lets a Turkish king's quiet move jump pieces: a bug
        child = game.copy()
        child.push(move)
        out.add(placement_of_fen(child.get_li_fen()))
    return out


def compare_random_game(variant: str, seed: int, max_plies: int, fen: str = "",
                        king_bias: float = 0.0) -> int:
    """Play one random game in both; return the number of plies compared.

    With ``king_bias``, a king move is picked with that probability when there is
    one (to walk into the Frisian king-move limit often)."""
    rng = random.Random(seed)
    game = Game(variant, fen=fen or None)
    start = fen or game.position.fen()
    py = PyGame(PYDRAUGHTS_NAMES[variant], start)
    plies = 0
    while plies < max_plies and not game.result().is_over:
        position = game.position
        mine, other = ours(position), theirs(py)
        assert mine == other, (variant, seed, plies, position.fen(),
                               sorted(mine - other)[:3], sorted(other - mine)[:3])
        legal = position.legal_moves()
        by_king = [m for m in legal if position.kings & m.raw[0]]
        move = rng.choice(by_king if by_king and rng.random() < king_bias else legal)
        game.push(move)
        py.push([list(pair) for pair in zip(move.path, move.path[1:])])
        assert placement_of_fen(py.get_li_fen()) == placement(game.position)
        plies += 1
    return plies


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(4))
def test_turkish_random_games_match_pydraughts(seed: int) -> None:
    assert compare_random_game("turkish", seed, 120) > 10


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(3))
def test_frisian_random_games_match_pydraughts(seed: int) -> None:
    assert compare_random_game("frisian", seed, 100) > 10


@pytest.mark.heavy
@pytest.mark.parametrize("seed", range(4))
def test_frysk_random_games_match_pydraughts(seed: int) -> None:
    assert compare_random_game("frysk", seed, 120) > 10


KING_FENS = (
    "W:WK46,41,42,43:BK5,8,9,10",
    "W:WK46,K50,39,40:BK1,K5,11,12",
    "W:WK46,36,37,31:BK5,15,14,20",
    "W:WK48,45,40:BK3,6,11",
)


@pytest.mark.parametrize("fen", KING_FENS)
@pytest.mark.parametrize("seed", range(3))
def test_frisian_king_move_limit_matches_pydraughts(fen: str, seed: int) -> None:
    assert compare_random_game("frisian", seed, 80, fen, king_bias=0.85) > 0


def rule_rows():
    """Rows of tests/data/rule_positions.txt for these variants that pydraughts can set up
    (its FEN has no king-move count)."""
    path = Path(__file__).resolve().parent / "data" / "rule_positions.txt"
    rows = []
    for line in path.read_text().splitlines():
        fields = [f.strip() for f in line.split(";")]
        if len(fields) == 4 and fields[1] in PYDRAUGHTS_NAMES and ":K" not in fields[2]:
            rows.append(pytest.param(fields[1], fields[2], id=fields[0]))
    return rows


@pytest.mark.parametrize("variant,fen", rule_rows())
def test_rule_positions_match_pydraughts(variant: str, fen: str) -> None:
    assert ours(Position.from_fen(fen, variant)) == theirs(PyGame(PYDRAUGHTS_NAMES[variant], fen))
