"""The match runner (protocol/match/): matches, statistics, openings, resume, merge, the CLI.

Most matches here use tests/fake_engines/random_mover.py: it plays random legal moves chosen
deterministically from the position, so a match plan always produces the same games, and it
can be told to crash, hang or play illegal moves.
"""

from __future__ import annotations

import io
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

import pytest

from draughts_engine.pdn import read_games
from protocol.match.elo import (
    SprtConfig,
    elo_interval,
    elo_to_score,
    los,
    score_to_elo,
    sprt_bounds,
    sprt_llr,
    sprt_llr_approx,
    sprt_status,
)
from protocol.match import (
    Clock,
    MatchError,
    MatchRunner,
    TimeControl,
    build_plan,
    config_from_args,
    main,
    merge_main,
    parse_engine,
    read_records,
)
from protocol.match.openings import OpeningError, generate_openings, load_openings

sys.path.insert(0, os.path.dirname(__file__))
from helpers_processes import left_after  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable


def mover(name: str, *flags: str, limit: str = "depth=1") -> List[str]:
    cmd = " ".join([PY, str(MOVER), "--seed", name] + list(flags))
    return ["--engine", f"name={name}", f"cmd={cmd}", limit]


def run(args: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = MatchRunner(config_from_args(args), out, err).run()
    return code, out.getvalue(), err.getvalue()


def games_of(path: Path):
    return read_games(path.read_text(encoding="utf-8"))


def table_part(report: str) -> List[str]:
    return [line for line in report.splitlines() if line]


# --------------------------------------------------------------------------- statistics


def test_elo_known_values():
    assert score_to_elo(0.5) == 0.0
    assert score_to_elo(0.75) == pytest.approx(190.848, abs=1e-3)  # 400 log10(3)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    assert elo_to_score(score_to_elo(0.3)) == pytest.approx(0.3)
    # 30 wins, 50 draws, 20 losses: cutechess prints "Elo difference: 34.86 +/- 48.47"
    est = elo_interval(30, 50, 20)
    assert est.score == pytest.approx(0.55)
    assert est.elo == pytest.approx(34.860, abs=1e-3)
    assert est.low == pytest.approx(-12.930, abs=1e-2)
    assert est.high == pytest.approx(84.011, abs=1e-2)
    assert est.error == pytest.approx(48.47, abs=1e-2)
    assert math.isnan(elo_interval(0, 0, 0).elo)
    assert elo_interval(5, 0, 0).error == math.inf and elo_interval(5, 0, 0).elo == math.inf


def test_los_known_values():
    assert los(30, 50, 20) == pytest.approx(0.5 * (1 + math.erf(1.0)))  # 0.9214
    assert los(60, 0, 40) == pytest.approx(0.97725, abs=1e-5)
    assert los(10, 5, 10) == 0.5 and los(0, 7, 0) == 0.5
    assert los(20, 0, 40) == pytest.approx(1 - los(40, 0, 20))


def test_sprt_known_values():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6) and upper == pytest.approx(2.944439, abs=1e-6)
    assert sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    s0, s1 = 0.5, elo_to_score(10)
    # n straight wins: the constrained MLEs are (s, 0, 1-s), so the LLR is n ln(s1/s0)
    assert sprt_llr(100, 0, 0, 0, 10) == pytest.approx(100 * math.log(s1 / s0), rel=1e-4)
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0
    # moderate results: the exact GSPRT and its quadratic approximation agree
    assert sprt_llr_approx(30, 50, 20, 0, 10) == pytest.approx(0.50275, abs=1e-4)
    assert sprt_llr(30, 50, 20, 0, 10) == pytest.approx(0.50275, abs=0.02)
    assert sprt_llr(300, 400, 300, 0, 5) == pytest.approx(sprt_llr_approx(300, 400, 300, 0, 5),
                                                         rel=1e-3)
    # symmetric: a player at -elo against H0=0/H1=elo looks like the mirror image
    assert sprt_llr(20, 10, 40, 0, 10) < 0
    config = SprtConfig.parse(["elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"])
    assert sprt_status(7, 0, 0, config)[1] is None        # 7 x ln(0.7597/0.5) = 2.93
    assert sprt_status(8, 0, 0, config)[1] == "H1"
    assert sprt_status(0, 0, 8, config)[1] == "H0"
    with pytest.raises(ValueError):
        SprtConfig.parse(["elo0=5", "elo1=0"])
    with pytest.raises(ValueError):
        SprtConfig.parse(["elo2=5"])


# --------------------------------------------------------------------------- parsing and plan


def test_time_control_parsing():
    assert TimeControl.parse("40/60+0.5") == TimeControl(40, 60000, 500)
    assert TimeControl.parse("10+0.1") == TimeControl(0, 10000, 100)
    assert TimeControl.parse("1:30") == TimeControl(0, 90000, 0)
    assert TimeControl.parse("0.5+1") == TimeControl(0, 500, 1000)
    assert str(TimeControl.parse("40/60+0.5")) == "40/60+0.5"
    for bad in ("", "x", "40/", "0/10", "-5", "10+x", "0", "0+1", "a/10+1"):
        with pytest.raises(MatchError):
            TimeControl.parse(bad)


def test_clock_accounting():
    clock = Clock(TimeControl.parse("2/10+1"))
    assert clock.movestogo == 2
    assert clock.punch(3000, 100)           # 10 - 3 + 1 = 8
    assert clock.remaining_ms == 8000 and clock.movestogo == 1
    assert clock.punch(1000, 100)           # 8 - 1 + 1 + 10 (new period) = 18
    assert clock.remaining_ms == 18000 and clock.movestogo == 2
    assert clock.punch(18050, 100)          # 50 ms over, within the margin
    assert not Clock(TimeControl.parse("1")).punch(1101, 100)


def test_engine_spec_parsing():
    spec = parse_engine(["name=x", "cmd=python3 -m protocol", "depth=4", "option.Hash=32",
                         "tc=10+0.1"], each=["option.hash=8", "nodes=500"])
    assert spec.command == ["python3", "-m", "protocol"]
    assert (spec.depth, spec.nodes, spec.tc) == (4, 500, TimeControl(0, 10000, 100))
    assert spec.options == [("Hash", "32")]
    assert parse_engine(["cmd=a b", "st=0.5"]).movetime == 500
    assert parse_engine(["cmd=/bin/eng --x", "depth=1"]).name == "eng"
    for bad in (["depth=3"], ["cmd=x"], ["cmd=x", "depth=0"], ["cmd=x", "depth=1", "colour=red"],
                ["cmd=x", "depth=1", "proto=xboard"], ["cmd=x", "nodes=-4"], ["cmd='x", "depth=1"]):
        with pytest.raises(MatchError):
            parse_engine(bad)


def test_plan_pairs_colours_and_shards():
    plan = build_plan(2, "round-robin", 5)
    assert [g.index for g in plan] == list(range(5))
    assert [(g.white, g.black, g.opening) for g in plan] == [
        (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 2)]
    rr = build_plan(3, "round-robin", 2)
    assert sorted({(g.white, g.black) for g in rr}) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    gauntlet = build_plan(3, "gauntlet", 4)
    assert len(gauntlet) == 8 and all(0 in (g.white, g.black) for g in gauntlet)
    # the first engine of a pairing has White in the even-index games
    assert all((g.white < g.black) == (g.index % 2 == 0) for g in gauntlet)
    with pytest.raises(MatchError):
        build_plan(1, "round-robin", 2)


def test_openings_generated_and_loaded(tmp_path):
    first = generate_openings("english", 4, 10, seed=3)
    assert len(set(first)) == 10 and all(len(o.moves) == 4 for o in first)
    assert generate_openings("english", 4, 4, seed=3) == first[:4]  # prefix-stable
    assert generate_openings("english", 4, 4, seed=4) != first[:4]
    assert len(set(generate_openings("english", 1, 10))) == 7  # only 7 first moves: they repeat
    fens = tmp_path / "o.txt"
    fens.write_text("% exported by a tool\n# comment\nB:W21-32:B1-12 moves 11-15\n\nW:W21-32:B1-12,13\n")
    loaded = load_openings(str(fens), "english")
    assert [o.moves for o in loaded] == [("11-15",), ()]
    pdn = tmp_path / "o.pdn"
    pdn.write_text('[GameType "21"]\n\n1. 11-15 23-19 *\n\n[FEN "W:W21-32:B1-12"]\n\n*\n')
    assert [o.moves for o in load_openings(str(pdn), "english")] == [("11-15", "23-19"), ()]
    bad = tmp_path / "bad.txt"
    bad.write_text("B:W21-32:B1-12 11-20\n")
    with pytest.raises(OpeningError):
        load_openings(str(bad), "english")


# --------------------------------------------------------------------------- matches


def test_small_match_writes_valid_pdn(tmp_path):
    pdn = tmp_path / "out.pdn"
    code, out, err = run(mover("alpha") + mover("beta") + [
        "--games", "6", "--concurrency", "2", "--pdn", str(pdn), "--max-plies", "60"])
    assert code == 0
    games = games_of(pdn)  # every move is replayed against the rules here
    assert len(games) == 6
    assert sorted(int(g.tags["Round"]) for g in games) == [1, 2, 3, 4, 5, 6]
    for game in games:
        assert {"Event", "Date", "White", "Black", "Result", "GameType", "Termination"} <= set(game.tags)
        assert game.tags["GameType"] == "21"
        assert {game.tags["White"], game.tags["Black"]} == {"alpha", "beta"}
        assert game.ply <= 60 + 4  # the cap counts the engines' plies after the 4-ply opening
        if game.tags["Termination"] == "adjudication":
            assert game.tags["Result"] == "1/2-1/2" and game.ply == 64
        else:
            assert game.result().is_over
            assert game.result().score_text() == game.tags["Result"]
    # the colours swap within each pair, on the same opening
    by_round = {int(g.tags["Round"]): g for g in games}
    for first in (1, 3, 5):
        a, b = by_round[first], by_round[first + 1]
        assert (a.tags["White"], a.tags["Black"]) == (b.tags["Black"], b.tags["White"])
        assert [m.pdn() for m in a.moves[:4]] == [m.pdn() for m in b.moves[:4]]
    lines = out.strip().splitlines()
    assert lines[-1].startswith("Score of alpha vs beta: ") and "Elo" in lines[-1]
    assert "95% interval" in lines[0]
    assert "[6/6]" in err


def test_russian_match_with_fen_openings_and_clock(tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("W:WK22:B11,12\nW:W21-32:B1-12 moves c3-d4\n")
    pdn = tmp_path / "ru.pdn"
    code, out, _ = run(mover("r1", limit="tc=40/20+0.1") + mover("r2", limit="movetime=500") + [
        "--variant", "russian", "--games", "4", "--openings", str(openings), "--pdn", str(pdn),
        "--concurrency", "2"])
    assert code == 0
    games = games_of(pdn)
    assert len(games) == 4 and all(g.tags["GameType"] == "25" for g in games)
    fen_games = [g for g in games if g.tags.get("SetUp") == "1"]
    assert len(fen_games) == 2 and all(g.start.fen().startswith("W:WK22") for g in fen_games)
    assert all(g.tags["FEN"].startswith("W:WKc3") for g in fen_games)   # Russian PDN: algebraic


def test_resume_after_a_cut_off_file_plays_exactly_the_plan(tmp_path):
    args = mover("alpha") + mover("beta") + ["--games", "8", "--concurrency", "2",
                                              "--max-plies", "80"]
    full = tmp_path / "full.pdn"
    assert run(args + ["--pdn", str(full)])[0] == 0
    records = sorted(read_records(str(full)).records, key=lambda r: r.index)
    # an interrupted run: three finished games and half of a fourth
    partial = tmp_path / "partial.pdn"
    cut = records[3].text
    partial.write_text(records[0].text + records[5].text + records[2].text + cut[: len(cut) // 2])
    code, out, err = run(args + ["--pdn", str(partial), "--resume"])
    assert code == 0
    assert "unfinished game" in err and "3 done, 5 to play" in err
    resumed = sorted(read_records(str(partial)).records, key=lambda r: r.index)
    assert [r.index for r in resumed] == list(range(8))
    assert [(r.moves, r.outcome) for r in resumed] == [(r.moves, r.outcome) for r in records]
    # resuming a finished match plays nothing and prints the same table
    code, again, err = run(args + ["--pdn", str(partial), "--resume"])
    assert code == 0 and "0 to play" in err and again == out
    assert len(games_of(partial)) == 8


def test_pdn_file_guards(tmp_path):
    args = mover("alpha") + mover("beta") + ["--games", "2", "--max-plies", "20"]
    pdn = tmp_path / "m.pdn"
    assert run(args + ["--pdn", str(pdn)])[0] == 0
    with pytest.raises(MatchError, match="--resume"):
        run(args + ["--pdn", str(pdn)])
    other = mover("gamma") + mover("beta") + ["--games", "2", "--max-plies", "20"]
    with pytest.raises(MatchError, match="the plan has"):
        run(other + ["--pdn", str(pdn), "--resume"])
    with pytest.raises(MatchError, match="not in this match plan"):
        run(args + ["--pdn", str(pdn), "--resume", "--shard", "2/2"])
    assert run(args + ["--pdn", str(pdn), "--overwrite"])[0] == 0
    assert len(games_of(pdn)) == 2


def test_shards_merged_equal_the_whole_match(tmp_path, capsys):
    args = mover("alpha") + mover("beta") + mover("gamma") + [
        "--games", "4", "--concurrency", "2", "--max-plies", "60", "--tournament", "gauntlet"]
    whole = tmp_path / "whole.pdn"
    code, whole_out, _ = run(args + ["--pdn", str(whole)])
    assert code == 0
    shards = []
    for k in (1, 2):
        path = tmp_path / f"shard{k}.pdn"
        assert run(args + ["--pdn", str(path), "--shard", f"{k}/2"])[0] == 0
        shards.append(path)
    assert [sorted(r.index for r in read_records(str(p)).records) for p in shards] == [
        [0, 2, 4, 6], [1, 3, 5, 7]]
    merged = tmp_path / "merged.pdn"
    assert merge_main([str(shards[0]), str(shards[1]), "-o", str(merged)]) == 0
    merged_out = capsys.readouterr().out
    assert merge_main([str(whole)]) == 0
    whole_merge_out = capsys.readouterr().out

    def key(path):
        return sorted((r.index, r.white, r.black, r.outcome, r.termination, r.moves)
                      for r in read_records(str(path)).records)

    assert key(merged) == key(whole)
    assert table_part(merged_out) == table_part(whole_merge_out) == table_part(whole_out)
    assert "alpha vs beta" in merged_out and "alpha vs gamma" in merged_out
    assert merged_out.strip().splitlines()[-1].startswith("Score of alpha vs the field: ")
    # the same file twice counts once
    assert merge_main([str(whole), str(whole)]) == 0
    captured = capsys.readouterr()
    assert table_part(captured.out) == table_part(whole_merge_out)
    assert "more than once" in captured.err


def test_merge_counts_games_of_different_matches_and_drops_only_true_duplicates(tmp_path,
                                                                               capsys):
    """Games that share Event and Round are different games unless event, round, players,
    moves and result are the same: other players or another seed are another match."""
    short = ["--games", "4", "--max-plies", "40", "--concurrency", "2"]
    paths = {}
    for label, args in (("ab", mover("a") + mover("b")), ("cd", mover("c") + mover("d")),
                        ("ab2", mover("a") + mover("b") + ["--seed", "2"])):
        paths[label] = tmp_path / f"{label}.pdn"
        assert run(args + short + ["--pdn", str(paths[label])])[0] == 0
    assert merge_main([str(paths["ab"]), str(paths["cd"]), "-o", str(tmp_path / "abcd.pdn")]) == 0
    captured = capsys.readouterr()
    assert "a vs b" in captured.out and "c vs d" in captured.out
    assert "Merged 8 games" in captured.err and "more than once" not in captured.err
    assert "4 game(s) share Event and Round with a different game" in captured.err
    assert "look like games of different matches" in captured.err
    assert len(games_of(tmp_path / "abcd.pdn")) == 8
    assert merge_main([str(paths["ab"]), str(paths["ab2"])]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1].split()[:4] == ["a", "vs", "b", "8"]
    assert "different matches" in captured.err and "more than once" not in captured.err
    # the same games in two files (another date, other comments: still the same games)
    copy = tmp_path / "copy.pdn"
    copy.write_text(paths["ab"].read_text().replace("[Date ", "[Date_ \"x\"]\n[Date "))
    assert merge_main([str(paths["ab"]), str(copy)]) == 0
    captured = capsys.readouterr()
    assert "4 game(s) appear more than once" in captured.err and "Merged 4 games" in captured.err
    assert "different" not in captured.err


@pytest.mark.parametrize("change, message", [
    (["--seed", "2"], r"game Round \d has the opening .*, this match plays .* there "
                      r"\(another --openings or --seed\?\)"),
    (["--event", "other"], r"game Round \d has Event 'draughts-match', this match writes 'other'"),
    (["limits"], r"game Round \d has \w+Limits 'depth=1', this match gives alpha 'movetime=50'"),
    (["--openings", "acf-3move", "--seed", "2"],
     r"game Round \d has Opening 'acf-3move \d+', this match plays 'acf-3move \d+' there"),
])
def test_resume_refuses_the_file_of_another_match(tmp_path, capsys, change, message):
    """The limits, the event and the openings (their set, their seed) of a resumed file must be
    this match's: one line naming file, game and what differs; the file is left as it is."""
    pdn = tmp_path / "m.pdn"
    base = ["--games", "2", "--max-plies", "20", "--pdn", str(pdn)]
    if change[0] == "--openings":
        base += ["--openings", "acf-3move"]
    assert run(mover("alpha") + mover("beta") + base)[0] == 0
    before = pdn.read_bytes()
    if change == ["limits"]:
        args = mover("alpha", limit="movetime=50") + mover("beta") + base
    else:
        args = mover("alpha") + mover("beta") + [a for a in base if a != "acf-3move"
                                                 and a != "--openings"] + change
    code = main(args + ["--resume", "--quiet"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"draughts-match: error: cannot resume from {pdn}: ")
    assert re.search(message, captured.err), captured.err
    assert pdn.read_bytes() == before
    # the same match resumes (nothing left to play)
    same = mover("alpha") + mover("beta") + base
    assert main(same + ["--resume", "--quiet"]) == 0


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_engine_that_exits_leaving_a_child_crashed_and_its_child_is_killed(tmp_path):
    """An engine that exits while a process it started keeps its output open: scored as a
    crash at once (not a stall after --move-timeout), and nothing it started outlives it."""
    pids = tmp_path / "pids"
    leaver = ROOT / "tests" / "fake_engines" / "leaves_a_child.py"
    pdn = tmp_path / "leave.pdn"
    args = ["--engine", "name=leaver", f"cmd={PY} {leaver} {pids} --seed x --crash 1",
            "depth=1"] + mover("beta") + ["--games", "2", "--concurrency", "1",
                                          "--move-timeout", "60", "--pdn", str(pdn)]
    started = time.monotonic()
    try:
        code, out, err = run(args)
        assert code == 0
        assert time.monotonic() - started < 60  # not the --move-timeout of a stall
        games = games_of(pdn)
        assert [g.tags["Termination"] for g in games] == ["crash", "crash"]
        text = " ".join(pdn.read_text().split())
        assert "forfeits: crashed: the engine exited (exit status 3)" in text
        children = [int(line) for line in pids.read_text().split()]
        assert len(children) >= 3  # the preflight start and one per game
        assert left_after(children) == []
    finally:
        for pid in (int(line) for line in pids.read_text().split()) if pids.exists() else ():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_merge_onto_a_full_disk_is_a_usage_error(tmp_path):
    pdn = tmp_path / "m.pdn"
    assert run(mover("alpha") + mover("beta") + ["--games", "2", "--pdn", str(pdn)])[0] == 0
    with pytest.raises(MatchError, match="cannot write /dev/full"):
        merge_main([str(pdn), "-o", "/dev/full", "--overwrite"], io.StringIO(), io.StringIO())


def test_names_that_are_not_utf8_are_refused_before_any_file_is_made(tmp_path):
    pdn = tmp_path / "never.pdn"
    with pytest.raises(MatchError, match="not valid UTF-8"):
        run(["--engine", "name=a\udcff"] + mover("x")[2:] + mover("beta") + ["--pdn", str(pdn)])
    with pytest.raises(MatchError, match="not valid UTF-8"):
        run(mover("alpha") + mover("beta") + ["--event", "foo\udc85", "--pdn", str(pdn)])
    assert not pdn.exists()


def test_flaky_engine_forfeits_and_the_match_completes(tmp_path):
    pdn = tmp_path / "flaky.pdn"
    flaky = mover("flaky", "--crash", "0.03", "--hang", "0.01", "--illegal", "0.03")
    code, out, _ = run(flaky + mover("steady") + [
        "--games", "8", "--concurrency", "2", "--pdn", str(pdn), "--move-timeout", "3",
        "--max-plies", "80"])
    assert code == 0
    games = games_of(pdn)
    assert len(games) == 8
    text = pdn.read_text()
    terminations = {g.tags["Termination"] for g in games}
    assert {"crash", "stalled", "illegal move"} <= terminations, terminations
    for game in games:
        if game.tags["Termination"] in ("crash", "stalled", "illegal move"):
            loser_white = game.tags["White"] == "flaky"
            assert game.tags["Result"] == ("0-1" if loser_white else "1-0")
    assert "forfeits: crashed: the engine ended its output" in text
    assert "forfeits: no bestmove within 3 s" in text
    assert "forfeits: bestmove 1-2: illegal move" in text
    assert "Forfeits: flaky crash" in out


def test_engine_silent_after_ucinewgame_forfeits_as_stalled(tmp_path):
    pdn = tmp_path / "mute.pdn"
    code, out, _ = run(mover("mute", "--mute-after-newgame") + mover("steady") + [
        "--games", "2", "--pdn", str(pdn), "--move-timeout", "2", "--start-timeout", "1"])
    assert code == 0
    games = games_of(pdn)
    assert [g.tags["Termination"] for g in games] == ["stalled", "stalled"]
    assert all(g.tags["Result"] == ("0-1" if g.tags["White"] == "mute" else "1-0")
               for g in games)
    assert "forfeits: engine stopped answering" in pdn.read_text()


def test_time_forfeit_on_the_clock(tmp_path):
    # Behaviour, not the host's speed: "slow" sleeps 250 ms per move whatever its clock says,
    # so with 0.4 s (and a 50 ms margin) it has overstepped by its second move on any host;
    # "fast" has 30 s for its one or two moves, which a 5x slower host still meets.
    pdn = tmp_path / "clock.pdn"
    slow = mover("slow", "--think", "250", "--overstep", limit="tc=0.4")
    code, out, _ = run(slow + mover("fast", limit="tc=30") + [
        "--games", "2", "--pdn", str(pdn), "--timemargin", "50", "--concurrency", "2"])
    assert code == 0
    games = games_of(pdn)
    assert [g.tags["Termination"] for g in games] == ["time forfeit"] * 2
    assert all(g.ply <= 4 + 4 for g in games)  # the 4-ply opening, then at most 2 moves each
    text = pdn.read_text()
    assert "forfeits: no bestmove within" in text or "forfeits: took" in text
    assert "Score of slow vs fast: 0 - 2 - 0" in out
    # the clocks differ: each side's limits are recorded, no shared TimeControl tag
    assert {(g.tags["WhiteLimits"], g.tags["BlackLimits"]) for g in games} == {
        ("tc=0.4", "tc=30"), ("tc=30", "tc=0.4")}
    assert all("TimeControl" not in g.tags for g in games)


def test_sprt_stops_early(tmp_path):
    pdn = tmp_path / "sprt.pdn"
    code, out, err = run(mover("good") + mover("bad", "--illegal", "1") + [
        "--games", "60", "--concurrency", "2", "--pdn", str(pdn),
        "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"])
    games = games_of(pdn)
    # On failure, each game's result and termination, the report and the runner's stderr.
    # (Before ee8cc35 the workers could play every game of a fast match before the main
    # thread counted one, so that the SPRT stopped nothing: once 60 games in a full CI run.)
    detail = ("\n".join(f"{g.tags.get('White')}-{g.tags.get('Black')} {g.tags.get('Result')} "
                         f"{g.tags.get('Termination')}" for g in games)
              + f"\n--- report:\n{out}\n--- stderr:\n{err[-6000:]}")
    assert code == 0, detail
    # Games in pairs: the pentanomial SPRT reaches H1 on the 8th pair won twice (LLR 3.35 >
    # 2.94; a pair counts like one trinomial win); a worker starts no game before every
    # finished one is counted. When the verdict comes, besides the 8 pairs at most two
    # counted games wait for their partner (one running on the other worker, one next in
    # line), and the running game may still end and be written: 16..19 games.
    assert 16 <= len(games) <= 19, detail
    # The report counts every finished pair: 8, or 9 when one more pair ended meanwhile
    # (18 games, within the bounds above).
    assert "(pentanomial, 8 pairs)" in out or "(pentanomial, 9 pairs)" in out, detail
    assert "H1 accepted" in out.splitlines()[-1] and "SPRT LLR" in out.splitlines()[-1], detail
    assert "SPRT: H1 accepted" in err, detail


def test_engine_that_cannot_start_is_a_usage_error(tmp_path):
    with pytest.raises(MatchError, match="engine broken"):
        run(mover("broken", "--crash-at-start") + mover("beta") + ["--games", "2"])
    with pytest.raises(MatchError, match="cannot run"):
        run(["--engine", "name=x", "cmd=/nonexistent/engine", "depth=1"] + mover("beta"))
    with pytest.raises(MatchError, match="setup failed"):
        run(mover("alpha") + ["option.Nope=1"] + mover("beta"))


def test_proto_hub_without_a_hub_client_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "protocol.hub.client", None)  # makes the import fail
    with pytest.raises(MatchError, match="proto=hub needs protocol.hub.client"):
        run(mover("alpha") + ["proto=hub"] + mover("beta"))


# --------------------------------------------------------------------------- the command line


def _cli(args: List[str], **kwargs) -> "subprocess.Popen[str]":
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([PY, "-m", "protocol.match"] + args, cwd=str(ROOT), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def test_cli_interrupted_by_sigterm_then_resumed(tmp_path):
    pdn = tmp_path / "killed.pdn"
    args = mover("alpha", "--think", "15") + mover("beta", "--think", "15") + [
        "--games", "8", "--concurrency", "2", "--pdn", str(pdn), "--max-plies", "80"]
    proc = _cli(args)
    deadline = time.monotonic() + 120  # a generous wait for the first two games
    while time.monotonic() < deadline and proc.poll() is None:
        if pdn.exists() and pdn.read_text().count("[Event") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    if proc.returncode == 0:
        pytest.skip("the match finished before it could be interrupted")
    assert proc.returncode == 130, err
    assert "--resume" in err
    before = len(games_of(pdn))
    assert 2 <= before < 8
    proc = _cli(args + ["--resume"])
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    games = games_of(pdn)
    assert sorted(int(g.tags["Round"]) for g in games) == list(range(1, 9))
    assert out.strip().splitlines()[-1].startswith("Score of alpha vs beta: ")


def test_cli_usage_errors():
    proc = _cli(["--engine", "cmd=x", "depth=1"])
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "at least two --engine" in err
    proc = _cli(["merge", "/nonexistent.pdn"])
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "no such file" in err


@pytest.mark.skipif(not (ROOT / "draughts_engine" / "search" / "engine.py").exists(),
                    reason="the search engine is not there yet")
def test_end_to_end_with_the_real_server(tmp_path):
    pdn = tmp_path / "real.pdn"
    engine = [f"cmd={PY} -m protocol", f"dir={ROOT}"]
    code, out, _ = run(["--engine", "name=d2", *engine, "depth=2",
                        "--engine", "name=d1", *engine, "depth=1", "option.Hash=8",
                        "--games", "4", "--concurrency", "2", "--pdn", str(pdn)])
    assert code == 0
    games = games_of(pdn)
    assert len(games) == 4
    assert all(g.tags["Termination"] in ("normal", "adjudication") for g in games)
    assert out.strip().splitlines()[-1].startswith("Score of d2 vs d1: ")


@pytest.mark.skipif(not (ROOT / "draughts_engine" / "search" / "engine.py").exists()
                    or not (ROOT / "protocol" / "hub" / "client.py").exists(),
                    reason="the search engine or the Hub client is not there yet")
def test_end_to_end_hub_engine_against_protocol_engine(tmp_path):
    pdn = tmp_path / "hub.pdn"
    engine = [f"cmd={PY} -m protocol", f"dir={ROOT}", "depth=1"]
    code, out, _ = run(["--engine", "name=hub", *engine, "proto=hub",
                        "--engine", "name=uci", *engine,
                        "--games", "2", "--concurrency", "2", "--pdn", str(pdn)])
    assert code == 0
    games = games_of(pdn)
    assert len(games) == 2
    assert all(g.tags["Termination"] in ("normal", "adjudication") for g in games)


def test_doctests():
    import doctest
    import importlib

    for name in ("errors", "clock", "engines", "plan", "records", "game", "elo", "openings",
                 "report", "runner", "cli", "config"):
        module = importlib.import_module(f"protocol.match.{name}")
        assert doctest.testmod(module).failed == 0, name


def test_malformed_info_lines_never_forfeit_a_game(tmp_path):
    pdn = tmp_path / "info.pdn"
    code, _, _ = run(mover("sloppy", "--bad-info") + mover("steady") + [
        "--games", "2", "--pdn", str(pdn), "--max-plies", "40"])
    assert code == 0
    assert {g.tags["Termination"] for g in games_of(pdn)} <= {"normal", "adjudication"}


def test_a_hub_engine_illegal_move_is_an_illegal_move(tmp_path):
    pdn = tmp_path / "hub.pdn"
    faulty = str(ROOT / "tests" / "fake_engines" / "hub_faulty.py")
    code, _, _ = run(["--engine", "name=hubby", f"cmd={PY} {faulty} illegal", "proto=hub",
                      "depth=1"] + mover("steady") + [
        "--games", "2", "--pdn", str(pdn), "--variant", "international", "--openings",
        "ballots"])
    assert code == 0
    games = games_of(pdn)
    assert [g.tags["Termination"] for g in games] == ["illegal move"] * 2
    assert "forfeits: bestmove 01-02" in pdn.read_text()
