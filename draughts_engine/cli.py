"""Command line of the rules core: ``python -m draughts_engine perft ...`` (``draughts-perft``).

    python -m draughts_engine perft --variant english --depth 8 [--fen FEN] [--divide]

Prints ``<move>: <count>`` per root move with ``--divide``, then a last line
``nodes N`` (and the time and leaves/s on stderr).
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import List, NoReturn, Optional

from .errors import DraughtsError
from .perft import divide, perft
from .position import Position
from .variants import variant_names


MAX_DEPTH = 30


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> "NoReturn":  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _depth(text: str) -> int:
    """A perft depth 0-30 (checked without converting long digit strings)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > 2 \
            or int(digits) > MAX_DEPTH:
        shown = digits if len(digits) <= 16 else digits[:16] + "..."
        raise argparse.ArgumentTypeError(f"depth must be 0-{MAX_DEPTH}, got {shown!r}")
    return int(digits)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m draughts_engine",
                     description="Rules-core tools of the draughts engine.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("perft", help="count leaf nodes of the legal-move tree")
    p.add_argument("--variant", default="english",
                   help=f"one of {', '.join(variant_names())} (aliases accepted)")
    p.add_argument("--depth", type=_depth, required=True, help=f"plies (0-{MAX_DEPTH})")
    p.add_argument("--fen", help="PDN FEN of the root (default: the start position)")
    p.add_argument("--divide", action="store_true", help="print the count below each root move")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m draughts_engine ...``: 0 done, 2 bad arguments, 130 interrupted (Ctrl-C)."""
    try:
        return _run(build_parser().parse_args(argv))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    try:
        root = Position.from_fen(args.fen, args.variant) if args.fen else Position.start(args.variant)
    except (DraughtsError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    if args.divide and args.depth >= 1:
        rows = divide(root, args.depth)
        for text, count in rows:
            print(f"{text}: {count}")
        total = sum(count for _, count in rows)
    else:
        total = perft(root, args.depth)
    elapsed = time.perf_counter() - started
    print(f"nodes {total}")
    rate = total / elapsed if elapsed > 0 else 0.0
    print(f"time {elapsed:.3f}s, {rate:,.0f} leaves/s", file=sys.stderr)
    return 0


def perft_main(argv: Optional[List[str]] = None) -> int:
    """The ``draughts-perft`` console script: ``draughts-perft --variant english --depth 8``."""
    return main(["perft"] + (sys.argv[1:] if argv is None else list(argv)))

