"""Game records for the front ends: one small interface over draughts and the small games.

A :class:`GameRecord` is the moves played from a start position, with undo/redo, the result
by the game's own rules, move texts in and out, a UI-neutral picture of the board
(:class:`BoardView`) and PDN text. Two implementations:

* :class:`DraughtsRecord` (English, Russian, Brazilian, International) on
  :class:`draughts_engine.game.Game`: its draw rules (repetition, move counters) decide the
  result, PDN is written and read by :mod:`draughts_engine.pdn`;
* :class:`SmallGameRecord` (tic-tac-toe, Tatedrez) on the immutable states of
  :mod:`draughts_engine.games`; their PDN-like files carry ``[Variant "tictactoe"]``.

Sides are always called ``'white'`` and ``'black'``: the first player of tic-tac-toe (X) is
``'white'``; :attr:`GameRecord.side_names` gives what a person should read (``X``/``O``).

Every mutator succeeds completely or raises and leaves the record as it was. Move text that
cannot be played raises :class:`MoveRejected` with a one-line ``reason`` and the legal moves.

Two kinds of move text: *canonical* texts (:attr:`GameRecord.move_texts`,
:meth:`GameRecord.legal_moves`, :meth:`GameRecord.engine_position`) are what engines are sent:
PDN square numbers for every draughts variant, since an engine may read nothing else; *shown*
texts (:meth:`GameRecord.display_text`, :attr:`GameRecord.display_texts`,
:meth:`GameRecord.display_legal_moves`, the messages of :class:`MoveRejected`) are what a
person reads: the variant's own notation, algebraic (``c3-d4``) for Russian, Brazilian, Czech
and Turkish, numbers (``22-18``) for the others. :meth:`GameRecord.parse_move` reads both.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from draughts_engine.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidMoveError,
    clip,
)
from draughts_engine.game import Game
from draughts_engine.games import GAME_NAMES, SMALL_GAME_NAMES, small_game
from draughts_engine.games.tatedrez import Drop, Step
from draughts_engine.move import Move
from draughts_engine.notation import (
    ALGEBRAIC,
    format_move,
    parse_squares,
    square_text,
)
from draughts_engine.pdn import RESULT_TOKENS, read_games
from draughts_engine.pdn_writer import tag_line, wrap_tokens, write_tree
from draughts_engine.position import Position
from draughts_engine.variants import UnknownVariantError, Variant, get_variant

__all__ = [
    "PlayError",
    "MoveRejected",
    "GameFinishedError",
    "UndoRedoError",
    "LoadError",
    "Outcome",
    "Cell",
    "BoardView",
    "GameRecord",
    "DraughtsRecord",
    "SmallGameRecord",
    "VARIANTS",
    "canonical_variant",
    "new_record",
    "records_from_text",
    "is_fen_shaped",
    "draughts_title",
]

#: Every game the front ends play, by canonical name.
VARIANTS: Tuple[str, ...] = GAME_NAMES

_SMALL_GAMES: Dict[str, type] = {name: small_game(name) for name in SMALL_GAME_NAMES}
_SMALL_ALIASES = {"tic-tac-toe": "tictactoe", "ttt": "tictactoe"}


# --------------------------------------------------------------------------- errors


class PlayError(Exception):
    """Base of the front ends' errors; ``str()`` is one line meant for a person."""


class MoveRejected(PlayError):
    """Move text that cannot be played here: ``reason`` (one line) and ``legal`` (the legal
    moves as a person reads them, :meth:`GameRecord.display_legal_moves`)."""

    def __init__(self, reason: str, legal: Sequence[str]) -> None:
        super().__init__(reason)
        self.reason = reason
        self.legal: Tuple[str, ...] = tuple(legal)


class GameFinishedError(PlayError):
    """A move was asked for after the game ended."""


class UndoRedoError(PlayError):
    """Nothing (or not enough) to undo or redo."""


class LoadError(PlayError):
    """A FEN, PDN text or file that cannot be loaded; the message names what and why."""


#: The largest game file the front ends read, in characters: a long match's PDN fits many
#: times over, and a huge file is refused with a message instead of filling the memory.
MAX_GAME_FILE_CHARS = 32 * 1024 * 1024


def read_game_file(path: str) -> str:
    """The text of a PDN or FEN file (UTF-8).

    Raises :class:`LoadError` whose message is only the reason (the caller names the file):
    the system's (``No such file or directory``), ``is a folder``, ``not a regular file`` (a
    device such as /dev/zero or a pipe, which could be endless or block), ``larger than
    32 MiB`` or ``not a UTF-8 text file``.
    """
    limit = MAX_GAME_FILE_CHARS
    mib = 1024 * 1024
    too_big = "larger than " + (f"{limit // mib} MiB" if limit >= mib else f"{limit} characters")
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise LoadError("is a folder")
        if not stat.S_ISREG(mode):
            raise LoadError("not a regular file")
        with open(path, encoding="utf-8") as handle:
            if os.fstat(handle.fileno()).st_size > 4 * limit:  # UTF-8: up to 4 bytes a character
                raise LoadError(too_big)
            text = handle.read(limit + 1)
    except OSError as exc:
        raise LoadError(exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise LoadError("not a UTF-8 text file") from None
    except ValueError as exc:  # an embedded NUL in the path
        raise LoadError(str(exc)) from None
    if len(text) > limit:
        raise LoadError(too_big)
    return text


# --------------------------------------------------------------------------- values



def _bad_fen_text(fen: Optional[str], exc: Exception) -> str:
    """The message of a FEN the rules refused: the FEN quoted once (the error's ``reason``
    leaves it out; a message without one may quote it already)."""
    reason = getattr(exc, "reason", None)
    if reason is not None:
        return f"bad FEN {clip(fen or '')}: {reason}"
    text = str(exc)
    if fen and repr(fen)[1:-1] in text:
        return f"bad FEN: {text}"
    return f"bad FEN {fen!r}: {text}"

@dataclass(frozen=True)
class Outcome:
    """How the game stands: ``winner`` is ``'white'``, ``'black'``, ``'draw'`` or None (ongoing).

    ``reason`` says why it ended (empty while it goes on); ``score`` is the PDN result token
    (``1-0``, ``0-1``, ``1/2-1/2``; International writes ``2-0``, ``0-2``, ``1-1``; ``*``).
    """

    winner: Optional[str]
    reason: str
    score: str

    @property
    def is_over(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Cell:
    """One square of a :class:`BoardView`.

    ``row`` 0 is the top of the standard diagram (Black's side in draughts, rank 3 of the small
    games) and ``col`` 0 its left. ``number`` is the PDN square number (draughts, playable squares
    only); ``name`` the algebraic name (``c3``) on 8x8 draughts and 3x3 boards. ``piece`` is
    ``w b W B`` (draughts men and kings), ``x o`` (tic-tac-toe) or ``R B N r b n`` (Tatedrez);
    ``owner`` is ``'white'``/``'black'``. ``in_last_move`` marks the squares the last move
    passed through, ``captured`` the squares it emptied by capturing.
    """

    row: int
    col: int
    playable: bool
    number: Optional[int] = None
    name: Optional[str] = None
    piece: Optional[str] = None
    owner: Optional[str] = None
    in_last_move: bool = False
    captured: bool = False


@dataclass(frozen=True)
class BoardView:
    """What a front end draws: ``rows`` of :class:`Cell`, top row first (see :class:`Cell`)."""

    variant: str
    size: int
    rows: Tuple[Tuple[Cell, ...], ...]
    side_to_move: str
    has_numbers: bool      # playable squares carry PDN numbers (draughts)
    has_coordinates: bool  # files a.. and ranks 1.. name the squares (8x8 draughts, 3x3 games)


# --------------------------------------------------------------------------- the interface


def canonical_variant(name: str) -> str:
    """The canonical name of a game (``american`` -> ``english``, ``ttt`` -> ``tictactoe``).

    Raises :class:`LoadError` naming the known games.
    """
    lowered = name.strip().lower()
    lowered = _SMALL_ALIASES.get(lowered, lowered)
    if lowered in _SMALL_GAMES:
        return lowered
    try:
        return get_variant(lowered).name
    except UnknownVariantError:
        raise LoadError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None


def draughts_title(variant: str) -> str:
    """What a person calls a draughts variant, by its canonical name: the variant's own
    ``title`` (``Antidraughts``, ``Frysk!``, ``Pool checkers``), else ``English draughts``."""
    rules = get_variant(variant)
    return rules.title or f"{rules.name.capitalize()} draughts"


class GameRecord:
    """Moves from a start position with undo/redo and the game's result (module docstring).

    Move texts: :meth:`parse_move` accepts what a person types; :attr:`move_texts` are the
    canonical texts of the moves played (what engines are sent); the legal moves are listed in
    their shortest unambiguous form by :meth:`legal_moves`. What a person reads is the
    *display* layer: :meth:`display_text`, :attr:`display_texts`, :meth:`display_legal_moves`
    (the game's own notation; the same texts for every game but the algebraic draughts
    variants).
    """

    #: The game's canonical name (``english``, ``tictactoe``) and what to call it.
    variant: str
    title: str
    #: Names of the sides as a person reads them (``{'white': 'X', 'black': 'O'}``).
    side_names: Dict[str, str]
    #: The side that moves first from the variant's start position.
    first_player: str

    def __init__(self) -> None:
        self._redo: List[Any] = []
        self._tags: Dict[str, str] = {}

    # ---- state -----------------------------------------------------------------------
    @property
    def ply(self) -> int:
        """Moves played from the start position."""
        raise NotImplementedError

    @property
    def side_to_move(self) -> str:
        """``'white'`` or ``'black'``."""
        raise NotImplementedError

    @property
    def redo_count(self) -> int:
        """Moves that :meth:`redo` can replay."""
        return len(self._redo)

    @property
    def move_texts(self) -> List[str]:
        """Canonical texts of the moves played, in order."""
        raise NotImplementedError

    def fen(self) -> str:
        """FEN of the current position."""
        raise NotImplementedError

    def start_fen(self) -> Optional[str]:
        """FEN of the start position, or None when it is the game's usual start."""
        raise NotImplementedError

    def result(self) -> Outcome:
        raise NotImplementedError

    def legal_moves(self) -> List[str]:
        """Legal moves in their shortest unambiguous form, in a fixed order (draughts: by
        squares); empty once the game is over. Canonical texts (see :attr:`move_texts`)."""
        raise NotImplementedError

    def display_legal_moves(self) -> List[str]:
        """:meth:`legal_moves` as a person reads them, in the same order."""
        return self.legal_moves()

    def display_text(self, text: str) -> str:
        """Canonical move text (one of :attr:`move_texts`, an engine's best move or
        principal variation) as a person reads it: in the game's own notation. Text that is
        no canonical move comes back unchanged."""
        return text

    @property
    def display_texts(self) -> List[str]:
        """:attr:`move_texts` as a person reads them."""
        return [self.display_text(text) for text in self.move_texts]

    def board_view(self) -> BoardView:
        raise NotImplementedError

    def move_label(self, ply: int) -> str:
        """Move number of the move played at ``ply`` (0-based): ``'3.'`` or ``'3...'``."""
        offset = 0 if self._start_side() == self.first_player else 1
        number, second = divmod(ply + offset, 2)
        return f"{number + 1}." if not second else f"{number + 1}..."

    def move_number(self) -> int:
        """The number of the move about to be played (1 for the first move)."""
        offset = 0 if self._start_side() == self.first_player else 1
        return (self.ply + offset) // 2 + 1

    def _start_side(self) -> str:
        raise NotImplementedError

    # ---- moves -------------------------------------------------------------------------
    def parse_move(self, text: str) -> Any:
        """The legal move ``text`` denotes; :class:`MoveRejected` or :class:`GameFinishedError`."""
        raise NotImplementedError

    def move_text(self, move: Any) -> str:
        """The canonical text of ``move``, a legal move of the current position."""
        raise NotImplementedError

    def push(self, move: Any) -> str:
        """Play a move from :meth:`parse_move`; returns its canonical text; clears redo."""
        self._push(move)
        self._redo.clear()
        return self.move_texts[-1]

    def play_text(self, text: str) -> str:
        """:meth:`parse_move` then :meth:`push`."""
        return self.push(self.parse_move(text))

    def undo(self, count: int = 1) -> List[str]:
        """Take back ``count`` moves (all or none); they can be redone. Returns their texts."""
        if count < 1 or count > self.ply:
            raise UndoRedoError("no move to take back" if self.ply == 0
                                else f"cannot take back {count} moves: {self.ply} played")
        texts = self.move_texts[-count:]
        for _ in range(count):
            self._redo.append(self._pop())
        return texts

    def redo(self, count: int = 1) -> List[str]:
        """Replay ``count`` undone moves (all or none). Returns their texts."""
        if count < 1 or count > len(self._redo):
            raise UndoRedoError("no move to redo" if not self._redo
                                else f"cannot redo {count} moves: {len(self._redo)} undone")
        for _ in range(count):
            self._push(self._redo.pop())
        return self.move_texts[-count:]

    def _push(self, move: Any) -> None:
        raise NotImplementedError

    def _pop(self) -> Any:
        raise NotImplementedError

    # ---- text --------------------------------------------------------------------------
    def pdn(self, tags: Optional[Dict[str, str]] = None, tree: Any = None) -> str:
        """The game as PDN text, ending with a blank line (``tags`` override the defaults;
        ``tree``, draughts only: the movetext with variations, see
        :func:`draughts_engine.pdn_writer.write_tree`)."""
        raise NotImplementedError

    def engine_position(self) -> Tuple[Optional[str], List[str]]:
        """``(start FEN or None, canonical moves)``: the ``position`` command for an engine."""
        return self.start_fen(), self.move_texts

    def tags(self) -> Dict[str, str]:
        """Tags read from a PDN game (empty for a new game)."""
        return dict(self._tags)

    def replayed(self, texts: Sequence[str]) -> "GameRecord":
        """A new record of this game's variant, start position and tags with ``texts``
        (canonical move texts) played, nothing to redo. Raises :class:`MoveRejected` for a
        move that is not legal where it comes."""
        record = new_record(self.variant, self.start_fen())
        record._tags = dict(self._tags)
        for text in texts:
            record.play_text(text)
        return record


# --------------------------------------------------------------------------- draughts


class DraughtsRecord(GameRecord):
    """A draughts game on :class:`draughts_engine.game.Game` (see the module docstring)."""

    def __init__(self, variant: str = "english", fen: Optional[str] = None,
                 game: Optional[Game] = None) -> None:
        super().__init__()
        if game is None:
            try:
                game = Game(variant, fen=fen) if fen else Game(variant)
            except DraughtsError as exc:
                raise LoadError(_bad_fen_text(fen, exc)) from None
            except UnknownVariantError as exc:
                raise LoadError(str(exc)) from None
        self.game = game
        self._tags = dict(game.tags)
        # A result read with the game holds for the moves read (a resignation, an agreed
        # draw); once the game goes elsewhere the result follows the moves.
        self._read_moves = [move.pdn() for move in game.moves] if "Result" in self._tags else None
        self.variant = game.variant.name
        self.title = draughts_title(self.variant)
        self.first_player = game.variant.first
        self.side_names = {"white": "White", "black": "Black"}

    def replayed(self, texts: Sequence[str]) -> "DraughtsRecord":
        record = super().replayed(texts)
        assert isinstance(record, DraughtsRecord)
        record._read_moves = self._read_moves  # a result read holds for the moves read
        return record

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def ply(self) -> int:
        return self.game.ply

    @property
    def side_to_move(self) -> str:
        return self.game.position.turn

    def _start_side(self) -> str:
        return self.game.start.turn

    @property
    def move_texts(self) -> List[str]:
        return [move.pdn() for move in self.game.moves]

    @property
    def last_move(self) -> Optional[Move]:
        return self.game.moves[-1] if self.game.moves else None

    def fen(self) -> str:
        return self.game.position.fen()

    def start_fen(self) -> Optional[str]:
        start = self.game.start
        return None if start == Position.start(self.game.variant) else start.fen()

    def result(self) -> Outcome:
        result = self.game.result()
        return Outcome(result.outcome, "" if result.outcome is None else result.reason,
                       result.pdn(self.game.variant))

    def legal_moves(self) -> List[str]:
        return [short_text(move, legal) for move, legal in self._legal_pairs()]

    def display_legal_moves(self) -> List[str]:
        variant = self.game.variant
        return [short_text(move, legal, variant) for move, legal in self._legal_pairs()]

    def _legal_pairs(self) -> List[Tuple[Move, List[Move]]]:
        """Each legal move (by squares) with the list of them; none once the game is over."""
        if self.result().is_over:
            return []
        legal = sorted(self.game.position.legal_moves(), key=lambda move: move.path)
        return [(move, legal) for move in legal]

    @property
    def notation(self) -> str:
        """The variant's own notation: ``numeric`` or ``algebraic`` (what a person reads)."""
        return self.game.variant.notation

    def display_text(self, text: str) -> str:
        if self.notation != ALGEBRAIC:
            return text
        return _algebraic_text(text, self.game.position)

    def display_move(self, move: Move) -> str:
        """``move`` (every landing square) as a person reads it: ``c3-d4`` in Russian."""
        return format_move(move, self.game.variant)

    def parse_move(self, text: str) -> Move:
        outcome = self.result()
        if outcome.is_over:
            raise GameFinishedError(f"the game is over ({outcome.reason})")
        position = self.game.position
        from draughts_engine.notation import parse_move
        try:
            return parse_move(position, text)
        except InvalidMoveError as exc:
            reason = str(exc)
        except AmbiguousMoveError as exc:
            reason = f"{_why_ambiguous(position, text, exc)}; type the whole capture path"
        except IllegalMoveError:
            reason = _why_illegal(position, text)
        raise MoveRejected(reason, self.display_legal_moves())

    def move_text(self, move: Move) -> str:
        return move.pdn()

    def _push(self, move: Move) -> None:
        self.game.push(move)

    def _pop(self) -> Move:
        move = self.game.moves[-1]
        self.game.undo(1)
        return move

    def board_view(self) -> BoardView:
        position = self.game.position
        geometry = position.geometry
        last = self.last_move
        path = set(last.path) if last is not None else set()
        captured = set(last.captured) if last is not None else set()
        rows = []
        for row in range(geometry.size):
            cells = []
            for col in range(geometry.size):
                number = geometry.square_at(row, col)
                if not number:
                    cells.append(Cell(row, col, False))
                    continue
                piece = position.piece_at(number)
                owner = None if piece is None else ("white" if piece in "wW" else "black")
                name = geometry.algebraic(number) if geometry.size == 8 else None
                cells.append(Cell(row, col, True, number, name, piece, owner,
                                  number in path, number in captured))
            rows.append(tuple(cells))
        return BoardView(self.variant, geometry.size, tuple(rows), self.side_to_move,
                         has_numbers=True, has_coordinates=geometry.size == 8)

    def pdn(self, tags: Optional[Dict[str, str]] = None, tree: Any = None) -> str:
        merged = dict(self._tags)
        merged.pop("Result", None)  # the result follows the moves as they stand now ...
        if self._read_moves is not None and self._read_moves == [m.pdn() for m in self.game.moves]:
            merged["Result"] = self._tags["Result"]  # ... or as read, for the moves read
        else:
            merged["Result"] = self.game.result().pdn(self.variant)
        merged.update(tags or {})
        if tree is not None:
            return write_tree(self.game, tree, merged)
        return self.game.to_pdn(merged)


def short_text(move: Move, legal: Sequence[Move], variant: Optional[Variant] = None) -> str:
    """``move`` as origin and destination, with the whole path only where another legal move
    shares both (``47x36`` or ``47x38x24x13x36``). PDN numbers, or with ``variant`` its own
    notation (``c3-d4`` in Russian)."""
    twins = sum(1 for other in legal if other.start == move.start and other.end == move.end)
    if variant is None:
        return move.pdn(full_path=twins > 1)
    return format_move(move, variant, full_path=twins > 1)


def _algebraic_text(text: str, position: Position) -> str:
    """Canonical move ``text`` (``22-18``, ``15x24x31``) with its squares named (``c3-d4``);
    text that is no move comes back as it was."""
    try:
        squares, capture = parse_squares(text, position)
    except DraughtsError:
        return text
    return ("x" if capture else "-").join(position.geometry.algebraic(s) for s in squares)


def _why_ambiguous(position: Position, text: str, exc: AmbiguousMoveError) -> str:
    """The rules core's "ambiguous move" line with its candidates (``exc.moves``) in the
    variant's notation."""
    variant = position.variant
    if variant.notation != ALGEBRAIC or len(exc.moves) < 2:
        return str(exc)
    return (f"ambiguous move {clip(text.strip())}: could be "
            + ", ".join(format_move(move, variant) for move in exc.moves))


def _why_illegal(position: Position, text: str) -> str:
    """One line saying why ``text`` (well formed) is no legal move of ``position``; squares
    are named in the variant's own notation (``c3`` in Russian), ``text`` as typed."""
    shown = text.strip()
    try:
        squares, _ = parse_squares(text, position)
    except DraughtsError as exc:
        return str(exc)
    origin, target = squares[0], squares[-1]
    name_origin, name_target = (square_text(origin, position.variant),
                                square_text(target, position.variant))
    piece = position.piece_at(origin)
    side = position.turn
    if piece is None:
        return f"{shown}: square {name_origin} is empty"
    owner = "white" if piece in "wW" else "black"
    if owner != side:
        return f"{shown}: the piece on {name_origin} is {owner}'s, and {side} is to move"
    legal = position.legal_moves()
    if position.has_capture() and not any(m.start == origin and m.end == target for m in legal):
        if position.variant.majority_capture:
            return f"{shown}: a capture is compulsory, and it must take the most pieces"
        return f"{shown}: a capture is compulsory"
    if not any(m.start == origin and m.end == target for m in legal):
        kind = "king" if piece in "WB" else "man"
        return f"{shown}: the {kind} on {name_origin} cannot go to {name_target}"
    return f"{shown}: no legal capture from {name_origin} to {name_target} takes that path"


# --------------------------------------------------------------------------- small games

_SMALL_TITLES = {"tictactoe": "Tic-tac-toe", "tatedrez": "Tatedrez"}


class SmallGameRecord(GameRecord):
    """Tic-tac-toe or Tatedrez on the immutable states of :mod:`draughts_engine.games`."""

    def __init__(self, variant: str, fen: Optional[str] = None) -> None:
        super().__init__()
        self.variant = canonical_variant(variant)
        state_class = _SMALL_GAMES[self.variant]
        try:
            start = state_class.from_fen(fen) if fen else state_class.start()
        except DraughtsError as exc:
            raise LoadError(_bad_fen_text(fen, exc)) from None
        self._start_is_usual = not fen or start.fen() == state_class.start().fen()
        self.states: List[Any] = [start]
        self.moves: List[Any] = []
        self.title = _SMALL_TITLES[self.variant]
        self.first_player = "white"
        self.side_names = ({"white": "X", "black": "O"} if self.variant == "tictactoe"
                           else {"white": "White", "black": "Black"})

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def side_to_move(self) -> str:
        return _side_of(self.state.side_to_move)

    def _start_side(self) -> str:
        return _side_of(self.states[0].side_to_move)

    @property
    def move_texts(self) -> List[str]:
        return [state.move_text(move) for state, move in zip(self.states, self.moves)]

    def fen(self) -> str:
        return self.state.fen()

    def start_fen(self) -> Optional[str]:
        return None if self._start_is_usual else self.states[0].fen()

    def result(self) -> Outcome:
        state = self.state
        reason = state.result_reason()
        if reason is None:
            return Outcome(None, "", "*")
        score = state.result_text()
        winner = {"1-0": "white", "0-1": "black"}.get(score, "draw")
        return Outcome(winner, reason, score)

    def legal_moves(self) -> List[str]:
        state = self.state
        return [state.move_text(move) for move in state.legal_moves()]

    def parse_move(self, text: str) -> Any:
        outcome = self.result()
        if outcome.is_over:
            raise GameFinishedError(f"the game is over ({outcome.reason})")
        try:
            return self.state.parse_move(text.strip())
        except DraughtsError as exc:
            raise MoveRejected(str(exc), self.legal_moves()) from None

    def move_text(self, move: Any) -> str:
        return self.state.move_text(move)

    def _push(self, move: Any) -> None:
        self.states.append(self.state.play(move))
        self.moves.append(move)

    def _pop(self) -> Any:
        self.states.pop()
        return self.moves.pop()

    def board_view(self) -> BoardView:
        board = self.state.board  # index rank * 3 + file, a1 first
        marked = set()
        if self.moves:
            move = self.moves[-1]
            if isinstance(move, int):
                marked = {move}
            elif isinstance(move, Drop):
                marked = {move.square}
            elif isinstance(move, Step):
                marked = {move.origin, move.target}
        rows = []
        for row in range(3):
            rank = 2 - row
            cells = []
            for col in range(3):
                index = rank * 3 + col
                piece = board[index] if board[index] != "." else None
                owner = None
                if piece is not None:
                    owner = "white" if piece in "xRBN" else "black"
                name = "abc"[col] + str(rank + 1)
                cells.append(Cell(row, col, True, None, name, piece, owner, index in marked))
            rows.append(tuple(cells))
        return BoardView(self.variant, 3, tuple(rows), self.side_to_move,
                         has_numbers=False, has_coordinates=True)

    def pdn(self, tags: Optional[Dict[str, str]] = None, tree: Any = None) -> str:
        merged: Dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                                  "White": "?", "Black": "?"}
        merged.update(self._tags)
        merged.pop("Result", None)
        merged.update(tags or {})
        merged.setdefault("Result", self.result().score)
        merged["Variant"] = self.variant
        start = self.start_fen()
        if start is not None:
            merged["SetUp"] = "1"
            merged["FEN"] = start
        lines = [tag_line(name, value) for name, value in merged.items()]
        tokens: List[str] = []
        for ply, text in enumerate(self.move_texts):
            label = self.move_label(ply)
            if label.endswith("...") and ply > 0:
                label = ""
            if label:
                tokens.append(label)
            tokens.append(text)
        tokens.append(merged["Result"])
        return "\n".join(lines) + "\n\n" + "\n".join(wrap_tokens(tokens)) + "\n\n"


def _side_of(mark: str) -> str:
    return {"x": "white", "o": "black"}.get(mark, mark)


# --------------------------------------------------------------------------- construction

_TAG = re.compile(r'^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')


def new_record(variant: str, fen: Optional[str] = None) -> GameRecord:
    """A new game of ``variant`` (a name or alias) from its start or from ``fen``.

    Raises :class:`LoadError` for an unknown variant or a bad FEN.
    """
    name = canonical_variant(variant)
    if name in _SMALL_GAMES:
        return SmallGameRecord(name, fen)
    return DraughtsRecord(name, fen)


def is_fen_shaped(text: str) -> bool:
    """Whether one line of text is meant as a draughts FEN: the side to move (``W``/``B``)
    then ``:``, perhaps in quotes (``"W:W31-50:B1-20"``). Move text never is (``1. 32-28``,
    even with ``{a comment: with a colon}``)."""
    core = text.strip().strip("\"'").strip()
    return len(core) >= 2 and core[0] in "WBwb" and core[1:].lstrip().startswith(":")


def records_from_text(text: str, default_variant: str, source: str = "<text>"
                      ) -> List[GameRecord]:
    """The games of PDN text, or one game set up from a FEN line.

    Draughts PDN takes its variant from ``[GameType]`` (else ``default_variant``); the small
    games' files carry ``[Variant "tictactoe"|"tatedrez"]``. One line shaped as a FEN
    (:func:`is_fen_shaped`; any line for the small games) sets up a position of
    ``default_variant``; anything else is PDN, tags or not. Raises :class:`LoadError` naming
    ``source`` (and, for one line that is neither, saying that both were considered).
    """
    stripped = text.strip()
    if not stripped:
        raise LoadError(f"{source}: empty")
    variant_tags = re.findall(r'^\s*\[Variant\s+"([^"]*)"\s*\]', text, re.MULTILINE)
    small = [v.strip().lower() for v in variant_tags
             if _SMALL_ALIASES.get(v.strip().lower(), v.strip().lower()) in _SMALL_GAMES]
    if small:
        return _small_games_from_pdn(text, source)
    default = canonical_variant(default_variant)
    one_line = "\n" not in stripped and not stripped.startswith("[")
    if one_line and (default in _SMALL_GAMES or is_fen_shaped(stripped)):
        return [new_record(default, stripped)]  # one FEN line
    if default in _SMALL_GAMES:
        raise LoadError(f"{source}: not a {default} FEN or game file")
    try:
        games = read_games(text, default, source)
    except DraughtsError as exc:
        if one_line:
            raise LoadError(f"{exc} (read as PDN; a FEN would start with W: or B:)") \
                from None
        raise LoadError(str(exc)) from None
    if not games:
        raise LoadError(f"{source}: no game found")
    return [DraughtsRecord(game=game) for game in games]


def _small_games_from_pdn(text: str, source: str) -> List[GameRecord]:
    """Read the small games' PDN-like files (tags, numbered moves, a result)."""
    records: List[GameRecord] = []
    tags: Dict[str, str] = {}
    words: List[Tuple[str, int]] = []

    def finish(line: int) -> None:
        if not tags and not words:
            return
        variant = tags.get("Variant", "")
        try:
            record = SmallGameRecord(variant, tags.get("FEN") or None)
        except PlayError as exc:
            raise LoadError(f"{source}:{line}: {exc}") from None
        record._tags = {k: v for k, v in tags.items() if k not in ("Variant", "SetUp", "FEN")}
        for word, word_line in words:
            try:
                record.play_text(word)
            except PlayError as exc:
                raise LoadError(f"{source}:{word_line}: move {word!r}: {exc}") from None
        records.append(record)

    text = re.sub(r"\{[^}]*\}", lambda m: "\n" * m.group(0).count("\n"), text)
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split(";", 1)[0]
        tag = _TAG.match(line)
        if tag:
            if words:
                finish(number)
                tags, words = {}, []
            tags[tag.group(1)] = tag.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        for word in line.split():
            if word in RESULT_TOKENS:
                tags.setdefault("Result", word)
                finish(number)
                tags, words = {}, []
                continue
            if "." in word:
                word = word.rsplit(".", 1)[1]
            if word:
                words.append((word, number))
    finish(len(text.splitlines()))
    if not records:
        raise LoadError(f"{source}: no game found")
    return records
