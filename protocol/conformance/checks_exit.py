"""Checks 35-37: leaving. ``quit`` (idle and during a search) and end of input end the process
with status 0 at once (PROTOCOL.md section 9)."""

from __future__ import annotations

import time
from typing import Optional

from .errors import CheckFailed, fail
from .harness import Context
from .search_run import SearchRun
from .steps import expect_exit, set_position

__all__ = ["check_quit", "check_quit_searching", "check_end_of_input"]


def check_quit(context: Context) -> str:
    """quit: exit status 0 at once, nothing more written."""
    handle = context.spawn()
    handle.send("quit")
    return expect_exit(handle, context.config, "quit", time.monotonic())


def check_quit_searching(context: Context) -> str:
    """quit during go infinite: exit status 0 at once (the stopped search's bestmove may be
    written first)."""
    handle = context.spawn()
    set_position(handle)
    run = SearchRun(handle, "go infinite")
    run.hold(0.2)
    handle.send("quit")
    return expect_exit(handle, context.config, "quit during a search", time.monotonic(),
                       bestmove_allowed=True)


def check_end_of_input(context: Context) -> str:
    """End of input: exit status 0 at once, idle and during go infinite and a bare go (the
    search is stopped; its bestmove may be written). A search with a limit of its own may run
    to its end first (PROTOCOL.md section 9), so none is tried. Every case is tried; failures
    are joined."""
    passed, failed = [], []
    for go_line in (None, "go infinite", "go"):
        what = "end of input" + (f" during {go_line!r}" if go_line else "")
        try:
            passed.append(_end_of_input_case(context, go_line, what))
        except CheckFailed as exc:
            failed.append(str(exc))
    if failed:
        raise fail("; ".join(failed))
    return "; ".join(passed)


def _end_of_input_case(context: Context, go_line: Optional[str], what: str) -> str:
    handle = context.spawn()
    if go_line is not None:
        set_position(handle)
        run = SearchRun(handle, go_line)
        run.hold(0.2, allow_bestmove=True)
        if run.best is not None:
            return f"{go_line} ended before end of input"
    handle.close_input()
    return expect_exit(handle, context.config, what, time.monotonic(),
                       bestmove_allowed=go_line is not None)
