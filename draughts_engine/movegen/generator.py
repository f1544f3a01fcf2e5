"""The move generator of one variant: :class:`MoveGenerator`, :func:`generator_for`.

:class:`MoveGenerator` builds the parts of the other modules for one variant
and publishes the entry points as plain functions (attributes, not methods:
the hot loops call them without a bound-method object).  The general forms
of ``moves``, ``count`` and ``count_after`` are in :mod:`.family`; the English
family gets the specialised forms of :mod:`.short` under the same contracts.
"""
from __future__ import annotations

from typing import Dict, List

from ..runtime import TRACED, compile_apart
from ..variants import Variant, get_variant
from .captures import make_capture_search, make_rich_capture_search
from .family import CapturePaths, make_capture_paths, make_captures, make_general_family, play
from .masks import make_capture_sources, make_has_capture, make_has_quiet
from .quiet import make_count_quiet, make_quiet_moves
from .rules import GeneratorRules, MoveGeneratorProtocol, RawMove
from .short import make_short_family
from .tables import MoveTables

__all__ = ["MoveGenerator", "generator_for", "play", "CapturePaths"]

class MoveGenerator:
    """Legal moves of one variant on raw bitboards (see :mod:`draughts_engine.movegen`).

    Public callables (all take ``white, black, kings, white_to_move``):

    * ``moves(...) -> list[RawMove]``: all legal moves, captures only when a
      capture exists (majority rule applied where the variant has it).
    * ``count(...) -> int``: ``len(moves(...))`` without building quiet moves.
    * ``count_after(..., move) -> int``: ``count`` of the position after ``move``
      (for the English family without building that position).
    * ``captures(...) -> list[RawMove]``: the legal captures (empty: none).
    * ``quiet_moves(...) -> list[RawMove]``: the quiet moves (legal when there is no capture).
    * ``has_capture(...) -> bool``: whether the side to move must capture.
    * ``has_quiet(...) -> bool``: whether the side to move has a non-capturing move.
    * ``play(white, black, kings, white_to_move, move) -> (white, black, kings)``.
    * ``capture_paths(...) -> dict``: every landing-square path of every capture,
      for notation (slow path).
    """

    def __init__(self, variant: Variant, traced: bool = TRACED) -> None:
        """``traced``: the hot functions in the shape PyPy's JIT wants (the default on
        PyPy, see :mod:`~draughts_engine.runtime`); the moves and their order are the same."""
        self.variant = variant
        self.traced = traced
        rules = GeneratorRules(variant)
        self.geometry = rules.geometry
        tables = MoveTables(rules, chunked=not traced)
        capture_sources = make_capture_sources(rules)
        search = make_rich_capture_search(rules) if rules.rich else make_capture_search(rules)
        quiet_moves = make_quiet_moves(rules, tables)
        if rules.short_family:
            family = make_short_family(rules, tables, search, capture_sources, traced)
        else:
            family = make_general_family(search, capture_sources, quiet_moves,
                                         make_count_quiet(rules))
        self.moves, self.count, self.count_after = family
        if traced and not rules.short_family:
            # Called from every node of a search: compiled once, not copied into
            # each trace of the search (measured: a third less tracing, the
            # first search of a process 10-25% sooner; perft 5-8% slower).
            compile_apart(self.moves)
        self.captures = make_captures(search, capture_sources)
        self.has_capture = make_has_capture(rules, capture_sources)
        self.has_quiet = make_has_quiet(rules)
        self.quiet_moves = quiet_moves
        self.capture_paths = make_capture_paths(search, capture_sources)
        self.play = play
        if rules.crown_ends_game:
            _end_at_crowning(self)

    def __repr__(self) -> str:
        return f"MoveGenerator({self.variant!r}, traced={self.traced})"


def _end_at_crowning(gen: MoveGenerator) -> None:
    """Breakthrough: a side whose opponent has a king has lost, so it has no move.

    Wraps the entry points of ``gen`` (built for the variant's capture rules)
    so that every one agrees: no moves, no capture, no quiet move.
    """
    moves, count, captures = gen.moves, gen.count, gen.captures
    has_capture, has_quiet, quiet_moves = gen.has_capture, gen.has_quiet, gen.quiet_moves
    capture_paths = gen.capture_paths

    def over(white: int, black: int, kings: int, white_to_move: bool) -> bool:
        """Whether the opponent of the side to move has crowned a king."""
        return kings & (black if white_to_move else white) != 0

    def moves_bt(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        return [] if over(white, black, kings, white_to_move) else moves(white, black, kings,
                                                                         white_to_move)

    def count_bt(white: int, black: int, kings: int, white_to_move: bool) -> int:
        return 0 if over(white, black, kings, white_to_move) else count(white, black, kings,
                                                                        white_to_move)

    def count_after_bt(white: int, black: int, kings: int, white_to_move: bool,
                       move: RawMove) -> int:
        w, b, k = play(white, black, kings, white_to_move, move)
        return count_bt(w, b, k, not white_to_move)

    def captures_bt(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        return [] if over(white, black, kings, white_to_move) else captures(white, black, kings,
                                                                            white_to_move)

    def has_capture_bt(white: int, black: int, kings: int, white_to_move: bool) -> bool:
        return not over(white, black, kings, white_to_move) and has_capture(
            white, black, kings, white_to_move)

    def has_quiet_bt(white: int, black: int, kings: int, white_to_move: bool) -> bool:
        return not over(white, black, kings, white_to_move) and has_quiet(
            white, black, kings, white_to_move)

    def quiet_moves_bt(white: int, black: int, kings: int, white_to_move: bool) -> List[RawMove]:
        return [] if over(white, black, kings, white_to_move) else quiet_moves(
            white, black, kings, white_to_move)

    def capture_paths_bt(white: int, black: int, kings: int, white_to_move: bool) -> CapturePaths:
        return {} if over(white, black, kings, white_to_move) else capture_paths(
            white, black, kings, white_to_move)

    gen.moves, gen.count, gen.count_after = moves_bt, count_bt, count_after_bt
    gen.captures, gen.has_capture, gen.has_quiet = captures_bt, has_capture_bt, has_quiet_bt
    gen.quiet_moves, gen.capture_paths = quiet_moves_bt, capture_paths_bt


_GENERATORS: Dict[str, MoveGeneratorProtocol] = {}


def generator_for(variant: "Variant | str") -> MoveGeneratorProtocol:
    """The (cached, immutable) move generator of a variant."""
    v = get_variant(variant)
    gen = _GENERATORS.get(v.name)
    if gen is None:
        gen = _GENERATORS[v.name] = _build(v)
    return gen


def _build(variant: Variant) -> MoveGeneratorProtocol:
    """The generator class of a variant's family (the orthogonal families have their own
    modules, imported here so that they may import the parts of this package)."""
    if variant.all_squares:
        from .turkish import TurkishGenerator
        return TurkishGenerator(variant)
    if variant.orthogonal_captures:
        from .frisian import FrisianGenerator
        return FrisianGenerator(variant)
    return MoveGenerator(variant)
