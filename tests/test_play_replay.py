"""``--replay``'s reading of PDN files: the scan that keeps comments (protocol/play/movetext.py),
the games a file is cut into, the comments shown at each ply, and text that reads as PDN or
as a FEN.

Brackets inside comments and comments inside variations once hung the replay (a loop that
did not advance): the property tests below bound the scan by counting its steps, never by a
clock.
"""
from __future__ import annotations

import io
import itertools
import random
from pathlib import Path
from typing import List

import pytest

from protocol.play.cli import main
from protocol.play.movetext import Piece, pieces
from protocol.play.records import LoadError, is_fen_shaped, records_from_text
from protocol.play.replay import read_collection
from test_play_support import run_play

HEADER = '[GameType "20"]\n[Result "*"]\n\n'
TRICKY_VARIATIONS = {
    "a ) in a comment": "1. 32-28 19-23 (1... 18-23 {smiley :) here} 2. 28x19) "
                        "2. 28x19 {c} 14x23 *\n",
    "a ; comment": "1. 32-28 19-23 (1... 18-23 ; semicolon ) in variation\n 2. 28x19) "
                   "2. 28x19 {c} 14x23 *\n",
    "a ( in a comment": "1. 32-28 19-23 (1... 18-23 {bad (idea} 2. 28x19) 2. 28x19 {c} "
                        "14x23 *\n",
    "nested, with } and [ in comments": "1. 32-28 19-23 (1... 18-23 (1... 17-22 {x]} "
                                        "; {y\n) {z} 2. 28x19) 2. 28x19 {c} 14x23 *\n",
}


def non_space(text: str) -> List[Piece]:
    return [piece for piece in pieces(text) if piece.kind != "space"]


# ------------------------------------------------------------------------------ the scan

def test_the_module_example_runs() -> None:
    import doctest
    import protocol.play.movetext as movetext
    assert doctest.testmod(movetext).failed == 0


def test_brackets_inside_comments_do_not_count() -> None:
    text = "1. 11-15 (9-14 {:) (} ; )\n 23-19) {main: (x} 23-19 *"
    kinds = [(p.kind, p.text, p.depth) for p in non_space(text)]
    assert kinds == [("number", "1.", 0), ("move", "11-15", 0), ("open", "(", 1),
                     ("move", "9-14", 1), ("comment", ":) (", 1), ("comment", " )", 1),
                     ("move", "23-19", 1), ("close", ")", 1), ("comment", "main: (x", 0),
                     ("move", "23-19", 0), ("result", "*", 0)]


def test_tags_escapes_nags_numbers_and_strays() -> None:
    text = ('[Event "a ] ; {"]\n%escaped (line {\n1.11-15!? $3 12... 23-19 } ] 1-0')
    kinds = [(p.kind, p.text) for p in non_space(text)]
    assert kinds == [("tag", 'Event "a ] ; {"'), ("escape", "escaped (line {"),
                     ("move", "11-15"), ("nag", "$3"), ("number", "12..."),
                     ("move", "23-19"), ("stray", "}"), ("stray", "]"), ("result", "1-0")]


def test_inside_a_variation_brackets_are_words_as_for_the_reader() -> None:
    assert [(p.kind, p.text) for p in non_space("(9-14 [x] %y) 11-15")] == [
        ("open", "("), ("move", "9-14"), ("move", "[x]"), ("move", "%y"), ("close", ")"),
        ("move", "11-15")]


def _pdn_ish(rng: random.Random) -> str:
    alphabet = ["{", "}", "(", ")", "[", "]", ";", "%", "$", "\"", "\\", "\n", " ", ".",
                "1.", "11-15", "23x19", "*", "1-0", "!?", ":)", "[Event \"x\"]", "\n%",
                "\r\n", "\t", "é"]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))


def test_the_scan_always_advances_and_tiles_any_text() -> None:
    rng = random.Random(20261124)
    for _ in range(3000):
        text = _pdn_ish(rng)
        # at most one piece a character: a scan that stopped advancing would be cut here
        found = list(itertools.islice(pieces(text), len(text) + 1))
        assert len(found) <= len(text), text
        position = 0
        for piece in found:
            assert piece.start == position and piece.end > piece.start, (text, piece)
            position = piece.end
        assert position == len(text), text


def test_reading_any_text_ends_with_games_or_one_clear_error() -> None:
    rng = random.Random(7)
    for _ in range(400):
        text = _pdn_ish(rng)
        try:
            games = read_collection(text, "english", "fuzz.pdn")
        except LoadError as exc:
            assert "\n" not in str(exc) and str(exc)
            continue
        assert games


# ------------------------------------------------------------------------------ the replay

@pytest.mark.parametrize("movetext", TRICKY_VARIATIONS.values(), ids=list(TRICKY_VARIATIONS))
def test_comments_of_variations_are_skipped_whatever_they_hold(movetext: str) -> None:
    games = read_collection(HEADER + movetext, "english", "v.pdn")
    assert len(games) == 1
    assert games[0].moves == ["32-28", "19-23", "28x19", "14x23"]
    assert games[0].comments == {3: ["c"]}


def test_a_replay_with_brackets_in_variation_comments_ends(tmp_path: Path) -> None:
    # These files once made --replay loop for ever; the timeout only keeps a hang from
    # stalling the suite, it measures nothing.
    for number, movetext in enumerate(TRICKY_VARIATIONS.values()):
        path = tmp_path / f"v{number}.pdn"
        path.write_text(HEADER + movetext)
        done = run_play(["--replay", str(path)], "end\nq\n", timeout=300)
        assert done.returncode == 0, done.stderr
        assert "Ply 4/4: 2... 14x23  (end of the game, result *)" in done.stdout


def test_games_are_cut_where_the_reader_cuts_them() -> None:
    text = ('[Event "a"]\n1. 11-15 23-19 1-0 {resigned}\n{about b}\n'
            '[Event "b"]\n1. 9-14 ; {not a comment opener\n* 1. 11-16 {x} *\n; trailing\n')
    games = read_collection(text, "english", "t.pdn")
    assert [(g.tags.get("Event"), g.moves, g.comments) for g in games] == [
        ("a", ["11-15", "23-19"], {2: ["resigned"]}),
        ("b", ["9-14"], {0: ["about b"], 1: ["{not a comment opener"]}),
        (None, ["11-16"], {1: ["x", "trailing"]}),
    ]


def test_a_problem_is_reported_at_its_line_of_the_file(tmp_path: Path) -> None:
    text = '[Event "a"]\n1. 11-15 *\n\n[Event "b"]\n{one: two}\n1. 9-14 hello *\n'
    with pytest.raises(LoadError, match=r"^t\.pdn:6: move 'hello'"):
        read_collection(text, "english", "t.pdn")


# ------------------------------------------------------------------------------ PDN or FEN

def test_one_line_of_moves_with_a_colon_in_a_comment_is_pdn(tmp_path: Path) -> None:
    record, = records_from_text("1. 11-15 {note: fine} 23-19 *", "english", "colon.pdn")
    assert record.move_texts == ["11-15", "23-19"]
    path = tmp_path / "colon.pdn"
    path.write_text("1. 11-15 {note: fine} 23-19 *\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--replay", str(path)], stdin=io.StringIO("1\nq\n"), stdout=out,
                stderr=err) == 0, err.getvalue()
    assert "  {note: fine}" in out.getvalue()
    out = io.StringIO()
    assert main(["--white", "human", "--black", "human"],
                stdin=io.StringIO(f"load {path}\nmoves\nq\n"), stdout=out, stderr=err) == 0
    assert f"Loaded {path}." in out.getvalue()
    assert "English draughts, move 2: Black to move" in out.getvalue()


@pytest.mark.parametrize("text, fen", [("W:W31-50:B1-20", True), ('"B:W21-32:B1-12"', True),
                                       ("b : W21:B1", True), ("1. 11-15 {a: b} *", False),
                                       ("{W: x} 11-15", False), ("11-15 23-19", False),
                                       ("Wx:", False), ("W", False)])
def test_what_is_shaped_as_a_fen(text: str, fen: bool) -> None:
    assert is_fen_shaped(text) is fen


def test_one_line_that_is_neither_says_what_was_tried() -> None:
    with pytest.raises(LoadError) as caught:
        records_from_text("1. 11-15 hello *", "english", "x")
    assert str(caught.value).startswith("x:1: move 'hello'")
    assert "read as PDN; a FEN would start with W: or B:" in str(caught.value)
    with pytest.raises(LoadError, match="bad FEN 'W:W99:B1'"):
        records_from_text("W:W99:B1", "english", "x")


def test_a_tag_value_ending_in_a_backslash_is_cut_where_the_reader_cuts_it():
    """One tag scanner for the reader and the replay: ``"a\\\\"`` ends the string."""
    from protocol.play.movetext import pieces

    kinds = [(piece.kind, piece.text) for piece in pieces('[Event "a\\\\"] 1. 11-15 *')
             if piece.kind != "space"]
    assert kinds == [("tag", 'Event "a\\\\"'), ("number", "1."), ("move", "11-15"),
                     ("result", "*")]
