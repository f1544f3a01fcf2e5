"""DamExchange (DXP): play games over TCP against a DXP initiator (PROTOCOL.md section 11).

``draughts-engine --dxp [--host H] [--port P] ...`` (or ``python3 -m protocol --dxp ...``)
listens on loopback port 27531 by default and plays one game at a time (connections that have
not started a game wait beside it without holding it).  The initiator
sends a game request (``R``), we answer ``A``, the two sides exchange moves (``M``) until one
sends a game end (``E``) that the other acknowledges; ``B``/``K`` take moves back and ``C``
carries chat.

Modules, one concern each:

* :mod:`protocol.dxp.codec`: the messages and their fixed-width layouts
  (:func:`parse_message`, the ``encode_*`` functions, positions);
* :mod:`protocol.dxp.frames`: :class:`FrameReader`, cutting the byte stream into frames
  with bounds on size and time;
* :mod:`protocol.dxp.follower`: :class:`DxpFollower`, one connection's games, searched
  through :class:`protocol.session.Session`; :class:`DxpSettings`; :class:`GameSlot`, the
  one game the connections share;
* :mod:`protocol.dxp.listener`: :func:`serve`, the listening socket;
* :mod:`protocol.dxp.cli`: :func:`main`, the command line.

Tests drive each part on its own: the codec with strings, the reader with a fake socket, the
follower with a fake engine (the engine is made by a factory).
"""
from __future__ import annotations

from protocol.dxp.cli import main
from protocol.dxp.codec import (FOLLOWER_NAME, BackAccept, BackRequest, Chat, DxpFormatError,
                                GameAccept, GameEnd, GameRequest, Message, MoveMessage,
                                dxp_position, encode_back_accept, encode_back_request,
                                encode_chat, encode_game_accept, encode_game_end,
                                encode_game_request, encode_move, fen_from_dxp, parse_message)
from protocol.dxp.follower import SEND_GAP, DxpFollower, DxpSettings, GameSlot
from protocol.dxp.frames import (MAX_FRAME, FrameError, FrameReader, FrameTimeoutError,
                                 FrameTooLongError)
from protocol.dxp.listener import DEFAULT_HOST, DEFAULT_PORT, default_engine_factory, serve

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "FOLLOWER_NAME", "MAX_FRAME", "SEND_GAP",
           "DxpFormatError", "GameRequest", "GameAccept", "MoveMessage", "GameEnd", "Chat",
           "BackRequest", "BackAccept", "Message", "parse_message", "encode_game_request",
           "encode_game_accept", "encode_move", "encode_game_end", "encode_chat",
           "encode_back_request", "encode_back_accept", "dxp_position", "fen_from_dxp",
           "FrameReader", "FrameError", "FrameTooLongError", "FrameTimeoutError",
           "DxpFollower", "DxpSettings", "GameSlot", "default_engine_factory", "serve", "main"]
