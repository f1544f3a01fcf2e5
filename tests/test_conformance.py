"""protocol.conformance: the pure validators, the rules-derived test material, the harness's
watchdog, the command line, and whole runs against the real server, the well-behaved fake, the
deliberately broken fakes in tests/fake_engines/ and a Hub engine with an opening book (every run
in a subprocess or thread with a timeout, so a hanging suite fails the test instead of hanging
it).

Nothing here times the machine: runs are judged by their statuses and reasons, and the limits on
how long a run may take only catch a hang (they are many times what a slow host needs)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Dict, Iterator, List, Sequence, Tuple

import pytest

from draughts_engine import get_variant, variant_names
from draughts_engine.errors import IllegalMoveError
from protocol import conformance
from protocol.client import InfoReport, parse_info
from protocol.conformance import (
    CHECKS,
    HUB_CHECKS,
    Check,
    CheckFailed,
    Config,
    Harness,
    MoveTextError,
    Rules,
    UsageError,
    check_info_line,
    compare_display,
    parse_args,
    parse_display,
    parse_only,
    run_hub_checks,
    strip_volatile,
    validate_handshake,
)
from protocol.conformance.latency import AnswerTimes

sys.path.insert(0, os.path.dirname(__file__))
from helpers_clock import FakeClock  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKES = os.path.join(ROOT, "tests", "fake_engines")
SERVER = [sys.executable, "-m", "protocol"]
HAS_ENGINE = os.path.exists(os.path.join(ROOT, "draughts_engine", "search", "engine.py"))
NAMES = {check.number: check.name for check in CHECKS}

KNOWN_SERVER_BUGS: Dict[int, str] = {}
"""Checks the real server is known to fail now and then: number -> a fragment of the FAIL reason
(any other failure of that check still fails the test).  None today."""


def fake(name: str, *args: str) -> List[str]:
    return [sys.executable, os.path.join(FAKES, name), *args]


@dataclass(frozen=True)
class Run:
    """One suite run in a subprocess: exit status, {number: (status, reason)}, output, time."""

    returncode: int
    results: Dict[int, Tuple[str, str]]
    stdout: str
    seconds: float

    def status(self, number: int) -> str:
        return self.results[number][0]


def run_suite(engine: Sequence[str], *options: str, limit: float = 300.0) -> Run:
    """Run ``python3 -m protocol.conformance <options> -- <engine>``; at most ``limit`` s (only
    a hang comes near it)."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "protocol.conformance", *options, "--", *engine],
        cwd=ROOT, capture_output=True, text=True, timeout=limit,
    )
    seconds = time.monotonic() - started
    results: Dict[int, Tuple[str, str]] = {}
    for line in done.stdout.splitlines():  # "STATUS NN name: reason (0.12 s)"
        if line[:4] in ("PASS", "FAIL", "SKIP") and line[5:7].strip().isdigit():
            number, rest = int(line[5:7]), line[8:]
            prefix = NAMES[number] + ": "
            assert rest.startswith(prefix), line
            results[number] = (line[:4], rest[len(prefix):])
    last = done.stdout.rstrip("\n").splitlines()[-1]
    counts = [sum(s == status for s, _ in results.values()) for status in ("PASS", "FAIL", "SKIP")]
    assert last == f"{counts[0]} passed, {counts[1]} failed, {counts[2]} skipped", done.stdout
    assert done.returncode == (1 if counts[1] else 0), done.stdout + done.stderr
    return Run(done.returncode, results, done.stdout, seconds)


# --------------------------------------------------------------------------- rules material


@pytest.mark.parametrize("variant", variant_names())
def test_rules_material(variant):
    rules = Rules(variant)
    line = rules.opening_line()
    assert len(line.moves) >= 6
    position = rules.play(rules.start(), line.moves[:line.capture_at])
    assert all(m.captured for m in position.legal_moves())
    assert rules.from_fen(rules.ranged_fen()) == rules.start()
    kings = rules.from_fen(rules.kings_fen())
    assert kings.legal_moves() and rules.state_line(rules.kings_fen(), ()) == "state ongoing"
    multi = rules.multi_capture()
    assert multi is not None and multi.full != multi.short
    assert rules.resolve(rules.from_fen(multi.fen), multi.full).pdn() == multi.full
    for position in (rules.start(), kings):
        with pytest.raises(IllegalMoveError):
            position.play(rules.illegal_move(position))
    winner = "white" if get_variant(variant).goal == "lose" else "black"  # antidraughts
    assert rules.state_line(rules.no_moves_fen(), ()) == f"state win {winner} no-moves"
    if get_variant(variant).layout == "standard":
        assert rules.no_moves_fen() == conformance.NO_MOVES_FEN


def test_rules_resolve_wants_full_numeric_notation():
    rules = Rules("international")
    multi = rules.multi_capture()
    position = rules.from_fen(multi.fen)
    with pytest.raises(MoveTextError, match="full notation"):
        rules.resolve(position, multi.short)
    english = Rules("english")
    start = english.start()
    assert english.resolve(start, "11-15").pdn() == "11-15"
    for text in ("c3-d4", "b6-a5", "11-16x", "21-17", "11x15"):
        with pytest.raises(MoveTextError):
            english.resolve(start, text)


def test_rules_perft_uses_published_counts():
    rules = Rules("american")
    assert rules.name == "english"
    assert [rules.perft(rules.start(), d) for d in range(1, 5)] == [7, 49, 302, 1469]
    with pytest.raises(UsageError):
        Rules("chess")


# --------------------------------------------------------------------------- pure validators

START_D = [
    "board -b-b-b-b", "board b-b-b-b-", "board -b-b-b-b", "board .-.-.-.-", "board -.-.-.-.",
    "board w-w-w-w-", "board -w-w-w-w", "board w-w-w-w-",
    "fen B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "variant english", "side black", "ply 0", "legal 9-13 9-14 10-14 10-15 11-15 11-16 12-16",
    "state ongoing",
]


def test_display_accepted():
    rules = Rules("english")
    shown = parse_display(START_D, 8)
    assert shown.ply == 0 and shown.side == "black" and len(shown.legal) == 7
    compare_display(shown, rules, rules.start(), 0, "state ongoing")


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d[:-1], "d block lines"),
        (lambda d: d[:8] + [d[9], d[8]] + d[10:], "d block lines"),
        (lambda d: ["board -b-b-b-x"] + d[1:], "malformed board"),
        (lambda d: d[:10] + ["side red"] + d[11:], "side must be"),
        (lambda d: d[:-1] + ["state won"], "malformed state"),
    ],
)
def test_display_shape_errors(edit, message):
    with pytest.raises(CheckFailed, match=message):
        parse_display(edit(list(START_D)), 8)


@pytest.mark.parametrize(
    "index, line, message",
    [
        (3, "board .-b-.-.-", "board row 4"),
        (8, "fen W:W21-32:B1-12", "d shows fen"),
        (11, "ply 1", "ply 1"),
        (12, "legal 9-13 9-14 10-14 10-15 11-15 11-16", "the rules give 7"),
        (12, "legal 9-13 9-13 9-14 10-14 10-15 11-15 11-16 12-16", "twice"),
        (12, "legal 9-13 9-14 10-14 10-15 11-15 11-16 12-16 21-17", "not legal"),
        (13, "state draw repetition", "state draw repetition"),
    ],
)
def test_display_content_errors(index, line, message):
    rules = Rules("english")
    lines = list(START_D)
    lines[index] = line
    with pytest.raises(CheckFailed, match=message):
        compare_display(parse_display(lines, 8), rules, rules.start(), 0, "state ongoing")


GOOD_INFO = "info depth 2 seldepth 3 score cp 12 nodes 60 nps 6000 time 10 hashfull 1 pv 11-15 23-19"


@pytest.mark.parametrize(
    "line, message",
    [
        (GOOD_INFO, None),
        ("info depth 2 seldepth 3 score cp 1 nodes 6 nps 6 time 1 hashfull 0 currmove 9-13 pv", None),
        ("info depth 2 score cp 12 nodes 60 pv 11-15", "lacks seldepth nps time hashfull"),
        (GOOD_INFO.replace("depth 2 seldepth 3", "seldepth 3 depth 2"), "out of order"),
        (GOOD_INFO.replace("cp 12", "mate 0"), "mate 0"),
        (GOOD_INFO.replace("hashfull 1", "hashfull 1001"), "hashfull"),
        (GOOD_INFO.replace("depth 2 ", "depth 5 "), "outside 1..3"),
        (GOOD_INFO.replace("23-19", "23-18x"), "illegal pv"),
        (GOOD_INFO.replace("11-15 23-19", "11-15 11-15"), "illegal pv"),
    ],
)
def test_info_lines(line, message):
    rules = Rules("english")
    report: InfoReport = parse_info(line)
    if message is None:
        check_info_line(line, report, rules, rules.start(), max_depth=3)
    else:
        with pytest.raises(CheckFailed, match=message):
            check_info_line(line, report, rules, rules.start(), max_depth=3)


def test_strip_volatile():
    assert strip_volatile(GOOD_INFO) == "info depth 2 seldepth 3 score cp 12 nodes 60 pv 11-15 23-19"


HANDSHAKE = [
    "id name some-engine 1.0", "id author someone", "id protocol 1",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Style type combo default Solid var solid var risky",
    "option name Clear Hash type button", "option name Book type string default <empty>",
    "uciok",
]


@pytest.mark.parametrize(
    "index, line, message",
    [
        (None, None, None),
        (2, "id protocol 2", "id protocol is '2'"),
        (0, "id author x", "expected name, author, protocol"),
        (3, "id name again", "expected name, author, protocol"),
        (3, "option name Hash type spin default 0 min 1 max 1024", "not in 1..1024"),
        (4, "option name Style type combo default wild var solid var risky", "not a var"),
        (5, "option name Clear Hash type button default x", "button has no default"),
        (6, "option name Hash type check default true", "advertised twice"),
        (6, "Engine ready!", "unexpected line"),
        (7, "readyok", "unexpected line"),
    ],
)
def test_validate_handshake(index, line, message):
    lines = list(HANDSHAKE)
    if index is None:
        reply = validate_handshake(lines)
        assert reply.option("hash").max == 1024 and len(reply.options) == 4
        return
    lines[index] = line
    with pytest.raises(CheckFailed, match=message):
        validate_handshake(lines)


# --------------------------------------------------------------------------- command line


def test_parse_only_and_args():
    assert parse_only("1,3, 5-7") == {1, 3, 5, 6, 7}
    for bad in ("x", "3-1", "1,,2", "1-", "2-,3", "1--3", "\u0663", ""):
        with pytest.raises(UsageError):
            parse_only(bad)
    config, listing = parse_args(["--variant", "standard", "--only", "2-3", "--", "eng", "-x"])
    assert (config.variant, config.only, config.command, listing) == (
        "international", frozenset({2, 3}), ("eng", "-x"), False)
    for argv in (["--only", "99", "--", "eng"], [], ["--variant", "chess", "--", "e"],
                 ["--timeout", "0", "--", "e"], ["--bogus", "--", "e"],
                 ["--total-timeout", "0.5", "--", "e"], ["--total-timeout", "1e400", "--", "e"],
                 ["--only", "", "--", "e"]):
        with pytest.raises(UsageError):
            parse_args(argv)


def test_main_list_and_usage(capsys):
    out = io.StringIO()
    assert conformance.main(["--list"], out=out) == 0
    listed = out.getvalue().splitlines()
    assert len(listed) == len(CHECKS) and listed[0].startswith(" 1 handshake: ")
    assert conformance.main(["--only", "0", "--", "x"], out=io.StringIO()) == 2
    assert "no check numbered 0" in capsys.readouterr().err


# --------------------------------------------------------------------------- harness


def test_watchdog_kills_a_check_that_overruns_its_budget():
    config = Config(command=tuple(fake("hang_on_go.py", "isready")), timeout=1.0)
    harness = Harness(config, Rules("english"), lambda line: None)

    def blocked(context):
        handle = context.engine()
        handle.send("isready")
        handle.read(timeout=60.0)  # far beyond the budget: only the watchdog ends this
        return "unreachable"

    started = time.monotonic()
    try:
        result = harness.run(Check(99, "blocked", "", blocked), budget=1.0)
    finally:
        harness.close()
    assert result.status == "FAIL" and "budget of 1.0 s" in result.reason
    assert "no answer to 'isready' for " in result.reason  # the step that hung is named
    assert any("engine killed" in entry for entry in result.transcript)
    assert time.monotonic() - started < 30.0  # the blocked read alone would take 60 s


def test_answer_times_name_the_slowest_answer_and_the_unanswered_command():
    clock = FakeClock()
    times = AnswerTimes(clock)
    assert times.summary() == ""
    for command, delay in (("setoption name Hash value 1", 0.0), ("isready", 2.5),
                           ("isready", 0.2), ("isready", 1.5)):
        times.record("> " + command)
        clock.now += delay
        times.record("< readyok")
    times.record("< info string late")  # a second line answers nothing: not timed
    assert times.summary() == "slowest answer 'readyok' 2500 ms after 'isready' (1 more took 1 s or longer)"
    times.record("> go depth 40")
    clock.now += 7.25
    assert times.summary().endswith("; no answer to 'go depth 40' for 7.2 s")


def test_answer_times_stay_silent_when_every_answer_was_quick():
    clock = FakeClock()
    times = AnswerTimes(clock)
    for _ in range(3):
        times.record("> isready")
        clock.now += 0.5
        times.record("< readyok")
    assert times.summary() == ""


# --------------------------------------------------------------------------- real server


@pytest.fixture(scope="module")
def server_run() -> Run:
    if not HAS_ENGINE:
        pytest.skip("draughts_engine/search/engine.py does not exist yet")
    return run_suite(SERVER)


def test_real_server_passes(server_run):
    failed = {n: r for n, (s, r) in server_run.results.items()
              if s != "PASS" and KNOWN_SERVER_BUGS.get(n, "\0") not in r}
    assert not failed, server_run.stdout
    assert len(server_run.results) == len(CHECKS)



# --------------------------------------------------------------------------- the well-behaved fake

WELL_BEHAVED_GAPS = {
    5: "NoSuchOption",  # it accepts unknown option names
    21: "illegal pv",  # it always plays 11-15, whatever the position
    24: "go depth x",  # during a search it answers busy before checking syntax
    26: "illegal pv",  # its go infinite reports pv 11-15 without legal moves
    29: "'go depth' must be answered",  # it searches on bad go arguments
    30: "'position fen X:Y' must be answered",  # it accepts any FEN
    31: "must be answered by one error line",  # it accepts any move but 11-16
    32: "'isready 1' must be answered",  # it ignores extra arguments
    38: "'11-15' is not legal",  # it plays 11-15 in the position after the first move too
}
"""Contract points the canned well-behaved fake does not implement (it knows no rules)."""

NO_DEBUG_COMMANDS = {6, 7, 8, 9, 10, 11, 12, 33, 34}
ANALYSIS_SKIPS = {39: "does not offer", 40: "refuses go searchmoves", 41: "refuses go mate",
                  42: "does not offer"}
"""The analysis checks the well-behaved fake is skipped by: no MultiPV or Clear Hash option,
and ``error`` for ``go searchmoves`` and ``go mate``."""


def test_well_behaved_fake():
    run = run_suite(fake("well_behaved.py"))
    assert set(run.results) == set(NAMES)
    for number, (status, reason) in run.results.items():
        if number in WELL_BEHAVED_GAPS:
            assert status == "FAIL" and WELL_BEHAVED_GAPS[number] in reason, (number, reason)
        elif number in NO_DEBUG_COMMANDS:
            assert status == "SKIP" and "does not offer" in reason, (number, reason)
        elif number in ANALYSIS_SKIPS:
            assert status == "SKIP" and ANALYSIS_SKIPS[number] in reason, (number, reason)
        else:
            assert status == "PASS", (number, reason)


# --------------------------------------------------------------------------- broken fakes

BROKEN = [
    # (engine, options, {check: (status, reason fragment)}). Runs use --timeout 5 unless their
    # options say otherwise: a short timeout only where the check must wait for one to expire.
    (fake("broken_uci.py"), ["--only", "1,2,13", "--timeout", "2"],
     {1: ("FAIL", "no uciok within 2.0 s")}),
    (fake("broken_uci.py", "noprotocol"), ["--only", "1"], {1: ("FAIL", "id protocol")}),
    (fake("broken_uci.py", "badoption"), ["--only", "1"], {1: ("FAIL", "not in 1..1024")}),
    (fake("garbage.py", "banner"), ["--only", "1,2"],
     {1: ("FAIL", "unexpected line 'Garbage Engine"), 2: ("PASS", "")}),
    (fake("garbage.py", "info"), ["--only", "13"], {13: ("FAIL", "malformed info")}),
    (fake("garbage.py", "bestmove"), ["--only", "13"], {13: ("FAIL", "malformed bestmove")}),
    (fake("hang_on_go.py"), ["--only", "13", "--timeout", "2"],
     {13: ("FAIL", "timed out after 2.0 s waiting for bestmove")}),
    (fake("hang_on_go.py"), ["--only", "13,35", "--timeout", "2", "--total-timeout", "3"],
     {13: ("FAIL", ""), 35: ("FAIL", "not run")}),
    (fake("die_mid_search.py"), ["--only", "13,35"],
     {13: ("FAIL", "exit status 3"), 35: ("PASS", "exit status 0")}),
    (fake("broken_two_bestmoves.py"), ["--only", "13,25"],
     {13: ("FAIL", "a second bestmove"), 25: ("FAIL", "a second bestmove")}),
    (fake("broken_illegal_bestmove.py"), ["--only", "13"], {13: ("FAIL", "'21-17' is not legal")}),
    (fake("broken_ignores_stop.py"), ["--only", "18,22,23", "--timeout", "2"],
     {18: ("FAIL", "waiting for bestmove after stop"), 22: ("FAIL", "after stop"),
      23: ("FAIL", "after stop")}),
    (fake("broken_ignores_stop.py", "800"), ["--only", "22", "--stop-samples", "1"],
     {22: ("FAIL", "threshold 500 ms")}),
    (fake("broken_ignores_stop.py", "800"),
     ["--only", "22", "--stop-samples", "1", "--stop-threshold", "4000"],
     {22: ("PASS", "threshold 4000 ms")}),
    (fake("broken_blocking_search.py"), ["--only", "23"],
     {23: ("FAIL", "readyok during a search took")}),
    (fake("broken_early_bestmove.py"), ["--only", "18,19"],
     {18: ("FAIL", "bestmove before stop"), 19: ("FAIL", "bestmove before stop")}),
    (fake("broken_bad_info.py"), ["--only", "13"], {13: ("FAIL", "out of order")}),
    (fake("broken_no_quit.py"), ["--only", "35,37", "--stop-threshold", "100"],
     {35: ("FAIL", "still running 1.1 s after quit"),
      37: ("FAIL", "still running 1.1 s after end of input")}),
    (fake("broken_exits_on_error.py"), ["--only", "28,35"],
     {28: ("FAIL", "exit status 1"), 35: ("PASS", "")}),
    (fake("broken_perft.py"), ["--only", "33"], {33: ("FAIL", "nodes 301")}),
    (fake("broken_busy_bounded.py"), ["--only", "38"],
     {38: ("FAIL", "the engine answered 'error busy: position during search'")}),
    (fake("broken_analysis.py"), ["--only", "39-42"],
     {39: ("FAIL", "are not 3 different moves"), 40: ("FAIL", "not one of"),
      41: ("FAIL", "expected score mate 1..3"), 42: ("FAIL", "was answered 'error setoption")}),
    (fake("random_mover.py"), ["--only", "39-42"],
     {39: ("SKIP", "does not offer the spin option MultiPV"),
      40: ("PASS", "every pv from them"), 41: ("SKIP", "refuses go mate"),
      42: ("SKIP", "does not offer the button option Clear Hash")}),
]


BROKEN_IDS = [" ".join(os.path.basename(arg) for arg in case[0][1:]) + f" #{index}"
              for index, case in enumerate(BROKEN)]


@pytest.fixture(scope="module")
def broken_runs() -> Iterator[Dict[str, "Future[Run]"]]:
    """Start every broken-fake run at once, four at a time (they mostly wait on timeouts)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        yield {case_id: pool.submit(run_suite, engine, "--timeout", "5", *options)
               for case_id, (engine, options, _) in zip(BROKEN_IDS, BROKEN)}


@pytest.mark.parametrize("case_id, expected", [(i, case[2]) for i, case in zip(BROKEN_IDS, BROKEN)],
                         ids=BROKEN_IDS)
def test_broken_fakes(broken_runs, case_id, expected):
    run = broken_runs[case_id].result()
    for number, (status, fragment) in expected.items():
        assert run.status(number) == status, run.stdout
        assert fragment in run.results[number][1], run.stdout
    if any(status == "FAIL" for status, _ in expected.values()):
        assert "last lines:" in run.stdout or "not run" in run.stdout


def test_no_uciok_fails_once_and_stops_the_run(broken_runs):
    run = broken_runs[BROKEN_IDS[0]].result()
    assert set(run.results) == {1}, run.stdout
    assert "stopped: the engine could not be set up; 2 checks not run" in run.stdout


# --------------------------------------------------------------------------- start-up and usage

DIES_AT_ONCE = [sys.executable, "-c", "import sys; sys.stderr.write('no weights\\n'); sys.exit(3)"]


def test_an_engine_that_dies_at_start_is_one_failure():
    run = run_suite(DIES_AT_ONCE)
    assert run.returncode == 1
    assert list(run.results) == [1], run.stdout
    assert "exit status 3" in run.results[1][1]
    assert f"stopped: the engine could not be set up; {len(CHECKS) - 1} checks not run" in run.stdout
    assert "! no weights" in run.stdout  # its stderr is in the exchange shown


def test_a_setup_failure_in_a_later_check_stops_there():
    run = run_suite(DIES_AT_ONCE, "--only", "13,14,15")
    assert list(run.results) == [13] and "engine setup failed" in run.results[13][1]
    assert "stopped: the engine could not be set up; 2 checks not run" in run.stdout


def run_cli(*args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "protocol.conformance", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [
    ("--", os.path.join(ROOT, "no", "such", "engine")),
    ("--hub", "--", os.path.join(ROOT, "no", "such", "engine")),
    ("--", os.path.join(ROOT, "README.md")),  # not executable
])
def test_a_command_that_cannot_be_executed_is_a_usage_error(args):
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("draughts-conformance: cannot start "), lines


@pytest.mark.parametrize("argv, message", [
    (["--bogus", "--", "e"], "unrecognized arguments: --bogus"),
    (["--only", "1-x", "--", "e"], "--only: bad check number or range '1-x'"),
    (["--only", "5-2", "--", "e"], "runs backwards"),
    (["--only", "99", "--", "e"], "no check numbered 99"),
    (["--variant", "chess", "--", "e"], "unknown variant 'chess'"),
    (["--timeout", "x", "--", "e"], "invalid float value: 'x'"),
    (["--timeout", "nan", "--", "e"], "--timeout must be a finite number of seconds"),
    (["--stop-samples", "0", "--", "e"], "--stop-samples must be positive"),
    (["--grace", "-1", "--", "e"], "--grace must be zero or more"),
    (["--hub", "--timeout", "x", "--", "e"], "invalid float value: 'x'"),
    (["--hub", "--only", "3", "--", "e"], "--only does not apply to --hub"),
    (["--hub", "--variant", "russian", "--", "e"], "--variant does not apply to --hub"),
    ([], "no engine command"),
])
def test_every_usage_error_is_one_line_and_status_2(capsys, argv, message):
    assert conformance.main(argv, out=io.StringIO()) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("draughts-conformance: "), lines
    assert message in lines[0]
    assert captured.out == ""


def test_usage_errors_from_the_command_line_have_no_traceback():
    for args in (["--hub", "--timeout", "x", "--", "e"], ["--bogus"]):
        done = run_cli(*args)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    helped = run_cli("--help")
    assert helped.returncode == 0 and "--hub" in helped.stdout and "exit status" in helped.stdout


def test_hub_flags():
    config, listing = parse_args(["--hub", "--", "scan", "hub"])
    assert config.hub and config.command == ("scan", "hub") and not listing
    assert (config.timeout, config.stop_threshold_ms) == (10.0, 1000)
    config, _ = parse_args(["--hub", "--timeout", "3", "--stop-threshold", "2500", "--", "e"])
    assert (config.timeout, config.threshold) == (3.0, 2.5)
    out = io.StringIO()
    assert conformance.main(["--hub", "--list"], out=out) == 0
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [
        check.name for check in HUB_CHECKS]
    assert len(HUB_CHECKS) == 21


# --------------------------------------------------------------------------- Hub engines

HUB_FAKE = fake("hub_book_engine.py")
TIMED_HUB_CHECKS = ("move-time", "clock", "ponder-hit")


@pytest.fixture(scope="module")
def hub_runs() -> Iterator[Dict[str, "Future[object]"]]:
    """Two Hub runs at once: an honest engine whose book answers every position at once (only
    switching the book off makes it search), and the same engine whose search ignores its
    move-time and time levels (4 s a search). The honest run goes through the command line with
    a margin a slow host meets; the broken one keeps the default margin of 1 s."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {
            "honest": pool.submit(run_cli, "--hub", "--stop-threshold", "3000", "--timeout", "15",
                                  "--", *HUB_FAKE, "--book-everywhere"),
            "broken": pool.submit(run_hub_checks, HUB_FAKE + ["--book-everywhere",
                                                              "--ignore-levels"],
                                  cwd=ROOT, timeout=15),
        }


def test_hub_engine_with_a_book_passes_and_is_searched(hub_runs):
    done = hub_runs["honest"].result()
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1] == "21 passed, 0 failed", done.stdout
    reasons = {line.split()[1]: line for line in lines[:-1]}
    assert list(reasons) == [check.name for check in HUB_CHECKS]
    assert all(line.startswith("PASS  ") for line in reasons.values())
    assert "book=false" in reasons["init"]
    assert "info lines to depth" in reasons["think-depth"]
    for name in ("move-time", "clock"):  # answered by a search, not by the book
        assert "searched to depth" in reasons[name], reasons[name]


def test_hub_timing_checks_judge_a_search_not_a_book(hub_runs):
    results = hub_runs["broken"].result()
    failed = {name: reason for name, passed, reason in results if not passed}
    assert set(failed) == set(TIMED_HUB_CHECKS), failed
    assert all(" took " in reason for reason in failed.values()), failed


def test_the_last_lines_of_a_failure_show_terminal_escapes_escaped():
    import io as _io
    from protocol.conformance.config import CheckResult, Config, FAIL
    from protocol.conformance.report import Reporter
    out = _io.StringIO()
    reporter = Reporter(out, Config(command=["engine"]))
    reporter.result(CheckResult(1, "go", FAIL, "bad", 0.1,
                                ("< boom \x1b]0;PWNED\x07 \x1b[2J cleared",)))
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "boom \\x1b]0;PWNED\\x07 \\x1b[2J cleared" in text
