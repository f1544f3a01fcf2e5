"""Every name the suite borrows from the rest of ``protocol``, imported in this one place.

The suite talks to engines through the reference client (public names of
:mod:`protocol.client` only), builds and reads text-protocol lines with the grammar of
:mod:`protocol.commands`, and speaks Hub through its line format (:mod:`protocol.hub.wire`) and the Hub
client (:mod:`protocol.hub.client`). When one of those modules moves, this file is the one to
change. The suite uses no search-limits type (``GoLimits``): it writes ``go`` and ``level``
lines itself.
"""

from __future__ import annotations

from protocol.client import (
    BestMove,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    InfoReport,
    EngineOption,
    ProcessTransport,
    ProtocolError,
    parse_bestmove,
    parse_id,
    parse_info,
    parse_option,
)
from protocol.commands import (
    PROTOCOL_VERSION,
    ArgumentError,
    SetOption,
    is_move_token,
    token_spans,
    tokenize,
)
from protocol.commands import SetPosition as PositionCommand
from protocol.hub.client import HubEngine
from protocol.hub.wire import HubSyntaxError, format_hub_line, hub_pos, parse_hub_line

__all__ = [
    "BestMove", "Engine", "EngineError", "EngineTerminatedError", "EngineTimeoutError",
    "InfoReport", "EngineOption", "ProcessTransport", "ProtocolError", "parse_bestmove",
    "parse_id", "parse_info", "parse_option",
    "PROTOCOL_VERSION", "ArgumentError", "SetOption", "is_move_token", "token_spans", "tokenize",
    "PositionCommand",
    "HubSyntaxError", "format_hub_line", "hub_pos", "parse_hub_line", "HubEngine",
]
