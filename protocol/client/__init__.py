"""Reference client: drive any engine that speaks the protocol of PROTOCOL.md.

Modules, lowest layer first:

* :mod:`protocol.client.errors`: :class:`EngineError` and its subclasses
  (:class:`EngineTimeoutError`, :class:`EngineTerminatedError`, :class:`ProtocolError`,
  :class:`CommandRejectedError`, :class:`ClientStateError`);
* :mod:`protocol.client.reports`: what an engine says, as values (:class:`InfoReport`,
  :class:`BestMove`, :class:`EngineOption`, :class:`GoResult`);
* :mod:`protocol.client.parsers`: pure functions from one line to one value
  (:func:`parse_info`, :func:`parse_bestmove`, :func:`parse_option`, :func:`parse_id`);
* :mod:`protocol.client.limit`: :class:`Limit`, search limits in python-chess's words
  (seconds: ``Limit(time=0.5)``, ``Limit(white_clock=60, black_clock=60)``), accepted
  wherever :class:`SearchLimits` is;
* :mod:`protocol.client.transcript`: :class:`Transcript`, the last lines exchanged;
* :mod:`protocol.client.transport`: :class:`Transport` and the two real ones,
  :class:`StreamTransport` and :class:`ProcessTransport` (lines from background threads);
* :mod:`protocol.client.connection`: :class:`EngineConnection`, what every client shares
  (deadlines, the running search, reaping), also the base of
  :class:`protocol.hub.client.HubEngine`;
* :mod:`protocol.client.engine`: :class:`Engine`, the synchronous API of PROTOCOL.md.

Every wait has a timeout. Failures are :class:`EngineError` subclasses that carry the last
lines of the transcript (``> sent``, ``< received``, ``! stderr``, ``# event``)::

    with Engine.popen([sys.executable, "-m", "protocol"]) as engine:
        engine.set_option("Variant", "russian")
        engine.position(moves=["c3-d4"])
        result = engine.go(Limit(depth=4))        # or Limit(time=0.5): seconds
        print(result.bestmove, result.last_info)

Leaving the ``with`` block always reaps the process: ``quit``, then terminate, then kill.
"""

from __future__ import annotations

from draughts_engine.search.limits import SearchLimits
from protocol.client import errors
from protocol.client.connection import EngineConnection
from protocol.client.engine import Engine
from protocol.client.errors import (ClientStateError, CommandRejectedError, EngineError,
                                    EngineTerminatedError, EngineTimeoutError,
                                    IllegalBestMoveError, ProtocolError)
from protocol.client.limit import Limit
from protocol.client.parsers import parse_bestmove, parse_id, parse_info, parse_option
from protocol.client.reports import BestMove, EngineOption, GoResult, InfoReport
from protocol.client.transcript import Transcript
from protocol.client.transport import ProcessTransport, StreamTransport, Transport

__all__ = [
    *errors.__all__,
    "InfoReport",
    "BestMove",
    "EngineOption",
    "GoResult",
    "parse_info",
    "parse_bestmove",
    "parse_option",
    "parse_id",
    "Transcript",
    "Transport",
    "StreamTransport",
    "ProcessTransport",
    "EngineConnection",
    "Engine",
    "Limit",
    "SearchLimits",
]
