"""The JSON API the page uses (all under ``/api``); docs/web.md lists it.

======  ===============================  ==============================================
GET     /api/info                        engines (names only), variants, levels, limits
GET     /api/svg?variant=V&fen=F          the position as a stand-alone SVG (``download=1``)
POST    /api/boards                      open a board: variant, fen or pdn, players
GET     /api/boards/ID                   the board's state
GET     /api/boards/ID/events            the state, pushed (Server-Sent Events)
GET     /api/boards/ID/pdn               the game as PDN (``?download=1``: as a file)
POST    /api/boards/ID/ACTION            move, undo, redo, goto, new, fen, pdn, players,
                                         go, stop, movenow, analyse, hint, heartbeat, close,
                                         node, promote, delete (a move of the tree: ``node``),
                                         review (``depth`` or ``movetime``; ``on``),
                                         lines (``count`` 1..5: MultiPV of the analysis)
======  ===============================  ==============================================

Every body field is checked here (type, range, length) before anything reaches a board;
an engine is named only by one of the server's engine names. Errors: 400 bad field,
404 unknown board or path, 405 wrong method, 409 not possible now (not your turn, game
over, nothing to undo), 429 too many boards.
"""
from __future__ import annotations

import json
import time
from typing import Any, Dict, Iterator, Optional, Tuple, Union

from draughts_engine.search.limits import SearchLimits
from draughts_engine.search.skill import ELO_MAX, ELO_MIN
from draughts_engine.variants import BLACK, UnknownVariantError, get_variant, variant_names
from protocol.play.controller import (
    GameFinishedError,
    LoadError,
    MoveRejected,
    NotYourTurnError,
    PlayError,
    UndoRedoError,
)
from protocol.play.clock import ClockSetting, ClockSettingError
from protocol.play.players import LEVELS

from .page import board_svg
from .board import BoardClosedError, BoardSettings, Players, WebBoard
from .registry import BoardLimitError, BoardRegistry, UnknownBoardError
from .review import REVIEW_DEPTH
from .server import EventStream, HttpError, Reply, Request

__all__ = ["WebApi", "first_to_move", "DEFAULT_LEVEL", "MAX_TEXT", "MAX_MOVETIME_MS",
           "MAX_DELAY_MS"]

DEFAULT_LEVEL = 6
MAX_TEXT = 1 << 19          # characters of a PDN text
MAX_FEN = 2000
MAX_MOVE = 200
MAX_MOVETIME_MS = 600_000
MAX_DELAY_MS = 60_000
KEEPALIVE_SECONDS = 15.0
EVENT_GAP_SECONDS = 0.1     # a stream sends at most about ten states a second

ACTIONS = ("move", "undo", "redo", "goto", "new", "fen", "pdn", "players", "go", "stop",
           "movenow", "analyse", "hint", "heartbeat", "close", "node", "promote", "delete",
           "review", "lines")
MAX_LINES = 5
MAX_REVIEW_DEPTH = 20


def first_to_move(variant: str) -> str:
    """``white`` or ``black``: the side that moves first in ``variant`` (Black in English
    checkers, pool and Thai draughts). A new board's person plays it unless told otherwise."""
    return "black" if get_variant(variant).first == BLACK else "white"


# ------------------------------------------------------------------------------ fields


def _field(body: Dict[str, Any], key: str, kind: Union[type, Tuple[type, ...]],
           what: str) -> Any:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise HttpError(400, f"{key} must be {what}")
    return value


def _text(body: Dict[str, Any], key: str, limit: int, required: bool = False) -> Optional[str]:
    value = _field(body, key, str, "text")
    if value is None:
        if required:
            raise HttpError(400, f"{key} is required")
        return None
    if len(value) > limit:
        raise HttpError(400, f"{key} is too long ({len(value)} characters; at most {limit})")
    return value


def _int(body: Dict[str, Any], key: str, low: int, high: int,
         required: bool = False) -> Optional[int]:
    value = _field(body, key, int, f"a whole number in {low}..{high}")
    if value is None:
        if required:
            raise HttpError(400, f"{key} is required")
        return None
    if not low <= value <= high:
        raise HttpError(400, f"{key} must be in {low}..{high}, got {value}")
    return value


class WebApi:
    """Answers :class:`~.server.Request` objects for ``/api/...`` (callable as the server's app)."""

    def __init__(self, registry: BoardRegistry, max_body: int) -> None:
        self.registry = registry
        self.engines = registry.engines
        self.max_body = max_body

    # ------------------------------------------------------------------ routing

    def __call__(self, request: Request) -> Union[Reply, EventStream]:
        parts = request.parts[1:]
        if parts == ["info"]:
            self._method(request, "GET")
            return Reply(data=self._info())
        if parts == ["svg"]:
            self._method(request, "GET")
            return self._svg(request.query)
        if parts == ["boards"]:
            self._method(request, "POST")
            return self._open(request.body or {})
        if len(parts) in (2, 3) and parts[0] == "boards":
            board = self._board(parts[1])
            if len(parts) == 2:
                self._method(request, "GET")
                board.touch()
                return Reply(data=board.snapshot())
            action = parts[2]
            if action == "events":
                self._method(request, "GET")
                return EventStream(self._events(board))
            if action == "pdn" and request.method != "POST":
                self._method(request, "GET")
                return self._pdn(board, request.query.get("download") == "1")
            if action in ACTIONS:
                self._method(request, "POST")
                return self._act(board, action, request.body or {})
        raise HttpError(404, "not found")

    @staticmethod
    def _method(request: Request, allowed: str) -> None:
        if request.method != allowed:
            raise HttpError(405, f"use {allowed} for {request.path}")

    def _board(self, board_id: str) -> WebBoard:
        try:
            return self.registry.get(board_id)
        except UnknownBoardError:
            raise HttpError(404, "no such board (it was closed, or timed out)") from None

    # ------------------------------------------------------------------ answers

    def _info(self) -> Dict[str, Any]:
        return {"engines": self.engines.names, "default_engine": self.engines.default.name,
                "variants": list(variant_names()),
                "levels": {"min": LEVELS[0], "max": LEVELS[-1], "default": DEFAULT_LEVEL},
                "max_movetime_ms": MAX_MOVETIME_MS, "max_delay_ms": MAX_DELAY_MS,
                "max_body": self.max_body, "max_boards": self.registry.max_boards,
                "review": {"max_depth": MAX_REVIEW_DEPTH, "default_depth": REVIEW_DEPTH},
                "elo": {"min": ELO_MIN, "max": ELO_MAX},
                "first_to_move": {name: first_to_move(name) for name in variant_names()}}

    def _open(self, body: Dict[str, Any]) -> Reply:
        variant = self._variant(body) or "international"
        fen = _text(body, "fen", MAX_FEN) or None
        pdn = _text(body, "pdn", MAX_TEXT) or None
        engine = self.engines.default.name
        person_first = first_to_move(variant)  # the person plays the side that moves first
        default = Players(white=None if person_first == "white" else engine,
                          black=None if person_first == "black" else engine,
                          limits=SearchLimits(depth=DEFAULT_LEVEL), delay_ms=1000)
        players = self._players(body, default)
        try:
            board = self.registry.open(BoardSettings(variant, fen, pdn, players))
        except BoardLimitError as error:
            raise HttpError(429, str(error)) from None
        except PlayError as error:
            raise HttpError(400, str(error)) from None
        return Reply(status=201, data={"id": board.id, "state": board.snapshot()})

    @staticmethod
    def _svg(query: Dict[str, str]) -> Reply:
        """The position ``?variant=&fen=`` as a stand-alone SVG (the share link's image)."""
        variant, fen = query.get("variant", "international"), query.get("fen")
        try:
            get_variant(variant)
        except UnknownVariantError:
            raise HttpError(400, f"unknown variant {variant[:40]!r}") from None
        if fen is not None and len(fen) > MAX_FEN:
            raise HttpError(400, f"fen is too long (at most {MAX_FEN} characters)")
        body = board_svg(variant, fen, standalone=True).encode("utf-8")
        headers = [("Cache-Control", "no-store")]
        if query.get("download") == "1":
            headers.append(("Content-Disposition", 'attachment; filename="position.svg"'))
        return Reply(body=body, content_type="image/svg+xml; charset=utf-8", headers=headers)

    def _pdn(self, board: WebBoard, download: bool) -> Reply:
        board.touch()
        state = board.snapshot()
        headers = []
        if download:
            name = f'{state["variant"]}.pdn'
            headers.append(("Content-Disposition", f'attachment; filename="{name}"'))
        return Reply(body=state["pdn"].encode("utf-8"), content_type="text/plain; charset=utf-8",
                     headers=headers + [("Cache-Control", "no-store")])

    def _act(self, board: WebBoard, action: str, body: Dict[str, Any]) -> Reply:
        board.touch()
        if action == "heartbeat":
            return Reply(data={"ok": True, "version": board.snapshot()["version"]})
        if action == "close":
            self.registry.close(board.id)
            return Reply(data={"ok": True})
        try:
            if action == "movenow":
                state = board.move_now()
            else:
                state = board.act(action, **self._arguments(board, action, body))
        except BoardClosedError:
            raise HttpError(404, "no such board (it was closed, or timed out)") from None
        except (MoveRejected, LoadError) as error:
            raise HttpError(400, str(error)) from None
        except (NotYourTurnError, GameFinishedError, UndoRedoError) as error:
            raise HttpError(409, str(error)) from None
        except PlayError as error:
            raise HttpError(400, str(error)) from None
        return Reply(data={"state": state})

    def _arguments(self, board: WebBoard, action: str, body: Dict[str, Any]) -> Dict[str, Any]:
        if action == "move":
            return {"text": _text(body, "move", MAX_MOVE, required=True)}
        if action == "goto":
            return {"ply": _int(body, "ply", 0, 100_000, required=True)}
        if action == "fen":
            return {"fen": _text(body, "fen", MAX_FEN, required=True)}
        if action == "pdn":
            return {"text": _text(body, "pdn", MAX_TEXT, required=True)}
        if action == "new":
            return {"variant": self._variant(body), "fen": _text(body, "fen", MAX_FEN) or None,
                    "players": self._players(body, board.players)}
        if action == "players":
            return {"players": self._players(body, board.players)}
        if action == "lines":
            return {"count": _int(body, "count", 1, MAX_LINES, required=True)}
        if action in ("node", "promote", "delete"):
            return {"node": _int(body, "node", 0, 10**9, required=True)}
        if action == "review":
            on = body.get("on", True)
            if not isinstance(on, bool):
                raise HttpError(400, "on must be true or false")
            depth = _int(body, "depth", 1, MAX_REVIEW_DEPTH)
            movetime = _int(body, "movetime", 1, MAX_MOVETIME_MS)
            if depth is not None and movetime is not None:
                raise HttpError(400, "give depth or movetime, not both")
            limits = (SearchLimits(depth=depth) if depth is not None else
                      SearchLimits(movetime_ms=movetime) if movetime is not None else None)
            return {"on": on, "limits": limits}
        if action == "analyse":
            on = body.get("on", True)
            if not isinstance(on, bool):
                raise HttpError(400, "on must be true or false")
            return {"on": on}
        return {}

    def _variant(self, body: Dict[str, Any]) -> Optional[str]:
        name = _text(body, "variant", 40)
        if name is None:
            return None
        try:
            return get_variant(name).name
        except UnknownVariantError:
            raise HttpError(400, f"unknown variant {name!r} (known: "
                                 f"{', '.join(variant_names())})") from None

    def _player(self, body: Dict[str, Any], side: str, current: Optional[str]) -> Optional[str]:
        value = _text(body, side, 100)
        if value is None:
            return current
        if value == "human":
            return None
        if value == "engine":
            return self.engines.default.name
        name = value[len("engine:"):] if value.startswith("engine:") else value
        if self.engines.get(name) is None:
            raise HttpError(400, f"unknown engine {name!r} (this server has: "
                                 f"{', '.join(self.engines.names)})")
        return name

    def _players(self, body: Dict[str, Any], current: Players) -> Players:
        white = self._player(body, "white", current.white)
        black = self._player(body, "black", current.black)
        level = _int(body, "level", LEVELS[0], LEVELS[-1])
        movetime = _int(body, "movetime", 1, MAX_MOVETIME_MS)
        if level is not None and movetime is not None:
            raise HttpError(400, "give level or movetime, not both")
        limits = current.limits
        if level is not None:
            limits = SearchLimits(depth=level)
        elif movetime is not None:
            limits = SearchLimits(movetime_ms=movetime)
        delay = _int(body, "delay_ms", 0, MAX_DELAY_MS)
        clock = current.clock
        clock_text = _text(body, "clock", 40)
        if clock_text is not None:
            try:
                clock = ClockSetting.parse(clock_text) if clock_text.strip() else None
            except ClockSettingError as error:
                raise HttpError(400, str(error)) from None
        elo = current.elo
        if "elo" in body:
            elo = _int(body, "elo", 0, ELO_MAX) or None  # 0: full strength
            if elo is not None and elo < ELO_MIN:
                raise HttpError(400, f"elo must be {ELO_MIN}..{ELO_MAX}, or 0 for full strength")
        return Players(white, black, limits, current.delay_ms if delay is None else delay, clock,
                       elo)

    # ------------------------------------------------------------------ the event stream

    def _events(self, board: WebBoard) -> Iterator[bytes]:
        """The board's state now and after every change, as ``state`` events; a comment
        line every few seconds keeps the connection checked; ``closed`` ends the stream."""
        board.stream_opened()
        try:
            yield b"retry: 2000\n\n"
            state = board.snapshot()
            yield _event("state", state)
            version = state["version"]
            # Until the board closes (a stopping server closes every board): its final state
            # (a search stopped) then still goes out before ``closed``.
            while True:
                changed = board.wait_change(version, KEEPALIVE_SECONDS)
                if board.closed:
                    break
                board.touch()
                if changed is None:
                    yield b": keep-alive\n\n"
                    continue
                version = changed["version"]
                yield _event("state", changed)
                time.sleep(EVENT_GAP_SECONDS)  # bursts of analysis reports go out as one state
            last = board.snapshot()
            if last["version"] != version:  # the board's last words (e.g. its search stopped)
                yield _event("state", last)
            yield _event("closed", {"id": board.id})
        finally:
            board.stream_closed()


def _event(name: str, data: Any) -> bytes:
    payload = json.dumps(data, separators=(",", ":"))
    return f"event: {name}\ndata: {payload}\n\n".encode("utf-8")

