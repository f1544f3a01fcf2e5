"""PDN (Portable Draughts Notation) games: write one, read many, stream any number.

Writing (:func:`write_game`, also ``Game.to_pdn``; a tag value is always one
line, its control characters made spaces): the seven standard tags,
``[GameType]``, ``[SetUp]``/``[FEN]`` when needed, numbered moves in the
variant's notation (algebraic for Russian and Brazilian) and the result; see
:mod:`.pdn_writer`.

Reading: a collection of games; tags, move numbers (``12.`` and ``12...``),
comments (``{...}`` and ``;`` to the end of the line), variations
(``(...)``, nested; kept as a game tree with ``variations=True``), NAGs (``$3``), move suffixes (``!?``), escape lines
(``%`` in the first column) and a byte order mark are handled and skipped; moves in numbers or (8x8) algebraic squares, ``x`` or ``:`` for
captures.  Every move is checked against the rules.  Errors raise
:class:`InvalidPdnError` naming the source and line of the problem.

* :func:`stream_games` yields a :class:`PdnGame` per game (the game, its
  tags and result token, the lines where it starts and ends, its text) from
  PDN text, a path or an open file, holding one game at a time;
* :func:`iter_games` yields the :class:`~.game.Game` objects alone;
* :func:`read_games` returns them as a list (the whole collection in memory).

>>> games = read_games('[GameType "25"]\\n1. c3-d4 f6-g5 2. d4-e5 *')
>>> [m.pdn() for m in games[0].moves], games[0].variant.name
(['22-18', '11-16', '18-15'], 'russian')
>>> print(games[0].to_pdn({"Event": "demo"}).rstrip().splitlines()[-1])
1. c3-d4 f6-g5 2. d4-e5 *
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Union

from .game import Game
from .pdn_reader import RESULT_TOKENS, MoveNode, PdnGame, PdnSource, stream_records
from .pdn_writer import SEVEN_TAGS, write_game, write_tree
from .variants import VARIANTS, Variant

__all__ = ["write_game", "write_tree", "read_games", "MoveNode", "iter_games", "stream_games", "PdnGame", "PdnSource",
           "GAME_TYPES", "RESULT_TOKENS", "SEVEN_TAGS"]

GAME_TYPES: Dict[int, str] = {v.game_type: v.name for v in VARIANTS.values()}
"""Variant name by PDN ``GameType`` number (see :func:`.variants.variant_for_game_type`)."""


def stream_games(pdn: PdnSource, variant: Union[Variant, str, None] = None,
                 source: Optional[str] = None, strict: bool = True,
                 encoding: str = "utf-8", replay: bool = True,
                 variations: bool = False) -> Iterator[PdnGame]:
    """Yield a :class:`PdnGame` per game, in order, in constant memory.

    ``pdn`` is PDN text (a ``str`` is always text), ``bytes``, a path
    (``pathlib.Path``) or an open file (text or binary); a path is opened and
    closed here.  The variant comes from each game's ``[GameType]`` tag, else
    ``variant``, else English.  ``source`` names the input in errors (default:
    the path or the file's name).  With ``strict`` (default) the first problem
    raises :class:`InvalidPdnError`; with ``strict=False`` the game it occurs in
    is yielded with ``error`` set (and the moves before it) and reading goes
    on with the next game.  With ``replay=False`` no :class:`~.game.Game` is
    built (``game`` is None): the moves are only collected as text
    (``move_texts``), unchecked, many times faster; tags, results, lines and
    the bracket and tag syntax are read as always.  With ``variations`` each
    record's ``tree`` (a :class:`MoveNode`) holds the moves with their variations
    ``(...)`` and comments ``{...}``; ``game`` stays the main line.
    """
    return stream_records(pdn, Game if replay else None, variant, source, strict, encoding,
                          variations)


def iter_games(pdn: PdnSource, variant: Union[Variant, str, None] = None,
               source: Optional[str] = None) -> Iterator[Game]:
    """Yield the :class:`~.game.Game` of each game of ``pdn`` (see :func:`stream_games`)."""
    for record in stream_games(pdn, variant, source):
        yield record.game


def read_games(pdn: PdnSource, variant: Union[Variant, str, None] = None,
               source: Optional[str] = None) -> List[Game]:
    """All games of ``pdn`` as a list (see :func:`stream_games`)."""
    return list(iter_games(pdn, variant, source))
