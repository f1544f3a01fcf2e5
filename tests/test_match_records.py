"""Match records (protocol/match/records.py): the PDN we write, and large or broken PDN files
read back by --resume and merge in one streaming pass; the built-in opening sets."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine.game import Game
from draughts_engine.pdn import read_games
from protocol.match import (
    BUILTIN_SETS,
    FinishedGame,
    MatchError,
    builtin_openings,
    format_report,
    game_text,
    merge_main,
    read_records,
)
from protocol.match.openings import DATA_DIR, resolve_openings
from protocol.match.records import OPENING_END_COMMENT, looks_cut_off, split_games

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def match_game(index: int, white: str = "alpha", black: str = "beta", result: str = "1-0",
               moves=("11-15", "23-19", "8-11", "22-17"), extra: str = "") -> str:
    """A game as draughts-match writes it, with Round ``index + 1``."""
    game = Game("english")
    game.push_all(list(moves))
    tags = {"Event": "t", "Round": str(index + 1), "White": white, "Black": black,
            "Result": result, "Termination": "normal", "PlyCount": str(game.ply)}
    return game_text(game, tags, "a reason", 2).replace("\n\n", f"\n\n{extra}", 1)


def plan_file(path: Path, games: int) -> None:
    """``games`` games of the plan alpha vs beta (alpha White in even indexes)."""
    with open(path, "w", encoding="utf-8") as out:
        for index in range(games):
            pair = ("alpha", "beta") if index % 2 == 0 else ("beta", "alpha")
            out.write(match_game(index, *pair))


def resume_args(path: Path, games: int):
    """Resume ``path`` as a match whose games are those of :func:`match_game` (every pair of
    games opens with 11-15 23-19; no limits or Opening tags to check)."""
    mover = ROOT / "tests" / "fake_engines" / "random_mover.py"
    openings = path.parent / "openings.txt"
    openings.write_text(f"{Game('english').start.fen()} moves 11-15 23-19\n")
    args = []
    for name in ("alpha", "beta"):
        args += ["--engine", f"name={name}", f"cmd={PY} {mover}", "depth=1"]
    return args + ["--games", str(games), "--pdn", str(path), "--resume", "--event", "t",
                   "--openings", str(openings)]


def cli(args, timeout: float = 60):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([PY, "-m", "protocol.match"] + list(args), cwd=str(ROOT), env=env,
                          capture_output=True, text=True, timeout=timeout)


# --------------------------------------------------------------------------- writing


def test_written_game_marks_the_opening_and_reads_back():
    text = match_game(0)
    assert f"{{{OPENING_END_COMMENT}}}" in text
    movetext = text.split("\n\n")[1]
    assert movetext.startswith("1. 11-15 23-19 {end of opening} 2. 8-11 22-17 {a reason} 1-0")
    (game,) = read_games(text)
    assert [m.pdn() for m in game.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert game.tags["Round"] == "1" and game.tags["PlyCount"] == "4"
    # long movetexts stay wrapped at 79 columns
    long_game = Game("english")
    for _ in range(60):
        if long_game.result().is_over:
            break
        long_game.push(long_game.legal_moves()[0])
    long_text = game_text(long_game, {"Result": "*"}, "x" * 20, 4)
    assert all(len(line) <= 79 for line in long_text.splitlines() if not line.startswith("["))
    assert len(read_games(long_text)[0].moves) == long_game.ply


def test_written_games_read_in_pydraughts():
    pdn = pytest.importorskip("draughts.PDN", reason="pydraughts is not installed")
    if not hasattr(pdn, "PDNReader"):
        pytest.skip("the installed 'draughts' package is not pydraughts")
    reader = pdn.PDNReader(pdn_text=match_game(0) + match_game(1, "beta", "alpha"))
    assert len(reader.games) == 2
    assert reader.games[0].moves == ["11-15", "23-19", "8-11", "22-17"]
    assert reader.games[1].tags["White"] == "beta"


# --------------------------------------------------------------------------- reading


class CountingReader(io.BytesIO):
    """Counts the bytes handed out, to prove a single pass."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.handed = 0

    def readline(self, size: int = -1) -> bytes:  # type: ignore[override]
        line = super().readline(size)
        self.handed += len(line)
        return line


def test_split_games_reads_each_byte_once_and_names_lines():
    data = "".join(match_game(i) for i in range(50)).encode()
    reader = CountingReader(data)
    games = list(split_games(reader, "f.pdn"))
    assert reader.handed == len(data)
    assert len(games) == 50
    assert [g.line for g in games[:3]] == [1, 1 + games[0].text.count("\n"),
                                           1 + games[0].text.count("\n") * 2]
    assert b"".join(data[g.start:g.end] for g in games) == data
    assert games[7].tag_lines[3] == '[Round "8"]'


def test_comments_and_variations_do_not_split_games():
    text = ('[Event "a"]\n[Round "1"]\n\n1. 11-15 {a comment\n[Round "9"] inside it} 23-19 '
            '(1... 9-13 ] [x]) ; a ] here\n1-0\n\n[Event "b"]\n[Round "2"]\n\n1. 11-15 0-1\n')
    games = list(split_games(io.BytesIO(text.encode()), "f.pdn"))
    assert len(games) == 2 and not games[0].problem and not games[1].problem


@pytest.mark.parametrize("stray, where", [("}", "'}' without '{'"), ("]", "']' outside a tag")])
def test_a_stray_bracket_is_a_problem_named_by_file_and_line(tmp_path, stray, where):
    path = tmp_path / "bad.pdn"
    good = match_game(0)
    bad = match_game(1, "beta", "alpha").replace("2. 8-11", f"2. 8-11 {stray}")
    path.write_text(good + bad + match_game(2))
    line = (good + bad).splitlines().index(next(
        l for l in bad.splitlines() if stray in l and not l.startswith("["))) + 1
    for check_moves in (False, True):  # the full reader is never handed the bracket
        contents = read_records(str(path), check_moves=check_moves)
        assert [r.index for r in contents.records] == [0, 2]
        assert contents.problems == [f"{path}:{line}: {where}"]
    with pytest.raises(MatchError, match=re.escape(f"{path}:{line}: {where}")):
        from protocol.match import MatchRunner, config_from_args
        MatchRunner(config_from_args(resume_args(path, 4)), io.StringIO(), io.StringIO()).run()


def test_cli_on_a_stray_brace_ends_at_once_with_file_and_line(tmp_path):
    path = tmp_path / "brace.pdn"
    path.write_text('[Event "t"]\n[Round "1"]\n[Result "1-0"]\n\n1. 11-15 } 23-19 1-0\n')
    proc = cli(["merge", str(path)], timeout=30)
    assert proc.returncode == 0 and f"{path}:5: '}}' without '{{'" in proc.stderr
    proc = cli(resume_args(path, 2), timeout=30)
    assert proc.returncode == 2
    assert f"{path}:5: '}}' without '{{'" in proc.stderr and "Traceback" not in proc.stderr


def test_a_round_of_5000_digits_is_not_in_the_plan(tmp_path, capsys):
    path = tmp_path / "round.pdn"
    path.write_text(match_game(0) + match_game(0).replace('[Round "1"]', f'[Round "{"7" * 5000}"]'))
    contents = read_records(str(path), check_moves=False)
    assert [r.index for r in contents.records] == [0, None]
    proc = cli(resume_args(path, 2), timeout=30)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no usable Round is not in this match plan" in proc.stderr
    assert len(proc.stderr) < 400
    assert merge_main([str(path)]) == 0  # counted, not deduplicated
    assert "Score of alpha vs beta: 2 - 0 - 0" in capsys.readouterr().out


def test_huge_numbers_in_other_tags_are_problems_not_crashes(tmp_path):
    path = tmp_path / "huge.pdn"
    path.write_text(match_game(0).replace('[PlyCount "4"]', f'[PlyCount "{"8" * 5000}"]')
                    + match_game(1, "beta", "alpha").replace('[GameType "21"]',
                                                            f'[GameType "{"2" * 5000}"]'))
    light = read_records(str(path), check_moves=False)
    assert [r.index for r in light.records] == [0, 1] and light.records[0].plies == 0
    full = read_records(str(path), check_moves=True)
    assert [r.index for r in full.records] == [0]
    assert len(full.problems) == 1 and full.problems[0].startswith(f"{path}:")
    assert len(full.problems[0]) < 400


def test_resume_refuses_games_of_another_variant(tmp_path):
    path = tmp_path / "v.pdn"
    plan_file(path, 2)
    path.write_text(path.read_text().replace('[GameType "21"]', '[GameType "25"]'))
    proc = cli(resume_args(path, 2) + ["--variant", "english"], timeout=30)
    assert proc.returncode == 2 and "GameType 25, this match plays english (21)" in proc.stderr


def test_resume_of_a_finished_file_and_merge_agree_on_many_games(tmp_path, capsys):
    path = tmp_path / "many.pdn"
    plan_file(path, 600)
    proc = cli(resume_args(path, 600) + ["--quiet"], timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # --quiet: nothing but the table
    assert proc.stdout.splitlines()[-1].startswith("Score of alpha vs beta: 300 - 300 - 0")
    merged = tmp_path / "merged.pdn"
    assert merge_main([str(path), "-o", str(merged)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == proc.stdout.splitlines()[-1]
    assert merged.read_text() == path.read_text()  # copied game by game, in plan order


def test_resume_drops_only_a_cut_off_last_game(tmp_path):
    path = tmp_path / "cut.pdn"
    plan_file(path, 4)
    full = path.read_text()
    path.write_text(full + match_game(4)[:60])
    contents = read_records(str(path), check_moves=False)
    assert contents.tail_unfinished and contents.good_end == len(full.encode())
    # a cut-off game in the middle is not an interrupted writer's doing: refused
    middle = tmp_path / "middle.pdn"
    second = match_game(1, "beta", "alpha").rstrip()
    first_lines = match_game(0).count("\n")
    for cut, problem in ((second[:-4], f"{first_lines + 1}: an unfinished game"),
                         (second[:-12], r"\d+: unterminated comment")):  # ends inside "{a reason}"
        middle.write_text(match_game(0) + cut + "\n\n" + match_game(2))
        proc = cli(resume_args(middle, 4), timeout=30)
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
        assert proc.stderr.endswith("the file is left as it is\n")
        assert re.search(re.escape(f"{middle}:") + problem, proc.stderr), proc.stderr


def test_records_keep_spans_not_text_when_asked(tmp_path):
    path = tmp_path / "s.pdn"
    plan_file(path, 3)
    contents = read_records(str(path), check_moves=False, keep_text=False)
    data = path.read_bytes()
    for record in contents.records:
        assert record.text == "" and record.moves == ()
        _, start, end = record.span
        assert data[start:end].decode().startswith('[Event "t"]')
    assert contents.records[1].plies == 4 and contents.records[1].game_type == "21"


def test_unreadable_files_are_clear_errors(tmp_path):
    path = tmp_path / "latin1.pdn"
    path.write_bytes(match_game(0).encode() + b'[Event "\xe9"]\n')
    with pytest.raises(MatchError, match=r"latin1.pdn:\d+: not UTF-8 text"):
        read_records(str(path))
    with pytest.raises(MatchError, match="is a folder"):
        merge_main([str(tmp_path)])


# --------------------------------------------------------------------------- opening sets


EXPECTED_SIZES = {"acf-3move": 156, "idf-russian": 745, "idf-brazilian": 736}


@pytest.mark.parametrize("name", sorted(BUILTIN_SETS))
def test_every_builtin_opening_is_legal_and_sourced(name):
    spec = BUILTIN_SETS[name]
    openings = builtin_openings(name, spec.variant)  # replays each line: raises if illegal
    if name in EXPECTED_SIZES:
        assert len(openings) == EXPECTED_SIZES[name]
    assert len({o.label for o in openings}) == len(openings)
    for opening in openings:
        game = opening.game(spec.variant)
        assert not game.result().is_over and game.legal_moves()
    with open(os.path.join(DATA_DIR, spec.filename), encoding="utf-8") as handle:
        header = "".join(line for line in handle if line.startswith("#"))
    assert re.search(r"Source|Transcribed|made by this\s+# project's own engine", header), name


def test_acf_deck_is_three_moves_without_the_barred_openings():
    openings = builtin_openings("acf-3move", "english")
    assert all(len(o.moves) == 3 for o in openings)
    numbers = {int(o.label.split()[-1]) for o in openings}
    barred = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}
    assert numbers == set(range(1, 175)) - barred
    by_number = {int(o.label.split()[-1]): o.moves for o in openings}
    assert by_number[1] == ("9-13", "21-17", "5-9")
    assert by_number[46] == ("9-14", "23-18", "14x23")
    assert by_number[174] == ("12-16", "24-20", "10-15")
    assert len({o.game("english").position.key() for o in openings}) == 156


def test_ballots_pick_the_set_of_the_variant_and_seed_the_order():
    first, text = resolve_openings("ballots", "russian", seed=1)
    assert "idf-russian" in text and len(first) == 745
    again, _ = resolve_openings("ballots", "russian", seed=1)
    other, _ = resolve_openings("ballots", "russian", seed=2)
    assert first == again and first != other and sorted(map(str, first)) == sorted(map(str, other))


# --------------------------------------------------------------------------- the documented table


def test_the_table_in_docs_match_md_is_what_the_program_prints():
    doc = (ROOT / "docs" / "match.md").read_text(encoding="utf-8")
    block = doc.split("your figures will differ):")[1].split("```")[1].strip("\n")
    records = []
    for index, outcome in enumerate(["win"] * 28 + ["draw"] * 10 + ["loss"] * 2):
        white, black = ("deep", "shallow") if index % 2 == 0 else ("shallow", "deep")
        winner = {"win": "deep", "loss": "shallow"}.get(outcome)
        result = "draw" if winner is None else ("white" if winner == white else "black")
        records.append(FinishedGame(index, white, black, result))
    assert block.splitlines() == format_report(records, ["deep", "shallow"])


# --------------------------------------------------------------------------- what resume drops


def test_resume_refuses_text_that_is_not_a_cut_off_game_and_leaves_the_file(tmp_path):
    """Only a game cut off at the end is dropped; a document, or notes after the games, stop
    the resume with one line (status 2) and the file stays as it was."""
    document = tmp_path / "notes.txt"
    document.write_bytes((ROOT / "ARCHITECTURE.md").read_bytes())
    notes = tmp_path / "notes.pdn"
    plan_file(notes, 2)
    notes.write_text(notes.read_text() + "Played at the club; the second game was blitz.\n")
    lines_before_notes = notes.read_text().count("\n")
    for path, problem in ((document, f"{document}:1: text that is not a game"),
                          (notes, f"{notes}:{lines_before_notes}: text after the end of the game")):
        before = path.read_bytes()
        proc = cli(resume_args(path, 2) + ["--quiet"], timeout=30)
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.splitlines()) == 1 and problem in proc.stderr, proc.stderr
        assert path.read_bytes() == before


@pytest.mark.parametrize("tail, cut_off", [
    (match_game(4)[:60], True),                        # inside a tag line
    (match_game(4)[:12], True),                        # inside the first tag line
    (match_game(4).rstrip()[:-4], True),               # before the result
    (match_game(4).rstrip()[:-12], True),              # inside the last comment
    (match_game(4).split("\n\n")[0] + "\n\n1. 11-1", True),
    ("# Notes\n\nSome text.\n", False),
    ("[link]: http://example.com\n", False),
    ('[Event "t"]\n\nThe game was played at the club.\n', False),
    (match_game(4) + "more text\n", False),
])
def test_what_reads_as_a_game_cut_off_by_an_interrupted_writer(tail, cut_off):
    assert looks_cut_off(tail) is cut_off


def test_byte_order_mark_and_escape_lines_in_match_files(tmp_path, capsys):
    path = tmp_path / "bom.pdn"
    plan_file(path, 4)
    games = path.read_text().split("[Event")
    text = "% written by hand\n" + "[Event".join(games[:3]) + "% a note\n[Event" + games[3]
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    contents = read_records(str(path), check_moves=False, keep_text=False)
    assert [r.index for r in contents.records] == [0, 1, 2] and contents.problems == []
    assert [r.index for r in read_records(str(path)).records] == [0, 1, 2]
    merged = tmp_path / "merged.pdn"
    assert merge_main([str(path), "-o", str(merged)]) == 0
    assert not merged.read_bytes().startswith(b"\xef\xbb\xbf") and b"\xef\xbb\xbf" not in \
        merged.read_bytes()
    assert "2 - 1 - 0" in capsys.readouterr().out.splitlines()[-1]
    proc = cli(resume_args(path, 4) + ["--quiet"], timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("Score of alpha vs beta:")
    assert len(read_records(str(path)).records) == 4
    assert path.read_bytes().startswith(b"\xef\xbb\xbf% written by hand\n[Event")


def test_merge_output_file_is_guarded_like_pdn(tmp_path, capsys):
    source = tmp_path / "games.pdn"
    plan_file(source, 2)
    readme = tmp_path / "README.md"
    readme.write_bytes((ROOT / "README.md").read_bytes())
    before = readme.read_bytes()
    with pytest.raises(MatchError, match=r"README.md is not empty: use --overwrite to replace it"):
        merge_main([str(source), "-o", str(readme)])
    assert readme.read_bytes() == before
    assert merge_main([str(source), "-o", str(readme), "--overwrite"]) == 0
    assert readme.read_text() == source.read_text()
    empty = tmp_path / "empty.pdn"
    empty.write_text("")
    assert merge_main([str(source), "-o", str(empty)]) == 0
    assert merge_main([str(source), "--sprt"]) == 0  # bare --sprt: the default test
    assert "SPRT (elo0=0 elo1=10 alpha=0.05 beta=0.05)" in capsys.readouterr().out


def test_duplicate_finder_reads_each_games_moves_at_most_once(tmp_path, monkeypatch):
    """Many files of the same event and rounds (shards of the same players, other moves): each
    record's moves are read once at most, not once per pair of games, and only the true
    repeats are duplicates; a game that shares only Event and Round is a clash."""
    import protocol.match.records as records
    games = [match_game(0, moves=("11-15", "23-19", "8-11", "22-17")),
             match_game(0, moves=("11-15", "23-19", "8-11", "22-18")),
             match_game(0, moves=("11-15", "23-19", "8-11", "21-17")),
             match_game(0, white="gamma")]
    paths = []
    for copy in range(3):
        path = tmp_path / f"shard{copy}.pdn"
        path.write_text("".join(games), encoding="utf-8")
        paths.append(path)
    reads = []
    real_moves_of = records._moves_of
    monkeypatch.setattr(records, "_moves_of", lambda r: reads.append(r) or real_moves_of(r))
    finder = records.DuplicateFinder()
    verdicts = [finder.add(r) for p in paths for r in read_records(str(p), check_moves=False,
                                                                   keep_text=False).records]
    assert verdicts == [False] * 4 + [True] * 8
    # the first file: its 2nd and 3rd games and the 1st once (the 4th's header is new); then
    # every record of the copies, and the 4th game of the first file once
    assert len(reads) == 3 + 4 + 1 + 4
    assert len({id(r) for r in reads}) == len(reads)
    assert finder.clashes == 3
    assert finder.clash_example is not None and finder.clash_example[1].white == "alpha"
