"""One engine session: the options, the search engine and the board, behind every wire.

The text server (:mod:`protocol.server`), Hub mode (:mod:`protocol.hub.server`) and the DXP
follower (:mod:`protocol.dxp`) all drive the engine through a :class:`Session`:

* options are set with :meth:`Session.set_option` (validated by :mod:`protocol.options`, then
  applied to the engine and the board here, and only here);
* a game is set up on :attr:`Session.board` (:mod:`protocol.boards`);
* a search is :meth:`Session.search`: the wire's limits, converted to
  :class:`~draughts_engine.search.limits.SearchLimits` at the wire's edge, get the session's
  move overhead and go to the engine's search.

The engine is built on first use (so that start-up stays fast) or by :meth:`Session.engine`
when a wire has a moment for slow set-up (``isready``, Hub's ``init``).
"""
from __future__ import annotations

import dataclasses
import threading
from typing import Any, Optional, Sequence, Tuple

from draughts_engine.search.limits import SearchLimits

from .boards import (Board, DraughtsBoard, InfoCallback, RootMoveCallback, SearchOutcome,
                     SessionError, new_board)
from .options import OptionError, Options, Value

__all__ = ["Session", "SessionError"]


class Session:
    """Options, the search engine and the board of one client (see the module docstring)."""

    def __init__(self, variant: str = "english", engine: Any = None) -> None:
        """A session at the start of ``variant``; ``engine`` replaces the search engine
        the session would build (a test's fake, or an engine built elsewhere)."""
        self.options = Options()
        self.board: Board = new_board(variant, str(self.options["Notation"]))
        self.options.values["Variant"] = self.board.variant_name
        self._engine: Any = engine
        self._engine_lock = threading.Lock()  # the engine is built once, whoever asks first
        self._book: Any = None  # the BookFile read when it was set (None: the built-in book)

    # ---- engine ---------------------------------------------------------------------
    def engine(self) -> Any:
        """The search engine, built with the current options on first use."""
        with self._engine_lock:
            if self._engine is None:
                from draughts_engine.search.engine import Searcher
                self._engine = Searcher(hash_mb=int(self.options["Hash"]),
                                        evaluation=str(self.options["Eval"]),
                                        algorithm=str(self.options["Search"]),
                                        endgame_tables=bool(self.options["EndgameTables"]))
                self._apply_skill(self._engine)
                self._apply_book(self._engine)
                self._apply_threads(self._engine)
            return self._engine

    def _apply_skill(self, engine: Any) -> None:
        """Tell ``engine`` the strength the options ask for (``UCI_LimitStrength``,
        ``UCI_Elo``, ``Seed``), when it can play weaker (a test's fake may not)."""
        if not hasattr(engine, "set_skill"):
            return
        from draughts_engine.search.skill import Skill
        limited = bool(self.options["UCI_LimitStrength"])
        engine.set_skill(Skill.of_elo(int(self.options["UCI_Elo"]), int(self.options["Seed"]))
                         if limited else None)

    def _apply_threads(self, engine: Any) -> None:
        """Start the search helpers ``Threads`` asks for, when ``engine`` can use them (a
        test's fake may not); :class:`OptionError` when they cannot be started."""
        if not hasattr(engine, "set_threads"):
            return
        from draughts_engine.search.parallel import HelperError
        try:
            engine.set_threads(int(self.options["Threads"]))
        except HelperError as exc:
            raise OptionError(f"cannot start the search helpers ({exc})", "Threads") from None

    def _apply_book(self, engine: Any) -> None:
        """Give ``engine`` the book the options ask for (``OwnBook``, ``BookFile``,
        ``BookDepth``, ``Seed``), when it can play from one (a test's fake may not)."""
        if not hasattr(engine, "set_book"):
            return
        from draughts_engine.book import BookPlayer
        engine.set_book(BookPlayer(str(self.options["BookFile"]), int(self.options["BookDepth"]),
                                   int(self.options["Seed"]), self._book)
                        if self.options["OwnBook"] else None)

    def engine_if_built(self) -> Any:
        """The search engine if it was built, else None (nothing to tell it yet)."""
        return self._engine

    def ponderhit(self) -> None:
        """The ponder move was played: tell the ponder search (the engine keeps the signal
        for a search that has not started yet, so it is never lost)."""
        self.engine().ponderhit()

    def forget_ponderhit(self) -> None:
        """Drop a ponderhit no search will use (see :meth:`Searcher.forget_ponderhit
        <draughts_engine.search.engine.Searcher.forget_ponderhit>`)."""
        engine = self.engine_if_built()
        if engine is not None:
            engine.forget_ponderhit()

    # ---- options --------------------------------------------------------------------
    def set_option(self, name: str, raw: Optional[str]) -> Tuple[str, Value]:
        """Validate and apply one option; returns (canonical name, value).

        Raises :class:`~protocol.options.OptionError` (nothing changed) for an unknown
        option or a bad value.  ``Variant`` puts a new board of that variant on the table;
        ``BookFile`` is read at once (a file that is not a book is a bad value).
        """
        option, value = self.options.resolve(name, raw)
        if option == "Variant":
            self.set_variant(str(value))
            return option, value
        if option == "BookFile":
            self._book = _read_book(str(value))
        if option == "Notation" and isinstance(self.board, DraughtsBoard):
            self.board.set_notation(str(value))
        if option == "Threads":  # helpers start now, not in the middle of the first search
            previous = self.options.values[option]
            self.options.values[option] = value
            try:
                self._apply_threads(self.engine())
            except OptionError:
                self.options.values[option] = previous
                raise
            return option, value
        engine = self._engine
        if option == "Clear Hash":
            if engine is not None and hasattr(engine, "clear_hash"):
                engine.clear_hash()
            return option, value
        if engine is not None:
            if option == "Hash":
                engine.set_hash_size(int(value))  # type: ignore[arg-type]
            elif option == "Eval":
                engine.set_evaluation(str(value))
            elif option == "Search":
                engine.set_algorithm(str(value))
            elif option == "EndgameTables":
                engine.set_endgame_tables(bool(value))
        self.options.values[option] = value
        if engine is not None and option in ("UCI_LimitStrength", "UCI_Elo", "Seed"):
            self._apply_skill(engine)
        if engine is not None and option in ("OwnBook", "BookFile", "BookDepth", "Seed"):
            self._apply_book(engine)
        return option, value

    def set_variant(self, variant: str, clear_engine: bool = True) -> None:
        """A new game of ``variant`` (a name or alias) at its start position; the engine
        forgets what it learnt (its hash table) unless ``clear_engine`` is False."""
        self.board = new_board(variant, str(self.options["Notation"]))
        self.options.values["Variant"] = self.board.variant_name
        if clear_engine and self._engine is not None:
            self._engine.new_game()

    def new_game(self) -> None:
        """A new game of the current variant: start position, fresh engine state."""
        self.set_variant(self.board.variant_name)

    # ---- search ---------------------------------------------------------------------
    def search_limits(self, limits: SearchLimits,
                      searchmoves: Sequence[str] = ()) -> SearchLimits:
        """``limits`` as this session searches them: with its move overhead (every search,
        the classic ones included, obeys every limit through one budget), its ``MultiPV``
        lines (never more than the legal moves) and the root moves ``searchmoves`` (move
        texts), which must be legal here: else :class:`SessionError`, nothing searched."""
        moves = tuple(self.board.parse_moves(searchmoves)) if searchmoves else ()
        return dataclasses.replace(limits, move_overhead_ms=int(self.options["MoveOverhead"]),
                                   multipv=int(self.options["MultiPV"]), searchmoves=moves)

    def search(self, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event,
               on_root_move: Optional[RootMoveCallback] = None) -> SearchOutcome:
        """Search the board's position under ``limits`` (see :meth:`search_limits`).

        Returns (best, ponder) as the board's move values: best is a legal move, or None
        when there is none.  ``on_info`` gets every report, in the searching thread;
        ``on_root_move`` the root move being searched (``currmove``), if given.
        """
        return self.board.search(self.engine(), limits, on_info, stop, on_root_move)


def _read_book(path: str) -> Any:
    """The book of the ``BookFile`` option (None for the built-in books, read on first use);
    :class:`~protocol.options.OptionError` when ``path`` is not a readable book."""
    from draughts_engine.book import BUILTIN, BookError, OpeningBook
    if path == BUILTIN:
        return None
    try:
        return OpeningBook.load(path)
    except BookError as exc:
        raise OptionError(str(exc), "BookFile") from None
