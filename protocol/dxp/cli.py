"""``draughts-engine --dxp`` (``python3 -m protocol --dxp``): the follower's command line.

Bad usage (an unknown flag, a value out of range, a host or port it cannot listen on) is
answered with one line on stderr and exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Callable, List, Optional, Sequence, Tuple

from draughts_engine.search.limits import MAX_DEPTH
from draughts_engine.variants import get_variant, variant_names
from protocol.dxp.follower import DxpSettings
from protocol.dxp.listener import DEFAULT_HOST, DEFAULT_PORT, serve
from protocol.options import EVAL_CHOICES
from protocol.usage import UsageError, UsageParser

__all__ = ["main", "build_parser", "UsageError"]

PROG = "draughts-engine --dxp"
_QUOTE = 64          # characters of a bad value quoted in a message, at most
_MAX_TIMEOUT = 86400.0
_MAX_NODES = 2 ** 63 - 1
_MAX_MOVE_TIME = 86400.0  # seconds: a day per move is more than any game gives


def _quoted(text: str) -> str:
    return repr(text) if len(text) <= _QUOTE else repr(text[:_QUOTE]) + "..."


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isascii() or not digits.isdigit():
            raise argparse.ArgumentTypeError(f"needs a whole number, got {_quoted(text)}")
        if len(digits) > 30 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"must be in {low}..{high}, got {_quoted(text)}")
        return int(text)
    return parse


def _seconds(low: float, high: float, zero: bool = False) -> Callable[[str], float]:
    """Seconds in ``low..high`` (and also 0 when ``zero``: "off")."""
    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if math.isnan(value):
            raise argparse.ArgumentTypeError(f"needs a number of seconds, got {_quoted(text)}")
        if not (low <= value <= high or (zero and value == 0)):
            allowed = f"0 (off) or {low:g}..{high:g}" if zero else f"{low:g}..{high:g}"
            raise argparse.ArgumentTypeError(f"must be {allowed} seconds, got {_quoted(text)}")
        return value
    return parse


def _dxp_variant(name: str) -> bool:
    """Whether DXP can carry the variant: DamExchange knows the dark-square diagonal games
    only, not the orthogonal families (Frisian, Frysk!, Turkish)."""
    variant = get_variant(name)
    return not (variant.orthogonal_captures or variant.all_squares)


def _variant(text: str) -> str:
    names = ", ".join(n for n in variant_names() if _dxp_variant(n))
    try:
        name = get_variant(text).name
    except ValueError:
        name = ""
    if not name or not _dxp_variant(name):
        raise argparse.ArgumentTypeError(f"unknown variant {_quoted(text)} for DXP (one of {names})")
    return name


def _one_of(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"must be {' or '.join(choices)}, got {_quoted(text)}")
        return text
    return parse


def _host(text: str) -> str:
    if not text or len(text) > 253 or not text.isascii() or not text.isprintable():
        raise argparse.ArgumentTypeError(f"not a host name or address: {_quoted(text)}")
    return text


def build_parser() -> argparse.ArgumentParser:
    """The follower's flags (``--help`` lists them)."""
    parser = UsageParser(prog=PROG, description="DamExchange follower (PROTOCOL.md section 11)")
    parser.add_argument("--host", type=_host, default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: loopback only)")
    parser.add_argument("--port", type=_whole(0, 65535), default=DEFAULT_PORT,
                        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--variant", metavar="NAME", type=_variant, default="international",
                        help="rules of the games (default international)")
    parser.add_argument("--hash", metavar="MIB", type=_whole(1, 1024), default=16,
                        help="hash table size in MiB (1..1024, default 16)")
    parser.add_argument("--eval", metavar="NAME", type=_one_of(*EVAL_CHOICES), default="full",
                        help=f"evaluation: {', '.join(EVAL_CHOICES)} (default full)")
    fixed = parser.add_mutually_exclusive_group()  # one fixed limit replaces the clock
    fixed.add_argument("--depth", metavar="PLIES", type=_whole(1, MAX_DEPTH),
                       help=f"search every move to this depth (1..{MAX_DEPTH})")
    fixed.add_argument("--nodes", metavar="N", type=_whole(1, _MAX_NODES),
                       help="search every move about this many nodes")
    move_time = _seconds(0.001, _MAX_MOVE_TIME)
    fixed.add_argument("--movetime", metavar="SECONDS", type=move_time,
                       help="seconds per move (overrides the game clock)")
    parser.add_argument("--default-movetime", metavar="SECONDS", type=move_time, default=1.0,
                        help="seconds per move when the game request gives no thinking time")
    timeout = _seconds(0.1, _MAX_TIMEOUT, zero=True)
    parser.add_argument("--frame-timeout", metavar="SECONDS", type=timeout, default=DxpSettings.frame_timeout,
                        help="seconds a frame may take to arrive once begun, or to be sent "
                             f"(default {DxpSettings.frame_timeout:g}; 0: no limit)")
    parser.add_argument("--idle-timeout", metavar="SECONDS", type=timeout, default=DxpSettings.idle_timeout,
                        help="seconds a connection may go without a game before it is closed "
                             f"(default {DxpSettings.idle_timeout:g}; 0: no limit)")
    parser.add_argument("--game-timeout", metavar="SECONDS", type=timeout, default=DxpSettings.game_timeout,
                        help="seconds the initiator may be silent at its turn in a game, at "
                             "least its whole game time (default "
                             f"{DxpSettings.game_timeout:g}; 0: no limit)")
    parser.add_argument("--max-connections", metavar="N", type=_whole(1, 1024),
                        default=DxpSettings.max_connections,
                        help="connections open at once, at most; a new one replaces the oldest "
                             "that has not started a game (1..1024, default "
                             f"{DxpSettings.max_connections})")
    parser.add_argument("--once", action="store_true",
                        help="exit after the first connection that played a game has closed")
    parser.add_argument("--verbose", action="store_true", help="log the frames to stderr")
    return parser


def _settings(options: argparse.Namespace) -> DxpSettings:
    return DxpSettings(variant=options.variant, hash_mb=options.hash, evaluation=options.eval,
                       depth=options.depth, nodes=options.nodes, move_time=options.movetime,
                       default_move_time=options.default_movetime,
                       frame_timeout=options.frame_timeout, idle_timeout=options.idle_timeout,
                       game_timeout=options.game_timeout,
                       max_connections=options.max_connections)


def main(args: Optional[Sequence[str]] = None) -> int:
    """Run the follower; 0 when it ends normally, 2 for bad usage or an address it cannot use."""
    argv: List[str] = list(sys.argv[1:] if args is None else args)
    if sys.stderr is None:  # started with stderr closed (``2>&-``): print() would use stdout
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    parser = build_parser()
    try:
        options = parser.parse_args(argv)
    except UsageError as exc:
        print(f"{PROG}: {_first_line(exc)} (see --help)", file=sys.stderr)
        return 2
    settings = _settings(options)

    def log(text: str) -> None:
        if options.verbose:
            print(f"dxp: {text}", file=sys.stderr, flush=True)

    def notice(text: str) -> None:
        print(f"dxp: {text}", file=sys.stderr, flush=True)

    def ready(address: Tuple[str, int]) -> None:
        print(f"dxp: listening on {address[0]}:{address[1]}", flush=True)

    try:
        return serve(settings, options.host, options.port, once=options.once, log=log,
                     ready=ready, notice=notice)
    except (OSError, OverflowError, ValueError) as exc:
        print(f"{PROG}: cannot listen on {_quoted(options.host)} port {options.port}: "
              f"{_first_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


def _first_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 500 else text[:500] + "..."
