#!/usr/bin/env python3
"""Build endgame databases by retrograde analysis.

    python3 tools/build_endgames.py --variant english --pieces 4
    python3 tools/build_endgames.py --variant international --pieces 4 --material KKKvK
    python3 tools/build_endgames.py --variant russian --pieces 3 --out draughts_engine/endgame/data/russian

Every canonical material of 2..N pieces (or only the ``--material`` ones and
what they need) is solved and written to ``--out`` (default: the user's cache
folder, where the engine finds it: ``$XDG_CACHE_HOME/draughts-engine/endgame-2/<variant>``).
Tables already in ``--out`` or among the committed ones are read instead of
being solved again (``--force`` solves the asked-for ones again), and said so.
A progress bar goes to stderr when it is a terminal, one line per table to
stdout.  Bad usage (among it a variant the tables cannot describe, see
``unsupported_reason``, or an ``--out`` whose parent folder does not exist): one
line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from protocol.usage import UsageError, UsageParser  # noqa: E402

from draughts_engine.endgame.build import solve  # noqa: E402
from draughts_engine.endgame.material import (InvalidMaterialError, Material,  # noqa: E402
                                              materials_up_to, unsupported_reason)
from draughts_engine.endgame.paths import cache_folder, package_folder  # noqa: E402
from draughts_engine.endgame.store import (EndgameFileError, file_name, load,  # noqa: E402
                                           save)
from draughts_engine.endgame.table import Table  # noqa: E402
from draughts_engine.variants import (UnknownVariantError, Variant, get_variant,  # noqa: E402
                                      variant_names)

MAX_PIECES = 5
PROG = "build_endgames"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(prog=PROG,
                     description="Build endgame databases (win/draw/loss with distances).")
    parser.add_argument("--variant", required=True,
                        help=f"one of {', '.join(variant_names())} (aliases accepted)")
    parser.add_argument("--pieces", type=int, required=True,
                        help=f"build every material of 2..N pieces (N at most {MAX_PIECES})")
    parser.add_argument("--material", action="append", default=[],
                        help="only this material (e.g. KKKvK) and what it needs; repeatable")
    parser.add_argument("--kings-only", action="store_true", help="only materials without men")
    parser.add_argument("--out", help="folder for the files (default: the user's cache folder)")
    parser.add_argument("--force", action="store_true", help="solve the asked-for tables again")
    parser.add_argument("--codec", choices=("lzma", "zlib"), help="compression (default lzma)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


class ProgressBar:
    """A one-line progress bar on a stream, redrawn at most ten times a second."""

    def __init__(self, stream, enabled: bool) -> None:
        self.stream = stream
        self.enabled = enabled
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, material: Material, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.enabled or (done < total and now - self.last < 0.1):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(f"\r{material.name:>8} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{100 * done // max(total, 1):3d}% {done:,}/{total:,} positions "
                          f"{now - self.started:6.1f}s")
        self.stream.flush()

    def end(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def plan(variant: Variant, pieces: int, wanted: List[Material], kings_only: bool) -> List[Material]:
    """The canonical materials to have, in build order (the wanted ones and what they need)."""
    every = materials_up_to(pieces)
    if wanted:
        targets = {m.canonical() for m in wanted}
        need = set()
        for m in every:
            for t in targets:
                if m == t or m.pieces < t.pieces or (m.pieces == t.pieces and m.men < t.men):
                    need.add(m)
        every = [m for m in every if m in need]
    elif kings_only:
        every = [m for m in every if m.men == 0]
    return every


def run(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        variant = get_variant(args.variant)
    except UnknownVariantError as exc:
        raise UsageError(str(exc)) from None
    reason = unsupported_reason(variant)
    if reason is not None:
        raise UsageError(f"{variant.name} has no endgame tables: {reason}")
    if not 2 <= args.pieces <= MAX_PIECES:
        raise UsageError(f"--pieces must be 2..{MAX_PIECES}, got {args.pieces}")
    wanted = []
    for text in args.material:
        try:
            material = Material.parse(text)
        except InvalidMaterialError as exc:
            raise UsageError(str(exc)) from None
        if material.pieces > args.pieces or min(material.white_men + material.white_kings,
                                                material.black_men + material.black_kings) < 1:
            raise UsageError(f"material {text!r} does not fit --pieces {args.pieces}")
        wanted.append(material)
    out = args.out or cache_folder(variant)
    if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise UsageError(f"cannot use --out {out!r}: its parent folder does not exist")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot use --out {out!r}: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK):
        raise UsageError(f"cannot write to --out {out!r}")
    todo = plan(variant, args.pieces, wanted, args.kings_only)
    asked = {m.canonical() for m in wanted} if wanted else set(todo)
    # (a bar redrawn in place is for a terminal; a log would get hundreds of \r updates)
    bar = ProgressBar(sys.stderr, not args.quiet and sys.stderr.isatty())
    tables: Dict[Material, Table] = {}
    for material in todo:
        path = os.path.join(out, file_name(material))
        if not (args.force and material in asked):
            found = _existing(variant, material, [out, package_folder(variant)])
            if found is not None:
                tables[material], where = found
                if material in asked:
                    print(f"{variant.name} {material.name}: already built in {where} "
                          f"(--force solves it again)", flush=True)
                continue
        started = time.perf_counter()
        table = solve(variant, material, tables, bar)
        bar.end()
        size = save(table, path, args.codec)
        tables[material] = table
        wins, draws, losses = table.counts()
        print(f"{variant.name} {material.name}: {wins + draws + losses} positions, "
              f"{wins} won, {draws} drawn, {losses} lost, {time.perf_counter() - started:.1f}s, "
              f"{size} bytes -> {path}", flush=True)
    return 0


def _existing(variant: Variant, material: Material,
              folders: List[str]) -> Optional[Tuple[Table, str]]:
    """The table of ``material`` from the first of ``folders`` that holds a usable one, and
    that folder; None when none does (a file that cannot be used is named and skipped)."""
    for folder in folders:
        path = os.path.join(folder, file_name(material))
        if os.path.exists(path):
            try:
                return load(path, variant, material), folder
            except (OSError, EndgameFileError) as exc:
                print(f"{PROG}: skipping {exc}", file=sys.stderr)
    return None


def main(argv: Optional[List[str]] = None) -> int:
    try:
        return run(argv)
    except UsageError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
