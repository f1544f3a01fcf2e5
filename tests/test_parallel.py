"""The parallel search (``Threads``): the shared table, the helper processes' life, the option.

Speed (time to depth) and strength (Threads 2 against 1) are measured by
``bench/threads.py`` and by matches (BENCHMARKS.md), not here.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Callable, List, Tuple

import pytest

from draughts_engine.position import Position
from draughts_engine.runtime import max_threads
from draughts_engine.search.engine import Searcher
from draughts_engine.search.helper_process import serve
from draughts_engine.search.limits import SearchLimits
from draughts_engine.search.parallel_role import ParallelRole, helper_skips
from draughts_engine.search.shared_table import (HEADER_BYTES, ENTRY_BYTES, HelperResult,
                                                  SharedTable, move_fingerprint)
from draughts_engine.search.tt import EXACT, LOWER, UPPER

from helpers_processes import left_after, running

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

needs_two = pytest.mark.skipif(os.name != "posix" or max_threads() < 2,
                               reason="Threads 2 needs a POSIX system with 2 cores or more")


# ---- the shared table ---------------------------------------------------------------------
@pytest.fixture
def table():
    shared = SharedTable.create(1)
    yield shared
    shared.close()


def test_an_entry_reads_back_as_stored(table: SharedTable) -> None:
    access = table.access()
    key = (0b1011, 0b110000, 0b1000, True)
    move = (1, 8, 0, False)
    access.store(key, 7, -29980, LOWER, move)
    assert access.probe(key) == (7, -29980, LOWER, move_fingerprint(move))
    assert access.probe((0b1011, 0b110000, 0b1000, False)) is None


def test_a_torn_entry_reads_as_missing(table: SharedTable) -> None:
    access = table.access()
    key = (5, 6, 0, True)
    access.store(key, 3, 12, EXACT, None)
    offset = HEADER_BYTES + (hash(key) & (table.entries - 1)) * ENTRY_BYTES
    table.memory[offset + 12] ^= 0x40  # another writer's half word
    assert access.probe(key) is None


def test_a_deeper_entry_of_the_running_search_is_kept(table: SharedTable) -> None:
    access = table.access()
    mask = table.entries - 1
    seen = {}
    for i in range(1, 1 << 20):  # two positions that share a slot (the birthday bound)
        key = (i, 0, 0, True)
        slot = hash(key) & mask
        if slot in seen:
            deep, shallow = seen[slot], key
            break
        seen[slot] = key
    access.store(deep, 9, 5, EXACT, None)
    access.store(shallow, 2, 5, UPPER, None)
    assert access.probe(deep) is not None and access.probe(shallow) is None
    table.new_search()
    table.access().store(shallow, 2, 5, UPPER, None)  # an older search's entry gives way
    assert access.probe(shallow) is not None


def test_node_counters_and_clear(table: SharedTable) -> None:
    table.set_nodes(0, 1000)
    table.set_nodes(1, 234)
    assert table.nodes(2) == 1234
    table.access().store((1, 2, 0, True), 4, 0, EXACT, None)
    table.clear()
    assert table.nodes(2) == 0 and table.access().probe((1, 2, 0, True)) is None


def test_helpers_skip_different_depths() -> None:
    first, second = helper_skips(0), helper_skips(1)
    assert [d for d in range(1, 9) if not first(d)] == [1, 2, 4, 6, 8]
    assert [d for d in range(1, 9) if not second(d)] == [1, 3, 5, 7]


# ---- a helper's commands ------------------------------------------------------------------
def _go(position: Position, evaluation: str = "full", hash_mb: int = 4) -> dict:
    return {"cmd": "go", "variant": position.variant.name, "raw": list(position.raw),
            "history": [], "evaluation": evaluation, "pruning": True, "tables": False,
            "hash": hash_mb, "generation": 1, "ply": 0}


def test_a_helper_keeps_its_table_from_one_search_to_the_next(table: SharedTable) -> None:
    """As the main process does: a helper that forgot its table before every move would
    search each move from nothing (it did, until 2026-11-29)."""
    position = Position.start("english")
    searcher = Searcher(hash_mb=4)
    searcher.search(position, SearchLimits(depth=5), stop=threading.Event())
    learnt = len(searcher._tt)
    assert learnt > 0
    stopped = threading.Event()
    stopped.set()  # (the search returns at once)
    kept = serve(_go(position), stopped, searcher, table, 0)
    assert kept is searcher and len(searcher._tt) >= learnt
    # a change of evaluation, or a new game, forgets; a change of hash size starts afresh
    serve(_go(position, evaluation="hand"), stopped, searcher, table, 0)
    assert len(searcher._tt) <= 1  # (what the search stopped at once stored: its root)
    searcher.search(position, SearchLimits(depth=3), stop=threading.Event())
    assert serve({"cmd": "newgame"}, stopped, searcher, table, 0) is searcher
    assert len(searcher._tt) == 0
    assert serve(_go(position, hash_mb=8), stopped, searcher, table, 0) is not searcher


def test_clear_hash_empties_a_helpers_table_and_keeps_its_history(table: SharedTable) -> None:
    position = Position.start("english")
    searcher = Searcher(hash_mb=4)
    searcher.search(position, SearchLimits(depth=5), stop=threading.Event())
    history = dict(searcher._history)
    assert len(searcher._tt) > 0 and history
    assert serve({"cmd": "clearhash"}, threading.Event(), searcher, table, 0) is searcher
    assert len(searcher._tt) == 0 and searcher._history == history


@needs_two
@pytest.mark.parametrize("clearing", ["clear_hash", "set_evaluation"])
def test_clear_hash_and_a_new_evaluation_empty_the_shared_table(clearing: str) -> None:
    """The helpers and the engine must not read scores stored before ``Clear Hash`` or
    under another evaluation."""
    engine = Searcher(hash_mb=1)
    engine.set_threads(2)
    try:
        access = engine._pool.table.access()  # type: ignore[union-attr]
        key = (0b1011, 0b110000, 0b1000, True)
        access.store(key, 6, 25, EXACT, None)
        assert access.probe(key) is not None
        if clearing == "clear_hash":
            engine.clear_hash()
        else:
            engine.set_evaluation("hand")
        assert access.probe(key) is None
    finally:
        engine.close()


def test_the_threads_bench_searches_a_game_in_order() -> None:
    done = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "threads.py"),
                           "--variant", "english", "--game", "3", "--depth", "2",
                           "--rounds", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "english, a game of 3 plies" in done.stdout
    assert "| 1 |" in done.stdout


# ---- the main process takes an iteration a helper completed first -------------------------
def _search_beside_a_helper(table: SharedTable, done: Callable[[list], HelperResult],
                            limits: SearchLimits) -> Tuple[object, List, list]:
    """A main-process search of the English start whose helper reports ``done(root_moves)``
    as its deepest completed iteration: (result, the reports, the root moves)."""
    position = Position.start("english")
    root_moves = list(position.generator.moves(*position.raw))
    helper = done(root_moves)
    table.new_search()
    role = ParallelRole(table, helper_nodes=lambda: 0, helper_best=lambda: helper)
    infos: List = []
    result = Searcher(hash_mb=4).search_pvs(position, limits, on_info=infos.append,
                                            stop=threading.Event(), parallel=role)
    return result, infos, root_moves


def test_the_main_search_takes_an_iteration_a_helper_completed_first(table: SharedTable) -> None:
    """A helper finished depth 6 with the last root move: the main process, past its own
    first iteration, reports that depth, its score and move, and searches no depth that
    the helper's result covers (its reports' depths still grow one report to the next)."""
    result, infos, moves = _search_beside_a_helper(
        table, lambda moves: HelperResult(6, 77, move_fingerprint(moves[-1])),
        SearchLimits(depth=6))
    assert [info.depth for info in infos if not info.bound] == [1, 6]
    assert infos[-1].score_cp == 77 and infos[-1].pv[0].raw == moves[-1]
    assert result.best_move.raw == moves[-1] and result.depth == 6


def test_the_main_search_goes_on_past_a_helpers_iteration(table: SharedTable) -> None:
    result, infos, moves = _search_beside_a_helper(
        table, lambda moves: HelperResult(3, 5, move_fingerprint(moves[0])),
        SearchLimits(depth=6))
    assert [info.depth for info in infos if not info.bound] == [1, 3, 4, 5, 6]
    assert result.depth == 6


def test_an_iteration_is_cut_short_when_a_helper_completes_it(table: SharedTable) -> None:
    """The helper's result arrives while the main search is inside an iteration (the
    budget's polls see it): that iteration ends there, the helper's result stands."""
    position = Position.start("english")
    alone = Searcher(hash_mb=4).search_pvs(position, SearchLimits(depth=9),
                                           stop=threading.Event())
    asked = [0]

    def later(moves: list) -> HelperResult:
        return HelperResult(9, -33, move_fingerprint(moves[-1]))

    def helper_best_after_a_while(result: HelperResult) -> Callable[[], object]:
        def helper_best() -> object:
            asked[0] += 1
            return result if asked[0] > 12 else None  # (after a dozen polls)
        return helper_best

    root_moves = list(position.generator.moves(*position.raw))
    table.new_search()
    role = ParallelRole(table, helper_nodes=lambda: 0,
                        helper_best=helper_best_after_a_while(later(root_moves)))
    infos: List = []
    result = Searcher(hash_mb=4).search_pvs(position, SearchLimits(depth=9),
                                            on_info=infos.append, stop=threading.Event(),
                                            parallel=role)
    depths = [info.depth for info in infos if not info.bound]
    assert depths == sorted(set(depths)) and depths[-1] == 9 and len(depths) < 9
    assert infos[-1].score_cp == -33 and result.best_move.raw == root_moves[-1]
    assert result.nodes < alone.nodes


@pytest.mark.parametrize("limits", [SearchLimits(depth=5, multipv=2),
                                    SearchLimits(depth=5, mate=3)])
def test_several_lines_and_a_mate_search_take_no_helper_iteration(
        table: SharedTable, limits: SearchLimits) -> None:
    """A helper searches one line, for a score, not for a mate: the main search keeps its
    own iterations."""
    result, infos, moves = _search_beside_a_helper(
        table, lambda moves: HelperResult(4, 5, move_fingerprint(moves[-1])), limits)
    assert sorted({info.depth for info in infos if not info.bound} - {0}) == [1, 2, 3, 4, 5]


def test_a_helper_result_naming_no_root_move_is_not_taken(table: SharedTable) -> None:
    result, infos, moves = _search_beside_a_helper(
        table, lambda moves: HelperResult(9, 5, 0xABCDE), SearchLimits(depth=5))
    assert [info.depth for info in infos if not info.bound] == [1, 2, 3, 4, 5]
    assert result.depth == 5


# ---- the engine with helpers --------------------------------------------------------------
@needs_two
def test_a_parallel_search_plays_a_legal_move_and_counts_every_process() -> None:
    engine = Searcher(hash_mb=8)
    engine.set_threads(2)
    try:
        (pid,) = engine.helper_pids()
        position = Position.from_fen("W:W31-50:B1-20", "international")
        infos: List = []
        result = engine.search(position, SearchLimits(depth=6), on_info=infos.append,
                               stop=threading.Event())
        assert result.best_move in position.legal_moves()
        assert [info.depth for info in infos][-1] == 6
        # the same search in one process counts fewer nodes than both processes together
        # (the helper searched too; its count reaches the main process's reports)
        assert running(pid)
        assert engine.helper_pids() == (pid,)  # the helper is reused, not started again
        engine.search(position, SearchLimits(depth=2), stop=threading.Event())
        assert engine.helper_pids() == (pid,)
    finally:
        engine.close()
    assert left_after([pid]) == []
    assert engine.threads == 1


@needs_two
def test_a_helper_that_died_is_started_again() -> None:
    engine = Searcher(hash_mb=8)
    engine.set_threads(2)
    try:
        (pid,) = engine.helper_pids()
        os.kill(pid, signal.SIGKILL)
        assert left_after([pid]) == []
        position = Position.from_fen("B:W21-32:B1-12", "english")
        result = engine.search(position, SearchLimits(depth=4), stop=threading.Event())
        assert result.best_move in position.legal_moves()
        (again,) = engine.helper_pids()
        assert again != pid
    finally:
        engine.close()


def test_threads_out_of_range_is_refused() -> None:
    engine = Searcher(hash_mb=1)
    with pytest.raises(ValueError):
        engine.set_threads(0)
    with pytest.raises(ValueError):
        engine.set_threads(max_threads() + 1)
    assert engine.threads == 1 and engine.helper_pids() == ()


# ---- the option, through the text protocol --------------------------------------------------
def _children(pid: int) -> List[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(name))
    return found


def _engine_with_helpers(threads: int = 2) -> "subprocess.Popen[str]":
    proc = subprocess.Popen([sys.executable, "-m", "protocol"], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"setoption name Threads value {threads}\nisready\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.strip() == "readyok":
            break
        assert not line.startswith("error"), line
    return proc


def _searching_with_one_helper() -> "Tuple[subprocess.Popen[str], List[int]]":
    """An engine with Threads 2 in a ``go infinite`` search, and its helper's pid."""
    proc = _engine_with_helpers()
    assert proc.stdin is not None and proc.stdout is not None
    helpers = _children(proc.pid)
    assert len(helpers) == 1
    proc.stdin.write("position startpos\ngo infinite\n")
    proc.stdin.flush()
    proc.stdout.readline()  # the search runs
    return proc, helpers


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc (Linux)")


@needs_two
@needs_proc
def test_no_helper_outlives_an_engine_killed_with_sigkill() -> None:
    proc, helpers = _searching_with_one_helper()
    proc.kill()
    proc.wait()
    assert left_after(helpers) == []


@needs_two
@needs_proc
@pytest.mark.parametrize("ending", ["quit", "end of input", "SIGTERM"])
def test_helpers_end_with_the_engine(ending: str) -> None:
    proc, helpers = _searching_with_one_helper()
    assert proc.stdin is not None
    if ending == "quit":
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    elif ending == "end of input":
        proc.stdin.close()
    else:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    finally:
        proc.kill()
    assert left_after(helpers) == []


def _exchange(proc: "subprocess.Popen[str]", send: str, last: Callable[[str], bool]) -> List[str]:
    """Send ``send`` (lines), read the answer lines up to the one ``last`` accepts."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(send + "\n")
    proc.stdin.flush()
    lines = []
    for raw in proc.stdout:
        lines.append(raw.strip())
        if last(lines[-1]):
            break
    return lines


@needs_two
def test_stop_ends_a_parallel_search_with_one_bestmove() -> None:
    proc = _engine_with_helpers()
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("setoption name Variant value international\nposition startpos\n"
                         "go infinite\n")
        proc.stdin.flush()
        time.sleep(0.5)
        lines = _exchange(proc, "stop", lambda line: line.startswith("bestmove"))
        # (during a search, isready is answered at once: asked after the bestmove)
        lines += _exchange(proc, "isready", lambda line: line == "readyok")
        assert sum(1 for line in lines if line.startswith("bestmove")) == 1
        # a second search with the same helpers, to a depth
        rest = _exchange(proc, "setoption name Threads value 1\ngo depth 3",
                         lambda line: line.startswith("bestmove"))
        assert any(line.startswith("bestmove") for line in rest)
        assert not any(line.startswith("error") for line in rest)
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(30)


def test_threads_is_declared_with_the_cores_as_maximum() -> None:
    out = subprocess.run([sys.executable, "-m", "protocol"], cwd=ROOT, input="uci\nquit\n",
                         text=True, capture_output=True, timeout=60).stdout
    assert f"option name Threads type spin default 1 min 1 max {max_threads()}" in out
