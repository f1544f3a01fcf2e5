"""The engine's text protocol (PROTOCOL.md is the contract).

Modules, one concern each:

* ``protocol.commands``: lines -> tokens -> one frozen dataclass per command, with validation;
  the byte-level line reader the server uses.
* ``protocol.client``: a reference client that drives any engine speaking the protocol.

``python -m protocol`` starts the server. The names below are re-exported for convenience.
"""

from __future__ import annotations

from protocol.commands import (
    PROTOCOL_VERSION,
    CommandError,
    GoLimits,
    parse_command,
)

_CLIENT_NAMES = frozenset({
    "Engine", "EngineError", "EngineTimeoutError", "EngineTerminatedError", "ProtocolError",
    "CommandRejectedError", "ClientStateError", "InfoReport", "BestMove", "OptionSpec",
    "GoResult", "parse_info", "parse_bestmove",
})


def __getattr__(name: str):
    """Import the client lazily: the server does not need it, and starts faster without it."""
    if name in _CLIENT_NAMES:
        from protocol import client
        return getattr(client, name)
    raise AttributeError(f"module 'protocol' has no attribute {name!r}")


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
