"""Depth ladder: the engine at depth d against itself at a fixed depth (default 2), d = 1..8.

Runs the match runner (protocol/match/) once per depth and prints a Markdown table of the
results (score, Elo difference with its 95% interval, LOS, wall time)::

    python3 bench/ladder_match.py                      # english, depths 1-8 vs 2, 20 games each
    python3 bench/ladder_match.py --games 40 --depths 1-6 --variant russian --concurrency 4
    python3 bench/ladder_match.py --out-dir ladder/   # keep the PDN files (and resume them)

Every match uses the same random openings (``--opening-plies``, ``--seed``), each played twice
with colours swapped. With ``--out-dir`` the games of depth d go to ``DIR/depth<d>.pdn`` and a
rerun resumes each file instead of replaying it.
"""

from __future__ import annotations

import io
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.match.elo import elo_interval, format_elo, los  # noqa: E402
from protocol.match import MatchError, MatchRunner, config_from_args, summarize  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH  # noqa: E402
from _cli import OneLineParser, depth_list, int_in, positive_int, variant_name  # noqa: E402


def main(argv=None) -> int:
    parser = OneLineParser(prog="ladder_match.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine-cmd", default=f"{sys.executable} -m protocol",
                        help="the engine command (default: this Python, -m protocol)")
    parser.add_argument("--depths", type=depth_list, default="1-8",
                        help="depths to test, 1-8 or 1,3,5")
    parser.add_argument("--base", type=int_in(1, MAX_DEPTH), default=2,
                        help="the fixed opponent depth (2)")
    parser.add_argument("--games", type=positive_int, default=20, help="games per depth (20)")
    parser.add_argument("--variant", type=variant_name, default="english")
    parser.add_argument("--concurrency", type=positive_int, default=os.cpu_count() or 1)
    parser.add_argument("--opening-plies", type=int_in(0), default=4)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--max-plies", type=int_in(0), default=400)
    parser.add_argument("--out-dir", help="write DIR/depth<d>.pdn (and resume them)")
    args = parser.parse_args(argv)
    depths = args.depths
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if args.out_dir:
        try:
            os.makedirs(args.out_dir, exist_ok=True)
        except OSError as exc:
            parser.error(f"--out-dir {args.out_dir}: {exc.strerror or exc}")
    rows = []
    total_start = time.monotonic()
    print(f"Depth ladder: {args.variant}, depth d vs depth {args.base}, {args.games} games each, "
          f"{args.opening_plies}-ply random openings (seed {args.seed}), concurrency "
          f"{args.concurrency}", flush=True)
    for depth in depths:
        name = f"depth{depth}"
        base = f"depth{args.base}" if depth != args.base else f"depth{args.base}-base"
        match_args = [
            "--engine", f"name={name}", f"cmd={args.engine_cmd}", f"dir={root}", f"depth={depth}",
            "--engine", f"name={base}", f"cmd={args.engine_cmd}", f"dir={root}",
            f"depth={args.base}",
            "--variant", args.variant, "--games", str(args.games),
            "--concurrency", str(args.concurrency), "--opening-plies", str(args.opening_plies),
            "--seed", str(args.seed), "--max-plies", str(args.max_plies), "--quiet",
        ]
        if args.out_dir:
            match_args += ["--pdn", os.path.join(args.out_dir, f"depth{depth}.pdn"), "--resume"]
        started = time.monotonic()
        try:
            runner = MatchRunner(config_from_args(match_args), io.StringIO(), sys.stderr)
            code = runner.run()
        except MatchError as exc:
            print(f"depth {depth}: {exc}", file=sys.stderr)
            return 2
        if code != 0:
            return code
        seconds = time.monotonic() - started
        stats = summarize(runner.records, [name, base]).pairs[0]
        est = elo_interval(stats.wins, stats.draws, stats.losses)
        rows.append((depth, stats, est, seconds))
        print(f"depth {depth}: +{stats.wins} ={stats.draws} -{stats.losses} "
              f"Elo {format_elo(est.elo)} in {seconds:.1f} s", file=sys.stderr, flush=True)
    print()
    print("| depth | vs | games | +W =D -L | score | Elo | 95% interval | LOS | time (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for depth, stats, est, seconds in rows:
        print(f"| {depth} | {args.base} | {stats.games} | +{stats.wins} ={stats.draws} "
              f"-{stats.losses} | {100 * est.score:.1f}% | {format_elo(est.elo)} | "
              f"[{format_elo(est.low)}, {format_elo(est.high)}] | "
              f"{100 * los(stats.wins, stats.draws, stats.losses):.1f}% | {seconds:.1f} |")
    print(f"\nTotal {time.monotonic() - total_start:.0f} s; "
          f"{time.strftime('%Y-%m-%d')}; python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
