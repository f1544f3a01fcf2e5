#!/usr/bin/env python3
"""PDN reading speed and memory: games/s and peak memory over a generated file.

    python3 bench/pdn_read.py                    # 100,000 games (a few minutes)
    python3 bench/pdn_read.py --games 10000      # quicker

The file holds ``--games`` games: ``--pool`` seeded random games of the
variant (at most ``--max-plies`` plies each) written over and over with their
own Round tag.  It is read three ways:

* ``stream``: ``stream_games(path)``, every move replayed and checked, one
  game held at a time (what a reader of any size of file uses);
* ``no replay``: ``stream_games(path, replay=False)``: tags, results and move
  texts only (what tools use that need results, not positions);
* ``list``: ``read_games(path)`` on the first ``--list-games`` games only: the
  whole collection in memory, for contrast.

Speed is process time.  Memory is the tracemalloc peak of a separate pass
(tracemalloc slows Python down, so it never runs during a timed pass; ``nan`` on
PyPy, which has no tracemalloc) and the process's peak resident size
(``ru_maxrss``) after each step.
"""
from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path
from typing import Callable, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.game import Game  # noqa: E402
from draughts_engine.pdn import read_games, stream_games  # noqa: E402
from _cli import OneLineParser, positive_int, variant_name  # noqa: E402

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]


def max_rss_mb() -> float:
    """Peak resident size of this process so far, in MB (0 where unknown)."""
    if resource is None:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def write_file(path: Path, variant: str, games: int, pool: int, max_plies: int, seed: int) -> Tuple[int, int]:
    """Write the file; return (bytes, plies per game on average)."""
    rng = random.Random(seed)
    texts = []
    plies = 0
    for _ in range(pool):
        game = Game(variant)
        while game.ply < max_plies and not game.result().is_over:
            game.push(rng.choice(game.position.legal_moves()))
        plies += game.ply
        texts.append(game)
    with open(path, "w", encoding="utf-8") as out:
        for index in range(games):
            out.write(texts[index % pool].to_pdn({"Event": "bench", "Round": str(index + 1)}))
    return os.path.getsize(path), plies // pool


def timed(run: Callable[[], int]) -> Tuple[int, float]:
    started = time.process_time()
    count = run()
    return count, max(time.process_time() - started, 1e-9)


def traced_peak_mb(run: Callable[[], int]) -> float:
    """The tracemalloc peak of ``run`` in MB; NaN where there is no tracemalloc (PyPy)."""
    try:
        import tracemalloc
    except ImportError:
        return float("nan")
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / (1024 * 1024)
    finally:
        tracemalloc.stop()


def main() -> int:
    parser = OneLineParser(prog="pdn_read.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive_int, default=100_000)
    parser.add_argument("--pool", type=positive_int, default=500, help="distinct games in the file")
    parser.add_argument("--variant", type=variant_name, default="english")
    parser.add_argument("--max-plies", type=positive_int, default=120)
    parser.add_argument("--list-games", type=positive_int, default=2_000,
                        help="games read into a list for the contrast row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1 or args.pool < 1 or args.list_games < 1:
        parser.error("--games, --pool and --list-games must be at least 1")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "bench.pdn")
        size, plies = write_file(path, args.variant, args.games, args.pool, args.max_plies, args.seed)
        print(f"python {sys.version.split()[0]} ({sys.implementation.name}); {args.games} {args.variant}"
              f" games, {plies} plies each on average, {size / 1e6:.1f} MB")
        print(f"{'mode':10} {'games':>8} {'seconds':>8} {'games/s':>9} {'traced peak MB':>15}"
              f" {'max RSS MB':>11}")

        def stream() -> int:
            return sum(1 for _ in stream_games(path))

        def no_replay() -> int:
            return sum(1 for _ in stream_games(path, replay=False))

        head = "\n".join(r.text for r in islice(stream_games(path, replay=False), args.list_games))

        def as_list() -> int:
            return len(read_games(head))

        for name, run in (("stream", stream), ("no replay", no_replay), ("list", as_list)):
            count, seconds = timed(run)
            peak = traced_peak_mb(run)
            print(f"{name:10} {count:>8} {seconds:>8.2f} {count / seconds:>9.0f} {peak:>15.1f}"
                  f" {max_rss_mb():>11.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
