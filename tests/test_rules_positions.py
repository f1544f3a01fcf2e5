"""Named rule positions (tests/data/rule_positions.txt) and the rules they show."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import FrozenSet, List, Tuple

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import reference_rules as ref  # noqa: E402
from helpers_tables import position_rows  # noqa: E402

from draughts_engine import (AmbiguousMoveError, IllegalMoveError, Position,  # noqa: E402
                             parse_move)

DATA = Path(__file__).resolve().parent / "data" / "rule_positions.txt"
Path_ = Tuple[int, ...]


def parse_path(text: str) -> Path_:
    sep = "x" if "x" in text else "-"
    return tuple(int(s) for s in text.split(sep))


def load() -> List[Tuple[str, str, str, List[FrozenSet[Path_]]]]:
    rows = []
    names = set()
    for number, name, variant, fen, moves in position_rows(DATA):
        assert name not in names, f"{DATA}:{number}: duplicate name {name}"
        names.add(name)
        expected = [frozenset(parse_path(p) for p in token.split("=")) for token in moves.split()]
        rows.append((name, variant, fen, expected))
    return rows


ROWS = load()
BY_NAME = {row[0]: row for row in ROWS}


def position(name: str) -> Position:
    _, variant, fen, _ = BY_NAME[name]
    return Position.from_fen(fen, variant)


def test_every_rule_is_covered():
    wanted = ["majority", "free_choice", "king_counts_as_one", "capture_backwards",
              "no_backward_capture", "flying_king_landing_choice", "must_land_where_capture_continues",
              "turkish", "promotion_continues_as_king", "crowning_ends_move", "passes_king_row",
              "duplicate_paths", "ambiguous", "king_not_flying"]
    for word in wanted:
        assert any(word in name for name in BY_NAME), word
    from draughts_engine.variants import DIAGONAL_VARIANTS
    assert {row[1] for row in ROWS} >= {"english", "russian", "brazilian", "international"} | {
        v.name for v in DIAGONAL_VARIANTS}
    for word in ("men_cannot_capture_kings", "capture_with_king_precedence", "most_kings",
                 "earliest_king", "quality_most_kings", "king_capture_precedence",
                 "king_lands_right_behind", "captured_removed_at_once", "king_halts_behind_king",
                 "crowned_opponent_no_moves"):
        assert any(word in name for name in BY_NAME), word


@pytest.mark.parametrize("name,variant,fen,expected", ROWS, ids=[row[0] for row in ROWS])
def test_rule_position(name, variant, fen, expected):
    pos = Position.from_fen(fen, variant)
    assert pos.fen() == fen
    moves = pos.move_variants()
    got = sorted((frozenset(tuple(p) for p in paths) for _, paths in moves), key=sorted)
    want = sorted(expected, key=sorted)
    assert got == want, (f"{name}: {fen}\n engine: {[sorted(g) for g in got]}\n"
                         f" expected: {[sorted(w) for w in want]}")
    triples = [(m.start, m.end, frozenset(m.captured)) for m, _ in moves]
    assert len(triples) == len(set(triples)), "a move is listed twice"
    assert len(pos.legal_moves()) == len(expected) == pos.generator.count(*pos.raw)
    if variant not in ref.RULES:
        return  # checked against pydraughts instead (tests/test_rules_pydraughts_orthogonal.py)
    # the reference generator agrees (the data file is not just the engine's opinion)
    board, white_to_move = ref.parse_fen(fen, pos.geometry.size)
    ref_moves = ref.legal_moves_with_paths(variant, board, white_to_move)
    assert sorted((frozenset(p) for p in ref_moves.values()), key=sorted) == want
    # every listed path is accepted as move text and denotes its move
    for move, paths in moves:
        assert move.pdn() in {("x" if move.captured else "-").join(map(str, p)) for p in paths}
        for p in paths:
            text = ("x" if move.captured else "-").join(map(str, p))
            assert parse_move(pos, text) == move
    # and the position after each move is the reference's
    for move, _ in moves:
        after = pos.play(move).fen()
        expected_after = {ref.to_fen(dict(m.result), not white_to_move)
                          for m in ref_moves if (m.origin, m.destination, m.captured)
                          == (move.start, move.end, frozenset(move.captured))}
        assert {after} == expected_after


# ---- what the piece is after the move ------------------------------------------------------
@pytest.mark.parametrize("name,move,piece,promotes", [
    ("promotion_continues_as_king_russian", "11x2x13", "W", True),
    ("promotion_continues_as_flying_king_russian", "11x2x9", "W", True),
    ("promotion_ends_move_english", "11x2", "W", True),
    ("crowning_ends_move_english", "11x2", "W", True),
    ("man_passes_king_row_stays_man_brazilian", "11x2x9", "w", False),
    ("man_passes_king_row_stays_man_brazilian_majority", "11x2x9", "w", False),
    ("man_passes_king_row_stays_man_international", "12x3x14", "w", False),
    ("man_ends_on_king_row_promotes_international", "22x11x2", "W", True),
    ("black_crowning_ends_move_english", "22x31", "B", True),
    ("black_promotion_continues_as_flying_king_russian", "22x31x24", "B", True),
    ("black_man_passes_king_row_stays_man_brazilian", "22x31x24", "b", False),
    ("men_capture_backwards_russian", "22x31", "w", False),
    ("flying_king_landing_choice_russian", "29x4", "W", False),
    ("man_passes_king_row_stays_man_pool", "11x2x9", "w", False),
    ("captured_removed_at_once_thai", "22x15x29", "W", False),
])
def test_piece_after_capture(name, move, piece, promotes):
    pos = position(name)
    m = parse_move(pos, move)
    assert m.promotes is promotes
    after = pos.play(m)
    assert after.piece_at(m.end) == piece
    assert after.piece_at(m.start) is None or m.start == m.end
    for s in m.captured:
        assert after.piece_at(s) is None


def test_captured_pieces_are_removed_only_at_the_end_and_counted_once():
    pos = position("duplicate_paths_one_move_international")
    (move,) = pos.legal_moves()
    assert move.start == move.end == 33 and move.captured == (18, 19, 28, 29)
    assert parse_move(pos, "33x22x13x24x33") == parse_move(pos, "33x24x13x22x33") == move
    assert pos.play(move).fen() == "B:W33:B"


# ---- move text in the rule positions ----------------------------------------------------------
def test_ambiguity_example_from_design():
    pos = position("ambiguous_destination_international")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "47x36")
    assert "47x36" in str(info.value)
    a = parse_move(pos, "47x38x24x13x36")
    b = parse_move(pos, "47x38x20x9x36")
    assert a != b
    assert a.captured == (19, 29, 31, 42) and b.captured == (14, 29, 31, 42)
    assert parse_move(pos, "47x33x24x13x36") == a     # the other route of the same capture
    assert parse_move(pos, "47x24x36") == a           # a distinguishing subsequence
    assert parse_move(pos, "47x9x36") == b
    with pytest.raises(AmbiguousMoveError):
        parse_move(pos, "47x38x36")                   # both captures pass 38
    assert pos.play(a).fen() == "B:WK36:B14"
    assert pos.play(b).fen() == "B:WK36:B19"
    assert pos.fen() == "W:WK47:B14,19,29,31,42"      # untouched


@pytest.mark.parametrize("name,text", [
    ("no_turkish_strike_russian", "11x4x29"),
    ("flying_king_must_land_where_capture_continues_russian", "29x8"),
    ("flying_king_must_land_where_capture_continues_russian", "29x4"),
    ("majority_men_brazilian", "31x24"),
    ("majority_men_brazilian", "22x15"),                  # an unfinished sequence
    ("free_choice_english", "22x15"),
    ("crowning_ends_move_english", "11x2x9"),
    ("men_no_backward_capture_english", "22x31"),
    ("capture_compulsory_english", "32-27"),
    ("king_not_flying_english", "29x11"),
    ("majority_king_counts_as_one_international", "16x49"),
    ("men_cannot_capture_kings_italian", "22x13"),
    ("capture_with_king_precedence_italian", "22x15"),
    ("earliest_king_italian", "22x13x6"),
    ("quality_most_kings_spanish", "11x20"),
    ("king_capture_precedence_czech", "22x15x8"),
    ("king_lands_right_behind_thai", "29x15"),
    ("king_halts_behind_king_killer", "46x19"),
])
def test_illegal_in_rule_positions(name, text):
    pos = position(name)
    before = pos.fen()
    with pytest.raises(IllegalMoveError):
        parse_move(pos, text)
    assert pos.fen() == before


def test_short_notation_of_unique_captures():
    pos = position("free_choice_russian")
    assert parse_move(pos, "22x8").pdn() == "22x15x8"
    assert parse_move(pos, "22-8").pdn() == "22x15x8"
    pos = position("promotion_continues_as_flying_king_russian")
    assert parse_move(pos, "11x13").pdn() == "11x2x13"
    assert parse_move(pos, "f6xa5").pdn() == "11x2x13"   # algebraic on 8x8: 11 = f6, 13 = a5
