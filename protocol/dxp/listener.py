"""Listening for DXP initiators: many connections, one game (and one session and engine) at a time."""
from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable, List, Optional, Tuple

from protocol.dxp.codec import encode_chat
from protocol.dxp.follower import DxpFollower, DxpSettings, GameSlot
from protocol.session import Session

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "serve", "default_engine_factory"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 27531

_STOP_WAIT = 5.0  # seconds serve waits, in all, for its connections to end when it stops


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
    """Listen on ``host:port`` and serve every connection on a thread of its own; returns 0.

    One game is played at a time: the first connection to have a game request accepted holds
    the follower until it closes (:class:`~protocol.dxp.follower.GameSlot`); the others may
    wait, talk, and ask again.  At most ``settings.max_connections`` are open: a new one
    then takes the place of the oldest that has not started a game, or is closed at once when
    none has.  ``ready`` is called with the bound address (useful with port 0); ``stop`` ends the
    loop and the open connections (without a closing chat); ``once`` ends them after the first
    connection that played a game has closed.  ``log`` and ``notice`` are those of
    :class:`DxpFollower`.  Raises OSError (or ValueError for a malformed host) when it cannot
    listen.
    """
    say = notice or log
    session: Optional[Session] = None
    slot = GameSlot()
    connections: List[Tuple[DxpFollower, threading.Thread]] = []
    played = threading.Event()  # a connection that played a game has closed (for ``once``)

    def follow(follower: DxpFollower) -> None:
        try:
            follower.run()
        except Exception as exc:  # a bug ends this connection, not the follower
            say(f"connection failed: {exc!r}")
            try:
                follower.sock.close()
            except OSError:
                pass
        if follower.games_played:
            played.set()

    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(16)
        listener.settimeout(0.2)
        if ready is not None:
            ready(listener.getsockname()[:2])
        while not (stop is not None and stop.is_set()) and not (once and played.is_set()):
            try:
                conn, peer = listener.accept()
            except socket.timeout:
                continue
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            log(f"connection from {peer[0]}:{peer[1]}")
            connections[:] = [(f, t) for f, t in connections if t.is_alive()]
            full = len(connections) >= max(1, settings.max_connections)
            if full and not _make_room(connections, slot):
                _refuse(conn, f"{peer[0]}:{peer[1]}", settings.max_connections, say)
                continue
            if session is None:
                session = Session(settings.variant, engine=engine_factory(settings))
            follower = DxpFollower(conn, session, settings, log, notice, slot)
            thread = threading.Thread(target=follow, args=(follower,), name="dxp-connection",
                                      daemon=True)
            thread.start()
            connections.append((follower, thread))
    finally:
        listener.close()
        for follower, _ in connections:
            follower.interrupt("the follower stops")
        deadline = time.monotonic() + _STOP_WAIT
        for _, thread in connections:
            thread.join(max(0.0, deadline - time.monotonic()))
    return 0


def _make_room(connections: List[Tuple[DxpFollower, threading.Thread]], slot: GameSlot) -> bool:
    """Dismiss the oldest connection that has not started a game (False: every one has)."""
    count = len(connections)
    for index, (follower, _) in enumerate(connections):
        if slot.dismiss(follower, f"{count} connections are open, the most allowed: this one, "
                                  f"the oldest without a game, makes room for a new one"):
            del connections[index]
            return True
    return False


def _refuse(conn: socket.socket, peer: str, limit: int, say: Callable[[str], None]) -> None:
    reason = (f"{limit} connections are open, the most allowed (one holds the game, any "
              f"other is closing)")
    say(f"closing the connection from {peer}: {reason}")
    try:
        conn.settimeout(1.0)
        conn.sendall(encode_chat(f"closing: {reason}").encode("ascii", "replace") + b"\0")
    except OSError:
        pass
    finally:
        conn.close()
