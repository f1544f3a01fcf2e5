"""``draughts-web`` (also ``python3 -m protocol.web``): the local web board.

    draughts-web [--host 127.0.0.1] [--port 8080] [--engine SPEC ...] [--max-boards N]
                 [--idle-timeout SECONDS] [--allow-host NAME ...] [--verbose]

It prints the page's address, serves until Ctrl-C or SIGTERM, then closes every board and
reaps every engine process. Bad usage: one line on stderr, exit status 2.
"""
from __future__ import annotations

import argparse
import math
import signal
import sys
import threading
from typing import List, Optional, Sequence

from draughts_engine import __version__

from protocol.usage import UsageError, UsageParser

from .api import WebApi
from .connections import ConnectionLimits
from .engines import EngineBook, EngineSpecError, parse_engine_spec
from .hosts import HostPolicy, is_loopback
from .registry import BoardRegistry
from .server import MAX_BODY, WebServer
from .static_files import StaticFiles

__all__ = ["main", "build_server", "WebApp"]

PROG = "draughts-web"


def _positive(kind: type, what: str):
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a positive number, got {text!r}") from None
        if not math.isfinite(value) or value <= 0:  # nan compares false with everything
            raise argparse.ArgumentTypeError(f"{what} must be a positive number, got {text!r}")
        return value
    return convert


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535, got {text!r}")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG, description="A local web board: play, analyse and watch draughts engines "
        "in the browser.",
        epilog='Engines: --engine "python3 -m protocol" or --engine "name=scan proto=hub '
               './scan hub" (repeatable; the first is the default opponent; without any, '
               "this project's engine). The page only chooses among these by name.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; anything else is "
                             "reachable from other machines)")
    parser.add_argument("--port", type=_port, default=8080,
                        help="port (default 8080; 0 picks a free one)")
    parser.add_argument("--engine", action="append", default=[], metavar="SPEC",
                        help="an engine the page may use: [name=N] [proto=uci|hub] COMMAND...")
    parser.add_argument("--max-boards", type=_positive(int, "--max-boards"), default=8,
                        metavar="N", help="boards (pages) open at once (default 8)")
    parser.add_argument("--idle-timeout", type=_positive(float, "--idle-timeout"),
                        default=30.0, metavar="SECONDS",
                        help="close a board this long after its page went away (default 30)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer requests addressed to this host name (default: IP "
                             "addresses and localhost only)")
    parser.add_argument("--verbose", action="store_true", help="log every request on stderr")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    return parser


class WebApp:
    """A configured server and its boards: :meth:`start` serves on a thread, :meth:`stop`
    closes every board (reaping engines) and the socket."""

    def __init__(self, server: WebServer, registry: BoardRegistry, api: WebApi) -> None:
        self.server = server
        self.registry = registry
        self.api = api
        self._stopped = False

    @property
    def url(self) -> str:
        return self.server.url()

    def start(self) -> "WebApp":
        self.server.start()
        self.registry.start_reaper()
        return self

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self.registry.close_all()  # which also ends every event stream
        self.server.stop()

    def __enter__(self) -> "WebApp":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def build_server(host: str = "127.0.0.1", port: int = 0, engines: Sequence[str] = (),
                 max_boards: int = 8, idle_timeout: float = 30.0,
                 allow_hosts: Sequence[str] = (), verbose: bool = False,
                 log=None, limits: Optional[ConnectionLimits] = None) -> WebApp:
    """Everything :func:`main` runs, not yet serving (tests call this directly).

    ``limits`` bounds threads and connections (default: enough event streams for
    ``max_boards`` boards, :meth:`~.connections.ConnectionLimits.for_boards`).

    Raises :class:`~.engines.EngineSpecError` for a bad engine and ``OSError`` when the
    address cannot be bound.
    """
    book = EngineBook([parse_engine_spec(text) for text in engines])
    registry = BoardRegistry(book, max_boards, idle_timeout, log=log)
    api = WebApi(registry, MAX_BODY)
    server = WebServer((host, port), api, StaticFiles(), HostPolicy(allow_hosts),
                       max_body=MAX_BODY, log=log, verbose=verbose,
                       limits=limits or ConnectionLimits.for_boards(max_boards))
    return WebApp(server, registry, api)


def _log(text: str) -> None:
    sys.stderr.write(f"{PROG}: {text}\n")
    sys.stderr.flush()


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        sys.stderr.write(f"{PROG}: error: {error}\n")
        return 2
    done = threading.Event()

    def on_signal(signum: int, frame: object) -> None:
        done.set()

    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_signal) if in_main_thread else None
    try:
        return _serve(args, done)
    finally:
        if in_main_thread and previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _serve(args: argparse.Namespace, done: threading.Event) -> int:
    """Build the server, serve until ``done`` (SIGTERM) or Ctrl-C, then stop everything."""
    try:
        app = build_server(args.host, args.port, args.engine, args.max_boards,
                           args.idle_timeout, args.allow_host, args.verbose, _log)
    except EngineSpecError as error:
        sys.stderr.write(f"{PROG}: error: {error}\n")
        return 2
    except (OSError, OverflowError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        sys.stderr.write(f"{PROG}: error: cannot listen on {args.host}:{args.port}: {reason}\n")
        return 2
    if not is_loopback(args.host):
        _log(f"warning: --host {args.host} is not a loopback address: anyone who can reach "
             "this machine can use the board and start its engines")
    lines: List[str] = [f"{PROG}: serving {app.url} (Ctrl-C to stop)"]
    lines += [f"{PROG}: engine {choice.describe()}" for choice in app.registry.engines]
    try:
        app.start()
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        app.stop()
    sys.stdout.write(f"{PROG}: stopped\n")
    sys.stdout.flush()
    return 0
