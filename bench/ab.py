#!/usr/bin/env python3
"""Old against new in one run: perft leaves/s and search nodes/s, interleaved.

    python3 bench/ab.py                       # this tree against main, 5 rounds
    python3 bench/ab.py --base HEAD~3 --rounds 9 --only perft-english,bench
    python3 bench/ab.py --in-process          # both trees in each process, runs alternating
    python3 bench/ab.py --callgrind           # instruction counts instead of time

The base revision (and the new one, when ``--new`` names a revision rather
than a folder) is exported with ``git archive`` into a temporary folder,
removed afterwards.  Every measurement runs in a fresh subprocess that
imports one tree only; the two trees take turns (the order flips every
round), so both see the same moments of a shared, noisy host.  Each figure
is the best of the rounds of process CPU time; the ratio is new/old of those
best rates (above 1: the new code is faster).  Leaf and node counts must be
equal in both trees (the script says so when they are not).

CPython's speed depends on where objects land in memory: one extra import
in the measuring process moved single-layout ratios of identical bytecode
by up to 7% either way here.  So in round ``r`` the child first allocates
``r * 37`` small tuples of assorted sizes (the same in both trees): every
round sees another layout, and a figure is not one layout's luck.
``median`` is the median of the per-round new/old ratios.

With ``--in-process`` both trees' ``draughts_engine`` packages are copied
under other names (they import themselves relatively) and loaded into the
same process, which runs the measurement ``--rounds`` times per tree,
alternating; ``--processes`` such processes run, the tree loaded first
alternating between them.  Both trees then share the process, its moment
and its memory layout, so what is left of the difference is the code's.

With ``--callgrind`` each measurement runs once per tree under
``valgrind --tool=callgrind`` with ``PYTHONHASHSEED=0``, one ply shallower
than the timed runs; the instructions of the same script with the work
left out are subtracted.  Instruction counts
are deterministic, so they settle what a noisy clock cannot; the ratio is
old/new instructions (above 1: the new code does less work).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from typing import Dict, List, Optional, Tuple
from _cli import OneLineParser, measure_list, positive_int  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: name -> (kind, variant, depth): kind "perft" (bulk-counted last ply),
#: "make" (every move made), "bench" (the engine's bench, nodes/s) or "game" (one
#: searcher plays :data:`GAME_PLIES` plies from the start, each move searched to the depth,
#: its tables kept from move to move as in a game; nodes/s).
MEASURES: Dict[str, Tuple[str, str, int]] = {
    "perft-english": ("perft", "english", 9),
    "perft-russian": ("perft", "russian", 8),
    "perft-international": ("perft", "international", 7),
    "make-international": ("make", "international", 6),
    "bench": ("bench", "", 6),
    "game-english": ("game", "english", 9),
    "game-international": ("game", "international", 7),
}

#: Plies of a "game" measure.
GAME_PLIES = 16

#: The "game" measure's code in a child: ``count`` the nodes of the game's searches.
GAME_CODE = r"""
def play_game(package, variant, depth, plies):
    position_module = importlib.import_module(package + ".position")
    engine = importlib.import_module(package + ".search.engine")
    limits = importlib.import_module(package + ".search.limits")
    searcher = engine.Searcher()
    position = position_module.Position.start(variant)
    history = [position.raw]
    nodes = 0
    for _ in range(plies):
        result = searcher.search(position, limits.SearchLimits(depth=depth), history=history)
        if result.best_move is None:
            break
        nodes += result.nodes
        position = position.play_raw(result.best_move.raw)
        history.append(position.raw)
    return nodes
"""

#: Under callgrind (about 50 times slower) each measure runs this many plies shallower.
CALLGRIND_SHALLOWER = 1

#: The child: measure one thing in the tree on ``sys.path[0]``, print JSON.
CHILD = r"""
import importlib, json, sys, time
layout = [(i,) * (i % 16 + 1) for i in range(int(sys.argv[6]))]  # shifts the heap
sys.path.insert(0, sys.argv[1])
kind, variant, depth, work = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
from draughts_engine.position import Position
from draughts_engine.perft import perft_raw, perft_make
if kind in ("bench", "game"):  # imported before the clock starts
    from draughts_engine.search import engine as search_engine
    from draughts_engine.search import limits as search_limits
count = 0
started = time.process_time()
if work and kind in ("perft", "make"):
    root = Position.start(variant)
    walk = perft_raw if kind == "perft" else perft_make
    count = walk(root.generator, *root.raw, depth)
elif work and kind == "game":
    count = play_game("draughts_engine", variant, depth, GAME_PLIES)
elif work:
    count = search_engine.bench(depth).nodes
print(json.dumps({"count": count, "seconds": time.process_time() - started}))
"""
assert CHILD.count("started = time") == 1
CHILD = CHILD.replace("started = time", GAME_CODE + f"GAME_PLIES = {GAME_PLIES}\nstarted = time")


#: The in-process child: both packages on ``sys.path[0]``, runs alternating, prints JSON.
INPROC_CHILD = r"""
import importlib, json, sys, time
sys.path.insert(0, sys.argv[1])
names = sys.argv[2].split(",")
kind, variant, depth, rounds = sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
runs = {}
for name in names:
    position = importlib.import_module(name + ".position")
    perft = importlib.import_module(name + ".perft")
    if kind == "bench":
        engine = importlib.import_module(name + ".search.engine")
        runs[name] = lambda engine=engine: engine.bench(depth).nodes
    elif kind == "game":
        runs[name] = lambda name=name: play_game(name, variant, depth, GAME_PLIES)
    else:
        walk = perft.perft_raw if kind == "perft" else perft.perft_make
        root = position.Position.start(variant)
        runs[name] = lambda walk=walk, root=root: walk(root.generator, *root.raw, depth)
out = {name: [] for name in names}
counts = {}
for r in range(rounds):
    for name in (names if r % 2 == 0 else names[::-1]):
        started = time.process_time()
        counts[name] = runs[name]()
        out[name].append(time.process_time() - started)
print(json.dumps({"seconds": out, "counts": counts}))
"""
assert INPROC_CHILD.count("runs = {}") == 1
INPROC_CHILD = INPROC_CHILD.replace("runs = {}", GAME_CODE + f"GAME_PLIES = {GAME_PLIES}\nruns = {{}}")

HEADER = (f"{'measure':22} {'count':>11} {'old /s':>12} {'new /s':>12} {'new/old':>8}"
          f" {'median':>7}")

#: Package names of the two trees in ``--in-process`` mode.
PACKAGES = {"old": "ab_old_engine", "new": "ab_new_engine"}


class AbError(Exception):
    """The comparison could not be made (bad base revision, failed child)."""


def export_tree(revision: str, into: str) -> None:
    """Write the files of ``revision`` of this repository into the folder ``into``."""
    archive = os.path.join(into, "tree.tar")
    proc = subprocess.run(["git", "-C", HERE, "archive", "--format=tar", "-o", archive, revision],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise AbError(f"cannot export revision {revision!r}: {proc.stderr.strip()}")
    with tarfile.open(archive) as tar:
        tar.extractall(into)
    os.remove(archive)


#: Small objects the child allocates per round number (see the module docstring).
LAYOUT_STEP = 37


def child_command(tree: str, name: str, work: bool, shallower: int = 0,
                  layout: int = 0) -> List[str]:
    kind, variant, depth = MEASURES[name]
    depth -= shallower
    return [sys.executable, "-c", CHILD, tree, kind, variant or "-", str(depth),
            "1" if work else "0", str(layout)]


def run_timed(tree: str, name: str, layout: int) -> Tuple[int, float]:
    """(count, CPU seconds) of one measurement in a fresh process."""
    proc = subprocess.run(child_command(tree, name, True, layout=layout), capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise AbError(f"{name} failed in {tree}: {proc.stderr.strip()[-500:]}")
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return data["count"], max(data["seconds"], 1e-9)


def run_callgrind(tree: str, name: str, work: bool) -> int:
    """Instructions executed by one measurement under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    proc = subprocess.run(cmd + child_command(tree, name, work, CALLGRIND_SHALLOWER),
                          capture_output=True, text=True,
                          env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise AbError(f"callgrind {name} failed in {tree}: {proc.stderr.strip()[-500:]}")
    return int(found.group(1))


def compare_time(trees: Dict[str, str], names: List[str], rounds: int) -> bool:
    seconds: Dict[Tuple[str, str], List[float]] = {}
    counts: Dict[Tuple[str, str], int] = {}
    for r in range(rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for name in names:
            for side in order:
                count, used = run_timed(trees[side], name, r * LAYOUT_STEP)
                counts[(side, name)] = count
                seconds.setdefault((side, name), []).append(used)
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    ok = True
    print(HEADER)
    for name in names:
        old, new = seconds[("old", name)], seconds[("new", name)]
        old_rate = counts[("old", name)] / min(old)
        new_rate = counts[("new", name)] / min(new)
        paired = median([o / n for o, n in zip(old, new)])  # same round, same layout
        same = counts[("old", name)] == counts[("new", name)]
        ok &= same
        note = "" if same else f"  COUNTS DIFFER: old {counts[('old', name)]}"
        print(f"{name:22} {counts[('new', name)]:>11} {old_rate:>12,.0f} {new_rate:>12,.0f}"
              f" {new_rate / old_rate:>8.3f} {paired:>7.3f}{note}", flush=True)
    return ok


def median(values: List[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def compare_in_process(trees: Dict[str, str], names: List[str], rounds: int, processes: int,
                       scratch: str) -> bool:
    packages = os.path.join(scratch, "packages")
    for side, tree in trees.items():
        shutil.copytree(os.path.join(tree, "draughts_engine"),
                        os.path.join(packages, PACKAGES[side]),
                        ignore=shutil.ignore_patterns("__pycache__"))
    ok = True
    print(HEADER)
    for name in names:
        kind, variant, depth = MEASURES[name]
        seconds: Dict[str, List[float]] = {"old": [], "new": []}
        counts: Dict[str, int] = {}
        for p in range(processes):
            order = ["old", "new"] if p % 2 == 0 else ["new", "old"]
            cmd = [sys.executable, "-c", INPROC_CHILD, packages,
                   ",".join(PACKAGES[side] for side in order), kind, variant or "-", str(depth),
                   str(rounds)]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise AbError(f"{name} failed in process: {proc.stderr.strip()[-500:]}")
            data = json.loads(proc.stdout.strip().splitlines()[-1])
            for side in order:
                seconds[side] += data["seconds"][PACKAGES[side]]
                counts[side] = data["counts"][PACKAGES[side]]
        same = counts["old"] == counts["new"]
        ok &= same
        old_rate = counts["old"] / min(seconds["old"])
        new_rate = counts["new"] / min(seconds["new"])
        paired = median([o / n for o, n in zip(seconds["old"], seconds["new"])])
        note = "" if same else f"  COUNTS DIFFER: old {counts['old']}"
        print(f"{name:22} {counts['new']:>11} {old_rate:>12,.0f} {new_rate:>12,.0f}"
              f" {new_rate / old_rate:>8.3f} {paired:>7.3f}{note}", flush=True)
    return ok


def compare_callgrind(trees: Dict[str, str], names: List[str]) -> None:
    print(f"{'measure':22} {'old instr':>14} {'new instr':>14} {'old/new':>8}")
    for name in names:
        net = {}
        for side in ("old", "new"):
            net[side] = (run_callgrind(trees[side], name, True)
                         - run_callgrind(trees[side], name, False))
        print(f"{name:22} {net['old']:>14,} {net['new']:>14,} {net['old'] / net['new']:>8.4f}",
              flush=True)


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="ab.py", description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="git revision of the old code (main)")
    parser.add_argument("--new", default=HERE,
                        help="folder or git revision of the new code (this folder)")
    parser.add_argument("--rounds", type=positive_int, default=5, help="rounds of timed runs (5)")
    parser.add_argument("--only", type=measure_list(MEASURES), default=list(MEASURES),
                        help="comma-separated measures: " + ", ".join(MEASURES))
    parser.add_argument("--in-process", action="store_true",
                        help="both trees in each process, runs alternating")
    parser.add_argument("--processes", type=positive_int, default=4,
                        help="processes of --in-process (4), each running --rounds per tree")
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    args = parser.parse_args(argv)
    names = args.only
    if args.callgrind and shutil.which("valgrind") is None:
        print("ab.py: --callgrind needs valgrind on the PATH", file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="ab-")
    try:
        trees = {"old": os.path.join(scratch, "old"), "new": os.path.abspath(args.new)}
        os.mkdir(trees["old"])
        export_tree(args.base, trees["old"])
        if not os.path.isdir(args.new):  # a revision: export it too
            trees["new"] = os.path.join(scratch, "new")
            os.mkdir(trees["new"])
            export_tree(args.new, trees["new"])
        print(f"python {sys.version.split()[0]}; old = {args.base}, new = {args.new}")
        if args.callgrind:
            compare_callgrind(trees, names)
            return 0
        if args.in_process:
            same = compare_in_process(trees, names, args.rounds, args.processes, scratch)
            return 0 if same else 1
        return 0 if compare_time(trees, names, args.rounds) else 1
    except AbError as exc:
        print(f"ab.py: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
