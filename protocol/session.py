"""What the server plays: one game of one variant, with its history.

A :class:`Session` turns protocol requests into calls on ``draughts_engine``
and answers with plain data (text lines, move texts); it never writes to a
stream.  Every mutator is atomic: it either succeeds or raises
:class:`SessionError` and leaves the session exactly as it was.

* :class:`DraughtsSession`: the draughts variants, backed by
  :class:`draughts_engine.game.Game` and the engine search.
* :class:`SmallGameSession`: tic-tac-toe and Tatedrez, backed by their
  immutable states and the generic search.
"""
from __future__ import annotations

import threading
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Type

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.games import GameInputError
from draughts_engine.games.tatedrez import Tatedrez
from draughts_engine.games.tictactoe import TicTacToe
from draughts_engine.perft import perft as count_leaves
from draughts_engine.position import Position
from draughts_engine.search.limits import SearchInfo, SearchLimits, SearchResult
from draughts_engine.variants import get_variant

__all__ = ["Session", "SessionError", "DraughtsSession", "SmallGameSession", "new_session",
           "SMALL_GAMES", "InfoCallback"]

#: Called with each search report and its PV as move texts.
InfoCallback = Callable[[SearchInfo, List[str]], None]

SMALL_GAMES: Dict[str, type] = {"tictactoe": TicTacToe, "tatedrez": Tatedrez}


class SessionError(ValueError):
    """A request the session cannot carry out; the message is the error detail."""


class Session:
    """Common interface of the sessions (see the module docstring)."""

    variant_name: str = ""

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        raise NotImplementedError

    def play(self, moves: Sequence[str]) -> None:
        raise NotImplementedError

    def undo(self, count: int) -> None:
        raise NotImplementedError

    def display(self) -> List[str]:
        """The ``d`` block (PROTOCOL.md section 7), without line ends."""
        raise NotImplementedError

    def perft(self, depth: int) -> List[str]:
        """``<move>: <count>`` lines, then ``nodes <total>``."""
        raise NotImplementedError

    def eval_lines(self, evaluation: str) -> List[str]:
        raise NotImplementedError

    def legal_texts(self) -> List[str]:
        raise NotImplementedError

    def search(self, engine, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event) -> Tuple[Optional[str], Optional[str]]:
        """Search the current position; return (best move text or None, ponder text or None)."""
        raise NotImplementedError


def _state_line(outcome: Optional[str], code: str) -> str:
    if outcome is None:
        return "state ongoing"
    if outcome == "draw":
        return f"state draw {code}"
    return f"state win {outcome} {code}"


class DraughtsSession(Session):
    """A draughts game of one variant."""

    def __init__(self, variant: str) -> None:
        self.variant = get_variant(variant)
        self.variant_name = self.variant.name
        self.game = Game(self.variant)

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        try:
            game = Game(self.variant, fen=fen) if fen is not None else Game(self.variant)
        except DraughtsError as exc:
            raise SessionError(f"bad fen '{fen}': {exc}") from None
        self._play_on(game, moves)
        self.game = game

    def play(self, moves: Sequence[str]) -> None:
        self._play_on(self.game, moves)

    @staticmethod
    def _play_on(game: Game, moves: Sequence[str]) -> None:
        played: List[str] = []
        try:
            game.push_all(_MoveTexts(moves, played))
        except DraughtsError as exc:
            where = f" (after {' '.join(played)})" if played else ""
            raise SessionError(f"{exc}{where}") from None

    def undo(self, count: int) -> None:
        if count > self.game.ply:
            raise SessionError(f"only {self.game.ply} plies to take back")
        self.game.undo(count)

    def display(self) -> List[str]:
        position = self.game.position
        geo = position.geometry
        lines = []
        for row in range(geo.size):
            cells = []
            for col in range(geo.size):
                square = geo.square_at(row, col)
                cells.append("-" if not square else (position.piece_at(square) or "."))
            lines.append("board " + "".join(cells))
        result = self.game.result()
        lines += [f"fen {position.fen()}", f"variant {self.variant_name}", f"side {position.turn}",
                  f"ply {self.game.ply}", " ".join(["legal"] + self.legal_texts()),
                  _state_line(result.outcome, result.code)]
        return lines

    def legal_texts(self) -> List[str]:
        return [m.pdn() for m in self.game.position.legal_moves()]

    def perft(self, depth: int) -> List[str]:
        position = self.game.position
        lines, total = [], 0
        for move in position.legal_moves():
            count = count_leaves(position.play_raw(move.raw), depth - 1)
            total += count
            lines.append(f"{move.pdn()}: {count}")
        lines.append(f"nodes {total}")
        return lines

    def eval_lines(self, evaluation: str) -> List[str]:
        from draughts_engine.evaluate import explain
        terms = explain(self.game.position, evaluation)
        lines = [f"eval {name} {value}" for name, value in terms if name != "total"]
        total = dict(terms).get("total", sum(value for _, value in terms))
        lines.append(f"eval total {total}")
        return lines

    def search(self, engine, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event) -> Tuple[Optional[str], Optional[str]]:
        last: List[Optional[SearchInfo]] = [None]

        def report(info: SearchInfo) -> None:
            last[0] = info
            on_info(info, [m.pdn() for m in info.pv])

        result: SearchResult = engine.search(self.game.position, limits,
                                             history=self.game.search_history(),
                                             on_info=report, stop=stop)
        shown = last[0]
        if result.best_move is not None and result.pv and (
                shown is None or not shown.pv or shown.pv[0] != result.best_move):
            # Stopped inside an iteration that changed its mind: show the line played.
            report(_final_info(result, engine))
        best = result.best_move.pdn() if result.best_move is not None else None
        ponder = result.ponder_move.pdn() if result.ponder_move is not None else None
        return best, ponder


def _final_info(result: SearchResult, engine) -> SearchInfo:
    """An ``info`` report of a search's result (for a line the iterations did not show)."""
    nps = result.nodes * 1000 // result.time_ms if result.time_ms > 0 else result.nodes
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


class SmallGameSession(Session):
    """Tic-tac-toe or Tatedrez (see docs/small-games.md)."""

    def __init__(self, name: str) -> None:
        self.variant_name = name
        self.state_class: Type = SMALL_GAMES[name]
        self.states: List = [self.state_class.start()]

    @property
    def state(self):
        return self.states[-1]

    def set_position(self, fen: Optional[str], moves: Sequence[str]) -> None:
        try:
            start = self.state_class.from_fen(fen) if fen is not None else self.state_class.start()
        except GameInputError as exc:
            raise SessionError(f"bad fen '{fen}': {exc}") from None
        self.states = [start] + self._states_after(start, moves)

    def play(self, moves: Sequence[str]) -> None:
        self.states += self._states_after(self.state, moves)

    @staticmethod
    def _states_after(state, moves: Sequence[str]) -> List:
        out, played = [], []
        for text in moves:
            try:
                if state.terminal_score() is not None:
                    raise SessionError(f"illegal move {text}: the game is over")
                move = state.parse_move(text)
            except GameInputError as exc:
                where = f" (after {' '.join(played)})" if played else ""
                raise SessionError(f"{exc}{where}") from None
            state = state.play(move)
            out.append(state)
            played.append(text)
        return out

    def undo(self, count: int) -> None:
        plies = len(self.states) - 1
        if count > plies:
            raise SessionError(f"only {plies} plies to take back")
        del self.states[len(self.states) - count:]

    def legal_texts(self) -> List[str]:
        state = self.state
        return [state.move_text(m) for m in state.legal_moves()]

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

    def search(self, engine, limits: SearchLimits, on_info: InfoCallback,
               stop: threading.Event) -> Tuple[Optional[str], Optional[str]]:
        from draughts_engine.search.generic import search_game_state
        state = self.state
        texts = _PvTexts(state)

        def report(info: SearchInfo) -> None:
            on_info(info, texts(info.pv))

        result = search_game_state(state, limits, on_info=report, stop=stop)
        if result.best_move is None:
            return None, None
        pv = texts(result.pv) if result.pv else [state.move_text(result.best_move)]
        best = state.move_text(result.best_move)
        ponder = pv[1] if len(pv) > 1 and pv[0] == best else None
        return best, ponder


class _PvTexts:
    """Turn a small-game PV (move values) into texts by replaying it."""

    def __init__(self, root) -> None:
        self.root = root

    def __call__(self, pv) -> List[str]:
        state, out = self.root, []
        for move in pv:
            out.append(state.move_text(move))
            state = state.play(move)
        return out


def _one_word(reason: str) -> str:
    lowered = reason.lower()
    for word in ("repetition", "line", "pass", "no-moves"):
        if word in lowered:
            return {"line": "three-in-a-row", "pass": "double-pass"}.get(word, word)
    if "full" in lowered or "draw" in lowered:
        return "board-full"
    return "game-over"


def new_session(variant: str) -> Session:
    """A fresh session at the start position of ``variant`` (a canonical name or alias)."""
    name = variant.strip().lower()
    if name in SMALL_GAMES:
        return SmallGameSession(name)
    return DraughtsSession(get_variant(name).name)
