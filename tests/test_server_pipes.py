"""Scripts through pipes: a command that arrives during a search with a limit of its own waits
for that search's ``bestmove`` and then runs, in order (PROTOCOL.md section 3)."""
from __future__ import annotations

import io
import re
import subprocess
import sys
import threading
from typing import Any, Callable, List, Tuple

from draughts_engine.game import Game
from protocol.commands import COMMAND_HELP
from protocol.server import Server

SERVER = [sys.executable, "-m", "protocol"]


def _piped(script: str, timeout: float = 120) -> List[str]:
    done = subprocess.run(SERVER, input=script, text=True, capture_output=True, timeout=timeout)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


def _in_process(lines: bytes, search: Callable[..., Any]) -> Tuple[Server, io.StringIO]:
    """A server reading ``lines``, its session's search replaced by ``search``."""
    out = io.StringIO()
    server = Server(io.BytesIO(lines), out)
    server.session.search = search  # type: ignore[assignment]
    return server, out


def test_the_issue_script_runs_every_line_without_busy() -> None:
    """The script of the issue: two bestmoves, the board, no error (a bare undo at the start is
    a notice), the second search from the position set after the first."""
    lines = _piped("position startpos\ngo depth 6\nd\nundo\nposition startpos moves 11-15\n"
                   "go depth 4\n")
    assert not [line for line in lines if line.startswith("error")], lines
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 2
    assert any(line.startswith("board ") for line in lines)
    assert "info string undo: nothing to take back" in lines
    after = Game("english")
    after.push("11-15")
    assert bestmoves[1].split()[1] in {move.pdn() for move in after.legal_moves()}
    # the second search's reports come after the first bestmove
    second = lines.index(bestmoves[0])
    assert [line for line in lines[second:] if line.startswith("info depth")][-1].startswith(
        "info depth 4 ")


def test_every_waiting_command_runs_in_order_after_the_bestmove() -> None:
    calls: List[Any] = []

    def search(limits, report, stop, on_root_move=None):
        calls.append(limits)
        return server.session.board.legal_moves()[0], None

    script = (b"go depth 3\nsetoption name Hash value 8\nucinewgame\nposition startpos\n"
              b"move 11-15\nundo\nmove 11-15\ngo nodes 500\nisready\n")
    server, out = _in_process(script, search)
    server.run()
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if line.startswith("error")], lines
    after = Game("english")
    after.push("11-15")
    # the isready behind the second go is answered at once if that search still runs (PROTOCOL.md),
    # so its readyok may come before or after the second bestmove, but never before the first
    assert [line for line in lines if line != "readyok"] == [
        f"bestmove {Game('english').legal_moves()[0].pdn()}", f"bestmove {after.legal_moves()[0].pdn()}"]
    assert lines.count("readyok") == 1 and lines.index("readyok") > 0, lines
    assert [limits.nodes for limits in calls] == [None, 500]


def test_go_infinite_still_answers_busy() -> None:
    lines = _piped("go infinite\nposition startpos moves 11-15\n")
    assert lines[-1].startswith("bestmove ") and len([l for l in lines if l.startswith("bestmove")]) == 1
    assert "error busy: position during search" in lines


def test_a_ponder_search_before_ponderhit_still_answers_busy() -> None:
    lines = _piped("go ponder depth 3\nundo\n")
    assert "error busy: undo during search" in lines


def _blocking_search(released: threading.Event) -> Callable[..., Any]:
    """A search that ends when told to stop (or when the test releases it)."""
    def search(limits, report, stop, on_root_move=None):
        while not (stop.is_set() or released.is_set()):
            stop.wait(0.01)
        return None, None
    return search


def test_a_stop_read_while_a_command_waits_ends_the_awaited_search() -> None:
    """``go movetime`` (bounded), ``position`` waits, a ``stop`` read meanwhile ends that
    search at once: the waiting command and ``d`` then run."""
    released = threading.Event()
    server, out = _in_process(b"go movetime 600000\nposition startpos moves 11-15\nstop\nd\n",
                              _blocking_search(released))
    try:
        server.run()
        assert not released.is_set()
        lines = out.getvalue().splitlines()
        assert lines[0] == "bestmove (none)"
        assert "ply 1" in lines and not [line for line in lines if line.startswith("error")]
    finally:
        released.set()


def test_a_stop_after_a_later_go_is_left_for_that_go() -> None:
    """``go depth 3``, ``go movetime ...``, ``stop``: the stop belongs to the second search,
    so the first one runs to its own end (its depth limit)."""
    calls: List[Any] = []

    def search(limits, report, stop, on_root_move=None):
        calls.append((limits, stop.is_set()))
        if limits.depth == 3:
            threading.Event().wait(0.3)  # the later lines are read meanwhile
            assert not stop.is_set()
            return server.session.board.legal_moves()[0], None
        stop.wait(60)
        return None, None

    server, out = _in_process(b"go depth 3\ngo movetime 600000\nstop\n", search)
    server.run()
    lines = out.getvalue().splitlines()
    assert lines == [f"bestmove {Game('english').legal_moves()[0].pdn()}", "bestmove (none)"]
    assert len(calls) == 2


def test_quit_read_while_a_command_waits_ends_at_once_with_the_bestmove() -> None:
    released = threading.Event()
    server, out = _in_process(b"go movetime 600000\nposition startpos\ngo depth 2\nquit\n",
                              _blocking_search(released))
    try:
        assert server.run() == 0
        lines = out.getvalue().splitlines()
        assert lines == ["bestmove (none)"]
    finally:
        released.set()


def test_go_nodes_reports_the_nodes_asked_for() -> None:
    lines = _piped("setoption name Variant value international\ngo nodes 30000\n")
    last = [line for line in lines if line.startswith("info depth")][-1].split()
    nodes = int(last[last.index("nodes") + 1])
    assert 27000 <= nodes <= 33000, last


def test_help_lists_every_command() -> None:
    lines = _piped("help\n")
    assert len(lines) == len(COMMAND_HELP) and all(line.startswith("info string ") for line in lines)
    from protocol.commands import _PARSERS  # the table of every command word
    assert {line.split()[2] for line in lines} == set(_PARSERS)


def test_undo_at_the_start() -> None:
    """A bare undo with nothing to take back is a notice; a count is a claim, and an error."""
    assert _piped("undo\nundo 1\nd\n")[:2] == ["info string undo: nothing to take back",
                                               "error undo: only 0 plies to take back"]


def test_hub_commands_wait_for_a_bounded_search() -> None:
    lines = _piped("hub\ninit\nlevel depth=3\ngo think\nlevel depth=2\npos start\ngo think\n")
    assert not [line for line in lines if line.startswith("error")], lines
    assert len([line for line in lines if line.startswith("done")]) == 2


def test_hub_analyze_still_answers_busy() -> None:
    lines = _piped("hub\ninit\ngo analyze\npos start\nstop\n")
    assert [line for line in lines if line.startswith("error")] == [
        'error message="busy: pos during search"']


def test_the_readme_pipe_example_prints_what_the_readme_says() -> None:
    """README's piped script, run by a shell as a reader would: two bestmoves, the first the one
    the README names, and no error."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    command = next(line.strip() for line in readme.splitlines()
                   if line.strip().startswith("printf 'position startpos\\ngo depth 6"))
    assert command.endswith("| python3 -m protocol")
    command = command.replace("python3", f"'{sys.executable}'")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(["sh", "-c", command], cwd=root, capture_output=True, text=True,
                          timeout=120)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and not [line for line in lines if line.startswith("error")]
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    said = re.search(r"prints the depth-6 search and `(bestmove [^`]+)`", readme)
    assert said, "README no longer says which bestmove the piped script prints"
    assert len(bestmoves) == 2 and bestmoves[0] == said.group(1)


def test_a_classic_search_takes_every_go_limit() -> None:
    # OwnBook off: the opening book would answer the timed searches from the start at once.
    lines = _piped("setoption name OwnBook value false\nsetoption name Search value alphabeta\n"
                   "go nodes 2000\ngo movetime 100\ngo wtime 1000 btime 1000\n")
    assert not [line for line in lines if line.startswith("error")], lines
    assert not [line for line in lines if line.startswith("info string book")], lines
    assert len([line for line in lines if line.startswith("bestmove")]) == 3
    depth_ones = [line for line in lines if line.startswith("info depth 1 ")]
    assert len(depth_ones) == 3, lines  # each of the three searches went through depth 1
