"""The match runner's command line (protocol/match/cli.py): one clear line and exit status 2
for every bad flag, value, path or opening set; engines' stderr on failures; --quiet; the
built-in opening sets and the tags each game records."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from draughts_engine.pdn import read_games
from helpers_processes import default_sigint
from protocol.match import MatchError, MatchRunner, config_from_args, main, parse_engine

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable
HUGE = "9" * 5000


def mover(name: str, *flags: str, limit: str = "depth=1") -> List[str]:
    cmd = " ".join([PY, str(MOVER), "--seed", name] + list(flags))
    return ["--engine", f"name={name}", f"cmd={cmd}", limit]


TWO = mover("alpha") + mover("beta")


def one_line_error(capsys, args: List[str]) -> str:
    """Run main(args): it must exit 2 with exactly one stderr line and nothing on stdout."""
    code = main(args)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("draughts-match: error: "), captured.err
    assert len(lines[0]) < 300, lines[0]
    return lines[0]


@pytest.mark.parametrize("args, expected", [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (TWO + ["--games", "0"], "--games: must be an integer in 1..1000000, got '0'"),
    (TWO + ["--games", "x"], "--games: must be an integer"),
    (TWO + ["--games", HUGE], "(5000 characters)"),
    (TWO + ["--concurrency", "0"], "--concurrency: must be an integer"),
    (TWO + ["--max-plies", "-1"], "--max-plies: must be an integer"),
    (TWO + ["--move-timeout", "inf"], "--move-timeout: must be a number of seconds"),
    (TWO + ["--start-timeout", "nan"], "--start-timeout: must be a number of seconds"),
    (TWO + ["--opening-plies", HUGE], "--opening-plies: must be an integer"),
    (TWO + ["--tournament", "swiss"], "invalid choice: 'swiss'"),
    (TWO + ["--shard", "3/2"], "--shard must be K/N"),
    (TWO + ["--shard", f"1/{HUGE}"], "--shard must be K/N"),
    (TWO + ["--sprt", "elo0=x"], "--sprt: bad SPRT parameter 'elo0=x': not a number"),
    (TWO + ["--sprt", f"elo1={HUGE}"], "--sprt: SPRT elo1 must be in -2000..2000"),
    (TWO + ["--sprt", "elo0=5", "elo1=0"], "elo1 > elo0"),
    (TWO + ["--variant", "chess"], "chess"),
    (TWO + ["--openings", "nope"], "--openings nope: no such file, and no built-in set"),
    (TWO + ["--openings", "idf-russian"], "idf-russian is for russian; the match plays english"),
    (TWO + ["--openings", "acf-3move", "--opening-plies", "2"], "not both"),
    (mover("alpha") + ["--engine", "cmd=x", f"depth={HUGE}"],
     "engine x: depth must be an integer in 1..99, got '99999999999999999999...' (5000"),
    (mover("alpha") + ["--engine", "cmd=x", "tc=1e400"], "engine x: tc=1e400"),
    (mover("alpha") + ["--engine", "cmd=x", "tc=40/"], "engine x: tc=40/"),
    (mover("alpha") + ["--engine", "cmd=x", "depth=1", "dir=/nope"],
     "engine x: dir=/nope: no such folder"),
    (mover("alpha") + ["--engine", "cmd=/nonexistent/engine", "depth=1"],
     "engine engine: cannot run /nonexistent/engine: No such file or directory"),
    (["merge", "/nonexistent.pdn"], "/nonexistent.pdn: no such file"),
    (["merge"], "the following arguments are required: FILE.pdn"),
    (["merge", "x.pdn", "--sprt", "alpha=2"], "SPRT alpha must be in (0, 0.5)"),
    (TWO + ["--event", "Club\nnight"],
     "--event 'Club\\nnight' has a control character (a line break, a tab, ...)"),
    (mover("alpha") + ["--engine", "name=a\nb", "cmd=x", "depth=1"],
     "engine name 'a\\nb' has a control character"),
    (mover("alpha") + ["--engine", "name=a\tb", "cmd=x", "depth=1"],
     "engine name 'a\\tb' has a control character"),
    (TWO + ["--pdn", "x.pdn", "--resume", "--overwrite"], "--overwrite (replace them), not both"),
    (TWO + ["--overwrite"], "--overwrite needs --pdn FILE"),
    (mover("alpha") + ["--engine", "cmd=x", "depth=1", "depth=3"],
     "engine 2: 'depth' given twice ('depth=1' and 'depth=3')"),
    (mover("alpha") + ["--engine", "cmd=x", "depth=1", "option.Hash=1", "option.hash=2"],
     "given twice"),
    (TWO + ["--seed", "x"], "--seed: must be an integer"),
])
def test_bad_usage_is_one_line_and_status_2(capsys, args, expected):
    assert expected in one_line_error(capsys, args)


def test_unusable_pdn_paths_are_one_line(tmp_path, capsys):
    assert "cannot write /nonexistent/dir/out.pdn: No such file or directory" in one_line_error(
        capsys, TWO + ["--pdn", "/nonexistent/dir/out.pdn"])
    assert "is a folder" in one_line_error(capsys, TWO + ["--pdn", str(tmp_path)])
    path = tmp_path / "ro.pdn"
    path.write_text("")
    path.chmod(0o444)
    unwritable = str(path)
    if os.access(unwritable, os.W_OK):  # root writes whatever the mode says: a file nobody can
        unwritable = "/sys/kernel/notes"
        if not os.path.exists(unwritable) or os.access(unwritable, os.W_OK):
            unwritable = ""
    if unwritable:
        assert f"cannot write {unwritable}" in one_line_error(capsys, TWO + ["--pdn", unwritable])
    # a file that cannot take the games once they come (here /proc/version, whose writes
    # fail): the match stops with one line and status 2, no traceback
    if os.path.exists("/proc/version"):
        code = main(TWO + ["--pdn", "/proc/version", "--quiet"])
        captured = capsys.readouterr()
        assert code == 2 and "cannot write /proc/version" in captured.err
        assert "Traceback" not in captured.err
    empty = tmp_path / "empty.pdn"
    empty.write_text("")
    assert "cannot write /nonexistent/dir/all.pdn" in one_line_error(
        capsys, ["merge", str(empty), "-o", "/nonexistent/dir/all.pdn"])
    assert "is one of the files to merge" in one_line_error(
        capsys, ["merge", str(empty), "-o", str(empty)])


def test_the_console_script_prints_no_traceback():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for args in (TWO + ["--pdn", "/nonexistent/dir/out.pdn"], TWO + ["--openings", "nope"],
                 ["--bogus"]):
        proc = subprocess.run([PY, "-m", "protocol.match"] + args, cwd=str(ROOT), env=env,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2
        assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_engine_that_cannot_start_shows_its_stderr(capsys):
    code = main(mover("broken", "--crash-at-start") + mover("beta"))
    err = capsys.readouterr().err
    assert code == 2 and "engine broken: no handshake" in err.splitlines()[0]
    assert "| random_mover: cannot start (--crash-at-start)" in err


def test_engine_that_dies_shows_its_stderr(tmp_path):
    pdn = tmp_path / "dies.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(mover("crashy", "--crash", "1") + mover("beta") + [
        "--games", "2", "--pdn", str(pdn), "--concurrency", "1"])
    assert MatchRunner(config, out, err).run() == 0
    assert "crashy (white) crash: its stderr ended with:" in err.getvalue()
    assert "  | random_mover: simulated crash" in err.getvalue()
    text = " ".join(pdn.read_text().split())  # the movetext is wrapped
    assert "its stderr ended with: random_mover: simulated crash} 0-1" in text


def test_engine_that_cannot_start_for_a_game_has_its_stderr_in_the_pdn_comment():
    """The forfeit comment of an engine that could not start (for a game, after the match
    began) ends with its stderr lines, as the one of an engine that crashed does."""
    import threading
    from protocol.match import EngineSlot, build_plan, play_game
    config = config_from_args(mover("broken", "--crash-at-start") + mover("beta"))
    slots = {i: EngineSlot(spec, "english", 10.0) for i, spec in enumerate(config.engines)}
    try:
        record = play_game(build_plan(2, "round-robin", 2)[0], config, slots, threading.Event())
    finally:
        for slot in slots.values():
            slot.close()
    text = " ".join(record.text.split())
    assert record.termination == "crash" and "White (broken) forfeits: engine could not start" \
        in text
    assert "its stderr ended with: random_mover: cannot start (--crash-at-start)} 0-1" in text
    assert "| random_mover: cannot start (--crash-at-start)" in record.notes[-1]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_pdn_file_that_fills_up_stops_the_match_and_the_game_is_not_counted(capsys):
    code = main(TWO + ["--games", "2", "--concurrency", "1", "--pdn", "/dev/full", "--quiet"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.splitlines() == [
        "draughts-match: error: cannot write /dev/full: No space left on device (game 1 is not "
        "saved; the file holds the games before it)"]
    assert captured.out.splitlines() == ["No finished games."]


def test_bare_sprt_uses_the_defaults():
    from protocol.match import SprtConfig
    assert config_from_args(TWO + ["--sprt"]).sprt == SprtConfig()
    assert config_from_args(TWO + ["--sprt", "--games", "4"]).sprt == SprtConfig()
    assert config_from_args(TWO + ["--sprt", "elo1=5"]).sprt == SprtConfig(elo1=5)
    assert config_from_args(TWO).sprt is None


def test_opening_files_with_a_byte_order_mark_or_escape_lines(tmp_path):
    from draughts_engine.game import Game
    game = Game("english")
    game.push_all(["11-15", "23-19"])
    pdn = tmp_path / "openings.pdn"
    pdn.write_bytes(b"\xef\xbb\xbf% exported by foo\n" + game.to_pdn({"Event": "o"}).encode())
    fen = tmp_path / "openings.txt"
    fen.write_bytes(b"\xef\xbb\xbf" + f"{game.position.fen()}\n".encode())
    for path in (pdn, fen):
        config = config_from_args(TWO + ["--openings", str(path)])
        assert [o.moves for o in config.openings] in ([("11-15", "23-19")], [()])
        assert config.openings[0].game("english").position == game.position


def test_quiet_is_quiet(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(mover("crashy", "--crash", "1") + mover("beta") + [
        "--games", "2", "--quiet", "--pdn", str(tmp_path / "q.pdn")])
    assert MatchRunner(config, out, err).run() == 0
    assert err.getvalue() == ""
    assert out.getvalue().splitlines()[-1].startswith("Score of crashy vs beta: 0 - 2 - 0")


def test_builtin_openings_in_a_match_and_the_tags_of_each_game(tmp_path):
    pdn = tmp_path / "acf.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(mover("alpha", limit="tc=60+1") + mover("beta", limit="tc=60+1") + [
        "--games", "4", "--openings", "acf-3move", "--seed", "5", "--pdn", str(pdn),
        "--max-plies", "20"])
    assert "from the built-in set acf-3move" in config.opening_text
    assert MatchRunner(config, out, err).run() == 0
    games = sorted(read_games(pdn.read_text()), key=lambda g: int(g.tags["Round"]))
    assert len(games) == 4
    labels = [g.tags["Opening"] for g in games]
    assert labels[0] == labels[1] != labels[2] == labels[3]
    assert all(label.startswith("acf-3move ") for label in labels)
    for game in games:
        assert game.tags["TimeControl"] == "60+1"
        assert game.tags["WhiteLimits"] == game.tags["BlackLimits"] == "tc=60+1"
    movetext = pdn.read_text().split("\n\n")[1].split()
    assert movetext[3:7] == ["2.", movetext[4], "{end", "of"]  # after the three opening plies
    # the same seed gives the same order: the plan's openings are reproducible
    again = config_from_args(mover("alpha") + mover("beta") + [
        "--games", "4", "--openings", "acf-3move", "--seed", "5"])
    assert again.openings == config.openings


def test_list_openings(capsys):
    assert main(["--list-openings"]) == 0
    out = capsys.readouterr().out
    for name in ("acf-3move", "idf-russian", "idf-brazilian", "balanced-international",
                 "ballots"):
        assert name in out


def test_parse_engine_names_the_folder():
    with pytest.raises(MatchError, match="engine e: dir=/nope: no such folder"):
        parse_engine(["name=e", "cmd=x", "depth=1", "dir=/nope"])


@pytest.mark.parametrize("interrupts", [1, 2])
def test_ctrl_c_abandons_games_of_a_hung_engine_and_leaves_no_engine(tmp_path: Path,
                                                                     interrupts: int) -> None:
    """Ctrl-C while an engine hangs on go: the runner does not wait for --move-timeout, the
    running games are abandoned (not scored as stalled), and no engine outlives the runner
    (also after a second Ctrl-C)."""
    import signal
    import time
    hang = ROOT / "tests" / "fake_engines" / "hang_on_go.py"
    pdn = tmp_path / "games.pdn"
    marker = f"hang-{interrupts}-{os.getpid()}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "protocol.match", "--engine", "name=h",
         f"cmd={sys.executable} {hang} go {marker}", "depth=1",
         "--engine", "name=r", f"cmd={sys.executable} {MOVER}", "depth=1", "--games", "4",
         "--concurrency", "2", "--move-timeout", "600", "--pdn", str(pdn)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=default_sigint)
    time.sleep(3)  # the games have begun (on a slow host maybe not yet: the checks still hold)
    for _ in range(interrupts):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
    _, err = proc.communicate(timeout=120)  # not the 600 s of --move-timeout
    assert proc.returncode == 130 and "Traceback" not in err
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    for pid in left:
        os.kill(int(pid), signal.SIGKILL)
    assert left == []
    assert "stalled" not in (pdn.read_text() if pdn.exists() else "")


def test_progress_before_the_head_pair_has_played_is_readable(tmp_path):
    """Three engines, a shard of games beta and gamma play: the head (alpha against the field)
    has no score yet, and no 'nan' is shown."""
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(mover("alpha") + mover("beta") + mover("gamma") + [
        "--games", "2", "--concurrency", "1", "--max-plies", "10", "--shard", "5/6"])
    assert MatchRunner(config, out, err).run() == 0
    assert "nan" not in err.getvalue()


def test_each_keys_are_overridden_by_an_engine_once():
    spec = parse_engine(["cmd=x", "depth=3"], each=["depth=1"])
    assert spec.depth == 3


def test_an_engine_s_terminal_escapes_are_escaped_in_the_notes_and_the_pdn(tmp_path):
    pdn = tmp_path / "escapes.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(mover("crashy", "--crash", "1", "--escapes") + mover("beta") + [
        "--games", "2", "--pdn", str(pdn), "--concurrency", "1"])
    assert MatchRunner(config, out, err).run() == 0
    text = pdn.read_text()
    for shown in (err.getvalue(), text):
        assert "\x1b" not in shown and "\x07" not in shown
    assert "\\x1b]0;pwned\\x07\\x1b[2Jrandom_mover: simulated crash" in " ".join(text.split())


@pytest.mark.parametrize("variant", ["international", "english"])
def test_progress_lines_write_each_result_as_the_pdn_does(tmp_path, variant):
    """The progress line of a game shows its result in the variant's PDN notation, the token of
    its Result tag (International: 2-0, 0-2, 1-1; English: 1-0, 0-1, 1/2-1/2)."""
    pdn = tmp_path / "results.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(TWO + ["--variant", variant, "--games", "4", "--concurrency", "1",
                                     "--max-plies", "6", "--pdn", str(pdn)])
    assert MatchRunner(config, out, err).run() == 0
    shown = {}
    for line in err.getvalue().splitlines():
        if line.startswith("["):  # [1/4] #1 alpha - beta 1-1 (adjudication) | ...
            words = line.split()
            shown[int(words[1][1:])] = words[5]
    written = {int(g.tags["Round"]): g.tags["Result"] for g in read_games(pdn.read_text())}
    assert len(written) == 4 and shown == written
    draw = "1-1" if variant == "international" else "1/2-1/2"
    assert draw in shown.values()  # --max-plies 6 adjudicates draws
