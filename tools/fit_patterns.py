"""Fit the tuned evaluation's local patterns on positions scored by deeper searches.

    pypy3 tools/label_positions.py --variant international --depth 7 \\
        tools/data/selfplay-international-d4.pdn.gz --out labels-international-d7.txt.gz
    VENV/bin/python tools/fit_patterns.py --variant international \\
        labels-international-d7.txt.gz --out draughts_engine/data/patterns-international.json

The labels are the lines of ``tools/label_positions.py`` (``white black kings white_to_move
score``, the score White's, in centi-men, of a search of the position).  The fit keeps the
shipped weights of :mod:`draughts_engine.eval.tuned` as they are and learns what they miss:
the scores of the locations of :mod:`draughts_engine.eval.patterns` (``--shape rows``, the
default: two rows of ``--span`` squares, 3 unless told; ``--shape blocks``: blocks of 4x4
board squares; each state of each location, once for the opening and once for the ending,
tapered as the evaluation tapers them), so that the evaluation plus the patterns
predicts the search's score.  The loss is the cross-entropy between the win probabilities
``1 / (1 + 10 ** (-K * score / 400))`` of the model's score and of the search's (``K`` from
the weights file's fit, or ``--k``), plus ``--l2`` times the mean squared pattern score (the
mean over the parameters: the same ``--l2`` holds a wider span's many rare states more
loosely); Adam steps on the whole set, ``--steps`` of them, the best on the held-out
positions kept (one position in ten, ``--holdout``, chosen by ``--seed``).  A state and its
image (colours swapped, board turned) share one parameter with opposite signs, so the tables
are symmetric by construction (one table serves both sides to move: one per side gained
0.00025 of held-out loss in International, BENCHMARKS.md).  The output names its shape (and
the span of rows), its data and both held-out losses (without the patterns and with them).

Needs numpy (the fitting only; the engine reads the JSON with the standard library).  Bad
usage or an unreadable file: one line and exit status 2.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import json
import math
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.usage import UsageError, UsageParser, run_program  # noqa: E402

from draughts_engine.errors import DraughtsError  # noqa: E402
from draughts_engine.eval.patterns import (DEFAULT_SPAN, ROWS, SHAPES,  # noqa: E402
                                            images, locations, spans)
from draughts_engine.eval.terms import board_tables, make_endgame  # noqa: E402
from draughts_engine.eval.tuned import build_linear, load_weights  # noqa: E402
from draughts_engine.variants import Variant, get_variant  # noqa: E402

Labelled = Tuple[int, int, int, bool, int]
"""White, Black and kings bitboards, White to move, and the search's score from White's
side."""


def read_labels(paths: Sequence[str]) -> List[Labelled]:
    """The labelled positions of ``paths`` (gzip when a name ends in .gz), each once."""
    seen = set()
    out: List[Labelled] = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
                for number, line in enumerate(handle, 1):
                    fields = line.split()
                    if not fields:
                        continue
                    try:
                        white, black, kings, to_move, score = (int(f) for f in fields)
                    except ValueError:
                        raise UsageError(f"{path}:{number}: not a label line: "
                                         f"{line.strip()!r}") from None
                    key = (white, black, kings, to_move == 1)
                    if key not in seen:
                        seen.add(key)
                        out.append((white, black, kings, to_move == 1, score))
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return out


def canonical_parameters(size: int, span: int = DEFAULT_SPAN, shape: str = ROWS
                         ) -> Tuple[List[List[int]], List[List[int]], int]:
    """``ids[i][state]`` and ``signs[i][state]``: the parameter of each state of each
    location of ``span`` and ``shape`` and its sign (+1, -1, or 0 for a state that is its own
    image), and the count (one table for both sides to move)."""
    image = images(size, span, shape)
    ids = [[-1] * len(row) for row in image]
    signs = [[0] * len(row) for row in image]
    count = 0
    for i, row in enumerate(image):
        for state, (j, other) in enumerate(row):
            if ids[i][state] >= 0:
                continue
            if (j, other) == (i, state):
                ids[i][state], signs[i][state] = 0, 0
                continue
            ids[i][state], signs[i][state] = count, 1
            ids[j][other], signs[j][other] = count, -1
            count += 1
    return ids, signs, count


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = UsageParser(prog="fit_patterns.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="+", help="label files of tools/label_positions.py")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--out", required=True, help="the patterns file to write")
    parser.add_argument("--span", type=int, default=DEFAULT_SPAN,
                        help="squares per row of a rows location (3: six squares, 4: eight)")
    parser.add_argument("--shape", choices=SHAPES, default=ROWS,
                        help="rows: two rows of --span squares; blocks: blocks of 4x4 squares")
    parser.add_argument("--l2", type=float, default=1e-5)
    parser.add_argument("--k", type=float, default=None,
                        help="the scale K (default: the weights file's)")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.5, help="Adam's step, centi-men")
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--overwrite", action="store_true")
    args = parser.parse_args(argv)
    if os.path.exists(args.out) and not args.overwrite:
        raise UsageError(f"{args.out} exists (--overwrite replaces it)")
    if args.steps < 1 or args.holdout < 2 or args.l2 < 0:
        raise UsageError("--steps must be at least 1, --holdout at least 2, --l2 not negative")
    return args


def design(variant: Variant, labelled: List[Labelled], span: int, shape: str = ROWS):
    """numpy arrays: the base score, the target score, the phase, and per location the
    parameter id and sign of each position's state; the parameter count, and the table as
    ``(parameter, sign)`` per location and state."""
    import numpy as np
    weights = load_weights(variant)
    if weights is None:
        raise UsageError(f"{variant.name} has no weights file: nothing to add patterns to")
    base_eval = build_linear(variant, weights, make_endgame(variant))
    locs = locations(variant.size, span, shape)
    ids, signs, count = canonical_parameters(variant.size, span, shape)
    n_start = board_tables(variant.size).start_pieces
    rows = len(labelled)
    base = np.empty(rows)
    target = np.empty(rows)
    phase = np.empty(rows)
    pid = np.empty((rows, len(locs)), dtype=np.int64)
    sgn = np.empty((rows, len(locs)))
    for r, (white, black, kings, _, score) in enumerate(labelled):
        base[r] = base_eval(white, black, kings, True)
        target[r] = score
        phase[r] = min(bin(white | black).count("1"), n_start) / n_start
        wm, bm = white & ~kings, black & ~kings
        for i, loc in enumerate(locs):
            state = loc.state(wm, bm)
            pid[r, i] = ids[i][state]
            sgn[r, i] = signs[i][state]
    return base, target, phase, pid, sgn, count, ids, signs


def fit(argv: Sequence[str]) -> int:
    args = parse(argv)
    try:
        variant = get_variant(args.variant)
    except DraughtsError as exc:
        raise UsageError(str(exc)) from None
    if args.span not in spans(variant.size):
        raise UsageError(f"--span {args.span}: the {variant.size}x{variant.size} board takes "
                         f"{', '.join(map(str, spans(variant.size)))}")
    labelled = read_labels(args.labels)
    if len(labelled) < 100:
        raise UsageError(f"{len(labelled)} labelled positions: too few to fit")
    try:
        import numpy as np
    except ImportError:
        raise UsageError("the fit needs numpy (install it in a throwaway venv)") from None
    weights_file = os.path.join(ROOT, "draughts_engine", "data", f"weights-{variant.name}.json")
    k = args.k
    if k is None:
        with open(weights_file, encoding="utf-8") as handle:
            k = float(json.load(handle).get("fit", {}).get("K", 1.0))
    scale = k * math.log(10) / 400
    base, target, phase, pid, sgn, count, ids, signs = design(variant, labelled, args.span,
                                                              args.shape)
    rng = np.random.default_rng(args.seed)
    held = rng.integers(0, args.holdout, len(labelled)) == 0
    train = ~held
    y = 1 / (1 + np.exp(-scale * target))

    def loss_of(z, mask):
        p = np.clip(1 / (1 + np.exp(-scale * z[mask])), 1e-12, 1 - 1e-12)
        t = y[mask]
        return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))

    opening = np.zeros(count)
    ending = np.zeros(count)
    moments = [np.zeros(count) for _ in range(4)]
    n_train = int(train.sum())
    best = (loss_of(base, held), 0, opening.copy(), ending.copy())
    base_loss = best[0]
    for step in range(1, args.steps + 1):
        z = base + (sgn * (phase[:, None] * opening[pid] + (1 - phase[:, None]) * ending[pid])
                    ).sum(axis=1)
        if step % 25 == 0 or step == args.steps:
            held_loss = loss_of(z, held)
            if held_loss < best[0]:
                best = (held_loss, step, opening.copy(), ending.copy())
            print(f"step {step}: train {loss_of(z, train):.5f} held-out {held_loss:.5f}",
                  file=sys.stderr)
        p = 1 / (1 + np.exp(-scale * z))
        dz = np.where(train, scale * (p - y), 0.0) / n_train
        spread = (sgn * dz[:, None])
        grads = (np.bincount(pid.ravel(), (spread * phase[:, None]).ravel(), count)
                 + 2 * args.l2 * opening / count,
                 np.bincount(pid.ravel(), (spread * (1 - phase[:, None])).ravel(), count)
                 + 2 * args.l2 * ending / count)
        for params, grad, m, v in ((opening, grads[0], moments[0], moments[1]),
                                   (ending, grads[1], moments[2], moments[3])):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            params -= args.rate * (m / (1 - 0.9 ** step)) / (
                np.sqrt(v / (1 - 0.999 ** step)) + 1e-12)
    held_loss, best_step, opening, ending = best
    tables = {"open": [], "end": []}
    for key, params in (("open", opening), ("end", ending)):
        for i in range(len(ids)):
            tables[key].append([int(round(signs[i][s] * params[ids[i][s]]))
                                for s in range(len(ids[i]))])
    document: Dict[str, object] = {
        "variant": variant.name, "board": variant.size, "shape": args.shape,
        **({"span": args.span} if args.shape == ROWS else {}),
        "method": "cross-entropy against search scores, tools/fit_patterns.py",
        "data": [os.path.basename(path) for path in args.labels],
        "positions": len(labelled), "l2": args.l2, "K": k, "steps": best_step,
        "date": datetime.date.today().isoformat(),
        "fit": {"loss_holdout_without": round(base_loss, 5), "loss_holdout": round(held_loss, 5)},
    }
    lines = json.dumps(document, indent=1)[:-2] + ",\n"
    for key in ("open", "end"):
        lines += f' "{key}": [\n' + ",\n".join("  " + json.dumps(t, separators=(",", ":"))
                                               for t in tables[key])
        lines += "\n ]" + (",\n" if key == "open" else "\n}\n")
    try:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(lines)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"{len(labelled)} positions, {count} parameters per phase; held-out loss "
          f"{base_loss:.5f} without the patterns, {held_loss:.5f} with them (step {best_step}); "
          f"wrote {args.out}", file=sys.stderr)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    return run_program("fit_patterns.py", fit, argv)


if __name__ == "__main__":
    sys.exit(main())
