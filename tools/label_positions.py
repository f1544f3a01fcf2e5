"""Score the quiet positions of self-play games by a search, for ``tune_eval.py fit --search-labels``.

    pypy3 tools/label_positions.py --variant international --depth 6 \\
        tools/data/selfplay-international-d4.pdn.gz --out labels-international-d6.txt.gz

A game's result says little about one of its positions (a draw after a blunder on both
sides, a win decided fifty moves later); a search from the position says what it holds
now.  This script takes the positions ``tune_eval.py fit`` learns from (the same selection:
quiet, after ``--skip-plies``, no king ending), searches each once to ``--depth`` with the
engine's default evaluation and writes one line per distinct position::

    white black kings white_to_move score

the raw bitboards as integers, ``white_to_move`` 1 or 0, ``score`` in centi-men from
White's side (a win found: +2000, a loss: -2000).  ``fit --search-labels FILE`` then mixes
each position's label from its game's result and the score's win probability
(``--result-weight``).  Gzip when ``--out`` ends in ``.gz``; an existing ``--out`` is
replaced only with ``--overwrite``, and only once the new file is complete (an interrupted
run leaves no file).  ``--processes`` searches at once (default: the cores).
Runs on CPython and PyPy (PyPy is about three times faster here); standard library only.
Bad usage or an unreadable file: one line and exit status 2.
"""
from __future__ import annotations

import argparse
import gzip
import os
import sys
import time
from typing import List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from draughts_engine.errors import DraughtsError  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchLimits  # noqa: E402
from draughts_engine.variants import get_variant  # noqa: E402
from tune_eval import labelled_positions, quiet_pool  # noqa: E402  (one tool's parts)

from protocol.usage import UsageError, UsageParser, run_program  # noqa: E402

DECIDED = 2000
"""The score written for a position whose search found a win (its negation: a loss)."""

RawPosition = Tuple[int, int, int, bool]


def score_positions(task: Tuple[str, int, List[RawPosition]]) -> List[Tuple[RawPosition, int]]:
    """Search each position of ``task`` = (variant, depth, positions); White's scores."""
    variant, depth, positions = task
    searcher = Searcher()
    scored = []
    for w, b, k, wtm in positions:
        searcher.new_game()  # each position on its own: the labels do not depend on the order
        result = searcher.search(Position(variant, w, b, k, wtm), SearchLimits(depth=depth))
        if result.mate_in is not None:
            score = DECIDED if result.mate_in > 0 else -DECIDED
        elif result.score_cp is None:
            continue  # no legal move: not a quiet position the fit keeps anyway
        else:
            score = result.score_cp
        scored.append(((w, b, k, wtm), score if wtm else -score))
    return scored


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = UsageParser(prog="label_positions.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="PDN files (gzip when the name ends in .gz)")
    parser.add_argument("--variant", default="english")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--skip-plies", type=int, default=8)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--overwrite", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.depth <= 30:
        raise UsageError(f"--depth must be between 1 and 30, not {args.depth}")
    if args.processes < 1:
        raise UsageError(f"--processes must be at least 1, not {args.processes}")
    try:
        get_variant(args.variant)
    except DraughtsError as exc:
        raise UsageError(str(exc)) from None
    if os.path.exists(args.out) and not args.overwrite:
        raise UsageError(f"{args.out} exists (--overwrite replaces it)")
    return args


def label(argv: Sequence[str]) -> int:
    args = parse(argv)
    variant = get_variant(args.variant)
    seen = set()
    positions: List[RawPosition] = []
    for _, _, raw, _ in labelled_positions(args.files, [variant], args.skip_plies):
        if raw not in seen:
            seen.add(raw)
            positions.append(raw)
    if not positions:
        raise UsageError(f"no quiet positions of {variant.name} in the files")
    chunk = 200
    tasks = [(variant.name, args.depth, positions[i:i + chunk])
             for i in range(0, len(positions), chunk)]
    started = time.monotonic()
    opener = gzip.open if args.out.endswith(".gz") else open
    done = 0
    progress = sys.stderr.isatty()
    partial = args.out + ".part"  # renamed to --out once complete: no half-written labels
    try:
        with opener(partial, "wt", encoding="utf-8") as out:  # type: ignore[operator]
            with quiet_pool(args.processes) as pool:
                for scored in pool.imap(score_positions, tasks):
                    for (w, b, k, wtm), score in scored:
                        out.write(f"{w} {b} {k} {int(wtm)} {score}\n")
                    done += len(scored)
                    if progress:  # a terminal: one line, rewritten
                        print(f"\r{done}/{len(positions)} positions, "
                              f"{time.monotonic() - started:.0f} s", end="",
                              file=sys.stderr, flush=True)
        os.replace(partial, args.out)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    print(f"{chr(10) if progress else ''}wrote {done} scored positions to {args.out} "
          f"in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    return run_program("label_positions.py", label, argv)


if __name__ == "__main__":
    sys.exit(main())
