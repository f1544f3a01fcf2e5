"""What a person reads in the terminal front end is the variant's own notation; what engines
are sent stays PDN numbers.

Russian, Brazilian, Czech and Turkish write moves with board coordinates (``c3-d4``): the
terminal's history, legal-move list, hints, undo/redo lines, the engine's thinking, error
messages and the replay show them so, while ``GameRecord.engine_position`` and the ``position``
command an engine receives keep ``22-18``. English and the other numbered variants are
unchanged. Typing either form works.
"""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

from draughts_engine.search.limits import SearchLimits
from protocol.client import InfoReport
from protocol.play import GameController, PlayerSpec, new_record
from protocol.play.cli import main
from protocol.play.render import Style, info_text
from protocol.play.terminal import TerminalSession

sys.path.insert(0, os.path.dirname(__file__))
from test_play_support import rejection  # noqa: E402

HUMAN = PlayerSpec.human()
ENGINE = PlayerSpec.own_engine()
SQUARE_NAME = re.compile(r"\b[a-h][1-8]\b")
MOVE_SHOWN = re.compile(r"[a-h][1-8]([-x][a-h][1-8])+")
MOVE_NUMBERS = re.compile(r"\d+([-x]\d+)+")
RUSSIAN_OPENING = ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
RUSSIAN_OPENING_NUMBERS = ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


# ---------------------------------------------------------------------------- records


@pytest.mark.parametrize("variant", ["russian", "brazilian", "czech"])
def test_algebraic_variants_show_coordinates_and_keep_numbers_for_engines(variant: str) -> None:
    record = new_record(variant)
    assert record.display_legal_moves() == RUSSIAN_OPENING
    assert record.legal_moves() == RUSSIAN_OPENING_NUMBERS
    assert record.play_text("22-18") == "22-18"   # numbers typed
    assert record.play_text("f6-e5") == "11-15"   # coordinates typed
    assert record.move_texts == ["22-18", "11-15"]
    assert record.display_texts == ["c3-d4", "f6-e5"]
    assert record.engine_position() == (None, ["22-18", "11-15"])
    assert "1. c3-d4 f6-e5" in record.pdn()       # saved PDN: the variant's own, as before


def test_turkish_moves_are_shown_with_its_coordinates() -> None:
    record = new_record("turkish")
    assert record.display_legal_moves()[:3] == ["a3-a4", "b3-b4", "c3-c4"]
    assert record.play_text("b3-b4") == "42-34"
    assert record.display_texts == ["b3-b4"] and record.engine_position()[1] == ["42-34"]


def test_display_text_maps_canonical_moves_and_leaves_other_text_alone() -> None:
    record = new_record("russian")
    assert record.display_text("22-18") == "c3-d4"
    assert record.display_text("22x15x6") == "c3xe5xc7"
    for text in ("hello", "22-99", "", "22--18", "c3-d4"):
        assert record.display_text(text) == text


@pytest.mark.parametrize("variant", ["english", "international", "italian", "tictactoe"])
def test_numbered_games_show_what_engines_are_sent(variant: str) -> None:
    record = new_record(variant)
    assert record.display_legal_moves() == record.legal_moves()
    record.play_text(record.legal_moves()[0])
    assert record.display_texts == record.move_texts
    assert record.display_text(record.move_texts[0]) == record.move_texts[0]


def test_a_rejected_russian_move_names_squares_and_lists_moves_by_coordinates() -> None:
    record = new_record("russian")
    record.play_text("c3-d4")
    record.play_text("f6-e5")
    cases = {
        "22-17": "22-17: square c3 is empty",                    # typed text quoted as typed
        "c3-b4": "c3-b4: square c3 is empty",
        "g7-h6": "g7-h6: the piece on g7 is black's, and white is to move",
        "e3-f4": "e3-f4: a capture is compulsory",
        "23-19": "23-19: a capture is compulsory",
    }
    for text, reason in cases.items():
        refusal = rejection(record, text)
        assert refusal.reason == reason
        assert refusal.legal == ("d4xf6",)
    refusal = rejection(new_record("russian", "W:W22:B1"), "c3-e5")
    assert refusal.reason == "c3-e5: the man on c3 cannot go to e5"
    assert record.ply == 2


def test_an_ambiguous_russian_capture_lists_its_paths_by_coordinates() -> None:
    record = new_record("russian", "W:WK6:B15,16,9,17")
    assert record.legal_moves() == ["6x20", "6x13x26x12", "6x19x12"]
    assert record.display_legal_moves() == ["c7xh4", "c7xa5xd2xh6", "c7xf4xh6"]
    for typed in ("c7xh6", "6x12"):
        refusal = rejection(record, typed)
        assert refusal.reason == (f"ambiguous move {typed!r}: could be c7xa5xd2xh6, "
                                  "c7xf4xh6; type the whole capture path")
    assert record.play_text("c7xd2xh6") == "6x13x26x12"


def test_english_messages_keep_their_numbers() -> None:
    record = new_record("english")
    refusal = rejection(record, "22-18")
    assert refusal.reason == "22-18: the piece on 22 is white's, and black is to move"
    assert refusal.legal == ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
    refusal = rejection(new_record("international", "W:WK47:B14,19,29,31,42"), "47x36")
    assert "could be 47x38x24x13x36, 47x38x20x9x36" in refusal.reason


def test_the_engine_thinking_line_shows_the_principal_variation_as_told() -> None:
    info = InfoReport(depth=2, score_cp=10, nodes=5, pv=("22-18", "11-15"))
    assert info_text(info).endswith("pv 22-18 11-15")
    record = new_record("russian")
    assert info_text(info, shown=record.display_text).endswith("pv c3-d4 f6-e5")


# ---------------------------------------------------------------------------- the controller


def test_a_russian_game_against_the_engine_shows_coordinates_and_sends_numbers() -> None:
    log = []
    with GameController("russian", white=HUMAN, black=ENGINE, limits=SearchLimits(depth=1),
                        engine_log=log.append) as game:
        assert game.display_legal_moves() == RUSSIAN_OPENING
        assert game.legal_moves() == RUSSIAN_OPENING_NUMBERS
        played = game.play("c3-d4")
        assert (played.text, played.display) == ("22-18", "c3-d4")
        reply = game.engine_move()
        assert reply.display == game.display_text(reply.text) and MOVE_SHOWN.fullmatch(
            reply.display), reply
        played = game.play(game.legal_moves()[0])          # numbers typed
        assert MOVE_SHOWN.fullmatch(played.display) and MOVE_NUMBERS.fullmatch(played.text)
        hint = game.hint()
        assert hint.display == game.display_text(hint.move) and hint.display != hint.move
        assert [m.display for m in game.history] == game.record.display_texts
        assert [m.text for m in game.history] == game.record.move_texts
    positions = [line for line in log if line.startswith("> position")]
    assert positions and all(not SQUARE_NAME.search(line) for line in positions), positions
    assert positions[0] == "> position startpos moves 22-18"


def test_a_loaded_russian_game_lists_its_moves_by_coordinates(tmp_path: Path) -> None:
    path = tmp_path / "game.pdn"
    path.write_text('[GameType "25"]\n\n1. c3-d4 f6-e5 2. d4xf6 e7xg5 *\n')
    with GameController("english", white=HUMAN, black=HUMAN) as game:
        game.load(str(path))
        assert [m.display for m in game.history] == ["c3-d4", "f6-e5", "d4xf6", "e7xg5"]
        assert [m.text for m in game.history] == ["22-18", "11-15", "18x11", "7x16"]
        assert game.record.engine_position() == (None, ["22-18", "11-15", "18x11", "7x16"])


# ---------------------------------------------------------------------------- the terminal


def _session(game: GameController) -> "tuple[TerminalSession, io.StringIO]":
    out = io.StringIO()
    return TerminalSession(game, out, input, Style(False), interactive=False, live=False), out


def test_the_terminal_shows_a_russian_game_in_coordinates() -> None:
    log = []
    with GameController("russian", white=HUMAN, black=ENGINE, limits=SearchLimits(depth=2),
                        engine_log=log.append) as game:
        session, out = _session(game)
        session.handle("moves")
        session.handle("c3-d4")
        session.engine_turn()
        reply = game.history[-1]
        session.handle("22-18")               # numbers: c3 is empty now
        session.handle("moves")
        session.handle(game.legal_moves()[0])  # numbers typed are played
        mine = game.history[-1]
        session.engine_turn()
        theirs = game.history[-1]
        session.handle("undo")
        session.handle("redo")
        session.handle("hint")
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0] == "Legal moves: " + " ".join(RUSSIAN_OPENING)
    assert "1. c3-d4  (White, Human)" in lines
    assert "Last move: 1. c3-d4" not in lines  # the engine replies: one board, after it
    assert f"Last move: 1... {reply.display}" in lines
    assert any(line.startswith(f"1... {reply.display}  (Black, draughts-engine") for line in lines)
    thinking = [line for line in lines if line.startswith("  Black thinks:") and " pv " in line]
    assert thinking and all(MOVE_SHOWN.fullmatch(move) for line in thinking
                            for move in line.split(" pv ")[1].split()), thinking
    assert "Not played: 22-18: square c3 is empty" in lines
    assert f"Took back {mine.display} {theirs.display}." in lines
    assert f"Replayed {mine.display} {theirs.display}." in lines
    hint = next(line for line in lines if line.startswith("Hint: "))
    assert hint.split()[1] in game.display_legal_moves()
    shown = text.replace("Not played: 22-18:", "")  # what the person typed is quoted as typed
    assert not re.search(r"\b\d+[-x]\d+\b", shown), "a move shown in numbers"
    positions = [line for line in log if line.startswith("> position")]
    assert positions and all(not SQUARE_NAME.search(line) for line in positions)
    assert all("moves 22-18 " + reply.text in line for line in positions[1:])


def test_the_terminal_draws_coordinates_around_a_russian_board() -> None:
    with GameController("russian", white=HUMAN, black=HUMAN) as game:
        session, out = _session(game)
        session.show_board()
    lines = out.getvalue().splitlines()
    assert lines[0].split() == list("abcdefgh") and lines[9].split() == list("abcdefgh")
    assert lines[1].split()[0] == "8" and lines[8].split()[0] == "1"


def test_the_terminal_keeps_numbers_for_english() -> None:
    with GameController("english", white=HUMAN, black=HUMAN) as game:
        session, out = _session(game)
        session.handle("11-15")
        session.handle("moves")
        session.handle("undo")
    lines = out.getvalue().splitlines()
    assert "1. 11-15  (Black, Human)" in lines and "Took back 11-15." in lines
    assert "Legal moves: 21-17 22-17 22-18 23-18 23-19 24-19 24-20" in lines


def test_the_command_line_plays_russian_moves_typed_either_way() -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["--variant", "russian", "--white", "human", "--black", "human"],
                  stdin=io.StringIO("22-18\nf6-e5\nmoves\nquit\n"), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert "1. c3-d4  (White, Human)" in lines and "1... f6-e5  (Black, Human)" in lines
    assert "Legal moves: d4xf6" in lines


# ---------------------------------------------------------------------------- the replay


def test_the_replay_shows_a_russian_game_in_coordinates(tmp_path: Path) -> None:
    path = tmp_path / "russian.pdn"
    path.write_text('[GameType "25"]\n\n1. 22-18 11-15 2. 18x11 7x16 *\n')
    out, err = io.StringIO(), io.StringIO()
    status = main(["--replay", str(path)], stdin=io.StringIO("\n\n\n\nq\n"), stdout=out,
                  stderr=err)
    assert status == 0, err.getvalue()
    plies = [line for line in out.getvalue().splitlines() if line.startswith("Ply ")]
    assert [line.split(": ", 1)[1] for line in plies] == [
        "1. c3-d4", "1... f6-e5", "2. d4xf6", "2... e7xg5  (end of the game, result *)"]
