#!/usr/bin/env python3
"""Endgame databases: build time per material, file size, load time and probe speed.

    python3 bench/endgame.py                                   # English and International, 3 pieces
    python3 bench/endgame.py --variant russian --pieces 4 --material KKKvK
    python3 bench/endgame.py --no-build                        # only load and probe the committed files

Build: every canonical material of 2..N pieces (or the ``--material`` ones and
what they need) is solved from scratch, timed in process CPU time, and written
to a temporary folder for its size.  Probe: the committed (or just built)
tables are read (load time) and probed on random positions of each material,
then the same position set through a search at depth 1 with the databases on.
"""
from __future__ import annotations

import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from draughts_engine.endgame import EndgameTables, Material  # noqa: E402
from draughts_engine.endgame.build import solve  # noqa: E402
from draughts_engine.endgame.material import materials_up_to, unsupported_reason  # noqa: E402
from draughts_engine.endgame.store import file_name, save  # noqa: E402
from draughts_engine.position import Position  # noqa: E402
from draughts_engine.search.engine import Searcher  # noqa: E402
from draughts_engine.search.limits import SearchLimits  # noqa: E402
from draughts_engine.variants import get_variant  # noqa: E402
from _cli import OneLineParser, positive_int  # noqa: E402


def build(variant: str, pieces: int, materials, folder: str) -> None:
    todo = materials_up_to(pieces)
    if materials:
        targets = [m.canonical() for m in materials]
        todo = [m for m in todo if any(m == t or m.pieces < t.pieces or
                                       (m.pieces == t.pieces and m.men < t.men) for t in targets)]
    tables = {}
    print(f"build {variant}: material, positions, seconds, positions/s, bytes")
    total_positions = total_time = total_bytes = 0
    for material in todo:
        started = time.process_time()
        table = solve(variant, material, tables)
        spent = time.process_time() - started
        tables[material] = table
        size = save(table, os.path.join(folder, file_name(material)))
        n = table.index.size
        total_positions += n
        total_time += spent
        total_bytes += size
        print(f"  {material.name:>7} {n:>9,} {spent:8.2f} {n / max(spent, 1e-9):>10,.0f} {size:>9,}",
              flush=True)
    print(f"  {'total':>7} {total_positions:>9,} {total_time:8.2f} "
          f"{total_positions / max(total_time, 1e-9):>10,.0f} {total_bytes:>9,}")


def probe(variant: str, folders, count: int) -> None:
    tables = EndgameTables(variant, folders)
    rng = random.Random(1)
    print(f"probe {variant}: material, load ms, probes/s, search depth 1 ms/position")
    searcher = Searcher()
    for material in tables.materials:
        started = time.perf_counter()
        table = tables.table(material)
        load_ms = (time.perf_counter() - started) * 1000
        raws = []
        while len(raws) < count:
            raw = table.index.decode(rng.randrange(table.index.size))
            if raw is not None:
                raws.append(raw)
        flipped = [_flip(table, raw) for raw in raws]  # half the probes in the other colours
        sample = raws + flipped
        started = time.perf_counter()
        for raw in sample:
            tables.probe(*raw)
        rate = len(sample) / max(time.perf_counter() - started, 1e-9)
        positions = [p for p in (Position(variant, *raw) for raw in raws[:50]) if p.raw_moves()]
        started = time.perf_counter()
        for position in positions:
            searcher.search(position, SearchLimits(depth=1))
        per_search = (time.perf_counter() - started) * 1000 / max(len(positions), 1)
        print(f"  {material.name:>7} {load_ms:8.1f} {rate:>10,.0f} {per_search:8.2f}", flush=True)


def _flip(table, raw):
    from draughts_engine.endgame.index import flip
    ix = table.index
    return flip(*raw, ix.squares, ix.bit_of, ix.square0)


def main() -> int:
    parser = OneLineParser(prog="endgame.py", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append",
                        help="variant(s) (default: english, international)")
    parser.add_argument("--pieces", type=positive_int, default=3, help="build materials of up to N pieces")
    parser.add_argument("--material", action="append", default=[],
                        help="only these materials (e.g. KKKvK)")
    parser.add_argument("--no-build", action="store_true",
                        help="skip the build; probe the committed files")
    parser.add_argument("--probes", type=positive_int, default=5000, help="random positions per material")
    args = parser.parse_args()
    try:
        variants = [get_variant(v).name for v in (args.variant or ["english", "international"])]
        materials = [Material.parse(m) for m in args.material]
    except ValueError as exc:
        parser.error(str(exc))
    for variant in variants:
        reason = unsupported_reason(get_variant(variant))
        if reason is not None:
            parser.error(f"{variant} has no endgame tables: {reason}")
    print(f"python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d')}")
    for variant in variants:
        if args.no_build:
            probe(variant, None, args.probes)
            continue
        with tempfile.TemporaryDirectory() as folder:
            build(variant, args.pieces, materials, folder)
            probe(variant, [folder], args.probes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
