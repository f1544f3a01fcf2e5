"""What is on the board: one game of one variant, and the answers the protocol gives about it.

A :class:`Board` turns protocol requests (set a position, play moves, undo, ``d``, ``perft``,
``eval``) into calls on ``draughts_engine`` and answers with plain data (text lines, move
values and texts); it never writes to a stream.  Every mutator is atomic: it either succeeds
or raises :class:`SessionError` and leaves the board exactly as it was.

* :class:`DraughtsBoard`: the draughts variants, backed by :class:`draughts_engine.game.Game`
  and the engine search.
* :class:`SmallGameBoard`: tic-tac-toe and Tatedrez, backed by their immutable states and the
  generic search.

:class:`protocol.session.Session` holds one board, the options and the engine.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, List, Optional, Sequence, Tuple, Type

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.games import SMALL_GAME_NAMES, small_game
from draughts_engine.notation import ALGEBRAIC, NUMERIC, format_move, parse_move
from draughts_engine.perft import divide
from draughts_engine.search.limits import RootMoveInfo, SearchInfo, SearchLimits, SearchResult
from draughts_engine.variants import get_variant

from .commands import moves_text, show_reason, show_token

__all__ = ["Board", "SessionError", "DraughtsBoard", "SmallGameBoard", "new_board", "plies_text",
           "SMALL_GAMES", "InfoCallback", "SearchOutcome"]

#: Called with each search report (its PV as the board's move values).
InfoCallback = Callable[[SearchInfo], None]
RootMoveCallback = Callable[[RootMoveInfo], None]

#: (best move, ponder move) as the board's move values; best is None without a legal move.
SearchOutcome = Tuple[Optional[Any], Optional[Any]]

SMALL_GAMES: Tuple[str, ...] = SMALL_GAME_NAMES


class SessionError(ValueError):
    """A request the session cannot carry out; the message is the error detail."""


class Board:
    """What every board answers (see the module docstring)."""

    variant_name: str = ""
    #: True when a ponder search cannot become a normal search (its search has no ponderhit,
    #: it ponders as an infinite search): ``ponderhit`` then ends it and its move is played.
    ponderhit_stops_search: bool = False

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        """Start from ``fen`` (None: the start position), then play ``moves``; all or nothing."""
        raise NotImplementedError

    def play(self, moves: Sequence[str]) -> None:
        """Play ``moves`` (texts) on the current position; all or nothing."""
        raise NotImplementedError

    def undo(self, count: int) -> None:
        """Take back ``count`` plies; all or nothing."""
        raise NotImplementedError

    @property
    def ply(self) -> int:
        """The plies played since the game's start position (what ``undo`` can take back)."""
        raise NotImplementedError

    def display(self) -> List[str]:
        """The ``d`` block (PROTOCOL.md section 7), without line ends."""
        raise NotImplementedError

    def perft(self, depth: int) -> List[str]:
        """``<move>: <count>`` lines, then ``nodes <total>``."""
        raise NotImplementedError

    def eval_lines(self, evaluation: str) -> List[str]:
        """``eval <term> <value>`` lines, ``eval total <value>`` last."""
        raise NotImplementedError

    def legal_moves(self) -> List[Any]:
        """The legal moves of the current position, as move values."""
        raise NotImplementedError

    def move_texts(self, moves: Sequence[Any]) -> List[str]:
        """Texts of a line of moves played from the current position (a PV)."""
        raise NotImplementedError

    def parse_moves(self, texts: Sequence[str]) -> List[Any]:
        """The legal moves of the current position that ``texts`` name (each its own move,
        not a sequence); :class:`SessionError` for the first text that is not one."""
        raise NotImplementedError

    def legal_texts(self) -> List[str]:
        """The legal moves of the current position, as texts."""
        return [self.move_texts([move])[0] for move in self.legal_moves()]

    def search(self, engine: Any, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event,
               on_root_move: Optional[RootMoveCallback] = None) -> SearchOutcome:
        """Search the current position with ``engine``; report through ``on_info`` (and
        the root move being searched through ``on_root_move``, where the engine tells)."""
        raise NotImplementedError


def plies_text(count: int) -> str:
    """``1 ply``, ``2 plies``: a count of plies for a message."""
    return "1 ply" if count == 1 else f"{count} plies"


def _state_line(outcome: Optional[str], code: str) -> str:
    if outcome is None:
        return "state ongoing"
    if outcome == "draw":
        return f"state draw {code}"
    return f"state win {outcome} {code}"


def _fen_reason(exc: Exception, fen: str) -> str:
    """The reason of a FEN error without the FEN itself (the error line quotes it once)."""
    return show_reason(getattr(exc, "reason", None) or str(exc))


class DraughtsBoard(Board):
    """A draughts game of one variant; its texts (moves, FEN) in :attr:`notation`."""

    def __init__(self, variant: str, notation: str = NUMERIC) -> None:
        self.variant = get_variant(variant)
        self.variant_name = self.variant.name
        self.game = Game(self.variant)
        self.notation: Optional[str] = NUMERIC
        self.set_notation(notation)

    def set_notation(self, notation: str) -> None:
        """``numeric`` (PDN numbers), ``algebraic`` (``c3``: 8x8 boards; numbers on others)
        or ``variant`` (the variant's own: algebraic for Russian and Brazilian)."""
        if notation == "variant":
            self.notation = None
        elif notation == ALGEBRAIC and self.variant.size == 8:
            self.notation = ALGEBRAIC
        else:
            self.notation = NUMERIC

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        try:
            game = Game(self.variant, fen=fen) if fen is not None else Game(self.variant)
        except DraughtsError as exc:
            raise SessionError(f"bad fen '{show_token(fen or '')}': {_fen_reason(exc, fen or '')}") \
                from None
        self._play_on(game, moves)
        self.game = game

    def set_game(self, game: Game) -> None:
        """Put ``game`` (of this board's variant) on the board."""
        self.game = game

    def play(self, moves: Sequence[str]) -> None:
        self._play_on(self.game, moves)

    @staticmethod
    def _play_on(game: Game, moves: Sequence[str]) -> None:
        played: List[str] = []
        try:
            game.push_all(_MoveTexts(moves, played))
        except DraughtsError as exc:
            where = f" (after {moves_text(played)})" if played else ""
            raise SessionError(f"{exc}{where}") from None

    @property
    def ply(self) -> int:
        return self.game.ply

    def undo(self, count: int) -> None:
        if count > self.game.ply:
            raise SessionError(f"only {plies_text(self.game.ply)} to take back")
        self.game.undo(count)

    def display(self) -> List[str]:
        position = self.game.position
        # The diagram's cells are one character each, separated by spaces; light squares
        # are blank there and '-' here.
        lines = ["board " + "".join("-" if cell == " " else cell for cell in row[::2])
                 for row in position.diagram()]
        result = self.game.result()
        lines += [f"fen {position.fen(self.notation)}", f"variant {self.variant_name}",
                  f"side {position.turn}",
                  f"ply {self.game.ply}", " ".join(["legal"] + self.legal_texts()),
                  _state_line(result.outcome, result.code)]
        return lines

    def legal_moves(self) -> List[Any]:
        return self.game.position.legal_moves()

    def move_texts(self, moves: Sequence[Any]) -> List[str]:
        return [format_move(move, self.variant, self.notation) for move in moves]

    def parse_moves(self, texts: Sequence[str]) -> List[Any]:
        position = self.game.position
        moves: List[Any] = []
        for text in texts:
            try:
                move = parse_move(position, text)
            except DraughtsError as exc:
                raise SessionError(f"searchmoves: {exc}") from None
            if move not in moves:
                moves.append(move)
        return moves

    def perft(self, depth: int) -> List[str]:
        rows = divide(self.game.position, depth, self.notation)
        lines = [f"{text}: {count}" for text, count in rows]
        lines.append(f"nodes {sum(count for _, count in rows)}")
        return lines

    def eval_lines(self, evaluation: str) -> List[str]:
        from draughts_engine.eval import explain
        terms = explain(self.game.position, evaluation)
        lines = [f"eval {name} {value}" for name, value in terms if name != "total"]
        total = dict(terms).get("total", sum(value for _, value in terms))
        lines.append(f"eval total {total}")
        return lines

    def search(self, engine: Any, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event,
               on_root_move: Optional[RootMoveCallback] = None) -> SearchOutcome:
        position = self.game.position
        legal = position.legal_moves()
        if not legal:
            return None, None
        book_move = engine.book_move(position, limits, self.game.ply) \
            if hasattr(engine, "book_move") else None
        if book_move in legal:
            on_info(SearchInfo(depth=0, seldepth=0, score_cp=None, mate_in=None, nodes=0, nps=0,
                               time_ms=0, hashfull=0, pv=(book_move,), book=True))
            return book_move, None
        shown: List[Optional[SearchInfo]] = [None]

        def report(info: SearchInfo) -> None:
            if not info.bound and info.multipv <= 1:
                shown[0] = info
            on_info(info)

        extra = {"on_root_move": on_root_move} if on_root_move is not None else {}
        result: SearchResult = engine.search(position, limits, history=self.game.search_history(),
                                             on_info=report, stop=stop, **extra)
        last = shown[0]
        if result.best_move is not None and result.pv and limits.multipv <= 1 and (
                last is None or not last.pv or last.pv[0] != result.best_move):
            # Stopped inside an iteration that changed its mind: show the line played.
            report(_final_info(result, engine))
        best, ponder = result.best_move, result.ponder_move
        if best not in legal:  # never play an illegal move, whatever the search said
            return legal[0], None
        if ponder is not None and ponder not in position.play(best).legal_moves():
            ponder = None
        return best, ponder


def _final_info(result: SearchResult, engine: Any) -> SearchInfo:
    """An ``info`` report of a search's result (for a line the iterations did not show)."""
    nps = result.nodes * 1000 // max(result.time_ms, 1)
    hashfull = engine.hashfull() if hasattr(engine, "hashfull") else 0
    return SearchInfo(depth=result.depth, seldepth=max(result.seldepth, result.depth),
                      score_cp=result.score_cp, mate_in=result.mate_in, nodes=result.nodes,
                      nps=nps, time_ms=result.time_ms, hashfull=hashfull, pv=tuple(result.pv))


class _MoveTexts:
    """Iterate move texts, remembering which were played (for error context)."""

    def __init__(self, moves: Sequence[str], played: List[str]) -> None:
        self.moves, self.played = moves, played

    def __iter__(self):
        for text in self.moves:
            yield text
            self.played.append(text)


class SmallGameBoard(Board):
    """Tic-tac-toe or Tatedrez (see docs/small-games.md)."""

    ponderhit_stops_search = True  # their search ponders as an infinite one

    def __init__(self, name: str) -> None:
        self.variant_name = name
        self.state_class: Type = small_game(name)
        self.states: List = [self.state_class.start()]

    @property
    def state(self):
        return self.states[-1]

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        try:
            start = self.state_class.from_fen(fen) if fen is not None else self.state_class.start()
        except DraughtsError as exc:
            raise SessionError(f"bad fen '{show_token(fen or '')}': {_fen_reason(exc, fen or '')}") \
                from None
        self.states = [start] + self._states_after(start, moves)

    def play(self, moves: Sequence[str]) -> None:
        self.states += self._states_after(self.state, moves)

    @staticmethod
    def _move_of(state, text: str, where: str = "") -> Any:
        """The legal move ``text`` names in ``state``; :class:`SessionError` (with ``where``
        after the reason) for a finished game or a text that is not a legal move."""
        try:
            if state.terminal_score() is not None:
                raise SessionError(f"illegal move {text}: the game is over{where}")
            return state.parse_move(text)
        except DraughtsError as exc:
            raise SessionError(f"{exc}{where}") from None

    @classmethod
    def _states_after(cls, state, moves: Sequence[str]) -> List:
        out, played = [], []
        for text in moves:
            move = cls._move_of(state, text,
                                f" (after {moves_text(played)})" if played else "")
            state = state.play(move)
            out.append(state)
            played.append(text)
        return out

    @property
    def ply(self) -> int:
        return len(self.states) - 1

    def undo(self, count: int) -> None:
        plies = len(self.states) - 1
        if count > plies:
            raise SessionError(f"only {plies_text(plies)} to take back")
        del self.states[len(self.states) - count:]

    def legal_moves(self) -> List[Any]:
        return list(self.state.legal_moves())

    def parse_moves(self, texts: Sequence[str]) -> List[Any]:
        moves: List[Any] = []
        for text in texts:
            try:
                move = self._move_of(self.state, text)
            except SessionError as exc:
                raise SessionError(f"searchmoves: {exc}") from None
            if move not in moves:
                moves.append(move)
        return moves

    def move_texts(self, moves: Sequence[Any]) -> List[str]:
        state, out = self.state, []
        for move in moves:
            out.append(state.move_text(move))
            state = state.play(move)
        return out

    def display(self) -> List[str]:
        state = self.state
        side = state.side_to_move
        side = {"x": "white", "o": "black"}.get(side, side)
        reason = state.result_reason()
        if reason is None:
            state_line = "state ongoing"
        else:
            text = state.result_text()
            outcome = {"1-0": "white", "0-1": "black"}.get(text, "draw")
            state_line = _state_line(outcome, _one_word(reason))
        board = state.board  # 9 squares, a1 first; '.' is empty
        rows = ["board " + board[start:start + 3] for start in (6, 3, 0)]
        return (rows
                + [f"fen {state.fen()}", f"variant {self.variant_name}", f"side {side}",
                   f"ply {len(self.states) - 1}", " ".join(["legal"] + self.legal_texts()),
                   state_line])

    def perft(self, depth: int) -> List[str]:
        state = self.state

        def leaves(s, d: int) -> int:
            if d == 0:
                return 1
            return sum(leaves(s.play(m), d - 1) for m in s.legal_moves())

        lines, total = [], 0
        for move in state.legal_moves():
            count = leaves(state.play(move), depth - 1)
            total += count
            lines.append(f"{state.move_text(move)}: {count}")
        lines.append(f"nodes {total}")
        return lines

    def eval_lines(self, evaluation: str) -> List[str]:
        return [f"eval total {self.state.evaluate()}"]

    def search(self, engine: Any, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event,
               on_root_move: Optional[RootMoveCallback] = None) -> SearchOutcome:
        from draughts_engine.search.generic import search_game_state
        result = search_game_state(self.state, limits, on_info=on_info, stop=stop)
        if result.best_move is None:
            return None, None
        pv = list(result.pv) if result.pv else [result.best_move]
        ponder = pv[1] if len(pv) > 1 and pv[0] == result.best_move else None
        return result.best_move, ponder


def _one_word(reason: str) -> str:
    lowered = reason.lower()
    for word in ("repetition", "line", "pass", "no-moves"):
        if word in lowered:
            return {"line": "three-in-a-row", "pass": "double-pass"}.get(word, word)
    if "full" in lowered or "draw" in lowered:
        return "board-full"
    return "game-over"


def new_board(variant: str, notation: str = NUMERIC) -> Board:
    """A fresh board at the start position of ``variant`` (a canonical name or alias); a
    draughts board writes its texts in ``notation`` (see :meth:`DraughtsBoard.set_notation`)."""
    name = variant.strip(" \t").lower()
    if name in SMALL_GAMES:
        return SmallGameBoard(name)
    return DraughtsBoard(get_variant(name).name, notation)
