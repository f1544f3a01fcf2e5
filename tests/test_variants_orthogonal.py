"""Frisian, Frysk! and Turkish through the rules core and the server (docs/variants-orthogonal.md).

The move rules themselves are shown by the named positions of tests/data/rule_positions.txt
and compared with pydraughts in tests/test_rules_pydraughts_orthogonal.py; here: the
king-move limit as a game goes, its FEN field, the draw rules, notation, the variant facts,
and a search through the text protocol.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine import Game, InvalidFenError, Position, get_variant, perft
from draughts_engine.movegen.frisian import king_state

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("frisian", "frysk", "turkish")


def test_variant_facts() -> None:
    frisian, frysk, turkish = (get_variant(n) for n in NAMES)
    assert (frisian.game_type, turkish.game_type) == (40, 30)
    assert frisian.hub_name == "frisian" and get_variant("frysk!") is frysk
    assert get_variant("dama") is turkish and turkish.squares == 64 and turkish.algebraic
    assert frisian.start_fen() == "W:W31-50:B1-20" and frysk.start_fen() == "W:W46-50:B1-5"
    assert Position.start("turkish").fen("algebraic").startswith("W:Wa2,a3,b2,b3")
    assert 100 < frisian.capture_king_value < 200 and frisian.king_move_limit == 3


@pytest.mark.parametrize("name", NAMES)
def test_start_perft_small_depths(name: str) -> None:
    expected = {"frisian": [9, 81, 658], "frysk": [9, 81, 657], "turkish": [8, 64, 708]}[name]
    assert [perft(Position.start(name), d) for d in (1, 2, 3)] == expected


SHUFFLE = ["50-44", "1-7", "44-50", "7-1", "50-44", "1-7"]  # two kings, three moves each


def test_king_move_limit_as_a_game_goes() -> None:
    game = Game("frisian", fen="W:W45,K50:BK1,3")
    game.push_all(SHUFFLE)
    position = game.position
    assert king_state(position.kings, True) == (position.geometry.bit(44).bit_length() - 1, 3)
    assert position.fen().endswith(":KW44/3:KB7/3")
    assert [m.pdn() for m in position.legal_moves()] == ["45-40"]  # the king may not move
    game.push("45-40")  # a man moves: White's count starts again
    assert ":KW" not in game.position.fen()
    game.undo(1)  # undo restores the count with the position
    assert game.position.fen().endswith(":KW44/3:KB7/3")


def test_king_move_limit_needs_men() -> None:
    game = Game("frisian", fen="W:WK50:BK1,3")
    game.push_all(SHUFFLE)
    assert game.position.fen().endswith(":KB7/3")  # Black has a man, White none
    assert "44-50" in {m.pdn() for m in game.legal_moves()}


def test_another_king_starts_its_own_count() -> None:
    game = Game("frisian", fen="W:W45,K46,K50:BK1,3")
    game.push_all(SHUFFLE[:4] + ["46-41", "1-7"])
    assert ":KW41/1" in game.position.fen()


@pytest.mark.parametrize("fen", [
    "W:W31,K46:B5,10:KW45/2",      # no king there
    "W:WK46:B5,10:KW46/1",         # no men: no limit to count
    "W:W31,K46:B5,10:KW46/4",      # over the limit
    "W:W31,K46:B5,10:KW46/x",
    "W:W31,K46:B5,10:KW46/1:KW46/2",
])
def test_bad_king_move_fields(fen: str) -> None:
    with pytest.raises(InvalidFenError):
        Position.from_fen(fen, "frisian")


def test_the_king_move_field_is_frisian_only() -> None:
    with pytest.raises(InvalidFenError):
        Position.from_fen("W:W31,K46:B5,10:KW46/2", "international")


def play_out(game: Game, moves) -> None:
    for text in moves:
        assert not game.result().is_over
        game.push(text)


def test_frisian_two_kings_against_one_draw_after_seven_moves_each() -> None:
    game = Game("frisian", fen="W:WK46,K50:BK3")
    shuttle = ["46-41", "3-9", "41-46", "9-3"]
    play_out(game, (shuttle * 4)[:13])
    assert not game.result().is_over
    game.push((shuttle * 4)[13])
    assert (game.ply, game.result().code) == (14, "endgame-rule")


def test_frisian_has_no_repetition_rule() -> None:
    game = Game("frisian", fen="W:WK46,K50:BK1,K2")
    play_out(game, ["50-44", "1-7", "44-50", "7-1"] * 2)
    assert game.repetitions() == 3 and not game.result().is_over


def test_turkish_one_piece_each_is_drawn_after_two_moves_each() -> None:
    game = Game("turkish", fen="W:Wa3:Bh6")
    play_out(game, ["a3-a4", "h6-h5", "a4-b4"])
    game.push("h5-g5")
    result = game.result()
    assert result.outcome == "draw" and "one piece each" in result.reason


def test_turkish_notation_both_ways() -> None:
    position = Position.start("turkish")
    move = position.play("b3-b4")
    assert move == position.play("42-34")
    assert position.move_text(position.legal_moves()[1]) == "b3-b4"


@pytest.mark.parametrize("name", NAMES)
def test_go_depth_6_answers_a_legal_move(name: str) -> None:
    commands = f"setoption name Variant value {name}\nposition startpos\ngo depth 6\nquit\n"
    out = subprocess.run([sys.executable, "-m", "protocol"], input=commands, text=True,
                         capture_output=True, cwd=ROOT, timeout=300).stdout.splitlines()
    best = [line for line in out if line.startswith("bestmove ")]
    assert len(best) == 1
    legal = {m.pdn() for m in Position.start(name).legal_moves()}
    assert best[0].split()[1] in legal
