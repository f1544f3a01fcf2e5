"""``python3 -m protocol.play`` with stdin not a terminal: one command per line, as a script.

Covers a person's game against our engine (moves, undo, redo, an illegal move, hint, save,
load), the Bar's computer-against-computer International game (every saved move legal by the
independent reference rules and by pydraughts), ``--games`` with alternating colours and a
running score, ``--replay`` of match files, and every kind of bad usage (one line, exit 2).
"""
from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import List

import pytest

from draughts_engine.game import Game
from protocol.play.cli import main
from test_play_support import (
    check_moves_with_reference,
    check_with_pydraughts,
    pdn_games,
    run_play,
)

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def lines_after(output: str, prompt_and_command: str) -> List[str]:
    """The output lines that follow the echoed ``prompt> command`` line."""
    lines = output.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(prompt_and_command))
    return lines[index + 1:]


def test_a_scripted_game_against_the_engine(tmp_path: Path) -> None:
    saved = tmp_path / "game.pdn"
    script = "\n".join(["11-15", "fen", "undo", "fen", "redo", "fen", "11-16", "12-16x",
                        "hint", "moves", f"save {saved}", "new", "fen", f"load {saved}", "fen",
                        "quit"]) + "\n"
    done = run_play(["--variant", "english", "--black", "human", "--white", "engine",
                     "--level", "3"], script)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert "\x1b[" not in out  # no colour on a pipe
    assert " 8         1b        2b        3b        4b   8" in out  # numbers and coordinates
    assert "English draughts, move 1: Black to move (Human)" in out
    reply = next(line for line in out.splitlines() if line.startswith("1... "))
    reply_move = reply.split()[1]
    assert "(White, draughts-engine" in reply
    fens = [line for line in out.splitlines() if line.startswith(("B:", "W:"))]
    after = Game("english")
    after.push_all(["11-15", reply_move])
    assert fens == [after.position.fen(), ENGLISH_START, after.position.fen(), ENGLISH_START,
                    after.position.fen()]
    assert "Took back 11-15 " + reply_move + "." in out
    assert "Replayed 11-15 " + reply_move + "." in out
    illegal = lines_after(out, "Black 2> 11-16")
    assert illegal[0] == "Not played: 11-16: square 11 is empty"
    assert illegal[1].startswith("Legal moves: ") and "15-18" in illegal[1] or \
        illegal[1].startswith("Legal moves: ")
    assert lines_after(out, "Black 2> 12-16x")[0].startswith("Not played: malformed move")
    hint = [line for line in out.splitlines() if line.startswith("Hint: ")]
    assert len(hint) == 1 and hint[0].split()[1] in [m.pdn() for m in after.legal_moves()]
    assert f"Saved to {saved}." in out and f"Loaded {saved}." in out
    (tags, moves), = pdn_games(saved.read_text())
    assert moves == ["11-15", reply_move] and tags["Black"] == "Human"
    assert tags["White"].startswith("draughts-engine") and tags["GameType"] == "21"
    check_moves_with_reference("english", moves)


def test_the_end_of_a_game_its_reason_and_the_save_offer(tmp_path: Path) -> None:
    done = run_play(["--black", "human", "--white", "engine", "--level", "1",
                     "--fen", "B:W18:B14"], "14x23\nsave\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Game over: Black wins (0-1): white has no legal move." in out
    assert "Type undo to take back, new for another game, save FILE to keep it, or quit." in out
    assert "save: give a file name: save FILE" in out
    assert "Took back 14x23." in out


def test_a_person_moving_on_the_engines_turn_is_told_whose_turn_it_is() -> None:
    done = run_play(["--variant", "tictactoe", "--white", "human", "--black", "human"],
                    "b2\na1\nd4\nb2\nundo\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "1. b2  (X, Human)" in done.stdout and "1... a1  (O, Human)" in done.stdout
    assert "Not played: not a tic-tac-toe square: 'd4' (expected a1..c3)" in done.stdout
    assert "Not played: cannot play 'b2': it is occupied" in done.stdout
    assert "Took back a1." in done.stdout  # one move between two people


# ------------------------------------------------------- undo N, command words, one board a move

TWO_PEOPLE = ["--variant", "english", "--white", "human", "--black", "human"]


def _fens(out: str) -> List[str]:
    return [line for line in out.splitlines() if line.startswith(("B:", "W:"))]


def _fen_after(*moves: str) -> str:
    game = Game("english")
    game.push_all(list(moves))
    return game.position.fen()


def test_undo_n_takes_back_n_plies_and_a_bad_n_changes_nothing() -> None:
    bad = ["undo 0", "undo -1", "undo two", "undo 4", "undo 99999999999999999999999",
           "undo 1 2", "undo \u0663"]
    script = ["undo 1", "11-15", "23-19", "9-14", *bad, "fen", "undo 2", "fen", "redo 3",
              "redo 0", "redo 2", "fen", "undo 3", "fen", "redo 1", "fen", "quit"]
    done = run_play(TWO_PEOPLE, "\n".join(script) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert lines_after(out, "Black 1> undo 1")[0] == "undo: no move to take back"
    for command in bad:
        assert lines_after(out, f"White 2> {command}")[0] == \
            f"undo: N must be 1..3 (3 moves can be taken back), got {command[5:]!r}"
    assert "Took back 23-19 9-14." in out  # undo 2: two plies, not one turn
    assert lines_after(out, "White 1> redo 3")[0] == \
        "redo: N must be 1..2 (2 moves can be redone), got '3'"
    assert lines_after(out, "White 1> redo 0")[0] == \
        "redo: N must be 1..2 (2 moves can be redone), got '0'"
    assert "Replayed 23-19 9-14." in out and "Took back 11-15 23-19 9-14." in out
    assert "Replayed 11-15." in out
    after_three = _fen_after("11-15", "23-19", "9-14")
    assert _fens(out) == [after_three, _fen_after("11-15"), after_three, ENGLISH_START,
                          _fen_after("11-15")]


def test_undo_n_against_an_engine_counts_plies_and_the_engine_moves_again() -> None:
    done = run_play(["--variant", "english", "--black", "human", "--white", "engine",
                     "--level", "1"], "11-15\nundo 3\nundo 1\nfen\nundo 2\nfen\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    replies = [line.split()[1] for line in out.splitlines() if line.startswith("1... ")]
    assert len(replies) == 2  # the reply taken back by undo 1 is played again
    assert lines_after(out, "Black 2> undo 3")[0] == \
        "undo: N must be 1..2 (2 moves can be taken back), got '3'"
    assert lines_after(out, "Black 2> undo 1")[0] == f"Took back {replies[0]}."
    assert f"Took back 11-15 {replies[1]}." in out
    assert _fens(out) == [_fen_after("11-15", replies[1]), ENGLISH_START]


NO_ARGUMENT_LINES = ["new game now", "flip x", "board 2", "moves all", "hint please",
                     "help me", "quit now", "exit now", "? x"]


def test_words_after_a_command_that_takes_none_are_refused_and_nothing_is_done() -> None:
    script = ["11-15", *NO_ARGUMENT_LINES, "fen", "board", "quit"]
    done = run_play(TWO_PEOPLE, "\n".join(script) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in NO_ARGUMENT_LINES:
        command, rest = line.split(" ", 1)
        assert lines_after(out, f"White 1> {line}")[0] == \
            f"{command}: takes no arguments, got {rest!r} (nothing done)"
    assert "New game." not in out and "Hint:" not in out and "Legal moves:" not in out
    assert "Commands:" not in out  # no help printed
    assert _fens(out) == [_fen_after("11-15")]  # not a new game, and quit did not quit
    board = out.split("White 1> board\n")[1].splitlines()
    assert board[1].startswith(" 8 ")  # not flipped: Black's side still on top


def test_an_unknown_word_is_an_unknown_command_and_move_text_stays_a_move() -> None:
    script = ["foo", "foo bar", "xx", "Undo", "11 15", "12-16x", "c3-d4", "11-15", "fen",
              "quit"]
    done = run_play(TWO_PEOPLE, "\n".join(script) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in ("foo", "foo bar", "xx"):
        after = lines_after(out, f"Black 1> {line}")
        assert after[0] == f"Unknown command {line.split()[0]!r} (type help for the " \
                           f"commands, moves for the legal moves)"
        assert after[1].startswith("Black 1> ")  # no move error, no list of moves
    assert lines_after(out, "Black 1> Undo")[0] == "undo: no move to take back"  # any case
    assert lines_after(out, "Black 1> 11 15")[0].startswith(
        "Not played: malformed move '11 15'")
    assert lines_after(out, "Black 1> 12-16x")[0].startswith("Not played: malformed move")
    assert lines_after(out, "Black 1> c3-d4")[0] == \
        "Not played: c3-d4: the piece on 22 is white's, and black is to move"
    assert "1. 11-15  (Black, Human)" in out and _fens(out) == [_fen_after("11-15")]


def test_pass_and_placings_are_tatedrez_moves_not_commands() -> None:
    done = run_play(["--variant", "tatedrez", "--white", "human", "--black", "human"],
                    "pass\nfoo\nN@b2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert lines_after(done.stdout, "White 1> pass")[0].startswith("Not played: ")
    assert lines_after(done.stdout, "White 1> foo")[0].startswith("Unknown command 'foo'")
    assert "1. N@b2  (White, Human)" in done.stdout


@pytest.mark.parametrize("line, is_move", [
    ("11-15", True), ("28x19", True), ("15x24x31", True), ("11 15", True), ("c3-d4", True),
    ("b2", True), ("N@b2", True), ("pass", True), ("Pass", True), ("foo-bar", True),
    ("foo", False), ("xx", False), ("x", False), ("foo 11-15", False), ("", False),
])
def test_what_looks_like_a_move(line: str, is_move: bool) -> None:
    from protocol.play.terminal import looks_like_move
    assert looks_like_move(line) is is_move


def _boards_between_prompts(out: str) -> List[int]:
    """How many boards (their rank-8 line) stand after each prompt, up to the next one."""
    counts: List[int] = []
    for line in out.splitlines():
        if re.match(r"^(?:\S+ \d+|game over)> ", line):
            counts.append(0)
        elif counts and line.startswith(" 8 "):
            counts[-1] += 1
    return counts


def test_each_move_draws_the_board_once() -> None:
    done = run_play(["--variant", "english", "--black", "human", "--white", "engine",
                     "--level", "1"], "11-15\n9-13\nundo\nredo\nundo 1\nquit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # After 11-15 only the engine's reply is drawn (11-15 on it, the reply marked); the same
    # after 9-13, undo, redo, and undo 1 (the engine, left to move, moves again).
    assert _boards_between_prompts(out) == [1, 1, 1, 1, 1, 0]
    after = lines_after(out, "Black 1> 11-15")
    reply = next(line for line in after if line.startswith("1... "))
    assert after[0] == "1. 11-15  (Black, Human)"
    board = after[after.index(reply) + 1:]
    assert " 15b " in board[4] and "[" in "".join(board[:10])  # 11-15 on it, a move marked
    assert "Last move: 1... " + reply.split()[1] in board
    people = run_play(TWO_PEOPLE, "11-15\n23-19\nquit\n")
    assert _boards_between_prompts(people.stdout) == [1, 1, 0]  # between people: every move


@pytest.fixture(scope="module")
def international_game(
        tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Bar: engine against engine, International, level 2, saved, stdin from /dev/null."""
    path = tmp_path_factory.mktemp("cvc") / "intl.pdn"
    done = run_play(["--variant", "international", "--white", "engine", "--black", "engine",
                     "--level", "2", "--delay", "0", "--save", str(path)], "")
    assert done.returncode == 0, done.stderr
    assert "Game over: " in done.stdout and f"Saved to {path}." in done.stdout
    assert "White thinks: depth 1" in done.stdout  # the thinking, one report per line
    return path


def test_computer_against_computer_plays_a_whole_international_game(
        international_game: Path) -> None:
    (tags, moves), = pdn_games(international_game.read_text())
    assert tags["GameType"] == "20" and tags["Result"] in ("2-0", "0-2", "1-1")
    assert tags["White"] != tags["Black"]
    assert len(moves) > 10
    check_moves_with_reference("international", moves)
    (ours,) = __import__("draughts_engine.pdn", fromlist=["read_games"]).read_games(
        international_game.read_text())
    assert ours.result().is_over
    assert ours.result().score_text(international=True) == tags["Result"]


def test_the_international_game_is_read_by_pydraughts(international_game: Path) -> None:
    assert check_with_pydraughts(international_game) == 1


def test_several_games_alternate_colours_with_a_running_score(tmp_path: Path) -> None:
    path = tmp_path / "series.pdn"
    done = run_play(["--variant", "tictactoe", "--white", "engine", "level=9", "name=A",
                     "--black", "engine", "level=9", "name=B", "--games", "3",
                     "--save", str(path)])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Game 1 of 3: A (White) - B (Black)" in out
    assert "Game 2 of 3: B (White) - A (Black)" in out
    assert "Score after 3 games: A 1.5 - 1.5 B (+0 =3 -0 for A)" in out
    games = pdn_games(path.read_text())
    assert [(tags["Round"], tags["White"], tags["Black"]) for tags, _ in games] == \
        [("1", "A", "B"), ("2", "B", "A"), ("3", "A", "B")]


def test_a_deeper_engine_beats_a_shallower_one_over_a_series() -> None:
    done = run_play(["--variant", "english", "--white", "engine", "level=5", "name=deep",
                     "--black", "engine", "level=1", "name=shallow", "--games", "2"])
    assert done.returncode == 0, done.stderr
    last = [line for line in done.stdout.splitlines() if line.startswith("Score after 2")][0]
    deep_points = float(last.split("deep ")[1].split()[0])
    assert deep_points >= 1.0, last  # the seed's depth table: deeper is not worse


def test_a_failing_engine_ends_the_program_with_status_1() -> None:
    from test_play_support import ROOT
    engine = ROOT / "tests" / "fake_engines" / "broken_illegal_bestmove.py"
    done = run_play(["--white", "human", "--black", f"cmd:python3 {engine}"], "quit\n")
    assert done.returncode == 1
    assert done.stderr.startswith("draughts-play: engine failure: canned-engine played an "
                                  "illegal move 21-17")
    assert "Traceback" not in done.stderr


def test_an_engine_failure_keeps_the_unfinished_game_in_save(tmp_path: Path) -> None:
    from test_play_support import ROOT
    engine = ROOT / "tests" / "fake_engines" / "random_mover.py"
    save = tmp_path / "games.pdn"
    done = run_play(["--white", "engine", "level=1", "--black",
                     f"cmd:python3 {engine} --illegal 0.2 --seed 2", "--save", str(save)], "")
    assert done.returncode == 1 and "engine failure" in done.stderr
    assert f"the unfinished game is saved to {save}" in done.stderr
    text = save.read_text(encoding="utf-8")
    assert '[Result "*"]' in text and "unfinished: an engine failed" in text
    assert text.rstrip().endswith(" *") and "1. " in text


# ---------------------------------------------------------------------------- replay


def _random_match_file(path: Path, games: int) -> List[List[str]]:
    """A match-style file: tags with Termination, a comment before the result."""
    rng = random.Random(7)
    all_moves = []
    with open(path, "w", encoding="utf-8") as handle:
        for number in range(1, games + 1):
            game = Game("english")
            while game.ply < 60 and not game.result().is_over:
                game.push(rng.choice(game.position.legal_moves()))
            text = game.to_pdn({"Event": "test match", "Round": str(number),
                                "White": "a", "Black": "b", "Termination": "normal"})
            body, result = text.rstrip().rsplit(" ", 1)
            handle.write(f"{body} {{game {number} ends here}} {result}\n\n")
            all_moves.append([m.pdn() for m in game.moves])
    return all_moves


def test_replay_steps_forward_and_back_through_any_game_of_a_40_game_file(
        tmp_path: Path) -> None:
    path = tmp_path / "match.pdn"
    moves = _random_match_file(path, 40)
    script = "\n".join(["", "", "b", "end", "start", "3", "tags", "game 40", "", "help",
                        "bogus", "q"]) + "\n"
    done = run_play(["--replay", str(path), "--game", "17"], script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"Game 17 of 40: a - b (English draughts, {len(moves[16])} plies" in out
    assert f"Ply 1/{len(moves[16])}: 1. {moves[16][0]}" in out
    assert f"Ply 2/{len(moves[16])}: 1... {moves[16][1]}" in out
    back = lines_after(out, f"ply 2/{len(moves[16])}> b")
    assert f"Ply 1/{len(moves[16])}: 1. {moves[16][0]}" in back
    end_line = next(line for line in lines_after(out, f"ply 1/{len(moves[16])}> end")
                    if line.startswith("Ply "))
    assert end_line.startswith(f"Ply {len(moves[16])}/{len(moves[16])}:")
    assert "(end of the game, result" in end_line
    assert "  {game 17 ends here}" in out
    assert '[Termination "normal"]' in out and '[Round "17"]' in out
    assert "Game 40 of 40: a - b" in out
    assert f"Ply 1/{len(moves[39])}: 1. {moves[39][0]}" in out
    assert "unknown command 'bogus' (help lists them)" in out


def test_replay_reads_a_file_written_by_draughts_match(tmp_path: Path) -> None:
    import subprocess
    import sys
    from test_play_support import ROOT, play_env
    path = tmp_path / "real-match.pdn"
    subprocess.run([sys.executable, "-m", "protocol.match", "--engine", "name=one",
                    f"cmd={sys.executable} -m protocol", "depth=1", "--engine", "name=two",
                    f"cmd={sys.executable} -m protocol", "depth=2", "--variant", "english",
                    "--games", "2", "--pdn", str(path), "--quiet"],
                   check=True, capture_output=True, cwd=str(ROOT), env=play_env(), timeout=600)
    games = pdn_games(path.read_text())
    assert len(games) == 2
    done = run_play(["--replay", str(path), "--game", "2"], "end\nb\nstart\n\n")
    assert done.returncode == 0, done.stderr
    plies = len(games[1][1])
    assert f"Game 2 of 2: two - one (English draughts, {plies} plies" in done.stdout or \
        f"Game 2 of 2: one - two (English draughts, {plies} plies" in done.stdout
    assert f"Ply {plies}/{plies}: " in done.stdout
    assert f"Ply {plies - 1}/{plies}: " in done.stdout
    assert f"Ply 1/{plies}: 1. {games[1][1][0]}" in done.stdout


# ---------------------------------------------------------------------------- bad usage

BAD_USAGE = [
    (["--variant", "chess"], "unknown variant 'chess'"),
    (["--level", "0"], "--level must be 1..12, got 0"),
    (["--level", "13"], "--level must be 1..12, got 13"),
    (["--level", "x"], "--level must be a whole number"),
    (["--movetime", "-5"], "--movetime must be 1..2147483647, got -5"),
    (["--movetime", "1.5"], "--movetime must be a whole number, got '1.5'"),
    (["--games", "99999999999"], "--games must be 1..100000, got 99999999999"),
    (["--replay", "x.pdn", "--fen", "W:W18:B14"], "--replay shows the games of its file: it "
                                                  "takes no --fen"),
    (["--replay", "x.pdn", "--load", "y.pdn"], "it takes no --load"),
    (["--level", "3", "--movetime", "100"], "give --level or --movetime, not both"),
    (["--white", "engine", "level=3", "movetime=100"], "give level or movetime, not both"),
    (["--delay", "abc"], "--delay must be a number of seconds"),
    (["--delay", "-1"], "--delay must be 0..3600 seconds"),
    (["--delay", "nan"], "--delay must be 0..3600 seconds"),
    (["--games", "0"], "--games must be 1..100000, got 0"),
    (["--games", "2"], "--games needs two engines"),
    (["--white", "robot"], "unknown player 'robot'"),
    (["--white", "engine", "proto=dxp"], "proto must be uci or hub"),
    (["--black", "engine", "level=99"], "level must be 1..12"),
    (["--fen", "W:W99:B1"], "--fen: bad FEN"),
    (["--fen", "garbage"], "--fen: bad FEN 'garbage': side to move must be W or B"),
    (["--load", "/no/such/file.pdn"], "--load: cannot read /no/such/file.pdn"),
    (["--replay", "/no/such/file.pdn"], "--replay /no/such/file.pdn: No such file"),
    (["--replay", "/dev/zero"], "--replay /dev/zero: not a regular file"),
    (["--load", "/dev/zero"], "--load: cannot read /dev/zero: not a regular file"),
    (["--replay", "/"], "--replay /: is a folder"),
    (["--game", "2"], "--game goes with --load or --replay"),
    (["--game", "0", "--replay", "x.pdn"], "--game must be at least 1"),
    (["--fen", "W:W18:B14", "--load", "x.pdn"], "give --fen or --load, not both"),
    (["--save", "/no/such/folder/out.pdn"], "--save /no/such/folder/out.pdn: no such folder"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--white"], "expected at least one argument"),
    (["--white", "cmd:/no/such/engine"], "cannot run /no/such/engine"),
]


@pytest.mark.parametrize("argv, message", BAD_USAGE, ids=[" ".join(a) for a, _ in BAD_USAGE])
def test_bad_usage_is_one_line_and_exit_status_2(argv: List[str], message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    assert status == 2
    assert err.getvalue().count("\n") == 1, err.getvalue()
    assert err.getvalue().startswith("draughts-play: error: ")
    assert message in err.getvalue()


def test_a_file_that_is_not_pdn_is_bad_usage(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdn"
    junk.write_text('[GameType "21"]\n\n1. 11-15 hello *\n')
    for flag in ("--replay", "--load"):
        done = run_play([flag, str(junk)])
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert f"{junk}:3: move 'hello'" in done.stderr


def test_a_game_file_too_large_is_refused_and_load_refuses_devices(
        tmp_path: Path, monkeypatch) -> None:
    from protocol.play import records
    monkeypatch.setattr(records, "MAX_GAME_FILE_CHARS", 100)
    big = tmp_path / "big.pdn"
    big.write_text('[GameType "21"]\n\n' + "1. 11-15 23-19 " * 20 + "*\n")
    for flag, message in (("--replay", f"--replay {big}: larger than 100 characters"),
                          ("--load", f"--load: cannot read {big}: larger than 100 characters")):
        out, err = io.StringIO(), io.StringIO()
        assert main([flag, str(big)], stdin=io.StringIO(""), stdout=out, stderr=err) == 2
        assert err.getvalue() == f"draughts-play: error: {message}\n"
    out, err = io.StringIO(), io.StringIO()
    status = main(["--white", "human", "--black", "human"],
                  stdin=io.StringIO(f"load /dev/zero\nload {big}\nquit\n"), stdout=out,
                  stderr=err)
    assert status == 0, err.getvalue()
    assert "load: cannot read /dev/zero: not a regular file" in out.getvalue()
    assert f"load: cannot read {big}: larger than 100 characters" in out.getvalue()


def test_help_exits_0() -> None:
    done = run_play(["--help"])
    assert done.returncode == 0 and "usage: draughts-play" in done.stdout


def test_replay_shows_comments_where_they_stand_and_games_from_a_set_up_position(
        tmp_path: Path) -> None:
    path = tmp_path / "study.pdn"
    path.write_text('[Event "study"]\n[GameType "20"]\n[SetUp "1"]\n'
                    '[FEN "W:WK47:B14,19,29,31,42"]\n\n'
                    "{a study} 1. 47x38x20x9x36 {the other path} 1-0\n")
    out, err = io.StringIO(), io.StringIO()
    status = main(["--replay", str(path)], stdin=io.StringIO("\nb\nq\n"), stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[0] == "Game 1 of 1: ? - ? (International draughts, 1 ply, result 1-0)"
    assert lines[1] == "  Event: study"
    assert lines.index("  {a study}") == lines.index("Start position") + 1
    end = lines.index("Ply 1/1: 1. 47x38x20x9x36  (end of the game, result 1-0)")
    assert lines[end + 1] == "  {the other path}"
    assert lines.count("  {a study}") == 2  # shown again when stepping back to the start


def test_sigterm_while_an_engine_thinks_saves_the_unfinished_game(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    from test_play_support import ROOT, play_env
    if not hasattr(signal, "SIGTERM") or os.name != "posix":
        pytest.skip("SIGTERM to a child needs a POSIX system")
    saved = tmp_path / "term.pdn"
    hang = ROOT / "tests" / "fake_engines" / "hang_on_go.py"
    program = subprocess.Popen(
        [sys.executable, "-m", "protocol.play", "--variant", "international", "--white", "human",
         "--black", f"cmd:{sys.executable} {hang}", "level=2", "--save", str(saved)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=str(ROOT), env=play_env())
    try:
        assert program.stdin is not None and program.stdout is not None
        program.stdin.write("32-28\n")
        program.stdin.flush()
        for line in program.stdout:  # the move is played: the engine now hangs on go
            if line.startswith("1. 32-28  (White, Human)"):
                break
        program.send_signal(signal.SIGTERM)
        _, err = program.communicate(timeout=120)
    finally:
        if program.poll() is None:
            program.kill()
            program.wait()
    assert program.returncode == 128 + signal.SIGTERM, err
    assert "the unfinished game is saved to" in err
    (tags, moves), = pdn_games(saved.read_text())
    assert moves == ["32-28"] and tags["Result"] == "*"
    assert tags["Termination"] == "unfinished: the program was ended by a signal"


def test_input_the_encoding_cannot_read_is_a_line_to_type_again() -> None:
    import subprocess
    import sys
    from test_play_support import ROOT, play_env
    env = dict(play_env(), PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "protocol.play", "--white", "human", "--black",
                           "human"], input="11-15\u00e9\n11-15\nquit\n".encode("utf-8"),
                          capture_output=True, timeout=600, cwd=str(ROOT), env=env)
    out, err = done.stdout.decode("ascii"), done.stderr.decode("ascii")
    assert done.returncode == 0, err
    assert "That line has characters that the input's encoding (ascii) cannot read; type it " \
           "again." in out
    assert "1. 11-15  (Black, Human)" in out and err == ""


def test_quitting_an_unfinished_game_says_it_is_not_saved(tmp_path: Path) -> None:
    done = run_play(["--white", "human", "--black", "human"], "11-15\nquit\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("The unfinished game (1 move) is not saved.")
    saved = tmp_path / "kept.pdn"
    done = run_play(["--white", "human", "--black", "human"], f"11-15\nsave {saved}\nquit\n")
    assert "not saved" not in done.stdout  # saved since its last move: nothing to say
    done = run_play(["--white", "human", "--black", "human"], "")
    assert "not saved" not in done.stdout  # no move: nothing lost


def test_replacing_an_unfinished_game_says_it_is_not_saved(tmp_path: Path) -> None:
    game = tmp_path / "game.pdn"
    game.write_text('[Event "x"]\n[Result "*"]\n\n1. 11-15 *\n', encoding="utf-8")
    for command in ("new", "fen B:W21,22:B1,2", f"load {game}"):
        done = run_play(["--white", "human", "--black", "human"], f"11-15\n{command}\nquit\n")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        said = lines.index("The unfinished game (1 move) is not saved.")
        assert any(line.startswith(("New game.", "Position set up.", "Loaded "))
                   for line in lines[said + 1:]), command
        assert done.stdout.count("not saved") == 1, command  # the new game has no move of its own
    done = run_play(["--white", "human", "--black", "human"], "new\nquit\n")
    assert "not saved" not in done.stdout  # nothing played: nothing to say


def test_replay_tags_are_shown_escaped_as_pdn_writes_them(tmp_path: Path) -> None:
    path = tmp_path / "quoted.pdn"
    path.write_text('[Event "x"]\n[Black "Quote \\"inside\\" and a \\\\ back"]\n[GameType "21"]'
                    '\n\n1. 11-15 *\n')
    out, err = io.StringIO(), io.StringIO()
    assert main(["--replay", str(path)], stdin=io.StringIO("tags\nq\n"), stdout=out,
                stderr=err) == 0, err.getvalue()
    assert '[Black "Quote \\"inside\\" and a \\\\ back"]' in out.getvalue().splitlines()
