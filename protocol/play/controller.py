"""The game controller: one game between two players, for any front end (terminal, web).

It prints nothing and reads no keyboard. A front end asks it what to draw
(:meth:`GameController.board_view`, :meth:`~GameController.result`, ...) and tells it what
happened (:meth:`~GameController.play` for a person's move text,
:meth:`~GameController.engine_move` when an engine is to move, commands such as
:meth:`~GameController.undo`). Typical use::

    controller = GameController("english", white=PlayerSpec.own_engine(),
                                black=PlayerSpec.human(), limits=SearchLimits(depth=3))
    with controller:                                   # engines are always reaped on exit
        while not controller.result().is_over:
            if controller.human_to_move():
                try:
                    controller.play(input("your move: "))
                except MoveRejected as exc:
                    print(exc.reason, "legal:", " ".join(exc.legal))
            else:
                controller.engine_move(on_info=print)   # info reports while it searches

Contract:

* One thread drives the controller. Only :meth:`~GameController.move_now`,
  :meth:`~GameController.cancel` and :meth:`~GameController.abandon_search` may be called from
  another thread (while :meth:`~GameController.engine_move`, :meth:`~GameController.hint` or
  :meth:`~GameController.analyse` blocks): the search stops and its best move so far is
  played (move now), or nothing is played (cancel, abandon).
* Errors are :class:`~protocol.play.records.PlayError` subclasses with a one-line message:
  :class:`MoveRejected` (``reason`` and ``legal``), :class:`GameFinishedError`,
  :class:`UndoRedoError`, :class:`LoadError`, :class:`NotYourTurnError`,
  :class:`SearchCancelled`,
  :class:`EngineFailure` (an engine crashed, hung, or played an illegal move). A failed call
  leaves the game as it was.
* Sides are ``'white'`` and ``'black'`` (tic-tac-toe's X is ``'white'``).
* Move texts come in two forms: canonical (:attr:`PlayedMove.text`, :attr:`Hint.move`,
  :meth:`~GameController.legal_moves`; PDN numbers, what engines are sent) and as a person
  reads them (:attr:`PlayedMove.display`, :attr:`Hint.display`,
  :meth:`~GameController.display_legal_moves`, :meth:`~GameController.display_text`; the
  game's own notation: ``c3-d4`` in Russian, Brazilian, Czech and Turkish). A person may type
  either.
* Engines run only through the reference clients (:mod:`protocol.client`,
  :mod:`protocol.hub.client`); they start on first need or at :meth:`~GameController.start`,
  and :meth:`~GameController.close` (or leaving the ``with`` block) reaps them all.
"""
from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from draughts_engine.pdn_reader import MoveNode
from draughts_engine.search.limits import SearchLimits
from protocol.client import InfoReport

from .players import EngineFailure, EnginePlayer, PlayerSpec, limits_text
from .review import CAP as REVIEW_CAP
from .review import MoveReview, Score, review_moves, white_view
from .records import (
    BoardView,
    GameFinishedError,
    GameRecord,
    LoadError,
    MoveRejected,
    Outcome,
    PlayError,
    UndoRedoError,
    new_record,
    read_game_file,
    records_from_text,
)

__all__ = [
    "GameController",
    "PlayedMove",
    "Hint",
    "NotYourTurnError",
    "SearchCancelled",
    "DEFAULT_LIMITS",
    "SIDES",
    # re-exported for front ends
    "PlayError",
    "MoveRejected",
    "GameFinishedError",
    "UndoRedoError",
    "LoadError",
    "EngineFailure",
    "PlayerSpec",
    "Outcome",
    "BoardView",
]

SIDES = ("white", "black")

#: The search limits when none are given: level 6 (depth 6), a fraction of a second on CPython.
DEFAULT_LIMITS = SearchLimits(depth=6)

InfoCallback = Callable[[InfoReport], None]


class NotYourTurnError(PlayError):
    """A move was asked of the wrong kind of player (a person's move on an engine's turn, or
    the reverse)."""


class SearchCancelled(PlayError):
    """The search was cancelled (:meth:`GameController.cancel`): nothing was played."""


@dataclass(frozen=True)
class PlayedMove:
    """A move that was played: its canonical ``text`` (what engines are sent), ``ply`` (1 for
    the first move), move number ``label`` (``'12.'``, ``'12...'``), ``side``, the player's
    name (``by``), for an engine's move its last ``info`` report, and ``shown``: the move as a
    person reads it, in the game's own notation (``c3-d4`` where ``text`` is ``22-18``;
    empty: as ``text``)."""

    ply: int
    label: str
    side: str
    text: str
    by: str
    info: Optional[InfoReport] = None
    shown: str = ""

    @property
    def display(self) -> str:
        """What to show a person: :attr:`shown`, else :attr:`text`."""
        return self.shown or self.text


@dataclass(frozen=True)
class Hint:
    """An engine's suggestion for the side to move: ``move`` (canonical text), its last
    ``info`` report and ``shown``, the move as a person reads it (empty: as ``move``)."""

    move: str
    info: Optional[InfoReport]
    shown: str = ""

    @property
    def display(self) -> str:
        """What to show a person: :attr:`shown`, else :attr:`move`."""
        return self.shown or self.move


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


class GameController:
    """One game between two players (see the module docstring for the contract).

    ``white``/``black``: the players (:class:`PlayerSpec`); ``limits``: the search limits of
    engines that have none of their own (default :data:`DEFAULT_LIMITS`); ``fen``: a start
    position; ``engine_log``: receives every line exchanged with the engines (``> sent``,
    ``< received``), for debugging.
    """

    def __init__(self, variant: str = "english", white: PlayerSpec = PlayerSpec.human(),
                 black: PlayerSpec = PlayerSpec.own_engine(),
                 limits: SearchLimits = DEFAULT_LIMITS, fen: Optional[str] = None,
                 engine_log: Optional[Callable[[str], None]] = None) -> None:
        self.record: GameRecord = new_record(variant, fen)
        self.limits = limits
        self.players: Dict[str, PlayerSpec] = {"white": white, "black": black}
        self._engine_log = engine_log
        self._engines: Dict[str, Optional[EnginePlayer]] = {"white": None, "black": None}
        self._hint_engine: Optional[EnginePlayer] = None
        self._thinking: Optional[EnginePlayer] = None
        self._cancelled = False
        self._history: List[PlayedMove] = []
        self._redo_history: List[PlayedMove] = []
        self._closed = False
        self._ended: Optional[Tuple[List[str], Outcome]] = None  # end_game(): moves, outcome
        self._stop_requested = False  # move_now() during a review: stop it

    # ---- life ------------------------------------------------------------------------
    def start(self) -> None:
        """Start the engines of both sides now (else they start when first needed).

        Raises :class:`EngineFailure` (already started engines keep running; :meth:`close`).
        """
        for side in SIDES:
            if not self.players[side].is_human:
                self._engine(side).start()

    def close(self) -> None:
        """Quit and reap every engine process; idempotent. The game record stays readable."""
        self._closed = True
        engines = list(self._engines.values()) + [self._hint_engine]
        self._engines = {"white": None, "black": None}
        self._hint_engine = None
        for engine in engines:
            if engine is not None:
                engine.close()

    def __enter__(self) -> "GameController":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---- what to show ----------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.record.variant

    @property
    def side_to_move(self) -> str:
        return self.record.side_to_move

    @property
    def ply(self) -> int:
        return self.record.ply

    @property
    def history(self) -> List[PlayedMove]:
        """The moves played so far, oldest first."""
        return list(self._history)

    def player(self, side: str) -> PlayerSpec:
        return self.players[side]

    def player_name(self, side: str) -> str:
        """What to call a side's player: its ``name=``, ``Human``, or the engine's name and
        strength (``draughts-engine 0.1.0 (level 3)``). The engine's name is the spec's
        ``program`` when it has one (stable from the start), else its ``id name`` once
        started (:meth:`start` first, for a name that never changes), else its command's."""
        spec = self.players[side]
        if spec.name:
            return spec.name
        if spec.is_human:
            return "Human"
        engine = self._engines[side]
        if spec.program:
            program = spec.program
        elif engine is not None:
            program = engine.engine_name
        else:
            program = "draughts-engine" if spec.builtin else os.path.basename(spec.command[0])
        strength = limits_text(self.limits_of(side))
        if spec.elo is not None:
            strength = f"Elo {spec.elo}, {strength}"
        return f"{program} ({strength})"

    def limits_of(self, side: str) -> SearchLimits:
        """The search limits of a side's engine."""
        return self.players[side].limits or self.limits

    def human_to_move(self) -> bool:
        return self.players[self.side_to_move].is_human

    def has_human(self) -> bool:
        return any(self.players[side].is_human for side in SIDES)

    def result(self) -> Outcome:
        if self._ended is not None:
            if self._ended[0] == self.record.move_texts:
                return self._ended[1]
            self._ended = None
        return self.record.result()

    def board_view(self) -> BoardView:
        return self.record.board_view()

    def legal_moves(self) -> List[str]:
        """The legal moves in their shortest unambiguous form (canonical texts)."""
        return self.record.legal_moves()

    def display_legal_moves(self) -> List[str]:
        """:meth:`legal_moves` as a person reads them (the game's own notation)."""
        return self.record.display_legal_moves()

    def display_text(self, text: str) -> str:
        """Canonical move text (a move played, an engine's move or principal variation) as a
        person reads it: ``c3-d4`` for ``22-18`` in Russian, unchanged in English."""
        return self.record.display_text(text)

    def fen(self) -> str:
        return self.record.fen()

    def move_number(self) -> int:
        return self.record.move_number()

    # ---- moves -----------------------------------------------------------------------
    def play(self, text: str) -> PlayedMove:
        """Play a person's move typed as ``text`` (PDN ``11-15``/``28x19``/full path, algebraic
        on 8x8 ``c3-d4``, or the small games' notation).

        Raises :class:`MoveRejected`, :class:`GameFinishedError` or :class:`NotYourTurnError`.
        """
        side = self.side_to_move
        if not self.players[side].is_human:
            self._require_ongoing()
            raise NotYourTurnError(f"it is {self.record.side_names[side]}'s turn, "
                                   f"and an engine plays {self.record.side_names[side]}")
        move = self.record.parse_move(text)
        return self._played(side, self.record.push(move), None)

    def engine_move(self, on_info: Optional[InfoCallback] = None) -> PlayedMove:
        """Let the engine of the side to move search (under :meth:`limits_of`) and play its move.

        Blocks while the engine thinks; ``on_info`` gets each ``info`` report. Raises
        :class:`NotYourTurnError` on a person's turn, :class:`GameFinishedError`,
        :class:`EngineFailure`.
        """
        self._require_ongoing()
        side = self.side_to_move
        if self.players[side].is_human:
            raise NotYourTurnError(f"it is {self.record.side_names[side]}'s turn to move, "
                                   f"and a person plays {self.record.side_names[side]}")
        engine = self._engine(side)
        text, info = self._think(engine, self.limits_of(side), on_info)
        return self._played(side, self.record.play_text(text), info)

    def move_now(self) -> None:
        """Stop the engine that is thinking (move or hint) and take its best move so far.

        Thread-safe; does nothing when no engine is thinking.
        """
        self._stop_requested = True
        engine = self._thinking
        if engine is not None:
            engine.stop()

    def hint(self, on_info: Optional[InfoCallback] = None) -> Hint:
        """An engine's suggestion for the side to move (nothing is played).

        Uses the other side's engine when there is one, else our own engine (started on first
        use). Raises :class:`GameFinishedError`, :class:`EngineFailure`.
        """
        self._require_ongoing()
        engine, limits = self._helper_engine()
        text, info = self._think(engine, limits, on_info)
        return Hint(text, info, self.display_text(text))

    def _helper_engine(self):
        """The engine (and its limits) that gives hints: the other side's engine, else the
        side to move's, else our own engine (started on first use)."""
        side = self.side_to_move
        helper_side = next((s for s in (_other(side), side)
                            if not self.players[s].is_human), None)
        if helper_side is not None:
            return self._engine(helper_side), self.limits_of(helper_side)
        if self._hint_engine is None:
            self._hint_engine = EnginePlayer(PlayerSpec.own_engine(), self.variant, None,
                                             self._engine_log)
        return self._hint_engine, self.limits

    def _think(self, engine: EnginePlayer, limits: SearchLimits,
               on_info: Optional[InfoCallback], record: Optional[GameRecord] = None):
        """``engine``'s choice in ``record`` (default: the game's position)."""
        self._cancelled = False
        self._thinking = engine
        try:
            chosen = engine.choose(record or self.record, limits, on_info)
        finally:
            self._thinking = None
            engine.cancel_early_stop()
        if self._cancelled:
            self._cancelled = False
            raise SearchCancelled("the search was cancelled")
        return chosen

    # ---- searching, for front ends that run searches on a worker thread -----------------
    def analyse(self, on_info: Optional[InfoCallback] = None, lines: int = 1,
                limits: Optional[SearchLimits] = None) -> Hint:
        """Search the position until :meth:`move_now` (returns the best move as a
        :class:`Hint`; nothing is played) or :meth:`cancel` (raises :class:`SearchCancelled`).

        The engine is chosen as for :meth:`hint`. ``lines`` > 1 asks it for that many best
        lines (its ``MultiPV`` option, when it has one; set back to 1 afterwards);
        ``limits`` bound the search (default: until stopped). Raises
        :class:`GameFinishedError`, :class:`EngineFailure`.
        """
        self._require_ongoing()
        engine, _ = self._helper_engine()
        multipv = lines > 1 and engine.offer_option("MultiPV", lines)
        try:
            text, info = self._think(engine, limits or SearchLimits(infinite=True), on_info)
        finally:
            if multipv and engine.started:
                try:
                    engine.offer_option("MultiPV", 1)
                except EngineFailure:
                    pass  # the next search starts it afresh
        return Hint(text, info, self.display_text(text))

    def review(self, limits: SearchLimits,
               on_position: Optional[Callable[[int, int], None]] = None
               ) -> Tuple[List[Score], List[MoveReview]]:
        """Review the moves played so far (:mod:`protocol.play.review`): every position from
        the start searched under ``limits`` by the hint engine, each move judged by what it
        lost. ``on_position(done, total)`` after each position. :meth:`move_now` (or
        :meth:`cancel`) stops the review early: the moves searched so far are judged.
        Returns ``(scores, reviews)``; raises :class:`EngineFailure`."""
        engine, _ = self._helper_engine()
        texts = self.record.move_texts
        start = self.record.replayed([])
        first = start.side_to_move
        scores: List[Score] = []
        self._stop_requested = False
        for index in range(len(texts) + 1):
            record = start.replayed(texts[:index])
            outcome = record.result()
            if outcome.is_over:
                sign = {"white": 1, "black": -1}.get(outcome.winner or "", 0)
                scores.append(Score(cp=sign * REVIEW_CAP))
            else:
                try:
                    best, info = self._think(engine, limits, None, record)
                except SearchCancelled:
                    break
                cp, mate = white_view(info.score_cp if info else None,
                                      info.score_mate if info else None, record.side_to_move)
                scores.append(Score(cp if cp is not None or mate is not None else 0, mate, best))
            if on_position is not None:
                on_position(index + 1, len(texts) + 1)
            if self._stop_requested:
                break
        return scores, review_moves(scores, texts[:max(0, len(scores) - 1)], first)

    def cancel(self) -> None:
        """Stop the engine that is thinking without playing anything: the blocked
        :meth:`engine_move`, :meth:`hint` or :meth:`analyse` raises :class:`SearchCancelled`.

        Thread-safe; does nothing when no engine is thinking (a search that starts later is not
        affected, so a caller racing a search's start may call it again).
        """
        engine = self._thinking
        if engine is not None:
            self._cancelled = True
            engine.stop()

    def abandon_search(self, reason: str = "did not answer stop and was killed") -> None:
        """Kill the process of the engine that is thinking, for an engine that ignores
        ``stop``: the blocked call raises :class:`EngineFailure` (``<engine name> <reason>``);
        that side's engine starts afresh when next needed. Thread-safe; does nothing when no
        engine is thinking.

        Besides, an engine that has not answered ``stop`` (:meth:`move_now`, :meth:`cancel`)
        :data:`~protocol.play.players.STOP_GRACE_SECONDS` later is killed the same way."""
        engine = self._thinking
        if engine is not None:
            self._cancelled = True
            engine.kill(reason)

    def _played(self, side: str, text: str, info: Optional[InfoReport]) -> PlayedMove:
        ply = self.record.ply
        played = PlayedMove(ply, self.record.move_label(ply - 1), side, text,
                            self.player_name(side), info, self.record.display_text(text))
        self._history.append(played)
        self._redo_history.clear()
        return played

    def _require_ongoing(self) -> None:
        outcome = self.result()
        if outcome.is_over:
            raise GameFinishedError(f"the game is over ({outcome.reason})")

    # ---- taking back -----------------------------------------------------------------
    def undo(self) -> List[str]:
        """Take back to the previous turn of a person: against an engine, the person's last
        move and the engine's reply; between people (or between engines), one move.

        Returns the canonical texts taken back (:meth:`display_text` shows them); raises
        :class:`UndoRedoError`.
        """
        count = self._plies_to_person(self.record.ply, backwards=True)
        texts = self.record.undo(count)
        for _ in range(count):
            self._redo_history.append(self._history.pop())
        return texts

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would take anything back (not at the start, nor before a
        person's first turn when an engine moved first)."""
        try:
            self._plies_to_person(self.record.ply, backwards=True)
        except UndoRedoError:
            return False
        return True

    def redo(self) -> List[PlayedMove]:
        """Replay what :meth:`undo` took back, up to the next turn of a person.

        Returns the moves replayed; raises :class:`UndoRedoError`.
        """
        count = self._plies_to_person(self.record.redo_count, backwards=False)
        self.record.redo(count)
        replayed = [self._redo_history.pop() for _ in range(count)]
        self._history.extend(replayed)
        return replayed

    def go_to(self, ply: int) -> None:
        """Take back or replay moves until ``ply`` moves are played (0 up to
        :attr:`ply` + the moves that can be redone); raises :class:`UndoRedoError`."""
        if isinstance(ply, bool) or not isinstance(ply, int) or \
                not 0 <= ply <= self.record.ply + self.record.redo_count:
            raise UndoRedoError(f"no position after move {ply!r} in this game "
                                f"(0..{self.record.ply + self.record.redo_count})")
        if ply < self.record.ply:
            count = self.record.ply - ply
            self.record.undo(count)
            for _ in range(count):
                self._redo_history.append(self._history.pop())
        elif ply > self.record.ply:
            count = ply - self.record.ply
            self.record.redo(count)
            self._history.extend(self._redo_history.pop() for _ in range(count))

    def set_line(self, texts: List[str], ply: int) -> None:
        """Make ``texts`` (canonical move texts from the start position) the game's moves,
        ``ply`` of them played and the rest to redo: a front end's tree of variations moves
        to another line this way. Moves already in the game keep what was known of them (who
        played them, the engine's report). Raises :class:`MoveRejected` (the game stays)."""
        if not 0 <= ply <= len(texts):
            raise UndoRedoError(f"no position after move {ply} in a line of {len(texts)}")
        record = self.record.replayed(texts)
        old = self._history + list(reversed(self._redo_history))
        shown = record.display_texts
        moves: List[PlayedMove] = []
        side = self._first_side(record, len(texts))
        for index, text in enumerate(texts):
            if index < len(old) and old[index].text == text:
                moves.append(old[index])
            else:
                moves.append(PlayedMove(index + 1, record.move_label(index), side, text, "",
                                        None, shown[index]))
            side = _other(side)
        if len(texts) > ply:
            record.undo(len(texts) - ply)
        self.record = record
        self._ended = None
        self._history = moves[:ply]
        self._redo_history = list(reversed(moves[ply:]))

    @staticmethod
    def _first_side(record: GameRecord, plies: int) -> str:
        """The side that played the first of ``plies`` moves of ``record``."""
        side = record.side_to_move
        return side if plies % 2 == 0 else _other(side)

    @property
    def upcoming(self) -> List[PlayedMove]:
        """The moves that redo would replay, the next one first."""
        return list(reversed(self._redo_history))

    def _plies_to_person(self, available: int, backwards: bool) -> int:
        """How many plies to take back (or replay) to reach a person's turn."""
        what = "take back" if backwards else "redo"
        if available == 0:
            raise UndoRedoError(f"no move to {what}")
        people = [side for side in SIDES if self.players[side].is_human]
        if len(people) != 1:
            return 1
        person = people[0]
        side = self.side_to_move
        for count in range(1, available + 1):
            side = _other(side)
            if side == person:
                return count
        if backwards:
            raise UndoRedoError("no earlier turn of yours to go back to")
        return available

    # ---- games -----------------------------------------------------------------------
    def new_game(self, fen: Optional[str] = None) -> None:
        """A new game of the same variant, from its start or from ``fen``.

        Raises :class:`LoadError` for a bad FEN (the current game stays).
        """
        record = new_record(self.variant, fen)
        self._replace(record)

    def set_position(self, fen: str) -> None:
        """Set up the position ``fen`` (of the current variant) as a new game."""
        self.new_game(fen)

    def load_text(self, text: str, game_number: int = 1, source: str = "<text>") -> None:
        """Load game ``game_number`` (from 1) of PDN text, or a FEN line, as the current game.

        A PDN game of another variant switches the engines to it. Raises :class:`LoadError`
        (the current game stays) or :class:`EngineFailure`.
        """
        records = records_from_text(text, self.variant, source)
        if not 1 <= game_number <= len(records):
            raise LoadError(f"{source} has {len(records)} game(s), not a game {game_number}")
        self._replace(records[game_number - 1])

    def load(self, path: str, game_number: int = 1) -> None:
        """:meth:`load_text` of a file; :class:`LoadError` names the file and the problem."""
        try:
            text = read_game_file(path)
        except LoadError as exc:
            raise LoadError(f"cannot read {path}: {exc}") from None
        self.load_text(text, game_number, path)

    def _replace(self, record: GameRecord) -> None:
        if record.variant != self.variant:
            for engine in self.engine_players():
                engine.set_variant(record.variant)
        else:
            for engine in self.engine_players():
                engine.new_game()
        self.record = record
        self._ended = None
        names = record.tags()
        shown = record.display_texts
        self._history = [
            PlayedMove(ply, record.move_label(ply - 1), side, text,
                       names.get(side.capitalize(), ""), None, shown[ply - 1])
            for ply, (side, text) in enumerate(self._sides_of(record), 1)]
        self._redo_history = []

    @staticmethod
    def _sides_of(record: GameRecord):
        side = record.side_to_move if record.ply % 2 == 0 else _other(record.side_to_move)
        for text in record.move_texts:
            yield side, text
            side = _other(side)

    def swap_sides(self) -> None:
        """Exchange the players (and their engine processes) between White and Black."""
        self.players = {"white": self.players["black"], "black": self.players["white"]}
        self._engines = {"white": self._engines["black"], "black": self._engines["white"]}
        for side, engine in self._engines.items():
            if engine is not None:
                engine.side = side

    def set_player(self, side: str, spec: PlayerSpec) -> None:
        """Give a side another player (its old engine, if any, is reaped)."""
        old = self._engines[side]
        self._engines[side] = None
        if old is not None:
            old.close()
        self.players[side] = spec

    # ---- text ------------------------------------------------------------------------
    def pdn(self, tags: Optional[Dict[str, str]] = None, tree: Optional[MoveNode] = None) -> str:
        """The game as PDN: Event, Date, the players' names and the result are filled in;
        ``tags`` override them. With ``tree`` (draughts only) the movetext is that tree's, with
        its variations and comments (:func:`draughts_engine.pdn_writer.write_tree`)."""
        merged = {"Event": "draughts-play", "Site": "?",
                  "Date": datetime.date.today().strftime("%Y.%m.%d"),
                  "White": self.player_name("white"), "Black": self.player_name("black")}
        if self._ended is not None:
            merged["Result"] = self._ended[1].score
        merged.update(tags or {})
        return self.record.pdn(merged, tree)

    def end_game(self, outcome: Outcome) -> None:
        """End the game now with ``outcome`` (a flag fell, a resignation): :meth:`result` says
        so until the moves change (a move, an undo, another game)."""
        self._ended = (self.record.move_texts, outcome)

    def save(self, path: str, append: bool = False,
             tags: Optional[Dict[str, str]] = None) -> None:
        """Write the game as PDN to ``path`` (``append`` adds it after the file's games).

        Raises :class:`~protocol.play.records.PlayError` naming the file when it cannot be
        written.
        """
        text = self.pdn(tags)
        try:
            with open(path, "a" if append else "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            raise PlayError(f"cannot write {path}: {exc.strerror or exc}") from None

    # ---- internals -------------------------------------------------------------------
    def _engine(self, side: str) -> EnginePlayer:
        if self._closed:
            raise PlayError("the game controller is closed")
        engine = self._engines[side]
        if engine is None:
            engine = EnginePlayer(self.players[side], self.variant, side, self._engine_log)
            self._engines[side] = engine
        return engine

    def engine_players(self) -> List[EnginePlayer]:
        """The engine players this game holds now (the sides' and the hint engine)."""
        engines = [e for e in self._engines.values() if e is not None]
        if self._hint_engine is not None:
            engines.append(self._hint_engine)
        return engines
