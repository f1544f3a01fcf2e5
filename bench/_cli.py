"""What every bench script's command line shares: one-line usage errors and checked values.

A bench script is run as ``python3 bench/<name>.py`` (this folder is then ``sys.path[0]``, so
``from _cli import ...`` finds this module).  Bad usage is one line on stderr and exit status 2,
as for the project's other tools, never a traceback: :class:`OneLineParser` reports argparse's
errors that way, and the ``type=`` checkers below refuse a bad value before any work starts.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from typing import Callable, Iterable, List, NoReturn, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from draughts_engine.eval import evaluation_key  # noqa: E402
from draughts_engine.search.limits import MAX_DEPTH  # noqa: E402
from draughts_engine.variants import UnknownVariantError, get_variant  # noqa: E402

__all__ = ["OneLineParser", "int_in", "positive_int", "positive_float", "variant_name",
           "evaluation_name", "depth_list", "measure_list", "engine_command", "ROOT"]


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``<prog>: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        print(f"{self.prog}: error: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def int_in(low: int, high: Optional[int] = None) -> Callable[[str], int]:
    """A ``type=`` for an integer in ``low..high`` (no upper bound when ``high`` is None)."""
    def check(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low or (high is not None and value > high):
            bounds = f"{low}..{high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is out of range ({bounds})")
        return value
    check.__name__ = "integer"
    return check


positive_int = int_in(1)


def positive_float(text: str) -> float:
    """A ``type=`` for a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number above 0")
    return value


def variant_name(text: str) -> str:
    """A ``type=`` for a variant name or alias; the variant's canonical name."""
    try:
        return get_variant(text).name
    except UnknownVariantError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def evaluation_name(text: str) -> str:
    """A ``type=`` for an evaluation name (see draughts_engine.eval)."""
    try:
        evaluation_key(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def depth_list(text: str) -> List[int]:
    """A ``type=`` for depths written ``A-B`` or ``A,B,C`` (each 1..MAX_DEPTH)."""
    try:
        if "-" in text:
            low, high = (int(part) for part in text.split("-", 1))
            ends = [low, high]
        else:
            ends = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a range A-B or a list A,B,C of depths") from None
    if min(ends) < 1 or max(ends) > MAX_DEPTH:  # (checked before a range is made)
        raise argparse.ArgumentTypeError(f"{text!r} names a depth outside 1..{MAX_DEPTH}")
    depths = list(range(ends[0], ends[1] + 1)) if "-" in text else ends
    if not depths:
        raise argparse.ArgumentTypeError(f"{text!r} names no depth (a range runs upwards)")
    return depths


def measure_list(measures: Iterable[str]) -> Callable[[str], List[str]]:
    """A ``type=`` for comma-separated names of measures, each one of ``measures``."""
    known = list(measures)

    def check(text: str) -> List[str]:
        names = text.split(",")
        unknown = [name for name in names if name not in known]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown measure {unknown[0]!r} (known: {', '.join(known)})")
        return names
    check.__name__ = "measure list"
    return check


def engine_command(text: str) -> List[str]:
    """A ``type=`` for an engine command line (split like a shell would); its program must exist."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    if not words:
        raise argparse.ArgumentTypeError("the engine command is empty")
    if shutil.which(words[0]) is None:
        raise argparse.ArgumentTypeError(f"{words[0]!r}: no such program")
    return words
