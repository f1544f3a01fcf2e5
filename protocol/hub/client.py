"""Client side of Hub v2: drive a Hub engine (Scan, or ours in Hub mode) like a protocol engine.

:class:`HubEngine` has the method names of :class:`protocol.client.Engine`
(``popen``, context manager, ``handshake``, ``option``, ``set_option``,
``new_game``, ``position(fen, moves)``, ``go(limits)``, ``start_search``,
``ponderhit``, ``stop``, ``quit``, ``is_ready``) and raises the same error
classes, so the match runner can use either.  It translates:

* FEN and PDN moves -> ``pos pos=<side + one char per square> moves="<hub moves>"``;
* :class:`~draughts_engine.search.limits.SearchLimits` -> ``level ...`` + ``go think|ponder|analyze``;
* ``done move=<hub move> [ponder=<hub move>]`` -> :class:`~protocol.client.GoResult` with PDN
  move texts (the full landing path), ``info`` lines -> :class:`~protocol.client.InfoReport`
  (score in men -> centi-men, or a mate count; time in seconds -> ms; nps in millions when
  written with a decimal point, as Scan does);
* options: ``Variant`` -> the engine's ``variant`` value for that rule set (``normal`` for
  International on Scan), other names case-insensitively, ``MoveOverhead`` also as
  ``move-overhead``.

Hub commands that answer nothing (``set-param``, ``pos``, ``new-game``) are confirmed with
``ping`` -> ``pong``; an ``error`` line before the ``pong`` raises
:class:`~protocol.client.CommandRejectedError`.  ``init`` is sent once, before the first
command that needs it (after the parameters, as Hub GUIs do).

Connection checks for any Hub engine: ``python3 -m protocol.conformance --hub -- <command>``.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchLimits
from draughts_engine.variants import UnknownVariantError, Variant, get_variant
from protocol.client.connection import EngineConnection
from protocol.client.errors import (ClientStateError, CommandRejectedError, EngineError,
                                    EngineTerminatedError, EngineTimeoutError,
                                    IllegalBestMoveError, ProtocolError)
from protocol.client.infos import InfoLog
from protocol.client.limit import Limit, search_limits
from protocol.client.reports import EngineOption, GoResult, InfoReport
from protocol.client.transport import Transport
from protocol.hub.wire import (
    DEFAULT_VARIANT,
    PARAM_OF_OPTION,
    HubSyntaxError,
    format_hub_line,
    hub_pos,
    parse_hub_line,
    parse_hub_move_text,
)

__all__ = ["HubEngine", "HubParam", "parse_hub_info", "hub_level_pairs", "EngineError",
           "EngineTimeoutError", "EngineTerminatedError", "ProtocolError", "CommandRejectedError",
           "ClientStateError"]

_TYPE_TO_OPTION = {"bool": "check", "int": "spin", "real": "string", "string": "string",
                   "enum": "combo"}


@dataclass(frozen=True)
class HubParam:
    """One ``param`` line of the ``hub`` reply (all fields as text)."""

    name: str
    value: str = ""
    type: str = "string"
    min: Optional[str] = None
    max: Optional[str] = None
    values: Tuple[str, ...] = ()

    def as_option(self) -> EngineOption:
        """The same parameter in the terms of :class:`protocol.client.EngineOption`."""
        def to_int(text: Optional[str]) -> Optional[int]:
            try:
                return int(text) if text is not None else None
            except ValueError:
                return None
        kind = _TYPE_TO_OPTION.get(self.type, "string")
        low, high = (to_int(self.min), to_int(self.max)) if kind == "spin" else (None, None)
        return EngineOption(self.name, kind, self.value, low, high, self.values)


def _kebab(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()


def parse_hub_info(line: str, position: Optional[Position] = None) -> InfoReport:
    """An ``info`` line as an :class:`InfoReport`; PV moves become PDN when ``position`` is given.

    A score of at least 90 men in absolute value is a forced result found ``p`` plies away,
    written +-(100 - p/100) (Scan's convention); it becomes ``score_mate`` in moves.
    Raises :class:`ProtocolError` for a malformed line or value.
    """
    try:
        command, pairs = parse_hub_line(line)
    except HubSyntaxError as exc:
        raise ProtocolError(f"malformed info line {line!r}: {exc}") from None
    if command != "info":
        raise ProtocolError(f"not an info line: {line!r}")
    values: Dict[str, Any] = {}
    args: Dict[str, str] = {name: value for name, value in pairs if value is not None}
    try:
        if args.get("depth") is not None:
            values["depth"] = _whole(args["depth"])
        if args.get("nodes") is not None:
            values["nodes"] = _whole(args["nodes"])
        if args.get("time") is not None:
            values["time_ms"] = int(round(_real(args["time"]) * 1000))
        if args.get("nps") is not None:
            text = args["nps"]
            values["nps"] = int(round(_real(text) * 1e6)) if "." in text else _whole(text)
        if args.get("score") is not None:
            men = _real(args["score"])
            if abs(men) >= 90.0:
                plies = max(1, int(round((100.0 - abs(men)) * 100)))
                values["score_mate"] = (plies + 1) // 2 if men > 0 else -(plies // 2) or -1
            else:
                values["score_cp"] = int(round(men * 100))
    except ValueError as exc:
        raise ProtocolError(f"malformed value in info line {line!r}: {exc}") from None
    pv_text = args.get("pv")
    if pv_text:
        tokens = pv_text.split()
        values["pv"] = tuple(_pv_to_pdn(position, tokens) if position is not None else tokens)
    return InfoReport(**values)


_MAX_NUMBER_TEXT = 30  # characters: more is no number an engine means (and int() may refuse it)


def _whole(text: str) -> int:
    """A whole number of an ``info`` line; ValueError when malformed or absurdly long."""
    if len(text) > _MAX_NUMBER_TEXT:
        raise ValueError(f"{text[:_MAX_NUMBER_TEXT]}... is too long for a number")
    return int(text)


def _real(text: str) -> float:
    """A finite real number of an ``info`` line (at most 1e9 in absolute value); else ValueError."""
    if len(text) > _MAX_NUMBER_TEXT:
        raise ValueError(f"{text[:_MAX_NUMBER_TEXT]}... is too long for a number")
    value = float(text)
    if not abs(value) <= 1e9:  # also rejects inf and nan
        raise ValueError(f"{text} is out of range")
    return value


def _pv_to_pdn(position: Position, tokens: Sequence[str]) -> List[str]:
    out: List[str] = []
    for token in tokens:
        try:
            move = parse_hub_move_text(position, token)
        except DraughtsError:
            break  # the rest cannot be replayed
        out.append(move.pdn())
        position = position.play_raw(move.raw)
    return out


def _seconds(ms: int) -> str:
    return f"{ms / 1000.0:.3f}".rstrip("0").rstrip(".") or "0"


def hub_level_pairs(limits: SearchLimits, white_to_move: bool) -> List[Tuple[str, object]]:
    """The ``level`` arguments for ``limits`` (empty when the limits set nothing).

    Hub's ``time`` excludes the increment of the coming move (the engine adds it first), so
    ``time = own clock - increment``, as Hub GUIs send it.
    """
    pairs: List[Tuple[str, object]] = []
    if limits.infinite:
        return [("infinite", None)]
    if limits.depth is not None:
        pairs.append(("depth", limits.depth))
    if limits.nodes is not None:
        pairs.append(("nodes", limits.nodes))
    if limits.movetime_ms is not None:
        pairs.append(("move-time", _seconds(limits.movetime_ms)))
    if limits.has_clock:
        own = (limits.wtime_ms if white_to_move else limits.btime_ms) or 0
        inc = (limits.winc_ms if white_to_move else limits.binc_ms) or 0
        if limits.movestogo is not None:
            pairs.append(("moves", limits.movestogo))
        pairs.append(("time", _seconds(max(0, own - inc))))
        if inc:
            pairs.append(("inc", _seconds(inc)))
    return pairs


@dataclass
class _HubSearch:
    limits: SearchLimits
    root: Position
    on_info: Optional[Callable[[InfoReport], None]]
    infos: InfoLog = field(default_factory=InfoLog)
    sent: float = 0.0  # when go was sent (time.monotonic)
    result: Optional[GoResult] = None


class HubEngine(EngineConnection):
    """A synchronous connection to one Hub engine (see the module docstring).

    Keyword arguments and timeouts are those of :class:`protocol.client.Engine`, plus
    ``variant`` (the rules assumed until ``set_option("Variant", ...)``; default International,
    Hub's ``normal``).
    """

    _PROTOCOL = "Hub"
    _PONDERHIT = "ponder-hit"
    _SKIP_BLANK_LINES = True
    _search: Optional[_HubSearch]

    def __init__(self, transport: Transport, *, variant: Union[str, Variant] = "international",
                 **options: Any) -> None:
        self.variant: Variant = get_variant(variant)
        self.params: Dict[str, HubParam] = {}
        self.position_now: Position = Position.start(self.variant)
        self._initialised = False
        super().__init__(transport, **options)

    @property
    def protocol_version(self) -> Optional[int]:
        return None

    # ------------------------------------------------------------------ commands

    def handshake(self, timeout: Optional[float] = None) -> None:
        """``hub`` until ``wait``: fills :attr:`id`, :attr:`params` and :attr:`options`."""
        deadline = self._deadline(timeout)
        self.send_raw("hub")
        ids: Dict[str, str] = {}
        params: Dict[str, HubParam] = {}
        for line, command, pairs in self._lines_before(deadline, "wait"):
            if command == "id":
                ids.update({k: v if v is not None else "" for k, v in pairs})
            elif command == "param":
                args = {k: v for k, v in pairs}
                name = args.get("name")
                if not name:
                    self._unexpected(line, "(a param line without name)")
                    continue
                values = tuple((args.get("values") or "").split())
                params[name] = HubParam(name, args.get("value") or "", args.get("type") or "string",
                                        args.get("min"), args.get("max"), values)
            elif command:
                self._unexpected(line, "during the hub handshake")
        self.id = ids
        self.params = params
        self.options = {name: p.as_option() for name, p in params.items()}

    def init(self, timeout: Optional[float] = None) -> None:
        """``init`` -> ``ready`` (done once; later calls do nothing)."""
        if self._initialised:
            return
        self._require_idle()
        deadline = self._deadline(timeout)
        numbering = self.param("numbering")
        if numbering is not None and "pdn" in numbering.values and numbering.value != "pdn":
            # our engine in Hub mode: PDN square numbers for 8x8 moves, whatever the variant
            self.send_raw(format_hub_line("set-param", ("name", numbering.name), ("value", "pdn")))
        self.send_raw("init")
        for line, command, pairs in self._lines_before(deadline, "ready"):
            if command == "error":
                raise CommandRejectedError(dict(pairs).get("message") or line, self.transcript)
            # anything else is information the GUI ignores (Hub v2)
        self._initialised = True

    def param(self, name: str) -> Optional[HubParam]:
        """The engine's parameter for ``name``: case-insensitive, ``MoveOverhead`` =
        ``move-overhead``, ``UCI_Elo`` = ``elo`` (:data:`~protocol.hub.wire.PARAM_OF_OPTION`)."""
        wanted = {name.casefold(), _kebab(name)}
        wanted |= {param for option, param in PARAM_OF_OPTION.items()
                   if option.casefold() == name.casefold()}
        return next((p for n, p in self.params.items() if n.casefold() in wanted), None)

    def option(self, name: str) -> Optional[EngineOption]:
        """Like :meth:`protocol.client.Engine.option`: the parameter as an EngineOption, or None."""
        param = self.param(name)
        return None if param is None else param.as_option()

    def set_option(self, name: str, value: Union[str, int, bool, None] = None,
                   timeout: Optional[float] = None) -> None:
        """``set-param name=... value=...`` confirmed by ``ping``; ``Variant`` picks the engine's value."""
        self._require_idle()
        if name.casefold() == "variant":
            self._set_variant(str(value), timeout)
            return
        param = self.param(name)
        hub_name = param.name if param is not None else name
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = "" if value is None else str(value)
        self._command(format_hub_line("set-param", ("name", hub_name), ("value", text)), timeout)

    def _set_variant(self, value: str, timeout: Optional[float]) -> None:
        try:
            variant = get_variant(value)
        except UnknownVariantError as exc:
            raise CommandRejectedError(f"set-param: {exc}", self.transcript) from None
        param = self.param("variant")
        if param is None:
            if variant is not get_variant(DEFAULT_VARIANT):
                raise CommandRejectedError(f"set-param: the engine has no variant parameter, so it "
                                           f"plays International only, not {variant.name}",
                                           self.transcript)
            self.variant = variant
            self.position_now = Position.start(variant)
            return
        choices = list(param.values) or [variant.name]
        exact = [v for v in choices if v.lower() == variant.name]
        aliases = []
        for candidate in choices:
            try:
                if get_variant(candidate) is variant:
                    aliases.append(candidate)
            except UnknownVariantError:
                pass
        if not exact and not aliases:
            raise CommandRejectedError(f"set-param: the engine's variant values ({' '.join(choices)}) "
                                       f"have none for {variant.name}", self.transcript)
        hub_value = (exact or aliases)[0]
        self._command(format_hub_line("set-param", ("name", param.name), ("value", hub_value)),
                      timeout)
        self.variant = variant
        self.position_now = Position.start(variant)

    def new_game(self, timeout: Optional[float] = None) -> None:
        """``new-game`` (clears the engine's hash), confirmed by ``ping``."""
        self.init(timeout)
        self._command("new-game", timeout)

    def position(self, fen: Optional[str] = None, moves: Sequence[str] = (),
                 timeout: Optional[float] = None) -> None:
        """``pos pos=... moves="..."`` for a FEN (None: the start position) and PDN moves."""
        self.init(timeout)
        try:
            game = Game(self.variant, fen=fen) if fen else Game(self.variant)
            start_text = hub_pos(game.position)
            hub_moves = [game.push(text).hub() for text in moves]
        except DraughtsError as exc:
            raise CommandRejectedError(f"position: {exc}", self.transcript) from None
        pairs: List[Tuple[str, object]] = [("pos", start_text)]
        if hub_moves:
            pairs.append(("moves", " ".join(hub_moves)))
        self._command(format_hub_line("pos", *pairs), timeout)
        self.position_now = game.position

    # ------------------------------------------------------------------ searching

    def start_search(self, limits: Union[Limit, SearchLimits] = SearchLimits(), *,
                     on_info: Optional[Callable[[InfoReport], None]] = None) -> None:
        """Send ``level`` and ``go think|ponder|analyze`` (analyze for infinite) and return."""
        limits = search_limits(limits)
        if limits.searchmoves or limits.mate is not None:
            raise ValueError("Hub has no word for searchmoves or mate (PROTOCOL.md 10.10)")
        self._require_idle()
        self.init()
        pairs = hub_level_pairs(limits, self.position_now.white_to_move)
        if pairs:
            self.send_raw(format_hub_line("level", *pairs))
        mode = "ponder" if limits.ponder else "analyze" if limits.infinite else "think"
        sent = time.monotonic()
        self.send_raw(f"go {mode}")
        self._search = _HubSearch(limits, self.position_now, on_info, sent=sent)

    # ------------------------------------------------------------------ internals

    def _parsed(self, line: str) -> Tuple[str, List[Tuple[str, Optional[str]]]]:
        """The line's command and pairs; a malformed line is skipped ("", []) unless strict,
        but a malformed ``done`` during a search is always an error (waiting on would stall
        until a timeout)."""
        try:
            return parse_hub_line(line)
        except HubSyntaxError as exc:
            words = line.split()
            searching = self._search is not None and self._search.result is None
            if self.strict or (searching and words and words[0] == "done"):
                raise ProtocolError(f"malformed line {line!r}: {exc}", self.transcript) from None
            return "", []

    def _lines_before(self, deadline: float, last: str
                      ) -> Iterator[Tuple[str, str, List[Tuple[str, Optional[str]]]]]:
        """Each line that comes before the one whose command is ``last``, with its command and
        pairs (:meth:`_parsed`); the ``last`` line ends the loop."""
        while True:
            line = self._next_line(deadline, last)
            command, pairs = self._parsed(line)
            if command == last:
                return
            yield line, command, pairs

    def _route_search_line(self, command: str, pairs: List[Tuple[str, Optional[str]]],
                           line: str) -> bool:
        """Give ``info``/``done`` to the running search; False if it is not for it."""
        search = self._search
        if search is None or search.result is not None or command not in ("info", "done"):
            return False
        if command == "info":
            try:
                report = parse_hub_info(line, search.root)
            except ProtocolError:  # an info line is advice: a malformed one is skipped
                return True
            self._add_info(search, report)
            return True
        args = [(k, v) for k, v in pairs]
        if args and args[0][0] != "move" and (self.strict or "move" not in dict(args)):
            raise ProtocolError(f"done must start with move=: {line!r}", self.transcript)
        values = {k: v for k, v in args}
        best_text, ponder_text = values.get("move"), values.get("ponder")
        best = ponder = None
        if best_text:
            try:
                move = parse_hub_move_text(search.root, best_text)
            except DraughtsError as exc:
                raise IllegalBestMoveError(f"done move={best_text} is not a legal move: {exc}",
                                           best_text, self.transcript) from None
            best = move.pdn()
            if ponder_text:
                try:
                    ponder = parse_hub_move_text(search.root.play_raw(move.raw), ponder_text).pdn()
                except DraughtsError:
                    ponder = None
        search.result = GoResult(best, ponder, search.infos.reports(),
                                 max(0.0, self._arrived - search.sent))
        return True

    def _await_result(self, deadline: float) -> GoResult:
        search = self._require_search()
        while search.result is None:
            line = self._next_line(deadline, "done (the bestmove)")
            command, pairs = self._parsed(line)
            if self._route_search_line(command, pairs, line):
                continue
            if command == "error":
                self._search = None
                raise CommandRejectedError(dict(pairs).get("message") or line, self.transcript)
            if command not in ("pong", ""):
                self._unexpected(line, "during a search")
        self._search = None
        return search.result

    def _confirm(self, deadline: float) -> None:
        self.send_raw("ping")
        rejected: Optional[str] = None
        for line, command, pairs in self._lines_before(deadline, "pong"):
            if self._route_search_line(command, pairs, line):
                continue
            if command == "error":
                if rejected is None:
                    rejected = dict(pairs).get("message") or line
            elif command in ("info", "done"):
                continue  # late lines of a search the client gave up on
            elif command:
                self._unexpected(line, "before pong")
        if rejected is not None:
            raise CommandRejectedError(rejected, self.transcript)
