#!/usr/bin/env python3
"""Protocol latency of the server: start-up, and answers during a deep search.

    python3 bench/latency.py [--tries 20] [--engine "python3 -m protocol"] [--option Threads=2]

Measures, over ``--tries`` runs each (median and worst, milliseconds):

* start to ``uciok``: process start until the ``uciok`` line is read;
* ``isready`` during ``go infinite``: write ``isready``, read ``readyok``;
* ``stop`` during ``go infinite``: write ``stop``, read ``bestmove``;
* ``quit`` during ``go infinite``: write ``quit`` until the process has exited.

The clock starts when the command is written and stops when the answer line
is read, so it includes both pipe trips.  ``--option NAME=VALUE`` (repeatable) is set
before each search (``Threads=2``: the latency of a parallel search).
"""
from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import time
from typing import Callable, List, Sequence, Tuple

from _cli import OneLineParser, engine_command, positive_int, variant_name

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


class Process:
    """A server process with line I/O (blocking reads; the server always answers)."""

    def __init__(self, command: List[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT, bufsize=0)

    def send(self, line: str) -> None:
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read_until(self, done: Callable[[str], bool]) -> str:
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                raise RuntimeError("engine output ended")
            line = raw.decode().rstrip("\n")
            if done(line):
                return line

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def option_pair(text: str) -> Tuple[str, str]:
    """``Threads=2`` -> ("Threads", "2")."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise ValueError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def ms(seconds: float) -> float:
    return seconds * 1000.0


def start_to_uciok(command: List[str]) -> float:
    started = time.perf_counter()
    p = Process(command)
    p.send("uci")
    p.read_until(lambda line: line == "uciok")
    elapsed = time.perf_counter() - started
    p.send("quit")
    p.proc.wait()
    return ms(elapsed)


def during_search(command: List[str], action: str, variant: str,
                  options: Sequence[Tuple[str, str]] = ()) -> float:
    p = Process(command)
    try:
        for name, value in options:
            p.send(f"setoption name {name} value {value}")
        p.send(f"setoption name Variant value {variant}")
        p.send("position startpos")
        p.send("go infinite")
        p.send("isready")
        p.read_until(lambda line: line == "readyok")
        time.sleep(0.3)  # let the search get deep into a tree
        started = time.perf_counter()
        if action == "isready":
            p.send("isready")
            p.read_until(lambda line: line == "readyok")
        elif action == "stop":
            p.send("stop")
            p.read_until(lambda line: line.startswith("bestmove"))
        else:
            p.send("quit")
            p.proc.wait(timeout=10)
        elapsed = time.perf_counter() - started
        if action == "isready":
            p.send("stop")
            p.read_until(lambda line: line.startswith("bestmove"))
        return ms(elapsed)
    finally:
        p.close()


def main() -> int:
    parser = OneLineParser(prog="latency.py", description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=positive_int, default=20)
    parser.add_argument("--engine", type=engine_command,
                        default=f"{shlex.quote(sys.executable)} -m protocol")
    parser.add_argument("--variant", type=variant_name, default="international")
    parser.add_argument("--option", type=option_pair, action="append", default=[],
                        help="NAME=VALUE set before each search (repeatable)")
    args = parser.parse_args()
    command = args.engine
    rows = [("start to uciok", lambda: start_to_uciok(command))]
    for action in ("isready", "stop", "quit"):
        rows.append((f"{action} during go infinite",
                     lambda action=action: during_search(command, action, args.variant,
                                                         args.option)))
    shown = "".join(f"   {name}={value}" for name, value in args.option)
    print(f"engine: {shlex.join(command)}   tries: {args.tries}   variant: {args.variant}{shown}")
    print(f"{'measure':28} {'median ms':>10} {'worst ms':>10}")
    for name, measure in rows:
        samples = [measure() for _ in range(args.tries)]
        print(f"{name:28} {statistics.median(samples):>10.1f} {max(samples):>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
