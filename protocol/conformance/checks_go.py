"""Checks 13-21: every ``go`` limit (depth, nodes, movetime, clocks, infinite, ponder, none) and
searches from other roots; each bestmove, ponder move and pv is checked against the rules."""

from __future__ import annotations

from typing import Callable, Optional, Tuple

from draughts_engine import Position

from .errors import fail
from .harness import Context, EngineHandle
from .search_run import SearchRun, validate_search
from .steps import bounded_search, check_latency, held_search, set_position

__all__ = ["go_check", "check_go_clock", "check_go_movestogo", "check_go_infinite",
           "check_go_ponder", "check_go_bare", "check_search_positions"]


def _at_start(context: Context) -> Tuple[EngineHandle, Position]:
    """The engine, set to the start position, and that position (the root of its searches)."""
    handle = context.engine()
    set_position(handle)
    return handle, context.rules.start()


def go_check(go_line: str, limit_ms: Optional[int] = None,
              max_depth: Optional[int] = None) -> Callable[[Context], str]:
    def run(context: Context) -> str:
        handle, root = _at_start(context)
        return bounded_search(context, handle, go_line, root, limit_ms, max_depth)

    run.__doc__ = f"{go_line} from the start: legal bestmove, well-formed infos with legal pvs."
    return run


def check_go_clock(context: Context) -> str:
    """go wtime/btime/winc/binc: a legal move well within the side to move's clock (the other
    clock is much larger), and with clocks at 0 still a legal move."""
    handle, root = _at_start(context)
    own, other = 2000, 60000
    white, black = (own, other) if root.white_to_move else (other, own)
    first = bounded_search(context, handle,
                           f"go wtime {white} btime {black} winc 100 binc 100", root,
                           limit_ms=own - context.config.stop_threshold_ms)
    second = bounded_search(context, handle, "go wtime 0 btime 0", root)
    return f"{first}; clocks at 0: {second}"


def check_go_movestogo(context: Context) -> str:
    """go wtime/btime movestogo: a legal move within the clock."""
    handle, root = _at_start(context)
    own = 1500
    return bounded_search(context, handle, f"go wtime {own} btime {own} movestogo 2", root,
                          limit_ms=own - context.config.stop_threshold_ms)


def check_go_infinite(context: Context) -> str:
    """go infinite holds its bestmove until stop, then a legal one comes within the threshold."""
    handle, root = _at_start(context)
    return held_search(context, handle, "go infinite", root)


def check_go_ponder(context: Context) -> str:
    """go ponder movetime: no bestmove before ponderhit, then one within the time limit;
    go ponder + stop brings a legal bestmove too."""
    handle, root = _at_start(context)
    config = context.config
    limit_ms = 300
    run = SearchRun(handle, f"go ponder movetime {limit_ms}")
    run.hold(config.grace)
    after = run.signal("ponderhit", limit_ms / 1000 + config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(config.timeout)
    if after * 1000 > limit_ms + config.stop_threshold_ms:
        raise fail(f"bestmove came {round(after * 1000)} ms after ponderhit, more than "
                   f"{limit_ms} + {config.stop_threshold_ms} ms")
    stopped = held_search(context, handle, "go ponder wtime 10000 btime 10000", root)
    return f"ponderhit -> {summary} after {round(after * 1000)} ms; ponder + stop -> {stopped}"


def check_go_bare(context: Context) -> str:
    """go without limits: a bestmove when the search ends, or after stop within the threshold."""
    handle, root = _at_start(context)
    run = SearchRun(handle, "go")
    run.hold(context.config.grace, allow_bestmove=True)
    ended = run.best is not None
    latency = run.stop(context.config.timeout)
    summary = validate_search(run, context.rules, root)
    run.settle(context.config.timeout)
    if ended:
        return f"{summary} (ended by itself)"
    check_latency("stop", latency, context.config)
    return f"{summary}; stop answered in {round(latency * 1000)} ms"


def check_search_positions(context: Context) -> str:
    """Searches from other roots: a forced capture after moves, a position with kings and a
    multi-capture (whose bestmove must name every landing square)."""
    handle = context.engine()
    rules = context.rules
    line = rules.opening_line()
    prefix = line.moves[:line.capture_at]
    set_position(handle, moves=prefix)
    done = [bounded_search(context, handle, "go depth 3", rules.play(rules.start(), prefix),
                           max_depth=3)]
    set_position(handle, fen=rules.kings_fen())
    done.append(bounded_search(context, handle, "go depth 3", rules.from_fen(rules.kings_fen()),
                               max_depth=3))
    multi = rules.multi_capture()
    if multi is not None:
        set_position(handle, fen=multi.fen)
        done.append(bounded_search(context, handle, "go depth 2", rules.from_fen(multi.fen),
                                   max_depth=2))
    return "; ".join(done)
