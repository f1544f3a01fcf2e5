"""A FEN names both colours: a truncated one is an error, not an empty board."""
import pytest

from draughts_engine import Position
from draughts_engine.errors import InvalidFenError


@pytest.mark.parametrize("fen", ["W", "W:", "W:W", "B:B1", "W:WK46"])
def test_fen_without_both_colour_fields_is_refused(fen):
    with pytest.raises(InvalidFenError, match="field"):
        Position.from_fen(fen, "international")


@pytest.mark.parametrize("fen,expected", [
    ("W:W:B", "W:W:B"),            # both fields present, both empty
    ("W:W21,22:B", "W:W21,22:B"),  # a side without pieces
    ("B::B1", "B:W:B1"),           # an empty field stands for the colour left out
])
def test_fen_with_an_empty_colour_field_is_read(fen, expected):
    assert Position.from_fen(fen, "english").fen() == expected


def test_protocol_answers_a_truncated_fen_with_bad_fen_and_keeps_the_position():
    import subprocess
    import sys
    lines = "setoption name Variant value international\nposition fen W:W\nd\nquit\n"
    out = subprocess.run([sys.executable, "-m", "protocol"], input=lines, capture_output=True,
                         text=True, timeout=60).stdout.splitlines()
    assert any(line.startswith("error position: bad fen 'W:W'") for line in out), out
    assert "state ongoing" in out, out
