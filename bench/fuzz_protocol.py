#!/usr/bin/env python3
"""Robustness run: many random and mutated lines to one server process.

    python3 bench/fuzz_protocol.py [--lines 10000] [--seed 1]

Phase 1 (modelled): position/move/undo/d/isready lines, mutated; checks that every bad
line got exactly one ``error`` line and that ``d`` shows the position the valid lines
produced (the model is the rules core, see tests/protocol_fuzz.py).
Phase 2 (unmodelled): the same mix plus ``go depth 1-3``, ``stop``, ``go infinite``,
setoption and debug commands; checks the process is alive, answers ``isready`` and ``d``.
Prints the time taken and the counts.
"""
from __future__ import annotations

import os
import random
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from protocol.client import Engine  # noqa: E402
from protocol_fuzz import make_lines, mutate  # noqa: E402
from test_server_fuzz import run_fuzz  # noqa: E402
from _cli import OneLineParser, positive_int  # noqa: E402

EXTRA = ("go depth 1", "go depth 2", "go depth 3", "stop", "go infinite", "stop", "ponderhit",
         "setoption name Hash value 8", "setoption name Variant value russian",
         "setoption name Variant value english", "eval", "perft 2", "ucinewgame", "uci")


def main() -> int:
    parser = OneLineParser(prog="fuzz_protocol.py", description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=positive_int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    run_fuzz(args.lines, args.seed)
    print(f"phase 1: {args.lines} modelled lines: error count and final position exact "
          f"({time.perf_counter() - started:.1f} s)")
    rng = random.Random(args.seed)
    lines = make_lines(args.lines, args.seed + 1)
    for i in range(0, len(lines), 7):
        extra = rng.choice(EXTRA)
        lines[i] = extra if rng.random() < 0.7 else mutate(rng, extra)
    started = time.perf_counter()
    with Engine.popen([sys.executable, "-m", "protocol"], cwd=ROOT, timeout=120) as engine:
        for line in lines:
            engine.send_raw(line)
        engine.send_raw("stop")
        engine.send_raw("d")
        engine.read_until(lambda a: a.startswith("state"), timeout=120)
        engine.send_raw("stop")
        status = engine.quit()
    print(f"phase 2: {len(lines)} lines with searches: alive, answered d, quit status {status} "
          f"({time.perf_counter() - started:.1f} s)")
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
