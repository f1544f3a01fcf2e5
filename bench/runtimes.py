#!/usr/bin/env python3
"""CPython and PyPy side by side in one run: perft, time to depth, nodes/s, start-up, JIT warm-up.

    python3 bench/runtimes.py                 # the full table (a few minutes)
    python3 bench/runtimes.py --quick         # smaller depths (about a minute)
    python3 bench/runtimes.py --rounds 3 --only perft,search
    python3 bench/runtimes.py --pypy /opt/pypy/bin/pypy3 --cpython python3.11

Every measurement runs in fresh processes of each interpreter, taking turns
(CPython, PyPy, then PyPy, CPython in the next round), so both see the same
moments of a shared host.  Figures are process CPU time (the engine's own, read
from ``/proc`` for the protocol measures; wall time where ``/proc`` is missing),
best of the rounds.  A JIT compiles while it runs, so PyPy gets two columns:

* ``first``: the first run in a fresh process (what one ``go`` costs right after
  start-up, JIT warm-up included);
* ``warm``: the best later run in the same process (what the games of a match,
  after their first move, see).

Measures (``--only``, comma-separated):

* ``perft``: bulk-counted perft from the start position of each variant, leaves/s;
* ``search``: ``go depth N`` on the start positions through the protocol
  (``position startpos``, ``go depth N``; later: ``ucinewgame``, the same again),
  seconds and nodes/s; the node counts of the two runtimes may differ, because
  the transposition table holds as many MiB, and so another number of entries,
  on each;
* ``bench``: the protocol's ``bench`` (its signature must be the same on both);
* ``startup``: process start to ``uciok`` (median of ``--tries``, wall clock).
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple
from _cli import OneLineParser, measure_list, positive_int  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: variant -> (full depth, quick depth) of the perft measure.
PERFT = {"english": (9, 7), "russian": (9, 7), "brazilian": (9, 7), "international": (8, 6)}

#: (variant, full depth, quick depth) of the search measure.
SEARCH = (("international", 12, 9), ("english", 12, 9))

MEASURES = ("perft", "search", "bench", "startup")

#: The perft child: ``interpreter -c PERFT_CHILD root variant depth runs`` prints JSON.
PERFT_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from draughts_engine.perft import perft_raw
from draughts_engine.position import Position
root = Position.start(sys.argv[2])
seconds = []
for _ in range(int(sys.argv[4])):
    started = time.process_time()
    count = perft_raw(root.generator, *root.raw, int(sys.argv[3]))
    seconds.append(time.process_time() - started)
print(json.dumps({"count": count, "seconds": seconds}))
"""


class BenchError(Exception):
    """A measurement could not be made (an interpreter failed, an engine ended early)."""


class EngineProcess:
    """``interpreter -m protocol`` with line I/O and its CPU time read from ``/proc``."""

    def __init__(self, interpreter: List[str]) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(interpreter + ["-m", "protocol"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)

    def __enter__(self) -> "EngineProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def uci(self) -> None:
        """The handshake: ``uci``, then wait for ``uciok``."""
        self.send("uci")
        self.read_until(lambda line: line == "uciok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read_until(self, done: Callable[[str], bool]) -> List[str]:
        """Lines up to and including the first one ``done`` accepts."""
        assert self.proc.stdout is not None
        lines = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                raise BenchError("the engine's output ended")
            lines.append(raw.decode().rstrip("\n"))
            if done(lines[-1]):
                return lines

    def cpu(self) -> Optional[float]:
        """CPU seconds the engine has used (user + system), None without ``/proc``."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def in_turns(runtimes: Dict[str, List[str]], rounds: int) -> Iterator[str]:
    """The runtimes' names, ``rounds`` times over; the order flips every round, so that none
    always runs first."""
    names = list(runtimes)
    for r in range(rounds):
        yield from (names if r % 2 == 0 else names[::-1])


def timed(engine: EngineProcess, command: str, done: Callable[[str], bool]
          ) -> Tuple[float, List[str]]:
    """Seconds ``command`` took (engine CPU, or wall without ``/proc``) and its output."""
    engine.send("isready")
    engine.read_until(lambda line: line == "readyok")
    cpu0, wall0 = engine.cpu(), time.perf_counter()
    engine.send(command)
    lines = engine.read_until(done)
    cpu1, wall1 = engine.cpu(), time.perf_counter()
    used = (cpu1 - cpu0) if cpu0 is not None and cpu1 is not None else wall1 - wall0
    return max(used, 1e-3), lines


def last_nodes(lines: Sequence[str]) -> int:
    """The node count of the last ``info`` line with one."""
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            return int(words[words.index("nodes") + 1])
    raise BenchError("no info line with nodes")


# ---- the measures ------------------------------------------------------------------
Row = Tuple[str, str, Dict[str, Tuple[float, Optional[float]]], str]
"""(measure, unit, {runtime: (first or only figure, warm figure or None)}, note)."""


def measure_perft(runtimes: Dict[str, List[str]], rounds: int, quick: bool) -> List[Row]:
    rows = []
    for variant, (depth, quick_depth) in PERFT.items():
        d = quick_depth if quick else depth
        first: Dict[str, List[float]] = {name: [] for name in runtimes}
        warm: Dict[str, List[float]] = {name: [] for name in runtimes}
        counts = {}
        for name in in_turns(runtimes, rounds):
            done = subprocess.run(runtimes[name] + ["-c", PERFT_CHILD, ROOT, variant, str(d), "3"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise BenchError(f"perft on {name}: {done.stderr.strip()[-300:]}")
            data = json.loads(done.stdout.strip().splitlines()[-1])
            counts[name] = data["count"]
            first[name].append(data["seconds"][0])
            warm[name].extend(data["seconds"][1:])
        same = len(set(counts.values())) == 1
        figures = {name: (counts[name] / min(first[name]), counts[name] / min(warm[name]))
                   for name in runtimes}
        rows.append((f"perft {variant} {d}", "leaves/s", figures,
                     f"{counts[next(iter(counts))]:,} leaves" + ("" if same else " COUNTS DIFFER")))
    return rows


def measure_search(runtimes: Dict[str, List[str]], rounds: int, quick: bool) -> List[Row]:
    rows = []
    for variant, depth, quick_depth in SEARCH:
        d = quick_depth if quick else depth
        first: Dict[str, List[Tuple[float, int]]] = {name: [] for name in runtimes}
        warm: Dict[str, List[Tuple[float, int]]] = {name: [] for name in runtimes}
        for name in in_turns(runtimes, rounds):
            with EngineProcess(runtimes[name]) as engine:
                engine.uci()
                engine.send(f"setoption name Variant value {variant}")
                for target in (first, warm, warm):
                    engine.send("ucinewgame")
                    engine.send("position startpos")
                    used, lines = timed(engine, f"go depth {d}",
                                        lambda line: line.startswith("bestmove"))
                    target[name].append((used, last_nodes(lines)))
        figures = {}
        notes = []
        for name in runtimes:
            best_first = min(first[name])
            best_warm = min(warm[name])
            figures[name] = (best_first[0], best_warm[0])
            notes.append(f"{name} {best_first[1]:,} nodes, {best_warm[1] / best_warm[0]:,.0f}"
                         f" nodes/s warm")
        rows.append((f"go depth {d} {variant} start", "s", figures, "; ".join(notes)))
    return rows


def measure_bench(runtimes: Dict[str, List[str]], rounds: int, quick: bool) -> List[Row]:
    first: Dict[str, List[float]] = {name: [] for name in runtimes}
    warm: Dict[str, List[float]] = {name: [] for name in runtimes}
    signatures: Dict[str, int] = {}
    for name in in_turns(runtimes, rounds):
        with EngineProcess(runtimes[name]) as engine:
            for target in (first, warm, warm):
                used, lines = timed(engine, "bench", lambda line: line.startswith("nodes "))
                nodes = int(lines[-1].split()[1])
                signatures[name] = nodes
                target[name].append(nodes / used)
    figures = {name: (max(first[name]), max(warm[name])) for name in runtimes}
    same = len(set(signatures.values())) == 1
    note = (f"signature nodes {signatures[next(iter(signatures))]}" if same
            else "SIGNATURES DIFFER: " + ", ".join(f"{k} {v}" for k, v in signatures.items()))
    return [("bench (depth 6, 8 positions)", "nodes/s", figures, note)]


def measure_startup(runtimes: Dict[str, List[str]], tries: int) -> List[Row]:
    times: Dict[str, List[float]] = {name: [] for name in runtimes}
    for name in in_turns(runtimes, tries):
        with EngineProcess(runtimes[name]) as engine:
            engine.uci()
            times[name].append(time.perf_counter() - engine.started)
    figures = {name: (statistics.median(times[name]) * 1000, None) for name in runtimes}
    worst = ", ".join(f"{name} worst {max(times[name]) * 1000:.0f} ms" for name in runtimes)
    return [("start-up to uciok (median)", "ms", figures, worst)]


# ---- the table --------------------------------------------------------------------
def human(value: float, unit: str) -> str:
    if unit in ("leaves/s", "nodes/s"):
        return f"{value / 1e6:.2f}M" if value >= 1e6 else f"{value / 1e3:.0f}k"
    if unit == "ms":
        return f"{value:.0f} ms"
    return f"{value:.2f} s"


def print_table(rows: List[Row], names: List[str]) -> None:
    base, other = names
    print(f"{'measure':32} {'unit':>8} {base:>10} {other + ' first':>12} {other + ' warm':>12}"
          f" {'first x':>8} {'warm x':>8}  note")
    for measure, unit, figures, note in rows:
        b_first, b_warm = figures[base]
        o_first, o_warm = figures[other]
        b = b_warm if b_warm is not None and unit != "ms" else b_first
        if unit in ("s", "ms"):  # lower is better: speed-up = base / other
            ratio_first = b / o_first
            ratio_warm = b / o_warm if o_warm is not None else None
        else:
            ratio_first = o_first / b
            ratio_warm = o_warm / b if o_warm is not None else None
        warm_text = human(o_warm, unit) if o_warm is not None else "-"
        warm_ratio = f"{ratio_warm:.2f}" if ratio_warm is not None else "-"
        print(f"{measure:32} {unit:>8} {human(b, unit):>10} {human(o_first, unit):>12}"
              f" {warm_text:>12} {ratio_first:>8.2f} {warm_ratio:>8}  {note}", flush=True)


def version(command: List[str]) -> str:
    done = subprocess.run(command + ["-c", "import platform, sys; print(platform.python_"
                                     "implementation(), sys.version.split()[0])"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"cannot run {' '.join(command)}")
    return done.stdout.strip()


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="runtimes.py", description=__doc__.splitlines()[0])
    parser.add_argument("--cpython", default=sys.executable,
                        help="the CPython command (default: this Python)")
    parser.add_argument("--pypy", default="pypy3", help="the PyPy command (default: pypy3)")
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument("--rounds", type=positive_int, default=2,
                        help="fresh processes per interpreter and measure (2)")
    parser.add_argument("--tries", type=positive_int, default=10, help="start-up tries (10)")
    parser.add_argument("--only", type=measure_list(MEASURES), default=list(MEASURES),
                        help="comma-separated measures: " + ", ".join(MEASURES))
    args = parser.parse_args(argv)
    only = args.only
    runtimes = {"cpython": shlex.split(args.cpython), "pypy": shlex.split(args.pypy)}
    for name, command in runtimes.items():
        if not command or shutil.which(command[0]) is None:
            print(f"runtimes.py: {name} command {' '.join(command)!r} not found"
                  + (" (apt-get install pypy3)" if name == "pypy" else ""), file=sys.stderr)
            return 2
    try:
        for name, command in runtimes.items():
            print(f"{name}: {' '.join(command)} ({version(command)})")
        rows: List[Row] = []
        if "startup" in only:
            if os.environ.get("PYTHONDONTWRITEBYTECODE"):
                print("note: PYTHONDONTWRITEBYTECODE is set: where no __pycache__ was written"
                      " before, every start compiles every module (about twice the time of an"
                      " installed engine); unset it to measure that")
            rows += measure_startup(runtimes, args.tries)
        if "perft" in only:
            rows += measure_perft(runtimes, args.rounds, args.quick)
        if "search" in only:
            rows += measure_search(runtimes, args.rounds, args.quick)
        if "bench" in only:
            rows += measure_bench(runtimes, args.rounds, args.quick)
        print_table(rows, list(runtimes))
    except BenchError as exc:
        print(f"runtimes.py: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
