"""Legal move generation on raw bitboards (the engine's hot code).

It works on plain ints:

* a position is ``(white, black, kings, white_to_move)``: ``white`` and
  ``black`` are the bitboards of all pieces of each colour, ``kings`` the
  kings of both colours (a subset of ``white | black``);
* a move is a :data:`RawMove` tuple ``(origin, destination, captured, promotes)``:
  one-bit masks for the origin and destination squares (equal when a king
  ends a capture where it started), the mask of captured pieces, and whether
  the moving man becomes a king.

Two capture sequences with the same origin, destination and captured set are
one move.  The rule differences are read from the
:class:`~draughts_engine.variants.Variant` once, when a :class:`MoveGenerator`
is built; nothing here reads global state.  Captures come first: quiet moves
are generated only when no capture exists, and the majority rule (with the
other capture-precedence rules) is applied in exactly one function,
:func:`.precedence.make_precedence`, which every capture search calls.

Each part is a ``make_*`` function that binds one variant's rules into a
closure: CPython reads closure and local names much faster than attributes,
so the loops stay fast while each part keeps a name and a contract.

Table of contents:

* :mod:`.rules`: :data:`RawMove`, :data:`NULL_MOVE`, :class:`GeneratorRules`
  (the variant's rule flags, the board's shifts and directions, read once),
  :class:`Family` (the entry points written per family of variants) and
  :class:`MoveGeneratorProtocol` (what every generator offers);
* :mod:`.tables`: ready-made move tuples (:class:`MoveTables`);
* :mod:`.masks`: whole-board tests (``capture_sources``, ``has_capture``, ``has_quiet``);
* :mod:`.precedence`: the majority and capture-precedence rule, in one function;
* :mod:`.captures`: the capture search of every variant;
* :mod:`.quiet`: quiet moves and their count;
* :mod:`.short`: the English family's fast paths (forward-only men, short kings);
* :mod:`.family`: the general family's entry points and :func:`play`, shared by
  every generator;
* :mod:`.generator`: :class:`MoveGenerator`, which puts them together, and
  :func:`generator_for`;
* :mod:`.frisian`, :mod:`.turkish`: the orthogonal families (their own masks and
  quiet moves, the common capture search and entry points).

>>> from draughts_engine.movegen import generator_for
>>> gen = generator_for("english")
>>> start = (gen.geometry.mask_of(range(21, 33)), gen.geometry.mask_of(range(1, 13)), 0, False)
>>> gen.count(*start), len(gen.moves(*start)), gen.has_capture(*start)
(7, 7, False)
"""
from __future__ import annotations

from .generator import CapturePaths, MoveGenerator, generator_for, play
from .rules import NULL_MOVE, Family, GeneratorRules, MoveGeneratorProtocol, RawMove
from .tables import MoveTables

__all__ = ["MoveGenerator", "generator_for", "RawMove", "NULL_MOVE", "play", "CapturePaths",
           "GeneratorRules", "MoveTables", "Family", "MoveGeneratorProtocol"]
