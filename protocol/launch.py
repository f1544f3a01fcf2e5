"""Starting a command line so that a Ctrl-C while its modules load ends it quietly.

Ctrl-C (SIGINT) raises :class:`KeyboardInterrupt` wherever Python is, also in the middle of
an ``import``; uncaught, Python prints a traceback.  Loading this project's modules takes a
tenth of a second or more, so a user who starts a command and changes their mind at once
would see one.  Every command line of the project ends instead with status 130 (the shell's
code for SIGINT) and nothing on stderr, as it does when Ctrl-C comes later:

* :func:`run_main` imports a command's module and calls its ``main``; the ``__main__``
  modules (``python3 -m protocol`` ...) start through it, and so do the installed console
  scripts (``draughts-engine`` ...), which are the small functions at the end of this module;
* :class:`PackageLoading` guards the imports of a package's ``__init__``, which
  ``python3 -m package`` runs before the package's ``__main__``: only there (Python sets
  ``sys.argv[0]`` to ``"-m"`` while it looks for the module to run) does the interrupt end
  the process; a program that imports the package gets its KeyboardInterrupt as usual.

Only the standard library is imported here, and little of it: this module is loaded
before the guarded imports (``protocol/__init__.py`` imports nothing of the project, for the
same reason).  ``draughts_engine``, which may not import ``protocol``, never ends the
process itself: its ``__init__`` loads nothing while ``python -m`` locates the module to
run, and its ``__main__`` guards the loading of its command as :func:`run_main` does.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import TracebackType

# No ``typing`` here: importing it takes about 10 ms, a window for a Ctrl-C before the guard.

__all__ = ["INTERRUPTED_STATUS", "PackageLoading", "run_main", "locating_main_module",
           "engine", "perft", "conformance", "match", "play", "web"]

INTERRUPTED_STATUS = 130
"""The exit status of a command ended by Ctrl-C (128 + SIGINT)."""


def _leave_interrupted() -> None:
    # Nothing has been written yet, so there is nothing to flush; os._exit also skips the
    # interpreter's shutdown, where a second Ctrl-C could print a traceback of its own.
    os._exit(INTERRUPTED_STATUS)


def locating_main_module() -> bool:
    """True while ``python -m`` imports the packages of the module it is about to run."""
    return sys.argv[:1] == ["-m"]


class PackageLoading:
    """``with PackageLoading(): <the imports of a package __init__>``.

    A KeyboardInterrupt inside the block ends the process with status 130 and no output when
    ``python -m`` is loading the package to run one of its modules; otherwise (a program
    importing the package) it goes on up as usual.
    """

    def __enter__(self) -> "PackageLoading":
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if kind is not None and issubclass(kind, KeyboardInterrupt) and locating_main_module():
            _leave_interrupted()
        return False


def run_main(module: str, function: str = "main") -> int:
    """Import ``module``, call its ``function()`` and return its exit status.

    A KeyboardInterrupt while the module loads ends the process with status 130 and nothing
    on stderr; once ``function`` runs, its own handling of Ctrl-C applies (every command's
    ``main`` answers it with 130, without a traceback).
    """
    try:
        entry = getattr(importlib.import_module(module), function)
    except KeyboardInterrupt:
        _leave_interrupted()
        raise  # not reached: _leave_interrupted() ends the process
    status = entry()
    return 0 if status is None else status


# The console scripts of pyproject.toml.

def engine() -> int:
    """``draughts-engine``: the engine server (``python3 -m protocol``)."""
    return run_main("protocol.server")


def perft() -> int:
    """``draughts-perft``: ``python3 -m draughts_engine perft`` with its options."""
    return run_main("draughts_engine.cli", "perft_main")


def conformance() -> int:
    """``draughts-conformance``: ``python3 -m protocol.conformance``."""
    return run_main("protocol.conformance.cli")


def match() -> int:
    """``draughts-match``: ``python3 -m protocol.match``."""
    return run_main("protocol.match.cli")


def play() -> int:
    """``draughts-play``: ``python3 -m protocol.play``."""
    return run_main("protocol.play.cli")


def web() -> int:
    """``draughts-web``: ``python3 -m protocol.web``."""
    return run_main("protocol.web.cli")
