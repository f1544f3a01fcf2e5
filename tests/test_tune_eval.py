"""tools/tune_eval.py: the self-play guards (balance, an existing --out) and the games the fit
learns from (no forfeits). No numpy needed: the fit's reader runs in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from draughts_engine.game import Game
from draughts_engine.variants import get_variant

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
