"""Time to depth with 1, 2, ... processes (``Threads``), against 1 in the same run.

    python3 bench/threads.py                                  # International, depth 9, 1 and 2
    python3 bench/threads.py --variant english --depth 13 --threads 1,2 --rounds 3
    python3 bench/threads.py --game 40 --depth 7            # the positions of one game, in order

For each position (the bench positions of the variant, or ``--fen``), each thread count
searches to the depth from a cleared table, in turns (1, 2, 1, 2, ...) for ``--rounds``
rounds, so that a noisy host hits every count alike.  With ``--game PLIES`` the positions
are those of a game the engine plays against itself from the start (depth 4 a move, so
the same game every run), searched in the order of the game with the tables kept from
one position to the next, as in a match (cleared once a round, as by ``ucinewgame``).
Wall-clock time is what a parallel search saves, so the machine's cores must be idle:
the load average is printed first.
Prints a Markdown table: threads, median seconds to the depth over all positions, the
main process's nodes (the helpers' work reaches it through the shared table: fewer
nodes there is the saving), and the ratio of time to Threads 1.
"""
from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from typing import Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.position import Position  # noqa: E402
from draughts_engine.runtime import max_threads  # noqa: E402
from draughts_engine.search.engine import BENCH_POSITIONS, Searcher  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH, SearchLimits  # noqa: E402
from _cli import OneLineParser, int_in, positive_int, variant_name  # noqa: E402


def thread_counts(text: str) -> List[int]:
    """``1,2`` -> [1, 2] (each 1..the cores; 1 first)."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"expected counts like 1,2, got {text!r}") from None
    if not values or any(not 1 <= value <= max_threads() for value in values):
        raise ValueError(f"thread counts must be in 1..{max_threads()} on this machine")
    return sorted(set(values) | {1})


def game_positions(variant: str, plies: int) -> List[Position]:
    """The positions of a game the engine plays against itself from the start, ``plies``
    plies at most (fewer if it ends), each move by a depth-4 search (the same every run)."""
    engine = Searcher()
    position = Position.start(variant)
    positions = [position]
    while len(positions) < plies:
        move = engine.search(position, SearchLimits(depth=4)).best_move
        if move is None:
            break
        position = position.play(move)
        positions.append(position)
    return positions


def main(argv: List[str] = None) -> int:  # type: ignore[assignment]
    parser = OneLineParser(prog="threads.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", type=variant_name, default="international")
    parser.add_argument("--depth", type=int_in(1, MAX_DEPTH), default=9)
    parser.add_argument("--threads", type=thread_counts, default=None)
    parser.add_argument("--rounds", type=positive_int, default=3)
    parser.add_argument("--fen", action="append", default=None,
                        help="a position to search (repeatable; default: the bench positions)")
    parser.add_argument("--game", type=int_in(1, 400), default=None, metavar="PLIES",
                        help="search the positions of a self-played game of PLIES plies, "
                             "in order, keeping the tables between them (instead of --fen)")
    parser.add_argument("--hash", type=int_in(1, 4096), default=64)
    args = parser.parse_args(argv)
    counts = args.threads or sorted({1, min(2, max_threads())})
    if args.game is not None:
        positions = game_positions(args.variant, args.game)
    else:
        fens = args.fen or [fen for variant, fen in BENCH_POSITIONS if variant == args.variant]
        positions = [Position.from_fen(fen, args.variant)
                     for fen in fens or [Position.start(args.variant).fen()]]
    engines: Dict[int, Searcher] = {}
    for count in counts:
        engines[count] = Searcher(hash_mb=args.hash)
        engines[count].set_threads(count)
    time.sleep(1.0)  # the helpers start
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    times: Dict[int, List[float]] = {count: [] for count in counts}
    main_nodes: Dict[int, List[int]] = {count: [] for count in counts}
    try:
        for _ in range(args.rounds):
            for count in counts:
                engine = engines[count]
                total = 0.0
                nodes = 0
                if args.game is not None:
                    engine.new_game()
                for position in positions:
                    if args.game is None:
                        engine.new_game()
                    time.sleep(0.05)
                    started = time.perf_counter()
                    result = engine.search(position, SearchLimits(depth=args.depth),
                                           stop=threading.Event())
                    total += time.perf_counter() - started
                    pool = engine._pool  # (the helpers' share of the count)
                    helpers = pool.table.nodes(pool.count) if pool is not None else 0
                    nodes += result.nodes - helpers
                times[count].append(total)
                main_nodes[count].append(nodes)
    finally:
        for engine in engines.values():
            engine.close()
    base = statistics.median(times[1])
    kind = f"a game of {len(positions)} plies" if args.game else f"{len(positions)} positions"
    print(f"Time to depth {args.depth}: {args.variant}, {kind}, "
          f"{args.rounds} rounds in turns, load average {load:.2f} at the start, "
          f"{os.cpu_count()} cores, python {sys.version.split()[0]} "
          f"({sys.implementation.name})\n")
    print("| Threads | median s | main-process nodes (median) | time / Threads 1 |")
    print("|---|---|---|---|")
    for count in counts:
        median = statistics.median(times[count])
        print(f"| {count} | {median:.2f} | {int(statistics.median(main_nodes[count]))} | "
              f"{median / max(base, 1e-9):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
