"""The strength tools answer bad usage with one line and exit status 2; sprt.py builds the
runner's command line it documents; tune_eval.py writes a weights file the engine reads."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from git_checkout import needs_git_checkout

from draughts_engine.eval import tuned as evalmodel
from draughts_engine.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("args", [
    ("tools/sprt.py", "--base", "no-such-ref-here", "--dry-run"),
    ("tools/sprt.py", "--movetime", "0"),
    ("tools/sprt.py", "--new-option", "Hash"),
    ("tools/tune_eval.py",),
    ("tools/tune_eval.py", "fit", "--variant", "chess", "x.pdn", "--out", "w.json"),
    ("tools/tune_eval.py", "fit", "no/such/file.pdn", "--out", "w.json"),
    ("tools/tune_eval.py", "fit", "tests/data/x.pdn"),                 # no --out: never the shipped file
    ("tools/tune_eval.py", "fit", "--variant", "russian,brazilian", "x.pdn", "--out", "w.json"),
    ("tools/tune_eval.py", "fit", "x.pdn", "--out", "tools"),                  # a folder
    ("tools/tune_eval.py", "fit", "x.pdn", "--out", "no/such/folder/w.json"),  # never made
    ("tools/sprt.py",),
    ("tools/tune_eval.py", "selfplay", "--out", "no/such/folder/x.pdn", "--games", "1"),
    ("tools/tune_eval.py", "selfplay", "--out", "x.pdn", "--random-plies", "abc"),
    ("tools/tune_eval.py", "selfplay", "--out", "x.pdn", "--random-plies", "1-2-3"),
    ("tools/tune_eval.py", "selfplay", "--out", "x.pdn", "--processes", "0"),
    ("tools/tune_eval.py", "selfplay", "--out", "x.pdn", "--eval", "bogus"),
    ("tools/tune_eval.py", "fit", "tests/data/x.pdn", "--search-labels", "no/such/labels.txt",
     "--out", "w.json"),
    ("tools/tune_eval.py", "fit", "x.pdn", "--out", "w.json", "--result-weight", "1.5"),
    ("tools/tune_eval.py", "fit", "x.pdn", "--out", "w.json", "--search-k", "0"),
    ("tools/label_positions.py",),
    ("tools/label_positions.py", "x.pdn", "--out", "l.txt", "--depth", "0"),
    ("tools/label_positions.py", "x.pdn", "--out", "l.txt", "--variant", "chess"),
    ("tools/label_positions.py", "x.pdn", "--out", "l.txt", "--processes", "0"),
    ("tools/label_positions.py", "no/such/file.pdn", "--out", "l.txt"),
    ("tools/fit_patterns.py",),
    ("tools/fit_patterns.py", "no/such/labels.txt", "--out", "p.json"),
    ("tools/fit_patterns.py", "tests/data/x.txt", "--out", "p.json", "--steps", "0"),
    ("tools/fit_patterns.py", "tests/data/x.txt", "--out", "p.json", "--variant", "chess"),
    ("tools/fit_patterns.py", "README.md", "--out", "p.json"),   # not a label file
    ("bench/patterns.py", "--rounds", "x"),
    ("bench/patterns.py", "--variant", "frisian"),   # no weights file: nothing to compare
    ("bench/ladder_match.py", "--depths", "x"),
    ("bench/ladder_match.py", "--variant", "chess"),
    ("bench/search.py", "--depth", "-3"),
    ("bench/search.py", "--variant", "nope"),
    ("bench/search.py", "--variant", "killer"),          # a variant without bench positions
    ("bench/ladder.py", "--variant", "nope"),
    ("bench/ladder.py", "--depths", "x"),
    ("bench/latency.py", "--engine", "/nonexistent/engine"),
    ("bench/perft.py", "--repeat", "0"),
    ("bench/endgame.py", "--variant", "chess"),
    ("bench/pdn_read.py", "--variant", "chess"),
    ("bench/runtimes.py", "--rounds", "x"),
    ("bench/threads.py", "--game", "0"),
    ("bench/ab.py", "--processes", "0"),
])
def test_bad_usage_is_one_line_and_status_2(args) -> None:
    done = run(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in done.stderr


@needs_git_checkout
def test_sprt_dry_run_names_both_trees_and_the_sprt() -> None:
    done = run("tools/sprt.py", "--base", "HEAD", "--new", "WORKTREE", "--variant",
               "international", "--movetime", "100", "--dry-run")
    assert done.returncode == 0
    line = done.stderr
    for word in ("protocol.match", "--openings ballots", "--sprt elo0=0 elo1=10",
                 "movetime=100", "--variant international", "nice -n 10"):
        assert word in line
    assert f"dir={ROOT} " not in line and "/worktree " in line  # a copy, not the live checkout


#: Both trees at HEAD: a clean checkout may have no ``main`` branch (sprt.py's default base),
#: e.g. a CI clone of another branch or a detached HEAD.
SPRT_HEAD = ("tools/sprt.py", "--base", "HEAD", "--new", "HEAD", "--depth", "1")


@needs_git_checkout
def test_sprt_never_replaces_an_existing_games_file(tmp_path: Path) -> None:
    pdn = tmp_path / "earlier.pdn"
    pdn.write_text("[Event \"earlier test\"]\n\n1. 11-15 *\n")
    # Refused before any match starts (and before its bad --games is looked at):
    done = run(*SPRT_HEAD, "--pdn", str(pdn), "--games", "0")
    assert done.returncode == 2
    done = run(*SPRT_HEAD, "--pdn", str(pdn), "--nice", "0", "--python", "/nonexistent/python")
    assert done.returncode == 2 and "--resume" in done.stderr and "--overwrite" in done.stderr
    done = run(*SPRT_HEAD, "--pdn", str(pdn), "--dry-run")
    assert done.returncode == 0 and "note:" in done.stderr  # a dry run only warns
    assert pdn.read_text().startswith("[Event \"earlier test\"]")
    for flag in ("--resume", "--overwrite"):
        done = run(*SPRT_HEAD, "--pdn", str(pdn), flag, "--dry-run")
        assert done.returncode == 0 and flag in done.stderr


@needs_git_checkout
def test_sprt_worktree_copy_holds_uncommitted_files(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import sprt
    finally:
        sys.path.pop(0)
    copy = sprt.copy_worktree(str(tmp_path / "tree"))
    assert (Path(copy) / "protocol" / "__main__.py").is_file()
    assert (Path(copy) / "tools" / "sprt.py").read_text() == (ROOT / "tools" / "sprt.py").read_text()
    assert not (Path(copy) / ".git").exists()


def test_selfplay_then_fit_gives_weights_the_engine_reads(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the fit needs numpy (tools only)")
    games = tmp_path / "games.pdn"
    done = run("tools/tune_eval.py", "selfplay", "--variant", "english", "--games", "4",
               "--depth", "2", "--check-depth", "2", "--processes", "1", "--out", str(games))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "weights.json"
    done = run("tools/tune_eval.py", "fit", "--variant", "english", str(games), "--out",
               str(out), "--holdout", "0", "--skip-plies", "2")
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["board"] == 8 and data["games"] == 4
    weights = evalmodel.load_weights(get_variant("english"), str(out))
    assert weights and set(weights) <= set(evalmodel.feature_names(get_variant("english")))


def test_fit_on_a_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    """The fit's reader stops with a usage error naming the file (in-process: the fit itself
    needs numpy, which the test environments do not install)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import tune_eval
    finally:
        sys.path.pop(0)
    latin1 = tmp_path / "latin1.pdn"
    latin1.write_bytes(b'[GameType "21"]\n[Event "caf\xe9"]\n[Result "1-0"]\n\n1. 11-15 23-19 1-0\n')
    with pytest.raises(tune_eval.UsageError, match="cannot read .*latin1.pdn:1"):
        list(tune_eval.labelled_positions([str(latin1)], [get_variant("english")], 0))
