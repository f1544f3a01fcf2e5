"""What the evaluation's local patterns cost: with them against without, in one process.

    python3 bench/patterns.py                     # International, 5 rounds
    pypy3 bench/patterns.py --rounds 7 --depth 7

Both evaluations are built in this process (the shipped weights, with and without the
variant's patterns file) and take turns, round after round: microseconds per evaluation over
``--positions`` positions of random games (seeded), then a search of ``--searches`` of them
to ``--depth`` with a fresh table each, as nodes, CPU seconds and nodes/s.  Each figure is
the best round's; the ratios are with / without (nodes/s below 1: the patterns cost speed;
nodes above 1: the search needs more nodes to the same depth).  On PyPy the first round warms
the JIT: give at least three.  First, what the first evaluation of a process pays once:
reading the patterns file and building the evaluation with it (against without it).
"""
from __future__ import annotations

import random
import sys
import time
from typing import Dict, List, Optional

from _cli import OneLineParser, int_in, positive_int, variant_name

from draughts_engine.eval import EVALUATIONS
from draughts_engine.eval.patterns import load_patterns
from draughts_engine.eval.terms import make_endgame
from draughts_engine.eval.tuned import build_linear, load_weights
from draughts_engine.position import Position
from draughts_engine.search.engine import Searcher
from draughts_engine.search.limits import SearchLimits
from draughts_engine.variants import get_variant


def random_positions(variant: str, count: int, seed: int) -> List[Position]:
    """Positions 10 to 70 plies into random games (no finished game)."""
    rng = random.Random(seed)
    out: List[Position] = []
    while len(out) < count:
        position = Position.start(variant)
        for _ in range(rng.randrange(10, 70)):
            moves = position.raw_moves()
            if not moves:
                break
            position = position.play_raw(rng.choice(moves))
        if position.raw_moves():
            out.append(position)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = OneLineParser(prog="patterns.py", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", type=variant_name, default="international")
    parser.add_argument("--rounds", type=positive_int, default=5)
    parser.add_argument("--positions", type=positive_int, default=3000)
    parser.add_argument("--searches", type=positive_int, default=20)
    parser.add_argument("--depth", type=int_in(1, 30), default=6)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)
    weights = load_weights(variant)
    start = time.perf_counter()
    patterns = load_patterns(variant)
    read = time.perf_counter() - start
    if weights is None or patterns is None:
        parser.error(f"{variant.name} has no weights or no patterns file: nothing to compare")
    start = time.perf_counter()
    plain = build_linear(variant, weights, make_endgame(variant))
    built_plain = time.perf_counter() - start
    start = time.perf_counter()
    folded = build_linear(variant, weights, make_endgame(variant), patterns=patterns)
    built = time.perf_counter() - start
    print(f"first evaluation: {read * 1000:.1f} ms to read the patterns, {built * 1000:.1f} ms "
          f"to build the evaluation with them ({built_plain * 1000:.1f} ms without)", flush=True)
    functions = {"without": plain, "with": folded}
    for name, function in functions.items():  # the searches find them by name
        EVALUATIONS[f"bench-{name}"] = lambda _variant, function=function: function
    positions = random_positions(variant.name, args.positions, args.seed)
    raws = [p.raw for p in positions]
    searched = positions[:args.searches]
    best: Dict[str, Dict[str, float]] = {name: {} for name in functions}
    for round_number in range(args.rounds):
        order = list(functions) if round_number % 2 == 0 else list(functions)[::-1]
        for name in order:
            function = functions[name]
            start = time.process_time()
            for raw in raws:
                function(*raw)
            micro = (time.process_time() - start) * 1e6 / len(raws)
            nodes = 0
            start = time.process_time()
            for position in searched:
                searcher = Searcher(evaluation=f"bench-{name}")
                nodes += searcher.search(position, SearchLimits(depth=args.depth)).nodes
            seconds = time.process_time() - start
            figures = best[name]
            figures["us"] = min(figures.get("us", micro), micro)
            figures["nodes"] = nodes
            figures["seconds"] = min(figures.get("seconds", seconds), seconds)
            print(f"round {round_number + 1} {name:>7}: {micro:6.2f} us/eval, {nodes} nodes "
                  f"in {seconds:.2f} s ({nodes / max(seconds, 1e-9):,.0f} nodes/s)", flush=True)
    without, with_ = best["without"], best["with"]
    nps = {name: f["nodes"] / max(f["seconds"], 1e-9) for name, f in best.items()}
    print(f"best: {without['us']:.2f} -> {with_['us']:.2f} us/eval "
          f"({with_['us'] / without['us']:.2f}x); nodes to depth {args.depth} "
          f"{int(without['nodes'])} -> {int(with_['nodes'])} "
          f"({with_['nodes'] / without['nodes']:.2f}x); nodes/s {nps['without']:,.0f} -> "
          f"{nps['with']:,.0f} ({nps['with'] / nps['without']:.2f}x); time to depth "
          f"{with_['seconds'] / without['seconds']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
