"""Fit the evaluation's weights on positions of self-play games (the Texel method).

    python3 tools/tune_eval.py selfplay --variant english --games 600 --depth 6 \\
        --out tools/data/selfplay-english.pdn.gz
    python3 tools/tune_eval.py fit --variant english tools/data/selfplay-english.pdn.gz \\
        --out draughts_engine/data/weights-english.json

``selfplay`` plays the engine against itself in this process (``--processes`` at once) at a
fixed depth from random openings (``--random-plies``, kept only when a search of
``--check-depth`` scores them within ``--balance`` centi-men: no lost-at-once openings) and
writes standard PDN (gzip when the name ends in ``.gz``); ``draughts-match`` PDN files serve
as well; an existing ``--out`` is continued with ``--resume`` (the games whose ``Round`` it
lacks) or replaced with ``--overwrite``, never appended to silently.  ``fit`` replays the
games (not forfeits: a ``Termination`` other than normal or adjudication is skipped), keeps
the quiet positions (neither side can capture, no king ending) after ``--skip-plies``, labels each with its game's result, and fits the weights
of :mod:`draughts_engine.eval.tuned` by logistic regression: the probability of a White win
(a draw counting half) is ``1 / (1 + 10 ** (-K * score / 400))`` with ``score`` the model's
(material fixed: man 100, king the variant's value), the loss the cross-entropy plus
``--l2`` times the squared weights; Newton steps for the weights alternate with a search
for K.  One game in ten (``--holdout``) is kept out of the fit and scored at the end, against
the hand-set evaluation on the same positions.  Several variants (``--variant
russian,brazilian``) pool their games (one board size) and get one file each.
``--search-labels FILE`` (scores of ``tools/label_positions.py``) mixes each position's label:
``--result-weight`` times the game's result plus the rest times the search score's win
probability on the scale ``--search-k``; the held-out loss is still against the results.

Needs numpy (the tuning only; the engine reads the resulting JSON with the standard library).
Bad usage or an unreadable file: one line and exit status 2.
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.usage import UsageError, UsageParser, run_program  # noqa: E402

from draughts_engine.eval import evaluation_names, evaluator  # noqa: E402
from draughts_engine.eval.tuned import feature_names, features, fitted_weights  # noqa: E402
from draughts_engine.game import Game  # noqa: E402
from draughts_engine.errors import InvalidPdnError  # noqa: E402
from draughts_engine.pdn import stream_games  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchLimits  # noqa: E402
from draughts_engine.variants import Variant, get_variant  # noqa: E402

WHITE_WINS = {"1-0", "2-0"}
BLACK_WINS = {"0-1", "0-2"}
DRAWS = {"1/2-1/2", "1-1"}


MAX_OPENING_TRIES = 2000
"""Random openings tried per game before ``--balance`` is taken for unreachable."""

SCORED_TERMINATIONS = {"normal", "adjudication"}
"""The ``Termination`` tags of games whose result ``fit`` learns from (a game without the tag
counts as normal; a forfeit says nothing about its positions)."""


class NoOpeningError(Exception):
    """No random opening within ``--balance`` after :data:`MAX_OPENING_TRIES` tries."""


def _quiet_worker() -> None:
    """A pool worker's initializer: ignore Ctrl-C (the parent answers it), then let signals in."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def quiet_pool(processes: int) -> Iterator["multiprocessing.pool.Pool"]:
    """A process pool whose workers ignore Ctrl-C, as a ``with`` block.

    Ctrl-C reaches the whole process group; only the parent answers it (leaving the block ends
    the pool), so no worker prints a traceback.  SIGINT is blocked while the workers are
    forked (POSIX), so none sees it before its initializer ignores it, and a Ctrl-C pressed
    meanwhile reaches the parent once the pool is under the ``with``: it is never lost."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = multiprocessing.Pool(processes, _quiet_worker)
    except BaseException:
        if mask is not None:
            mask(signal.SIG_UNBLOCK, {signal.SIGINT})
        raise
    with pool:
        if mask is not None:
            mask(signal.SIG_UNBLOCK, {signal.SIGINT})
        yield pool


# ---------------------------------------------------------------------------
# Self-play.

def _opening(variant: str, rng: random.Random, plies: Tuple[int, int], check_depth: int,
             balance: int) -> Optional[List[str]]:
    game = Game(variant)
    for _ in range(rng.randint(*plies)):
        moves = game.legal_moves()
        if not moves or game.result().is_over:
            return None
        game.push(rng.choice(moves))
    if game.result().is_over:
        return None
    found = Searcher(hash_mb=4).search(game.position, SearchLimits(depth=check_depth))
    if found.score_cp is None or abs(found.score_cp) > balance:
        return None
    return [m.pdn() for m in game.moves]


def play_one(task: Tuple[str, int, int, Tuple[int, int], int, int, int, str]) -> str:
    """One self-play game from a random opening; its PDN text."""
    variant, seed, depth, plies, check_depth, balance, max_plies, evaluation = task
    rng = random.Random(seed)
    opening = None
    for _ in range(MAX_OPENING_TRIES):
        opening = _opening(variant, rng, plies, check_depth, balance)
        if opening is not None:
            break
    else:
        raise NoOpeningError(f"no opening of {plies[0]}-{plies[1]} random plies scores within "
                             f"--balance {balance} at --check-depth {check_depth} after "
                             f"{MAX_OPENING_TRIES} tries (game {seed}): raise --balance")
    game = Game(variant)
    game.push_all(opening)
    engine = Searcher(hash_mb=16, evaluation=evaluation)
    result = None
    while game.ply < max_plies:
        outcome = game.result()
        if outcome.is_over:
            break
        found = engine.search(game.position, SearchLimits(depth=depth),
                              history=game.search_history())
        game.push(found.best_move)
    else:
        result = "1-1" if get_variant(variant).size == 10 else "1/2-1/2"
    tags = {"Event": "tune_eval selfplay", "Round": str(seed),
            "White": f"depth {depth}", "Black": f"depth {depth}",
            "Opening": " ".join(opening)}
    if result is not None:
        tags["Result"] = result
    return game.to_pdn(tags)


def rounds_in(path: str) -> set:
    """The ``Round`` tags of the games in ``path`` (for ``--resume``)."""
    rounds = set()
    try:
        with _open_text(path) as handle:
            for line in handle:
                if line.startswith("[Round "):
                    rounds.add(line[len("[Round "):].strip().rstrip("]").strip().strip('"'))
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise UsageError(f"cannot read {path} to resume it: {exc}") from None
    return rounds


def selfplay(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    plies = args.random_plies
    tasks = [(variant.name, args.seed * 1000003 + i, args.depth, plies, args.check_depth,
              args.balance, args.max_plies, args.eval) for i in range(args.games)]
    existing = os.path.isfile(args.out) and os.path.getsize(args.out) > 0
    if existing and not (args.resume or args.overwrite):
        raise UsageError(f"{args.out} already has games: add --resume to play the missing "
                         f"ones, or --overwrite to replace them")
    if existing and args.resume:
        done_rounds = rounds_in(args.out)
        tasks = [task for task in tasks if str(task[1]) not in done_rounds]
        if not tasks:
            print(f"{args.out}: all {args.games} games are there", file=sys.stderr)
            return 0
    opener = gzip.open if args.out.endswith(".gz") else open
    started = time.monotonic()
    try:
        out_file = opener(args.out, "wt" if args.overwrite else "at",  # type: ignore[operator]
                          encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    with out_file as out:
        with quiet_pool(args.processes) as pool:
            try:
                for done, text in enumerate(pool.imap_unordered(play_one, tasks), 1):
                    out.write(text.rstrip() + "\n\n")
                    out.flush()
                    if done % 10 == 0 or done == len(tasks):
                        print(f"\r{done}/{len(tasks)} games, "
                              f"{time.monotonic() - started:.0f} s",
                              end="", file=sys.stderr, flush=True)
            except NoOpeningError as exc:
                raise UsageError(str(exc)) from None
    print(file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# Positions and the fit.

def _open_text(path: str) -> io.TextIOBase:
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")  # type: ignore[return-value]
    return open(path, encoding="utf-8")


def labelled_positions(paths: Sequence[str], variants: Sequence[Variant], skip_plies: int,
                       skipped: Optional[Dict[str, int]] = None
                       ) -> Iterator[Tuple[int, Variant, Tuple[int, int, int, bool], float]]:
    """``(game number, variant, raw position, White's result)`` of every quiet position.

    Games whose ``Termination`` is not in :data:`SCORED_TERMINATIONS` (forfeits) are skipped
    and counted in ``skipped`` (by termination)."""
    names = {v.name for v in variants}
    number = 0
    for path in paths:
        try:
            handle = _open_text(path)
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
        with handle:
            records = stream_games(handle, variants[0], source=path, strict=False)
            while True:
                try:
                    record = next(records)
                except StopIteration:
                    break
                except InvalidPdnError as exc:  # e.g. not UTF-8 (it names the file and line)
                    raise UsageError(f"cannot read {exc}") from None
                except (UnicodeDecodeError, OSError, EOFError) as exc:  # a broken .gz
                    raise UsageError(f"cannot read {path}: {exc}") from None
                number += 1
                game = record.game
                if game is None or record.error or game.variant.name not in names:
                    continue
                termination = record.tags.get("Termination", "normal")
                if termination.lower() not in SCORED_TERMINATIONS:
                    if skipped is not None:
                        skipped[termination] = skipped.get(termination, 0) + 1
                    continue
                token = record.result or record.tags.get("Result", "*")
                if token in WHITE_WINS:
                    result = 1.0
                elif token in BLACK_WINS:
                    result = 0.0
                elif token in DRAWS:
                    result = 0.5
                else:
                    continue
                position = game.start
                gen = position.generator
                for ply, move in enumerate(game.moves):
                    position = position.play_raw(move.raw)
                    if ply + 1 < skip_plies:
                        continue
                    w, b, k, wtm = position.raw
                    if gen.has_capture(w, b, k, wtm) or gen.has_capture(w, b, k, not wtm):
                        continue
                    pieces = bin(w | b).count("1")
                    if k and pieces <= (7 if game.variant.size == 10 else 6):
                        continue  # king endings: hand-set knowledge, not tuned
                    yield number, game.variant, position.raw, result


def read_search_labels(path: str) -> Dict[Tuple[int, int, int, bool], int]:
    """The search scores of ``tools/label_positions.py`` (``w b k wtm score`` lines, the
    score in centi-men from White's side) by raw position."""
    labels: Dict[Tuple[int, int, int, bool], int] = {}
    try:
        with _open_text(path) as handle:
            for number, line in enumerate(handle, 1):
                parts = line.split()
                if not parts:
                    continue  # a blank line
                try:
                    w, b, k, wtm, score = (int(x) for x in parts)
                except ValueError:  # not five integers
                    raise UsageError(f"{path}:{number}: expected 'w b k wtm score', "
                                     f"got {line.strip()[:60]!r}") from None
                labels[(w, b, k, bool(wtm))] = score
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    return labels


def win_probability(score: float, k: float) -> float:
    """White's expected result for a search score (White's side, centi-men) on the fit's
    logistic scale ``1 / (1 + 10 ** (-k * score / 400))``."""
    z = max(-40.0, min(40.0, k * score * math.log(10.0) / 400.0))
    return 1.0 / (1.0 + math.exp(-z))


def square_groups(variant: Variant, names: Sequence[str]) -> Dict[str, List[int]]:
    """Groups of table features that share a weight before their own: the men's squares of
    one row (per table), the kings' squares of one ring around the centre."""
    from draughts_engine.bitboard import geometry

    geo = geometry(variant.size)
    groups: Dict[str, List[int]] = {}
    for j, name in enumerate(names):
        if "[" not in name or name.startswith("runaway"):
            continue
        table, square = name[:-1].split("[")
        r, c = geo.row_col(int(square))
        if table == "king":
            ring = max(abs(2 * r - (variant.size - 1)), abs(2 * c - (variant.size - 1))) // 2
            key = f"king ring {ring}"
        else:
            key = f"{table} row {r}"
        groups.setdefault(key, []).append(j)
    return groups


def _fit(x, offset, y, k0: float, l2, rounds: int, fixed_k: bool = False, prior=None):
    """Weights (numpy arrays in and out; ``l2`` a number or one per column, the penalty of
    the distance from ``prior``, zeros by default), K and the loss function; with
    ``fixed_k`` K stays ``k0``."""
    import numpy as np

    n, f = x.shape
    l2 = np.broadcast_to(np.asarray(l2, dtype=float), (f,))
    prior = np.zeros(f) if prior is None else prior
    w = prior.copy()
    k = k0
    c = math.log(10.0) / 400.0

    def loss(weights, kk):
        z = np.clip(kk * c * (offset + x @ weights), -40, 40)
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-12
        return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))

    for _ in range(rounds):
        for _ in range(8 if f else 0):  # Newton steps for the weights at this K
            z = np.clip(k * c * (offset + x @ w), -40, 40)
            p = 1.0 / (1.0 + np.exp(-z))
            grad = (k * c) * (x.T @ (p - y)) / n + 2 * l2 * (w - prior)
            hess_d = (k * c) ** 2 * p * (1 - p)
            hess = (x.T * hess_d) @ x / n + 2 * np.diag(l2)
            step = np.linalg.solve(hess, grad)
            w = w - step
            if float(np.max(np.abs(step))) < 1e-3:
                break
        if fixed_k:
            break
        lo, hi = 0.2, 5.0  # golden-section search for K
        for _ in range(40):
            m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
            if loss(w, m1) < loss(w, m2):
                hi = m2
            else:
                lo = m1
        k = (lo + hi) / 2
    return w, k, loss


def fit(args: argparse.Namespace) -> int:
    try:
        import numpy as np
    except ImportError:
        raise UsageError("fit needs numpy (python3 -m pip install numpy)") from None
    variants = [get_variant(v) for v in args.variant.split(",")]
    if len({v.size for v in variants}) != 1:
        raise UsageError("pooled variants must share a board size")
    names = feature_names(variants[0])
    index = {name: i for i, name in enumerate(names)}
    rows: List[List[Tuple[int, float]]] = []
    offsets: List[float] = []
    hand: List[float] = []
    labels: List[float] = []   # what the fit learns: the result, or mixed with the search's
    results: List[float] = []  # the games' results (the report's losses are against these)
    games: List[int] = []
    started = time.monotonic()
    skipped: Dict[str, int] = {}
    searched = read_search_labels(args.search_labels) if args.search_labels else None
    missing = 0
    for number, variant, (w, b, k, wtm), result in labelled_positions(
            args.files, variants, args.skip_plies, skipped):
        if searched is not None:
            found = searched.get((w, b, k, wtm))
            if found is None:
                missing += 1
                continue
            label = (args.result_weight * result
                     + (1.0 - args.result_weight) * win_probability(found, args.search_k))
        else:
            label = result
        values = features(variant, w, b, k)
        rows.append([(index[name], value) for name, value in values.items() if value])
        white_k, black_k = w & k, b & k
        offsets.append(100.0 * (bin(w ^ white_k).count("1") - bin(b ^ black_k).count("1"))
                       + variant.king_value * (bin(white_k).count("1")
                                               - bin(black_k).count("1")))
        score = evaluator("hand", variant).evaluate(w, b, k, True)
        hand.append(float(score))
        labels.append(label)
        results.append(result)
        games.append(number)
    if missing:
        print(f"left out {missing} position(s) without a search label", file=sys.stderr)
    if skipped:
        print(f"skipped {sum(skipped.values())} game(s) that did not end normally ("
              + ", ".join(f"{n} {t}" for t, n in sorted(skipped.items())) + ")",
              file=sys.stderr)
    if not rows:
        raise UsageError(f"no labelled quiet positions of {args.variant} in the files (games "
                         "of other variants, without a result or not readable are skipped)")
    x = np.zeros((len(rows), len(names)))
    for i, row in enumerate(rows):
        for j, value in row:
            x[i, j] = value
    offset = np.array(offsets)
    y = np.array(labels)
    y_result = np.array(results)
    hand_scores = np.array(hand)
    held = np.array([g % args.holdout == 0 for g in games]) if args.holdout else \
        np.zeros(len(games), dtype=bool)
    train = ~held
    print(f"{len(rows)} positions of {len(set(games))} games "
          f"({int(held.sum())} held out), read in {time.monotonic() - started:.0f} s",
          file=sys.stderr)
    # Each table's squares are fitted as a group weight (a row of men, a ring of kings) plus
    # the square's own deviation, penalised --square-l2 times more: little data for a square
    # keeps it near its group's.
    groups = square_groups(variants[0], names)
    gx = np.zeros((x.shape[0], len(groups)))
    for g, members in enumerate(groups.values()):
        gx[:, g] = x[:, members].sum(axis=1)
    xa = np.hstack([x, gx])
    penalty = np.full(xa.shape[1], args.l2)
    for members in groups.values():
        penalty[members] = args.l2 * args.square_l2
    _, k_hand, _ = _fit(np.zeros((int(train.sum()), 0)), hand_scores[train],
                        y_result[train], 1.0, 0.0, 1)
    prior = None
    if args.prior == "hand":
        # The hand-set evaluation as seen through the model's features (least squares on
        # these positions): the weights are pulled towards it, not towards zero.
        target = hand_scores[train] - offset[train]
        xt = xa[train]
        prior = np.linalg.solve(xt.T @ xt + 1e-3 * np.eye(xt.shape[1]), xt.T @ target)
    if args.k == "free":
        coef, k, loss = _fit(xa[train], offset[train], y[train], 1.0, penalty, args.rounds,
                             prior=prior)
    else:
        k0 = k_hand if args.k == "hand" else float(args.k)
        coef, k, loss = _fit(xa[train], offset[train], y[train], k0, penalty, 1, True, prior)
    weights = coef[:len(names)].copy()
    for g, members in enumerate(groups.values()):
        weights[members] += coef[len(names) + g]

    def logloss(scores, kk, mask):
        z = np.clip(kk * math.log(10.0) / 400.0 * scores[mask], -40, 40)
        p = 1.0 / (1.0 + np.exp(-z))
        return float(-np.mean(y_result[mask] * np.log(p + 1e-12)
                              + (1 - y_result[mask]) * np.log(1 - p + 1e-12)))

    model = offset + x @ weights
    report = {
        "K": round(k, 4), "K_hand": round(k_hand, 4),
        "loss_train": round(logloss(model, k, train), 5),
        "loss_train_hand": round(logloss(hand_scores, k_hand, train), 5),
    }
    if held.any():
        report["loss_holdout"] = round(logloss(model, k, held), 5)
        report["loss_holdout_hand"] = round(logloss(hand_scores, k_hand, held), 5)
    print(json.dumps(report), file=sys.stderr)
    fitted = fitted_weights(names, list(weights))
    for variant in variants:
        out = args.out.replace("{variant}", variant.name)
        data = {
            "variant": variant.name, "board": variant.size,
            "method": ("logistic regression of game results (Texel), tools/tune_eval.py"
                       if not args.search_labels else
                       f"logistic regression of labels mixed from game results (weight "
                       f"{args.result_weight}) and search scores "
                       f"({os.path.basename(args.search_labels)}), tools/tune_eval.py"),
            "data": [os.path.relpath(p, ROOT) if os.path.isabs(p) else p for p in args.files],
            "positions": int(train.sum()), "games": len(set(games)), "l2": args.l2,
            "square_l2": args.square_l2,
            "date": time.strftime("%Y-%m-%d"), "fit": report, "weights": fitted,
        }
        try:
            with open(out, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1, sort_keys=False)
                handle.write("\n")
        except OSError as exc:  # a full disk, a folder made meanwhile
            raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
        print(f"wrote {out}", file=sys.stderr)
    return 0


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = UsageParser(prog="tune_eval.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("selfplay", help="self-play games to PDN")
    play.add_argument("--variant", default="english")
    play.add_argument("--games", type=int, default=100)
    play.add_argument("--depth", type=int, default=6)
    play.add_argument("--random-plies", default="4-8", metavar="A-B")
    play.add_argument("--check-depth", type=int, default=4)
    play.add_argument("--balance", type=int, default=60, metavar="CP")
    play.add_argument("--max-plies", type=int, default=300)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--eval", default="full")
    play.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    play.add_argument("--out", required=True)
    keep = play.add_mutually_exclusive_group()
    keep.add_argument("--resume", action="store_true",
                      help="play only the games (Round tags) --out does not have yet")
    keep.add_argument("--overwrite", action="store_true",
                      help="replace the games of an existing --out (they are lost)")
    tune = sub.add_parser("fit", help="fit weights on PDN games")
    tune.add_argument("files", nargs="+")
    tune.add_argument("--variant", default="english",
                      help="a variant, or several of one board size: russian,brazilian")
    tune.add_argument("--out", required=True,
                      help="the weights file to write ({variant} is replaced when several "
                           "variants are fitted); the engine reads "
                           "draughts_engine/data/weights-<variant>.json, so name that file to "
                           "replace its weights")
    tune.add_argument("--skip-plies", type=int, default=8)
    tune.add_argument("--search-labels", metavar="FILE",
                      help="search scores of the positions (tools/label_positions.py): the "
                      "label is mixed from the game's result and the score's win probability")
    tune.add_argument("--result-weight", type=float, default=0.5, metavar="L",
                      help="with --search-labels: the game result's share of the label "
                      "(default 0.5; 1 ignores the search)")
    tune.add_argument("--search-k", type=float, default=1.0, metavar="K",
                      help="with --search-labels: the logistic scale of the search scores")
    tune.add_argument("--l2", type=float, default=1e-4)
    tune.add_argument("--square-l2", type=float, default=10.0,
                      help="a square's own weight is penalised this many times more than "
                           "its row's (10)")
    tune.add_argument("--rounds", type=int, default=3)
    tune.add_argument("--prior", choices=("hand", "zero"), default="hand",
                      help="what the penalty pulls the weights towards: the hand-set "
                           "evaluation seen through the model's features (default), or zero")
    tune.add_argument("--k", default="hand",
                      help="the logistic scale: hand (default: fitted to the hand-set "
                           "evaluation, then fixed, as the Texel method does, so the model "
                           "keeps the material's scale), free (fitted with the weights) "
                           "or a number")
    tune.add_argument("--holdout", type=int, default=10, help="every N-th game held out "
                      "(0: none)")
    args = parser.parse_args(list(argv))
    if args.command is None:
        raise UsageError("give a command: selfplay or fit")
    if args.command == "selfplay":
        args.random_plies = _ply_range(args.random_plies)
        for name in ("games", "depth", "processes", "max_plies"):
            if getattr(args, name) < 1:
                raise UsageError(f"--{name.replace('_', '-')} must be at least 1, "
                                 f"not {getattr(args, name)}")
        if args.check_depth < 0:
            raise UsageError(f"--check-depth must not be negative, not {args.check_depth}")
        if args.balance < 0:
            raise UsageError(f"--balance must not be negative (a bound on |score|), "
                             f"not {args.balance}")
        if args.eval not in evaluation_names():
            raise UsageError(f"--eval: unknown evaluation {args.eval!r} (one of "
                             f"{', '.join(evaluation_names())})")
    try:
        for name in args.variant.split(","):
            get_variant(name)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.command == "fit":
        if not 0.0 <= args.result_weight <= 1.0:
            raise UsageError(f"--result-weight must be between 0 and 1, not {args.result_weight}")
        if not args.search_k > 0.0:
            raise UsageError(f"--search-k must be above 0, not {args.search_k}")
        if "," in args.variant and "{variant}" not in args.out:
            raise UsageError("--out needs {variant} in its name when several variants are fitted")
        for name in args.variant.split(","):
            _check_writable(args.out.replace("{variant}", get_variant(name).name), "--out")
    elif args.command == "selfplay":
        _check_writable(args.out, "--out")
    return args


def _check_writable(path: str, flag: str) -> None:
    """Refuse, before any work, an output path that cannot be written: a folder, a missing or
    unwritable parent folder."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path}: is a folder, not a file")
    if not os.path.isdir(parent):
        raise UsageError(f"{flag} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UsageError(f"{flag} {path}: not writable")


def _ply_range(text: str) -> Tuple[int, int]:
    """``--random-plies``: ``A-B`` (or one number ``A``) as ``(A, B)``, 0 <= A <= B."""
    parts = text.split("-")
    try:
        if len(parts) > 2:
            raise ValueError
        low, high = int(parts[0]), int(parts[-1])
    except ValueError:
        raise UsageError(f"--random-plies: {text!r} is not A-B (two whole numbers) "
                         "or one number") from None
    if not 0 <= low <= high:
        raise UsageError(f"--random-plies: {text!r} needs 0 <= A <= B")
    return low, high


def run(argv: Sequence[str]) -> int:
    args = parse(argv)
    return selfplay(args) if args.command == "selfplay" else fit(args)


def main(argv: Optional[Sequence[str]] = None) -> int:
    return run_program("tune_eval.py", run, argv)


if __name__ == "__main__":
    sys.exit(main())
