"""Checks 33-34: the optional debug commands ``perft`` (counts against the rules and published
figures) and ``eval`` (line shape). An engine without them gets SKIP."""

from __future__ import annotations

import time
from typing import List, Optional, Tuple

from draughts_engine import Position

from .errors import fail
from .harness import Context, EngineHandle
from .steps import expect_error, set_position
from .validators import compare_legal
from .wire import EngineTimeoutError, tokenize

__all__ = ["check_perft", "check_eval"]


def _read_perft(handle: EngineHandle, depth: int,
                timeout: float) -> Tuple[List[Tuple[str, int]], int]:
    handle.send(f"perft {depth}")
    rows: List[Tuple[str, int]] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = handle.read(max(0.0, deadline - time.monotonic()))
        except EngineTimeoutError:
            raise fail(f"no 'nodes' line within {timeout:.1f} s of perft {depth}") from None
        tokens = tokenize(line)
        if tokens[:1] == ["nodes"] and len(tokens) == 2 and tokens[1].isdigit():
            return rows, int(tokens[1])
        if len(tokens) == 2 and tokens[0].endswith(":") and tokens[1].isdigit():
            rows.append((tokens[0][:-1], int(tokens[1])))
        else:
            raise fail(f"malformed perft line {line!r}")


def check_perft(context: Context) -> str:
    """perft N: one '<move>: <count>' per legal move, then 'nodes <total>' matching published
    counts (English start 7 49 302 1469) and the rules elsewhere."""
    handle = context.engine()
    rules = context.rules
    set_position(handle)
    context.require(handle, "perft")
    cases: List[Tuple[Position, int, Optional[Tuple[str, ...]]]] = [
        (rules.start(), depth, None) for depth in range(1, 5)]
    line = rules.opening_line()
    prefix = line.moves[:line.capture_at]
    cases.append((rules.play(rules.start(), prefix), 3, prefix))
    totals = []
    for position, depth, moves in cases:
        if moves is not None:
            set_position(handle, moves=moves)
        rows, total = _read_perft(handle, depth, context.config.timeout * 2)
        compare_legal([text for text, _ in rows], rules, position)
        expected = rules.perft(position, depth)
        if sum(count for _, count in rows) != total or total != expected:
            raise fail(f"perft {depth} of {position.fen()}: nodes {total} (rows sum to "
                       f"{sum(c for _, c in rows)}), expected {expected}")
        totals.append(str(total))
    expect_error(handle, "perft 0", "perft:")
    return f"start perft 1..4 = {' '.join(totals[:4])}; after {' '.join(prefix)}: {totals[4]}"


def check_eval(context: Context) -> str:
    """eval: 'eval <term> <int>' lines, the last one 'eval total <int>'."""
    handle = context.engine()
    set_position(handle)
    context.require(handle, "eval")
    handle.send("eval")
    lines: List[str] = []
    while not lines or tokenize(lines[-1])[:2] != ["eval", "total"]:
        line = handle.read()
        tokens = tokenize(line)
        number = tokens[2].lstrip("-") if len(tokens) == 3 else ""
        if (len(tokens) != 3 or tokens[0] != "eval" or not tokens[1].islower()
                or not number.isdigit()):
            raise fail(f"malformed eval line {line!r}")
        lines.append(line)
        if len(lines) > 100:
            raise fail("more than 100 eval lines without 'eval total'")
    if handle.sync():
        raise fail("output after 'eval total'")
    return f"{len(lines)} lines, {lines[-1]}"
