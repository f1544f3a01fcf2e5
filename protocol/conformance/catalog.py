"""The numbered checks of the text protocol, in the order they run (``--list`` prints them).

The numbers and names are part of the suite's interface (``--only 13-22``, CI logs): a new
check goes at the end, and a check is never renumbered.
"""

from __future__ import annotations

from typing import Callable, FrozenSet, List, Optional, Tuple

from .checks_analysis import check_clear_hash, check_mate, check_multipv, check_searchmoves
from .checks_debug import check_eval, check_perft
from .checks_errors import (
    check_bad_fen,
    check_bad_go,
    check_bad_lines,
    check_bad_moves,
    check_unknown_command,
)
from .checks_exit import check_end_of_input, check_quit, check_quit_searching
from .checks_go import (
    check_go_bare,
    check_go_clock,
    check_go_infinite,
    check_go_movestogo,
    check_go_ponder,
    check_search_positions,
    go_check,
)
from .checks_handshake import (
    check_bad_options,
    check_handshake,
    check_isready,
    check_options_accepted,
    check_spin_range,
)
from .checks_position import (
    check_display,
    check_fen,
    check_move_undo,
    check_moves,
    check_notation,
    check_startpos,
    check_ucinewgame,
)
from .checks_search import (
    check_busy,
    check_commands_wait,
    check_determinism,
    check_game_end,
    check_isready_during_search,
    check_one_bestmove,
    check_stop_latency,
)
from .errors import UsageError
from .harness import Check, Context

__all__ = ["CHECKS", "select_checks"]

_CHECK_TABLE: Tuple[Tuple[str, Callable[[Context], str], float, float], ...] = (
    # (name, function, budget units of --timeout, extra seconds)
    ("handshake", check_handshake, 3.0, 2.0),
    ("isready", check_isready, 3.0, 2.0),
    ("options accepted", check_options_accepted, 4.0, 2.0),
    ("options out of range", check_spin_range, 3.0, 2.0),
    ("options bad names and values", check_bad_options, 3.0, 2.0),
    ("startpos", check_startpos, 3.0, 2.0),
    ("d block", check_display, 3.0, 2.0),
    ("fen", check_fen, 3.0, 2.0),
    ("moves", check_moves, 3.0, 2.0),
    ("move notation", check_notation, 3.0, 2.0),
    ("move and undo", check_move_undo, 3.0, 2.0),
    ("ucinewgame", check_ucinewgame, 3.0, 2.0),
    ("go depth", go_check("go depth 3", max_depth=3), 3.0, 2.0),
    ("go nodes", go_check("go nodes 2000"), 3.0, 2.0),
    ("go movetime", go_check("go movetime 300", limit_ms=300), 3.0, 2.0),
    ("go clock", check_go_clock, 4.0, 4.0),
    ("go movestogo", check_go_movestogo, 3.0, 3.0),
    ("go infinite + stop", check_go_infinite, 3.0, 2.0),
    ("go ponder + ponderhit", check_go_ponder, 4.0, 3.0),
    ("go without limits", check_go_bare, 3.0, 2.0),
    ("search other positions", check_search_positions, 4.0, 2.0),
    ("stop latency", check_stop_latency, 3.0, 2.0),
    ("isready during search", check_isready_during_search, 3.0, 2.0),
    ("commands during search", check_busy, 4.0, 2.0),
    ("one bestmove per go", check_one_bestmove, 3.0, 3.0),
    ("bestmove (none) at game end", check_game_end, 3.0, 2.0),
    ("determinism", check_determinism, 4.0, 2.0),
    ("error: unknown command", check_unknown_command, 3.0, 2.0),
    ("error: bad go arguments", check_bad_go, 3.0, 2.0),
    ("error: bad FEN", check_bad_fen, 3.0, 2.0),
    ("error: bad moves", check_bad_moves, 3.0, 2.0),
    ("error: bad lines", check_bad_lines, 3.0, 2.0),
    ("perft", check_perft, 4.0, 2.0),
    ("eval", check_eval, 3.0, 2.0),
    ("quit", check_quit, 2.0, 3.0),
    ("quit during search", check_quit_searching, 2.0, 3.0),
    ("end of input", check_end_of_input, 3.0, 5.0),
    ("commands wait for a bounded search", check_commands_wait, 4.0, 2.0),
    ("MultiPV lines", check_multipv, 4.0, 2.0),
    ("go searchmoves", check_searchmoves, 3.0, 2.0),
    ("go mate", check_mate, 4.0, 2.0),
    ("Clear Hash", check_clear_hash, 3.0, 2.0),
)


def _summary(function: Callable[[Context], str]) -> str:
    """The check's docstring on one line (what ``--list`` shows)."""
    doc = (function.__doc__ or "").strip()
    return " ".join(doc.split())


CHECKS: Tuple[Check, ...] = tuple(
    Check(number, name, _summary(function), function, units, extra,
          per_sample=function is check_stop_latency)
    for number, (name, function, units, extra) in enumerate(_CHECK_TABLE, start=1)
)
"""Every check, numbered from 1 in the order they run."""


def select_checks(only: Optional[FrozenSet[int]]) -> List[Check]:
    """The checks to run, in order; ``only`` (numbers) must name existing checks."""
    if only is None:
        return list(CHECKS)
    unknown = sorted(only - {c.number for c in CHECKS})
    if unknown:
        raise UsageError(f"no check numbered {', '.join(map(str, unknown))} "
                         f"(1..{len(CHECKS)}; see --list)")
    return [c for c in CHECKS if c.number in only]
