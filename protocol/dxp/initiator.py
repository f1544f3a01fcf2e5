"""The DXP *initiator*: a DamExchange engine that listens (Kingsrow, Scan's DXP mode, our own
follower) as a player of ``draughts-match`` (PROTOCOL.md section 11.3).

:class:`DxpEngine` speaks to one follower over TCP and offers the calls the match runner makes
of an engine (``handshake``, ``new_game``, ``position``, ``start_search``, ``wait_bestmove``,
``game_over``, ``quit``), so a DXP engine plays like any other:

* the first ``go`` of a game sends the game request ``R``: the follower gets the side to move,
  the thinking time (minutes, moves) of the engine's ``tc=`` (0 and 0 without one: the
  follower's own setting), and the position as it stands: ``A`` for the start position (also
  when the follower plays Black and White has made one move from it: that move follows as
  ``M``), else ``B`` with the position, so any opening can be played; an ``A`` with a code other than 0 is the follower declining
  (:class:`DxpDeclinedError`);
* each later ``go`` sends the moves the other side made since as ``M`` messages, and the
  follower's ``M`` is the ``bestmove`` (matched against the legal moves by origin, destination
  and captured squares);
* when the runner ends the game it sends ``E`` (the result from the initiator's side: 1 I
  lose, 2 draw, 3 I win) and waits a little for the follower's ``E``; a new game after a game
  still open ends that one first;
* a back-up request ``B`` from the follower is answered ``K1`` (not supported: a match is not
  taken back); chat ``C`` is kept for the record; an ``E`` from the follower in the middle of
  a game is :class:`DxpGameEndedError` (the runner scores it as a protocol error of that
  engine).

``start`` connects to ``host:port``, or starts ``command`` (a local follower) first: with
``port`` given it connects there as soon as the port listens; without, it reads the
``listening on HOST:PORT`` line our follower prints (``--port 0`` lets it pick a free port,
so that several can run at once).
"""
from __future__ import annotations

import collections
import queue
import re
import socket
import subprocess
import threading
import time
from typing import Any, Deque, List, Optional, Sequence, Tuple

from draughts_engine.game import Game
from draughts_engine.runtime import reap
from protocol.client import EngineError, EngineTerminatedError, EngineTimeoutError
from protocol.client.reports import GoResult
from protocol.dxp.codec import (BackRequest, Chat, DxpFormatError, GameAccept, GameEnd,
                                MoveMessage, encode_back_accept, encode_game_end,
                                encode_game_request, encode_move, parse_message)
from protocol.dxp.follower import SEND_GAP, match_move
from protocol.dxp.frames import FrameError, FrameReader, close_socket

__all__ = ["DxpEngine", "DxpDeclinedError", "DxpGameEndedError", "INITIATOR_NAME",
           "LISTENING"]

INITIATOR_NAME = "draughts-match"
LISTENING = re.compile(r"listening on (\S+):(\d+)\s*$")
"""The line of our follower's stdout that says where it listens."""
_END_WAIT = 2.0  # seconds the answer to our game end is waited for
_STDERR_KEPT = 50


class DxpDeclinedError(EngineError):
    """The follower answered the game request with ``A`` code 1, 2 or 3."""


class DxpGameEndedError(EngineError):
    """The follower sent a game end (``E``) while the runner waited for its move."""


_ACCEPT_CODES = {"1": "the protocol version is not supported", "2": "the game is declined",
                 "3": "no game will be accepted (busy or unwilling)"}
_END_REASONS = {"0": "no reason", "1": "it loses", "2": "a draw", "3": "it wins"}


class DxpEngine:
    """One DXP follower, driven as an engine of the match runner."""

    def __init__(self, sock: socket.socket, variant: str, minutes: int = 0, moves: int = 0,
                 process: "Optional[subprocess.Popen[bytes]]" = None,
                 stderr: Optional[Deque[str]] = None, timeout: float = 20.0,
                 name: str = INITIATOR_NAME) -> None:
        self.sock = sock
        self.variant = variant
        self.minutes = minutes
        self.moves = moves
        self.process = process
        self._stderr: Deque[str] = stderr if stderr is not None else collections.deque(
            maxlen=_STDERR_KEPT)
        self.timeout = timeout
        self.quit_timeout = 1.0
        self.name = name
        self.follower_name = ""
        self.chat: List[str] = []
        self.frames: "queue.Queue[Tuple[str, Any]]" = queue.Queue()
        self._squares = Game(variant).position.variant.squares
        self._game: Optional[Game] = None      # the game as the follower knows it
        self._fen = ""
        self._moves: List[str] = []
        self._base_ply = 0                     # moves of the runner's list before the request
        self._follower_white = True
        self._sent_at = 0.0
        self._last_send = 0.0
        self._closed = False
        self._lock = threading.Lock()
        self.address: Optional[Tuple[str, int]] = None  # where to connect again
        self._peer_closed = False
        self._start_reader()

    # ---- starting ----------------------------------------------------------------------
    @classmethod
    def start(cls, variant: str, host: Optional[str] = None, port: Optional[int] = None,
              command: Sequence[str] = (), cwd: Optional[str] = None, minutes: int = 0,
              moves: int = 0, timeout: float = 20.0) -> "DxpEngine":
        """Connect to a listening follower (starting ``command`` first when given).

        Raises :class:`EngineError` (:class:`EngineTerminatedError` when the command ends
        before it listens, :class:`EngineTimeoutError` when nothing listens in ``timeout``).
        """
        process = None
        stderr: Deque[str] = collections.deque(maxlen=_STDERR_KEPT)
        deadline = time.monotonic() + timeout
        host = host or "127.0.0.1"
        if command:
            process = subprocess.Popen(list(command), cwd=cwd, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True)
            _drain(process.stderr, stderr, None)
            if port is None:
                found: "queue.Queue[Tuple[str, int]]" = queue.Queue()
                _drain(process.stdout, None, found)
                try:
                    host, port = found.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    code = process.poll()
                    _stop(process)
                    if code is not None:
                        raise EngineTerminatedError(f"the DXP engine exited (status {code}) "
                                                    f"before it listened", returncode=code)
                    raise EngineTimeoutError(f"the DXP engine did not say where it listens "
                                             f"within {timeout:g} s (give port=)") from None
            else:
                _drain(process.stdout, None, None)
        assert port is not None
        while True:
            try:
                sock = socket.create_connection((host, port), timeout=min(5.0, timeout))
                break
            except OSError as exc:
                if process is not None and process.poll() is not None:
                    code = process.poll()
                    raise EngineTerminatedError(f"the DXP engine exited (status {code}) before "
                                                f"it listened on {host}:{port}",
                                                returncode=code) from None
                if time.monotonic() >= deadline:
                    _stop(process)
                    raise EngineTimeoutError(f"cannot connect to the DXP engine at "
                                             f"{host}:{port}: {exc.strerror or exc}") from None
                time.sleep(0.1)
        sock.settimeout(None)
        engine = cls(sock, variant, minutes, moves, process, stderr, timeout)
        engine.address = (host, port)
        return engine

    # ---- the engine calls of the match runner -------------------------------------------
    @property
    def stderr_lines(self) -> List[str]:
        return list(self._stderr)

    def handshake(self) -> None:
        """Nothing to do: DXP has no handshake before the game request."""

    def option(self, name: str) -> None:
        return None

    def set_option(self, name: str, value: str) -> None:
        raise EngineError(f"DXP has no options (option.{name})")

    def new_game(self) -> None:
        """Forget the last game (ending it first when it is still open); connect again when
        the follower closed the connection after the last one (some do)."""
        if self._game is not None and not self._peer_closed:
            self._end("0")
        self._game = None
        if self._peer_closed and self.address is not None and not self._closed:
            self._reconnect()

    def _reconnect(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise EngineTerminatedError(f"the DXP engine exited (status "
                                        f"{self.process.poll()})",
                                        returncode=self.process.poll())
        assert self.address is not None
        try:
            self.sock.close()
        except OSError:
            pass
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                sock = socket.create_connection(self.address, timeout=min(5.0, self.timeout))
                break
            except OSError as exc:
                if time.monotonic() >= deadline:
                    raise EngineTerminatedError(f"the DXP engine closed the connection and "
                                                f"cannot be reached again: "
                                                f"{exc.strerror or exc}") from None
                time.sleep(0.1)
        sock.settimeout(None)
        self.sock = sock
        self.frames = queue.Queue()
        self._peer_closed = False
        self._start_reader()

    def position(self, fen: str, moves: Sequence[str]) -> None:
        self._fen, self._moves = fen, list(moves)

    def start_search(self, limits: Any = None) -> None:
        """Send the game request (first move of a game) or the moves since the last one."""
        self._sent_at = time.monotonic()
        if self._game is None:
            wanted = Game(self.variant, fen=self._fen or None)
            wanted.push_all(self._moves)
            start = Game(self.variant)
            if len(self._moves) == 1 and wanted.start.fen() == start.position.fen():
                # Black after White's first move: the start position (A), then that move
                self._request(start, follower_white=False, base_ply=0)
            else:
                self._request(wanted, wanted.position.white_to_move, len(self._moves))
                return
        told = [m.pdn() for m in self._game.moves]
        base = self._base_ply
        if self._moves[base:base + len(told)] != told:
            raise EngineError("the game went another way than the DXP engine was told")
        for text in self._moves[base + len(told):]:
            move = self._game.push(text)
            self._send(encode_move(move, 0))

    def wait_bestmove(self, timeout: float) -> GoResult:
        """The follower's next move, waiting at most ``timeout`` seconds
        (:class:`EngineTimeoutError` then: the runner asks again)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                kind, item = self.frames.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeoutError(f"no move from the DXP engine within {timeout:g} s") \
                    from None
            if kind == "closed":
                self.frames.put((kind, item))  # every later wait sees it too
                raise EngineTerminatedError(f"the DXP connection closed: {item}")
            message = item
            if isinstance(message, MoveMessage):
                return self._their_move(message)
            if isinstance(message, GameEnd):
                self._send(encode_game_end("0", "0"))
                self._game = None
                raise DxpGameEndedError(f"the DXP engine ended the game ("
                                        f"{_END_REASONS.get(message.reason, message.reason)})")
            self._other(message)

    def game_over(self, outcome: str) -> None:
        """The runner ended the game (``white``, ``black`` or ``draw``): send ``E``."""
        if self._game is None:
            return
        mine = "black" if self._follower_white else "white"  # the initiator's colour
        reason = "2" if outcome == "draw" else ("3" if outcome == mine else "1")
        self._end(reason)
        self._game = None

    def quit(self) -> None:
        """Close the connection (ending an open game) and stop a follower we started."""
        if self._closed:
            return
        try:
            if self._game is not None:
                self._end("0", stop="1")
        except EngineError:
            pass
        self._close()
        _stop(self.process, self.quit_timeout)

    # ---- inside ------------------------------------------------------------------------
    def _request(self, game: Game, follower_white: bool, base_ply: int) -> None:
        """Send ``R`` for the position of ``game`` and wait for the follower's ``A``;
        ``base_ply``: the runner's moves the request's position already holds."""
        position = game.position
        self._follower_white = follower_white
        standard = position.fen() == Game(self.variant).position.fen()
        try:  # the start position as ``A`` (what every follower knows), any other as ``B``
            frame = encode_game_request("W" if follower_white else "Z",
                                        self.minutes, self.moves,
                                        None if standard else position, self.name)
        except ValueError as exc:
            raise EngineError(f"cannot ask for the game: {exc}") from None
        self._send(frame)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                kind, item = self.frames.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeoutError(f"no answer to the game request within "
                                         f"{self.timeout:g} s") from None
            if kind == "closed":
                self.frames.put((kind, item))
                raise EngineTerminatedError(f"the DXP connection closed: {item}")
            if isinstance(item, GameAccept):
                self.follower_name = item.follower
                if item.code != "0":
                    raise DxpDeclinedError(f"the DXP engine declined the game (A code "
                                           f"{item.code}: "
                                           f"{_ACCEPT_CODES.get(item.code, 'unknown code')})")
                break
            self._other(item)
        self._game = Game(self.variant, fen=position.fen())
        self._base_ply = base_ply
        self._sent_at = time.monotonic()

    def _their_move(self, message: MoveMessage) -> GoResult:
        game = self._game
        if game is None:
            raise EngineError("the DXP engine sent a move outside a game")
        if game.position.white_to_move != self._follower_white:
            raise EngineError(f"the DXP engine sent a move when it was not its turn "
                              f"({message.start:02d}-{message.end:02d})")
        move = match_move(game.position, message)
        elapsed = time.monotonic() - self._sent_at
        if move is None:
            # not a legal move: handed on as written, so that the runner forfeits it
            text = f"{message.start}-{message.end}"
            return GoResult(text, None, (), elapsed)
        game.push(move)
        return GoResult(move.pdn(), None, (), elapsed)

    def _other(self, message: Any) -> None:
        if isinstance(message, BackRequest):
            self._send(encode_back_accept("1"))  # a match is not taken back
        elif isinstance(message, Chat):
            self.chat.append(message.text)
        elif isinstance(message, DxpFormatError):
            self.chat.append(f"(bad frame: {message})")

    def _end(self, reason: str, stop: str = "0") -> None:
        """Send ``E`` and wait a little for the follower's ``E`` (moves that crossed it are
        dropped)."""
        self._send(encode_game_end(reason, stop))
        deadline = time.monotonic() + _END_WAIT
        while time.monotonic() < deadline:
            try:
                kind, item = self.frames.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if kind == "closed":
                self.frames.put((kind, item))
                break
            if isinstance(item, GameEnd):
                break
            if not isinstance(item, MoveMessage):
                self._other(item)

    def _send(self, frame: str) -> None:
        with self._lock:
            gap = self._last_send + SEND_GAP - time.monotonic()
            if gap > 0:
                time.sleep(gap)  # some readers merge frames that arrive together
            try:
                self.sock.sendall(frame.encode("ascii") + b"\0")
            except OSError as exc:
                raise EngineTerminatedError(f"cannot send to the DXP engine: "
                                            f"{exc.strerror or exc}") from None
            self._last_send = time.monotonic()

    def _start_reader(self) -> None:
        threading.Thread(target=self._reader, args=(self.sock, self.frames),
                         name="dxp-initiator-reader", daemon=True).start()

    def _reader(self, sock: socket.socket, frames: "queue.Queue[Tuple[str, Any]]") -> None:
        """Read one connection's frames into ``frames`` (each connection has its own)."""
        reader = FrameReader(sock)
        reason = "the engine closed the connection"
        try:
            while True:
                frame = reader.read()
                if frame is None:
                    break
                body = frame if frame[:1] == "C" else frame.strip()
                if not body:
                    continue
                try:
                    frames.put(("frame", parse_message(body, self._squares)))
                except DxpFormatError as exc:
                    lenient = _lenient(body)
                    if lenient is not None:
                        frames.put(("frame", lenient))
                        continue
                    if exc.header == "M":
                        reason = f"a bad move message: {exc}"
                        break
                    frames.put(("frame", exc))
        except (FrameError, OSError) as exc:
            reason = str(exc) or type(exc).__name__
        if sock is self.sock:
            self._peer_closed = True
        frames.put(("closed", reason))

    def _close(self) -> None:
        self._closed = True
        close_socket(self.sock)  # wakes the reader thread, sends the FIN


def _lenient(body: str) -> Any:
    """An ``A`` or ``E`` whose length is off (a name not padded to 32 characters, a missing
    stop code), read by its first and last characters; None for anything else."""
    if body[:1] == "A" and len(body) >= 2 and body[-1] in "0123":
        return GameAccept(body[1:-1].strip(), body[-1])
    if body[:1] == "E" and len(body) >= 2 and body[1] in "0123":
        return GameEnd(body[1], body[2] if len(body) > 2 and body[2] in "01" else "0")
    return None


def _drain(stream: Any, lines: Optional[Deque[str]],
           found: "Optional[queue.Queue[Tuple[str, int]]]") -> None:
    """Read a pipe of the follower to its end on a thread: keep its lines, or report the
    ``listening on`` line."""
    def work() -> None:
        try:
            for raw in iter(stream.readline, b""):
                text = raw.decode("utf-8", "replace").rstrip()
                if lines is not None:
                    lines.append(text)
                if found is not None:
                    match = LISTENING.search(text)
                    if match:
                        found.put((match.group(1), int(match.group(2))))
        except (OSError, ValueError):
            pass

    threading.Thread(target=work, name="dxp-initiator-pipe", daemon=True).start()


def _stop(process: "Optional[subprocess.Popen[bytes]]", grace: float = 1.0) -> None:
    """End a follower we started: terminate, then kill."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    reap(process, grace)
