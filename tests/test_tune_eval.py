"""tools/tune_eval.py: the self-play guards (balance, an existing --out) and the games the fit
learns from (no forfeits). No numpy needed: the fit's reader runs in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine.game import Game
from draughts_engine.variants import get_variant
from helpers_processes import default_sigint

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import tune_eval  # noqa: E402  (a script of tools/)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "tune_eval.py"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_a_negative_balance_is_refused_up_front(tmp_path: Path) -> None:
    done = run("selfplay", "--balance", "-1", "--games", "2", "--depth", "1",
               "--out", str(tmp_path / "x.pdn"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--balance must not be negative" in done.stderr
    assert not (tmp_path / "x.pdn").exists()


def test_an_unreachable_balance_is_a_clear_error_after_a_bounded_search(monkeypatch) -> None:
    monkeypatch.setattr(tune_eval, "MAX_OPENING_TRIES", 3)
    tried = []
    monkeypatch.setattr(tune_eval, "_opening", lambda *args: tried.append(1))  # never fits
    with pytest.raises(tune_eval.NoOpeningError, match="raise --balance"):
        tune_eval.play_one(("english", 7, 1, (2, 2), 1, 0, 20, "full"))
    assert len(tried) == 3


@pytest.mark.parametrize("extra, message", [
    ((), "already has games: add --resume"),
    (("--resume", "--overwrite"), "not allowed with"),
])
def test_an_existing_out_is_never_appended_to_silently(tmp_path: Path, extra, message) -> None:
    out = tmp_path / "games.pdn"
    out.write_text('[Round "1000003"]\n\n*\n', encoding="utf-8")
    done = run("selfplay", "--games", "1", "--depth", "1", "--out", str(out), *extra)
    assert done.returncode == 2 and message in done.stderr
    assert out.read_text(encoding="utf-8") == '[Round "1000003"]\n\n*\n'


def test_resume_plays_only_the_missing_rounds(tmp_path: Path) -> None:
    out = tmp_path / "games.pdn"
    out.write_text('[Round "1000003"]\n\n*\n', encoding="utf-8")
    done = run("selfplay", "--games", "1", "--depth", "1", "--out", str(out), "--resume")
    assert done.returncode == 0 and "all 1 games are there" in done.stderr
    assert out.read_text(encoding="utf-8") == '[Round "1000003"]\n\n*\n'


def _game_text(termination: str, result: str) -> str:
    game = Game(get_variant("english"))
    for _ in range(12):
        game.push(game.legal_moves()[0])
    tags = {"Event": "t", "Round": "1", "White": "a", "Black": "b", "Result": result}
    if termination:
        tags["Termination"] = termination
    return game.to_pdn(tags).rstrip() + "\n\n"


def test_the_fit_skips_forfeited_games_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text(_game_text("", "1-0") + _game_text("time forfeit", "0-1")
                    + _game_text("normal", "1-0") + _game_text("crash", "1-0"),
                    encoding="utf-8")
    skipped: dict = {}
    games = {number for number, *_ in tune_eval.labelled_positions(
        [str(path)], [get_variant("english")], 0, skipped)}
    assert games == {1, 3}
    assert skipped == {"time forfeit": 1, "crash": 1}


# ---- search labels: tools/label_positions.py and fit --search-labels --------------------------

def test_label_positions_writes_each_quiet_position_once_with_whites_search_score(
        tmp_path: Path) -> None:
    from draughts_engine.position import Position
    from draughts_engine.search.engine import Searcher
    from draughts_engine.search.limits import SearchLimits

    games = tmp_path / "games.pdn"
    games.write_text(_game_text("", "1-0") * 2, encoding="utf-8")  # the same game twice
    out = tmp_path / "labels.txt.gz"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "label_positions.py"),
                           "--variant", "english", "--depth", "3", "--processes", "1",
                           "--skip-plies", "0", str(games), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    labels = tune_eval.read_search_labels(str(out))
    quiet = {raw for _, _, raw, _ in tune_eval.labelled_positions(
        [str(games)], [get_variant("english")], 0)}
    assert set(labels) == quiet and quiet
    searcher = Searcher()
    for (w, b, k, wtm), score in list(labels.items())[:4]:
        searcher.new_game()
        found = searcher.search(Position("english", w, b, k, wtm), SearchLimits(depth=3))
        assert score == (found.score_cp if wtm else -found.score_cp)


def test_label_positions_never_replaces_a_file_unasked(tmp_path: Path) -> None:
    out = tmp_path / "labels.txt"
    out.write_text("kept\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "label_positions.py"),
                           str(tmp_path / "none.pdn"), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--overwrite" in proc.stderr
    assert out.read_text(encoding="utf-8") == "kept\n"


def test_a_malformed_search_label_is_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "labels.txt"
    path.write_text("1 2 0 1 15\n1 2 0 1\n", encoding="utf-8")
    with pytest.raises(tune_eval.UsageError, match=r"labels\.txt:2: expected"):
        tune_eval.read_search_labels(str(path))
    path.write_text("1 2 0 1 15\n\n1 2 0 x 4\n", encoding="utf-8")  # (blank lines are skipped)
    with pytest.raises(tune_eval.UsageError, match=r"labels\.txt:3: expected"):
        tune_eval.read_search_labels(str(path))


def test_the_win_probability_of_a_search_score_is_the_fits_logistic() -> None:
    assert tune_eval.win_probability(0, 0.85) == 0.5
    assert tune_eval.win_probability(150, 0.85) + tune_eval.win_probability(-150, 0.85) \
        == pytest.approx(1.0)
    assert tune_eval.win_probability(400, 1.0) == pytest.approx(10 / 11)
    assert tune_eval.win_probability(10 ** 6, 1.0) > 0.999999


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_while_labelling_leaves_no_file_and_no_traceback(tmp_path: Path) -> None:
    import os
    import signal
    import time

    out = tmp_path / "labels.txt"
    proc = subprocess.Popen([sys.executable, str(ROOT / "tools" / "label_positions.py"),
                             "--variant", "english", "--depth", "6", "--processes", "2",
                             str(ROOT / "tools" / "data" / "selfplay-english-d6.pdn.gz"),
                             "--out", str(out)],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=default_sigint)
    partial = tmp_path / "labels.txt.part"
    deadline = time.monotonic() + 120
    while not partial.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert partial.exists(), "the labelling never started writing"
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err and "Process" not in err
    assert not out.exists() and not partial.exists()
