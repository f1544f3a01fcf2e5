"""The engine's text protocol (PROTOCOL.md is the contract), its server and its tools.

The engine server (``python3 -m protocol``), one concern per module:

* ``protocol.server``: stdin/stdout loop, reader thread, dispatcher, ``main``;
* ``protocol.commands``: lines -> tokens -> one frozen dataclass per command;
* ``protocol.session``: options, engine and board behind every wire (text, Hub, DXP);
* ``protocol.boards``: what is on the board and what the protocol says about it;
* ``protocol.options``: the option table;  ``protocol.search_job``: the life of one ``go``;
* ``protocol.hub``: Hub v2 (wire format, Hub mode server, Hub client);
* ``protocol.dxp``: DamExchange follower.

Tools that drive engines through the reference client:

* ``protocol.client``: the reference client (any engine speaking the protocol);
* ``protocol.conformance``: judges any engine against PROTOCOL.md;
* ``protocol.match``: engine-vs-engine matches, Elo and SPRT;
* ``protocol.play`` and ``protocol.web``: play, watch and replay games (terminal, browser).

Arrows run one way: front ends and tools -> client -> wire formats; servers -> session ->
engine (``draughts_engine``).  The names below are re-exported for convenience.
``protocol.launch`` starts the command lines (and the console scripts).
"""

from __future__ import annotations

# Nothing of the project is imported here: ``python3 -m protocol`` and the console scripts
# load this package before their Ctrl-C guard (``protocol.launch``), and the server starts
# faster without the client.  The names below are imported on first use.
_CLIENT_NAMES = (
    "Engine", "EngineError", "EngineTimeoutError", "EngineTerminatedError", "ProtocolError",
    "CommandRejectedError", "ClientStateError", "InfoReport", "BestMove", "EngineOption",
    "GoResult", "Limit", "parse_info", "parse_bestmove",
)
_COMMAND_NAMES = ("PROTOCOL_VERSION", "CommandError", "parse_command")


def __getattr__(name: str):
    """Import a re-exported name from its module on first use."""
    if name in _CLIENT_NAMES:
        from protocol import client
        return getattr(client, name)
    if name in _COMMAND_NAMES:
        from protocol import commands
        return getattr(commands, name)
    if name == "SearchLimits":
        from draughts_engine.search.limits import SearchLimits
        return SearchLimits
    raise AttributeError(f"module 'protocol' has no attribute {name!r}")


__all__ = [*_COMMAND_NAMES, "SearchLimits", *_CLIENT_NAMES]
