#!/usr/bin/env python3
"""Grow an opening book from our own deep searches.

    pypy3 tools/build_book.py --variant english --plies 8 --depth 10 --openings ballots
    pypy3 tools/build_book.py --variant international --plies 5 --depth 7 --seconds 600

From the roots (the variant's start position, and with ``--openings`` also the end position
of every opening of a built-in set or file, as the match runner reads them), every position
is searched to ``--depth`` plies with ``--lines`` principal variations
(``SearchLimits(depth=D, multipv=K)``), deeper than a game at a short time control searches
it.  The moves scoring within ``--margin`` centi-men of the best are kept, each weighted by
its loss (``100 * 2 ** (-loss / --halving)``, at least 1: a move ``--halving`` worse than the
best is played half as often); the positions they lead to are searched in turn (both sides'
moves), breadth first, until ``--plies`` plies from the start of the game.  ``--seconds`` and
``--positions`` bound the work: the book written holds every position searched so far, and a
line on stderr says how many were left out.

``--from BOOK`` (repeatable) grows an existing book instead of starting afresh: its records are
kept as they are and their positions are not searched again, but their moves are followed, so
the tree still grows below them (the first book given wins where two hold a position).
``--shard K/N`` takes only the roots whose index (the start is 0, then the openings in order)
leaves K-1 when divided by N, so that N processes can share the work; a last run with every
shard's output as ``--from`` and ``--positions 0`` merges them without searching::

    pypy3 tools/build_book.py --variant international --openings ballots --plies 6 \
        --from draughts_engine/data/book-international.txt --shard 1/2 --out shard1.txt

The book goes to ``--out`` (default ``draughts_engine/data/book-<variant>.txt``, the book the
engine ships) in the format of :mod:`draughts_engine.book`.  PyPy builds it several times
faster than CPython; the book is the same (the search is deterministic).  Progress goes to
stderr, one line per position with ``--verbose``, else every ten seconds.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from typing import Deque, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.usage import UsageError, UsageParser, run_program  # noqa: E402

from draughts_engine.book import BookError, Entry, OpeningBook, builtin_book_path  # noqa: E402
from draughts_engine.move import Move  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchInfo, SearchLimits  # noqa: E402
from draughts_engine.variants import UnknownVariantError, Variant, get_variant  # noqa: E402

PROG = "build_book.py"
MATE_CP = 100_000
"""A won (lost) line scores this much (less the moves to the end) in the margin arithmetic."""


def _parser() -> UsageParser:
    parser = UsageParser(prog=PROG, hint=" (see --help)",
                         description="Grow an opening book from deep searches of our engine.")
    parser.add_argument("--variant", default="english")
    parser.add_argument("--plies", type=int, default=6,
                        help="book positions up to this many plies from the start (default 6)")
    parser.add_argument("--depth", type=int, default=10, help="search depth (default 10)")
    parser.add_argument("--lines", type=int, default=3,
                        help="principal variations searched per position (default 3)")
    parser.add_argument("--margin", type=int, default=15,
                        help="keep moves at most this many centi-men worse than the best "
                             "(default 15)")
    parser.add_argument("--halving", type=int, default=8,
                        help="centi-men of loss that halve a move's weight (default 8)")
    parser.add_argument("--openings", default="",
                        help="also grow the book from the end of these openings (a built-in "
                             "set such as 'ballots', or a file), as the match runner reads them")
    parser.add_argument("--seconds", type=float, default=600.0,
                        help="stop searching new positions after this long (default 600)")
    parser.add_argument("--positions", type=int, default=100_000,
                        help="search at most this many positions (0: none, to merge books)")
    parser.add_argument("--from", dest="start_from", action="append", default=[],
                        metavar="BOOK",
                        help="grow this book: its positions are kept and not searched again "
                             "(repeatable; the first book given wins)")
    parser.add_argument("--shard", default="1/1", metavar="K/N",
                        help="only the roots whose index %% N is K-1 (the start is root 0)")
    parser.add_argument("--hash", type=int, default=64, help="hash table in MiB (default 64)")
    parser.add_argument("--out", default="", help="the book file (default: the shipped book)")
    parser.add_argument("--verbose", action="store_true", help="one line per position")
    return parser


def _line_score(info: SearchInfo) -> int:
    if info.mate_in is not None:
        return MATE_CP - abs(info.mate_in) if info.mate_in > 0 else -MATE_CP + abs(info.mate_in)
    return info.score_cp or 0


def search_lines(searcher: Searcher, position: Position, depth: int,
                 lines: int) -> List[Tuple[Move, int]]:
    """(first move, score) of each line of the last completed depth, best first."""
    found: Dict[int, SearchInfo] = {}

    def report(info: SearchInfo) -> None:
        if info.bound or not info.pv:
            return
        number = info.multipv or 1
        if number == 1:
            found.clear()
        found[number] = info

    searcher.search(position, SearchLimits(depth=depth, multipv=lines), on_info=report,
                    stop=threading.Event())
    ranked = [(info.pv[0], _line_score(info)) for _, info in sorted(found.items())]
    ranked.sort(key=lambda pair: -pair[1])
    return ranked


def book_moves(ranked: Sequence[Tuple[Move, int]], margin: int,
               halving: int) -> List[Tuple[Move, int]]:
    """The moves within ``margin`` of the best, weighted by their loss (see the module
    docstring); the best move always."""
    if not ranked:
        return []
    best = ranked[0][1]
    kept = []
    for move, score in ranked:
        loss = best - score
        if loss <= margin:
            kept.append((move, max(1, round(100 * 2 ** (-loss / max(halving, 1))))))
    return kept


def _roots(variant: Variant, openings: str) -> List[Tuple[Position, int]]:
    roots = [(Position.start(variant), 0)]
    if openings:
        from protocol.match.openings import OpeningError, resolve_openings
        try:
            found, _ = resolve_openings(openings, variant)
        except OpeningError as exc:
            raise UsageError(str(exc)) from None
        for opening in found:
            game = opening.game(variant)
            roots.append((game.position, len(opening.moves) if opening.fen ==
                          Position.start(variant).fen() else 0))
    return roots


def build(variant: Variant, plies: int, depth: int, lines: int, margin: int, halving: int,
          openings: str = "", seconds: float = 600.0, positions: int = 100_000,
          hash_mb: int = 64, verbose: bool = False, start_from: Sequence[OpeningBook] = (),
          shard: Tuple[int, int] = (1, 1)) -> OpeningBook:
    """Grow a book as the module docstring says (``start_from``: the ``--from`` books;
    ``shard``: ``(K, N)`` of ``--shard``)."""
    records: Dict[int, Entry] = {}
    for older in reversed(start_from):  # the first book given wins
        records.update(older.records)
    book = OpeningBook(variant, records, "built")
    searcher = Searcher(hash_mb=hash_mb)
    index, count = shard
    queue: Deque[Tuple[Position, int]] = deque(
        (position, ply) for number, (position, ply) in enumerate(_roots(variant, openings))
        if ply < plies and number % count == index - 1)
    seen = set()
    started = time.monotonic()
    shown = started
    searched = unsearched = 0
    while queue and time.monotonic() - started < seconds:
        position, ply = queue.popleft()
        key = position.zobrist
        if key in seen or not position.legal_moves():
            continue
        seen.add(key)
        kept = book.moves(position)
        if kept is None:
            if searched >= positions:
                unsearched += 1
                continue
            searcher.new_game()  # a fresh table for each position: a shard builds what one run does
            kept = book_moves(search_lines(searcher, position, depth, lines), margin, halving)
            searched += 1
            if not kept:
                continue
            book.add(position, kept)
        for move, _ in kept:
            if ply + 1 < plies:
                queue.append((position.play(move), ply + 1))
        now = time.monotonic()
        if verbose or now - shown >= 10:
            shown = now
            moves = " ".join(f"{m.pdn()}:{w}" for m, w in kept)
            print(f"{now - started:7.1f}s ply {ply} searched {searched} queued {len(queue)} "
                  f"| {moves}", file=sys.stderr, flush=True)
    if queue or unsearched:
        print(f"{PROG}: the book is not complete to {plies} plies: {unsearched} positions over "
              f"--positions {positions}, {len(queue)} still queued after --seconds {seconds:g}",
              file=sys.stderr, flush=True)
    return book


def _shard(text: str) -> Tuple[int, int]:
    """``K/N`` as ``(K, N)`` with 1 <= K <= N; :class:`UsageError` otherwise."""
    index, slash, count = text.partition("/")
    if not (slash and index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise UsageError(f"--shard {text}: expected K/N with 1 <= K <= N (such as 1/2)")
    return int(index), int(count)


def main(argv: Optional[Sequence[str]] = None) -> int:
    def run(args_list: Sequence[str]) -> int:
        args = _parser().parse_args(args_list)
        try:
            variant = get_variant(args.variant)
        except UnknownVariantError as exc:
            raise UsageError(str(exc)) from None
        for name in ("plies", "depth", "lines", "hash"):
            if getattr(args, name) < 1:
                raise UsageError(f"--{name} must be at least 1")
        for name in ("margin", "positions"):
            if getattr(args, name) < 0:
                raise UsageError(f"--{name} must be at least 0")
        shard = _shard(args.shard)
        start_from = []
        for path in args.start_from:
            try:
                older = OpeningBook.load(path)
            except BookError as exc:
                raise UsageError(str(exc)) from None
            if older.variant.name != variant.name:
                raise UsageError(f"--from {path}: a {older.variant.name} book, "
                                 f"not {variant.name}")
            start_from.append(older)
        out = args.out or builtin_book_path(variant)
        if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
            raise UsageError(f"--out {out}: no such folder")
        started = time.monotonic()
        book = build(variant, args.plies, args.depth, args.lines, args.margin, args.halving,
                     args.openings, args.seconds, args.positions, args.hash, args.verbose,
                     start_from, shard)
        book.save(out)
        print(f"{out}: {len(book)} positions, {os.path.getsize(out)} bytes, "
              f"{time.monotonic() - started:.0f} s (depth {args.depth}, {args.lines} lines, "
              f"margin {args.margin}, {args.plies} plies)")
        return 0

    return run_program(PROG, run, argv)


if __name__ == "__main__":
    sys.exit(main())
