"""Listening for DXP initiators: one connection at a time, one session (and engine) for all."""
from __future__ import annotations

import socket
import threading
from typing import Any, Callable, Optional, Tuple

from protocol.dxp.follower import DxpFollower, DxpSettings
from protocol.session import Session

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "serve", "default_engine_factory"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 27531


def default_engine_factory(settings: DxpSettings) -> Any:
    """The engine search with the settings' hash size and evaluation."""
    from draughts_engine.search.engine import Searcher
    return Searcher(hash_mb=settings.hash_mb, evaluation=settings.evaluation, algorithm="pvs")


def serve(settings: DxpSettings, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          once: bool = False,
          engine_factory: Callable[[DxpSettings], Any] = default_engine_factory,
          log: Callable[[str], None] = lambda text: None,
          ready: Optional[Callable[[Tuple[str, int]], None]] = None,
          stop: Optional[threading.Event] = None,
          notice: Optional[Callable[[str], None]] = None) -> int:
    """Listen on ``host:port`` and follow one initiator at a time; returns 0.

    ``ready`` is called with the bound address (useful with port 0); ``stop`` ends the loop
    between connections; ``once`` serves a single connection.  ``log`` and ``notice`` are
    those of :class:`DxpFollower`.  Raises OSError (or ValueError for a malformed host) when
    it cannot listen.
    """
    session: Optional[Session] = None
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(4)
        listener.settimeout(0.2)
        if ready is not None:
            ready(listener.getsockname()[:2])
        while stop is None or not stop.is_set():
            try:
                conn, peer = listener.accept()
            except socket.timeout:
                continue
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            log(f"connection from {peer[0]}:{peer[1]}")
            if session is None:
                session = Session(settings.variant, engine=engine_factory(settings))
            try:
                DxpFollower(conn, session, settings, log, notice).run()
            except Exception as exc:  # a bug ends this connection, not the follower
                (notice or log)(f"connection failed: {exc!r}")
                try:
                    conn.close()
                except OSError:
                    pass
            if once:
                break
    finally:
        listener.close()
    return 0
