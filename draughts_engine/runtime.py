"""Which Python runs the engine, decided once at import: CPython or PyPy.

CPython's interpreter and PyPy's tracing JIT want different shapes of hot
code (CPython: few bytecodes, locals, C-level helpers such as
``int.bit_count``; PyPy: plain integer arithmetic and loops it can trace).
The hot modules read :data:`TRACED` (PyPy's shape, by default on PyPy)
once, when they build their functions, and pick one shape; both shapes are
importable, give the same results, and are tested on either interpreter.

On PyPy, importing this module also tunes the JIT once for the engine's
deeply recursive searches (:data:`JIT_PARAMS`, see :func:`tune_jit`).
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # imported where used: subprocess costs 6 ms of every start-up
    import subprocess

__all__ = ["PYPY", "IMPLEMENTATION", "TRACED", "TRACED_ENV", "JIT_PARAMS", "JIT_PARAMS_ENV",
           "tune_jit", "compile_apart", "max_threads", "reap"]

#: ``sys.implementation.name``: ``"cpython"``, ``"pypy"``, ... (the same as
#: ``platform.python_implementation()``, lower case; ``platform`` is slow to import).
IMPLEMENTATION = sys.implementation.name

#: True when the engine runs on PyPy.
PYPY = IMPLEMENTATION == "pypy"

#: Environment variable that forces the shape of the hot code: ``1`` the
#: traced (PyPy) shape, ``0`` the interpreted (CPython) shape; unset: the
#: running interpreter's (for tests and measurements of either shape anywhere).
TRACED_ENV = "DRAUGHTS_TRACED"

#: True when the hot code takes the shape a tracing JIT wants (PyPy's); read
#: once, at import, by every hot module.
TRACED = os.environ.get(TRACED_ENV, "1" if PYPY else "0").strip() == "1"

#: PyPy JIT parameters (``pypyjit.set_param``).  ``max_unroll_recursion``: how
#: many levels of a recursive call the JIT inlines into one trace (default 7).
#: The search and the capture search recurse at every node, and unrolling seven
#: levels of them made the first search of a fresh process spend about half its
#: time tracing and compiling (measured in BENCHMARKS.md).
JIT_PARAMS = "max_unroll_recursion=1,trace_limit=10000"

#: Environment variable that replaces :data:`JIT_PARAMS` (for measurements;
#: empty: keep PyPy's defaults).
JIT_PARAMS_ENV = "DRAUGHTS_PYPY_JIT"


def compile_apart(*functions: Callable[..., Any]) -> None:
    """Ask PyPy's JIT to compile each of ``functions`` on its own and call it from
    the traces of its callers, instead of copying it into each of them.

    For large functions called from many hot places (move generation, the
    quiescence search): inlined, each copy is traced and compiled again in
    every caller and in every bridge of a caller.  A no-op elsewhere, and
    where the environment left PyPy's JIT untuned.
    """
    if not PYPY or not os.environ.get(JIT_PARAMS_ENV, JIT_PARAMS).strip():
        return
    try:
        pypyjit = importlib.import_module("pypyjit")
    except ImportError:  # pragma: no cover - a PyPy built without the JIT
        return
    for function in functions:
        pypyjit.dont_trace_here(0, False, function.__code__)


def tune_jit() -> bool:
    """Apply :data:`JIT_PARAMS` (or ``$DRAUGHTS_PYPY_JIT``) to PyPy's JIT.

    False (and nothing done) on other interpreters, when the variable is empty, or when
    PyPy refuses its value (an unknown name, a ``trace_limit`` above PyPy's maximum).
    """
    params = os.environ.get(JIT_PARAMS_ENV, JIT_PARAMS).strip()
    if not PYPY or not params:
        return False
    try:
        # PyPy's built-in module (part of PyPy's standard library, unknown to
        # CPython's list of standard modules, hence imported by name).
        pypyjit = importlib.import_module("pypyjit")
    except ImportError:  # pragma: no cover - a PyPy built without the JIT
        return False
    try:
        pypyjit.set_param(params)
    except Exception:  # noqa: BLE001 - PyPy reports a bad value as SystemError, ValueError...
        # A mistyped $DRAUGHTS_PYPY_JIT must not stop the engine: PyPy's defaults stay.
        return False
    return True


tune_jit()


def max_threads() -> int:
    """Processes a search may use here (the ``Threads`` option's maximum): the cores,
    or 1 where the parallel search's helpers cannot run (outside POSIX: Windows)."""
    if os.name != "posix":
        return 1
    return max(1, os.cpu_count() or 1)


def reap(process: "subprocess.Popen[Any]", grace: float) -> None:
    """Wait up to ``grace`` seconds for a child process to end, then kill it and wait up to
    ``grace`` seconds more; never raises for a process that will not end (what is left is
    the system's to reap).  The one shape of "wait, kill, wait" of the engine and its tools."""
    import subprocess  # the caller started the process, so it is loaded already

    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        try:
            process.kill()
        except OSError:
            return  # gone in between
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            pass
