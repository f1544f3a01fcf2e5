"""The engine's text protocol (PROTOCOL.md is the contract).

Modules, one concern each:

* ``protocol.commands``: lines -> tokens -> one frozen dataclass per command, with validation;
  the byte-level line reader the server uses.
* ``protocol.client``: a reference client that drives any engine speaking the protocol.

``python -m protocol`` starts the server. The names below are re-exported for convenience.
"""

from __future__ import annotations

from protocol.client import (
    BestMove,
    ClientStateError,
    CommandRejectedError,
    Engine,
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    GoResult,
    InfoReport,
    OptionSpec,
    ProtocolError,
    parse_bestmove,
    parse_info,
)
from protocol.commands import (
    PROTOCOL_VERSION,
    CommandError,
    GoLimits,
    parse_command,
)

__all__ = [
    "PROTOCOL_VERSION",
    "CommandError",
    "GoLimits",
    "parse_command",
    "Engine",
    "EngineError",
    "EngineTimeoutError",
    "EngineTerminatedError",
    "ProtocolError",
    "CommandRejectedError",
    "ClientStateError",
    "InfoReport",
    "BestMove",
    "OptionSpec",
    "GoResult",
    "parse_info",
    "parse_bestmove",
]
