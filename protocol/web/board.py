"""One open board: a :class:`~protocol.play.controller.GameController`, the thread that runs
its engines, and the state the page draws.

The game logic (rules, players, engines, undo/redo, PDN) is the controller's; this module
decides *when* engines search and turns the game into JSON for the page. It also keeps what a
page analyses the game with: the tree of variations (:mod:`.tree`; the controller plays one of
its lines), the game review (its own engine, :mod:`.review`), the analysis's MultiPV lines
and the clocks (:mod:`.clocks`; a timer ends the game when one falls).

Threads. Requests change the board through :meth:`WebBoard.act`, one at a time (the *action*
lock); engines search on one *worker* thread per board. An action first halts the worker
(``cancel`` the search, wait for the thread; an engine that ignores ``stop`` is reaped), so
the controller is only ever driven by one thread, as its contract asks. Whoever drove the
controller last publishes a new state (a JSON-ready dict with a ``version``) under the
*state* condition, which the event streams wait on; requests never read the controller
while the worker runs.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, List, Optional, Tuple

from draughts_engine.bitboard import STANDARD
from draughts_engine.notation import ALGEBRAIC, parse_squares
from draughts_engine.search.limits import SearchLimits
from protocol.client import InfoReport
from protocol.play.controller import (
    EngineFailure,
    GameController,
    GameFinishedError,
    Hint,
    PlayError,
    PlayerSpec,
    SearchCancelled,
)
from draughts_engine.errors import DraughtsError
from draughts_engine.pdn import stream_games
from draughts_engine.pdn_reader import MoveNode
from protocol.play.players import OWN_ENGINE_COMMAND
from protocol.play.records import DraughtsRecord, records_from_text
from protocol.play.clock import ClockSetting
from protocol.play.openings import opening_name

from .clocks import BoardClocks
from .engines import EngineBook, EngineChoice
from .review import GameReview
from .tree import GameTree, TreeError, TreeNode, score_json

__all__ = ["WebBoard", "BoardSettings", "Players", "BoardClosedError", "SIDES"]

SIDES = ("white", "black")
ABANDON_AFTER = 2.0
"""Seconds an action waits for the search it cancelled (its result is not wanted) to end
before the engine is killed, so that the action answers promptly. ("Move now" wants the move:
it waits :data:`protocol.play.players.STOP_GRACE_SECONDS`.)"""


class BoardClosedError(Exception):
    """The board was closed (by its page, a timeout or the server stopping)."""


@dataclass(frozen=True)
class Players:
    """Who plays each side (``None`` for a person, else an engine name of the
    :class:`~.engines.EngineBook`), the search limits and the pause between two engines' moves."""

    white: Optional[str] = None
    black: Optional[str] = None
    limits: SearchLimits = SearchLimits(depth=6)
    delay_ms: int = 1000
    clock: Optional[ClockSetting] = None  # the game's clock (engines then play on it)
    elo: Optional[int] = None             # the engines weakened to this rating (UCI_Elo)

    def engine_of(self, side: str) -> Optional[str]:
        return self.white if side == "white" else self.black


@dataclass(frozen=True)
class BoardSettings:
    """How a board starts: a variant and an optional FEN, or a PDN game; and its players."""

    variant: str = "international"
    fen: Optional[str] = None
    pdn: Optional[str] = None
    players: Players = Players()


def _spec(choice: Optional[EngineChoice]) -> PlayerSpec:
    """The player of an engine of the book, or a person. An engine is called by its name in
    the book (``draughts-engine (level 3)`` on the board and in the PDN) from the start: the
    name the page's menus show, unique on this server, known before the process runs."""
    if choice is None:
        return PlayerSpec.human()
    if choice.command == OWN_ENGINE_COMMAND and choice.proto == "uci":
        return replace(PlayerSpec.own_engine(), program=choice.name, options=choice.options)
    return PlayerSpec("engine", choice.command, choice.proto, program=choice.name,
                      options=choice.options)


class WebBoard:
    """One board of one page (see the module docstring for the threads).

    ``engines`` names the engines the players may use; ``clock`` is the time source of
    :attr:`last_seen` (the registry's heartbeat timeout reads it); ``log`` gets one-line
    diagnostics. Raises :class:`~protocol.play.controller.PlayError` for settings that
    cannot start a game.
    """

    def __init__(self, board_id: str, settings: BoardSettings, engines: EngineBook,
                 clock: Callable[[], float] = time.monotonic,
                 log: Optional[Callable[[str], None]] = None) -> None:
        self.id = board_id
        self.engines = engines
        self.clock_source = clock
        self.log = log
        self.last_seen = clock()
        self.streams = 0
        self.closed = False
        self._actions = threading.Lock()
        self._state = threading.Condition()
        self._worker: Optional[threading.Thread] = None
        self._halt = threading.Event()
        self._version = 0
        self._snapshot: Dict[str, Any] = {}
        self.players = settings.players
        self.paused = False
        self._job: Optional[str] = None          # 'play', 'hint', 'analyse' while the worker runs
        self._next_job: Optional[str] = None     # what an action asks the worker to do next
        self._play_best = False                  # "move now" came during an analysis
        self._thinking: Optional[str] = None     # the side whose engine searches for a move
        self._analysis: Optional[Dict[str, Any]] = None
        self._hint: Optional[Dict[str, Any]] = None
        self._message: Optional[str] = None
        self._analyst: Optional[GameController] = None  # analyses a finished game's position
        self.tree = GameTree()                   # every line tried (protocol.web.tree)
        self._line: List[TreeNode] = []          # the controller's line in the tree
        self.review = GameReview()               # the game review (protocol.web.review)
        self.lines = 1                           # analysis lines asked of the engine (MultiPV)
        self.clocks = BoardClocks(clock, self._on_flag)  # the game's (players.clock)
        self.controller = self._new_controller(settings.variant, settings.fen)
        try:
            if settings.pdn:
                self._load_pdn(settings.pdn)
        except BaseException:
            self.controller.close()
            raise
        self._new_clock()
        with self._state:
            self._publish()
        self._kick()

    # ------------------------------------------------------------------ reading

    def snapshot(self) -> Dict[str, Any]:
        """The latest published state (see :meth:`_publish` for its fields)."""
        with self._state:
            return self._snapshot

    def wait_change(self, version: int, timeout: float) -> Optional[Dict[str, Any]]:
        """The state once its version differs from ``version`` (None after ``timeout``
        seconds without a change, or when the board is closed)."""
        with self._state:
            self._state.wait_for(lambda: self._version != version or self.closed, timeout)
            if self.closed or self._version == version:
                return None
            return self._snapshot

    def touch(self) -> None:
        """The page is still there (a request or an open event stream)."""
        self.last_seen = self.clock_source()

    def stream_opened(self) -> None:
        with self._state:
            self.streams += 1
        self.touch()

    def stream_closed(self) -> None:
        with self._state:
            self.streams -= 1
        self.touch()

    # ------------------------------------------------------------------ acting

    def act(self, action: str, **arguments: Any) -> Dict[str, Any]:
        """Do one of the page's actions and return the new state.

        ``move(text)``, ``undo()``, ``redo()``, ``goto(ply)``, ``new(variant, fen, players)``,
        ``fen(fen)``, ``pdn(text)``, ``players(players)``, ``go()``, ``stop()``,
        ``analyse(on)``, ``hint()``. ``movenow`` does not wait: see :meth:`move_now`.
        Raises :class:`~protocol.play.controller.PlayError` (nothing changed),
        :class:`BoardClosedError`, or ``KeyError`` for an unknown action.
        """
        handler = getattr(self, "_do_" + action)
        with self._actions:
            if self.closed:
                raise BoardClosedError(f"board {self.id} is closed")
            self._message = None
            was = self._stop_worker()  # may leave a message (an engine reaped)
            self._next_job = None
            self._check_flag()
            try:
                handler(was, **arguments)
            finally:
                with self._state:
                    self._publish()
                self._kick()
        return self.snapshot()

    def move_now(self) -> Dict[str, Any]:
        """The engine's best move so far is played now: the thinking engine's, or (during an
        analysis on a person's turn) the analysis's. Does not wait for the move. (The analysis
        of a finished game plays nothing: it stops, and its best move shows as a hint.)"""
        if self.closed:
            raise BoardClosedError(f"board {self.id} is closed")
        self._play_best = True
        (self._analyst or self.controller).move_now()
        return self.snapshot()

    def close(self) -> None:
        """Stop searching, reap every engine process, wake the event streams; idempotent."""
        with self._actions:
            if self.closed:
                return
            self._stop_worker()
            self.controller.close()
            self.review.close()
            self.clocks.cancel()
            with self._state:
                self.closed = True
                self._version += 1
                self._state.notify_all()

    # ------------------------------------------------------------------ the actions

    def _do_move(self, was: Optional[str], text: str) -> None:
        side = self.controller.side_to_move
        self.controller.play(text)
        self.paused = False
        self._hint = None
        self.clocks.moved(side)

    def _do_flag(self, was: Optional[str]) -> None:
        """The flag timer fired (:meth:`_check_flag` ran already, in :meth:`act`)."""

    def _do_undo(self, was: Optional[str]) -> None:
        self.controller.undo()
        self._after_navigation()

    def _do_redo(self, was: Optional[str]) -> None:
        self.controller.redo()
        self._after_navigation()

    def _do_goto(self, was: Optional[str], ply: int) -> None:
        self.controller.go_to(ply)
        self._after_navigation()

    def _after_navigation(self) -> None:
        self.clocks.pause()  # looking back: the clocks wait for the next move
        self._hint = None
        self._analysis = None
        self.paused = not self.controller.human_to_move()

    def _do_new(self, was: Optional[str], variant: Optional[str] = None, fen: Optional[str] = None,
                players: Optional[Players] = None) -> None:
        variant = variant or self.controller.variant
        before = self.players
        if players is not None:
            self.players = players
        try:
            if variant != self.controller.variant:
                controller = self._new_controller(variant, fen)
                self.controller.close()
                self.controller = controller
            else:
                self.controller.new_game(fen)
        except BaseException:
            self.players = before
            raise
        self._apply_players()
        self._new_tree()
        self._new_clock()
        self._reset_view()

    def _do_fen(self, was: Optional[str], fen: str) -> None:
        self.controller.set_position(fen)
        self._new_tree()
        self._new_clock()
        self._reset_view()

    def _do_pdn(self, was: Optional[str], text: str) -> None:
        self._load_pdn(text)
        self._new_clock()
        self._reset_view()

    def _new_tree(self, root: Optional[MoveNode] = None) -> None:
        """A fresh tree for a new game; ``root``: a PDN game's tree of variations."""
        self.tree = GameTree()
        self._line = []
        self.review.forget()
        if root is not None:
            self._read_tree(root)

    def _read_tree(self, root: MoveNode) -> None:
        """The PDN tree (moves as written) into :attr:`tree` (canonical moves), its review
        comments read back. A move that is not legal drops its branch (the reader checked
        the moves already)."""
        start = self.controller.record.replayed([])
        self.tree.read_comments(self.tree.root, root.comments)
        stack: List[Tuple[MoveNode, TreeNode, List[str]]] = [(root, self.tree.root, [])]
        while stack:
            source, target, path = stack.pop()
            added = []
            for child in source.children:
                try:
                    record = start.replayed(path)
                    text = record.play_text(child.move)
                except (PlayError, DraughtsError):
                    continue
                try:
                    node = self.tree.add(target, text, record.display_texts[-1],
                                         record.move_label(len(path)))
                except TreeError:
                    return
                self.tree.read_comments(node, child.comments)
                added.append((child, node, path + [text]))
            stack.extend(reversed(added))

    def _do_node(self, was: Optional[str], node: int) -> None:
        """Go to the position after the move ``node`` of the tree (any line)."""
        self._go_to_node(self._tree_node(node))
        self._after_navigation()

    def _do_promote(self, was: Optional[str], node: int) -> None:
        self.tree.promote(self._tree_node(node))

    def _do_delete(self, was: Optional[str], node: int) -> None:
        """Drop a move and what follows it; on the line shown, go back to the move before."""
        target = self._tree_node(node)
        current = self._line[self.controller.ply - 1] if self.controller.ply else self.tree.root
        on_line = target in self._line
        parent = self.tree.delete(target)
        if on_line:
            shown = current if current in parent.path() or current is parent else parent
            self._go_to_node(shown, follow=False)
            self._after_navigation()

    def _tree_node(self, node_id: int) -> TreeNode:
        try:
            return self.tree.node(node_id)
        except TreeError as error:
            raise PlayError(str(error)) from None

    def _go_to_node(self, node: TreeNode, follow: bool = True) -> None:
        path = node.path()
        line = path + (node.main_continuation() if follow else [])
        self.controller.set_line([n.move for n in line], len(path))

    def _do_review(self, was: Optional[str], on: bool = True,
                   limits: Optional[SearchLimits] = None) -> None:
        """Review the line shown: every position searched under ``limits`` (default
        ``review.limits``), each move marked by what it lost (:mod:`.review`)."""
        if not on or was == "review":
            return
        if limits is not None:
            self.review.limits = limits
        self.paused = True  # the engines do not play on while the game is reviewed
        self.clocks.pause()
        self._next_job = "review"

    def _reset_view(self) -> None:
        self._hint = None
        self._analysis = None
        self.paused = False

    def _do_players(self, was: Optional[str], players: Players) -> None:
        clock_changed = players.clock != self.players.clock
        self.players = players
        self._apply_players()
        self.paused = False
        if clock_changed:
            self._new_clock()

    # ------------------------------------------------------------------ the clocks

    def _new_clock(self) -> None:
        """Fresh clocks of the players' time control, the side to move's running unless the
        game is over."""
        over = self.controller.result().is_over
        self.clocks.reset(self.players.clock, None if over else self.controller.side_to_move)

    def _check_flag(self) -> None:
        """A clock at zero ends the game (:meth:`.BoardClocks.end_on_flag`) and pauses it."""
        if self.clocks.end_on_flag(self.controller):
            self.paused = True

    def _on_flag(self) -> None:
        if self.closed or self.clocks.fallen() is None:
            return
        try:
            self.act("flag")
        except (BoardClosedError, PlayError):
            pass

    def _do_go(self, was: Optional[str]) -> None:
        """Resume engine play; on a person's turn the engine plays this one move for them."""
        self._require_ongoing()
        self.paused = False
        if self.controller.human_to_move():
            self._next_job = "move-for-person"

    def _do_stop(self, was: Optional[str]) -> None:
        if was == "play":
            self.paused = True

    def _do_analyse(self, was: Optional[str], on: bool = True) -> None:
        if not on or was == "analyse":
            return
        outcome = self.controller.result()
        if not outcome.is_over:
            self._next_job = "analyse"
            return
        # A finished game: its last position is still worth a look. Where moves remain (a
        # draw by repetition or another rule) an engine analyses the position as such, in a
        # game of its own; where none does, the result is the evaluation.
        if self.controller.record.position.legal_moves():
            analyst = GameController(self.controller.variant,
                                     white=self._player_spec("white"),
                                     black=self._player_spec("black"),
                                     limits=self.players.limits, fen=self.controller.fen())
            if not analyst.result().is_over:
                self._analyst = analyst
                self._next_job = "analyse"
                return
            analyst.close()
        self._analysis = _final_analysis(outcome)

    def _do_lines(self, was: Optional[str], count: int) -> None:
        """How many lines the analysis shows (1..5); a running analysis starts again."""
        self.lines = count
        if was == "analyse":
            self._next_job = "analyse"

    def _do_hint(self, was: Optional[str]) -> None:
        outcome = self.controller.result()
        if outcome.is_over:  # no move to suggest: say so, as a hint
            self._hint = {"move": None, "pdn": None, "arrow": None,
                          "none": f"the game is over ({outcome.reason})"}
            return
        self._next_job = "hint"

    def _require_ongoing(self) -> None:
        outcome = self.controller.result()
        if outcome.is_over:
            raise GameFinishedError(f"the game is over ({outcome.reason})")

    # ------------------------------------------------------------------ the controller

    def _new_controller(self, variant: str, fen: Optional[str]) -> GameController:
        controller = GameController(variant, white=self._player_spec("white"),
                                    black=self._player_spec("black"),
                                    limits=self.players.limits, fen=fen)
        if not isinstance(controller.record, DraughtsRecord):
            controller.close()
            raise PlayError(f"the web board plays draughts only, not {variant}")
        return controller

    def _player_spec(self, side: str) -> PlayerSpec:
        name = self.players.engine_of(side)
        choice = None if name is None else self.engines.get(name)
        if name is not None and choice is None:
            raise PlayError(f"unknown engine {name!r}")
        spec = _spec(choice)
        if choice is not None and self.players.elo is not None:
            spec = replace(spec, elo=self.players.elo)
        return spec

    def _apply_players(self) -> None:
        controller = self.controller
        controller.limits = self.players.limits
        for side in SIDES:
            spec = self._player_spec(side)
            if spec != controller.player(side):
                controller.set_player(side, spec)

    def _load_pdn(self, text: str) -> None:
        records = records_from_text(text, self.controller.variant, "PDN")
        if not isinstance(records[0], DraughtsRecord):
            raise PlayError("the web board plays draughts only, not " + records[0].variant)
        self.controller.load_text(text, 1, "PDN")
        root: Optional[MoveNode] = None
        if text.lstrip()[:1] in ("[", "{") or not text.strip().upper().startswith(("W:", "B:")):
            try:
                first = next(stream_games(text, self.controller.variant, "PDN", replay=False,
                                          variations=True), None)
                root = first.tree if first is not None else None
            except DraughtsError:
                root = None  # the main line was read: the variations are lost, not the game
        self._new_tree(root)

    # ------------------------------------------------------------------ the worker

    def _kick(self) -> None:
        """Start the job an action asked for, or else the engine of the side to move if it
        is an engine's turn and the game is not paused."""
        if self.closed or self._worker is not None:
            return
        job, self._next_job = self._next_job, None
        if job is not None:
            self._start_worker(job)
            return
        if self.paused:
            return
        controller = self.controller
        if not controller.result().is_over and not controller.human_to_move():
            self._start_worker("play")

    def _start_worker(self, job: str) -> None:
        self._halt.clear()
        self._play_best = False
        self._job = "play" if job == "move-for-person" else job
        with self._state:
            self._hint = None if job != "analyse" else self._hint
            self._analysis = None
            self._publish()
        self._worker = threading.Thread(target=self._work, args=(job,), daemon=True,
                                        name=f"board-{self.id[:6]}-{job}")
        self._worker.start()

    def _stop_worker(self) -> Optional[str]:
        """Halt the worker (cancel its search) and wait for it; returns the job it ran."""
        worker, job = self._worker, self._job
        if worker is None:
            return None
        self._halt.set()
        deadline = time.monotonic() + ABANDON_AFTER
        while worker.is_alive():
            if job == "review" and self.review.engine is not None:
                self.review.engine.stop()
                worker.join(0.05)
                if worker.is_alive() and time.monotonic() > deadline:
                    self.review.engine.kill(f"did not answer stop within {ABANDON_AFTER:g} s")
                    deadline = float("inf")
                continue
            searching = self._analyst or self.controller
            searching.cancel()
            worker.join(0.05)
            if worker.is_alive() and time.monotonic() > deadline:
                searching.abandon_search(
                    f"did not answer stop within {ABANDON_AFTER:g} s and was killed (it "
                    f"starts afresh when next needed)")
                deadline = float("inf")
        self._worker = None
        self._job = None
        return job

    def _work(self, job: str) -> None:
        controller = self.controller
        try:
            if job == "move-for-person":
                with self._state:
                    self._thinking = controller.side_to_move
                hint = self._search(controller.hint, "move", helper=True)
                if self._halt.is_set():
                    return
                controller.play(hint.move)
                job = "play"
                self._published_move()
            if job == "review":
                self.review.run(controller.record.replayed([]), [self.tree.root] + self._line,
                                _spec(self.engines.default), self._halt, self._state,
                                self._publish)
                return
            if job == "hint":
                hint = self._search(controller.hint, "hint", helper=True)
                self._set_hint(hint)
                return
            if job == "analyse":
                analyst = self._analyst or controller
                lines = self.lines
                hint = self._search(lambda on_info: analyst.analyse(on_info, lines),
                                    "analyse", helper=True)
                if (not (self._play_best and controller.human_to_move()) or self._halt.is_set()
                        or analyst is not controller):
                    self._set_hint(hint)
                    return
                controller.play(hint.move)
                with self._state:  # the analysis is over: from here on the worker plays
                    self._job = "play"
                self._published_move()
            while not self._halt.is_set():
                if controller.result().is_over or controller.human_to_move():
                    return
                side = controller.side_to_move
                with self._state:
                    self._thinking = side
                    self._publish()
                limits = self.clocks.start_turn(side)
                if limits is not None:
                    controller.limits = limits
                self._search(controller.engine_move, "move", helper=False)
                with self._state:
                    self.clocks.moved(side)
                    self._check_flag()
                self._published_move()
                if controller.result().is_over or controller.human_to_move():
                    return
                if self._halt.wait(self.players.delay_ms / 1000):
                    return
        except SearchCancelled:
            pass
        except EngineFailure as failure:
            side = failure.side or self._thinking
            self._message = f"engine failure: {failure}"
            self.paused = True
            if self.log is not None:
                self.log(f"board {self.id[:6]}: {failure}")
            if side in SIDES and not controller.player(side).is_human:
                controller.set_player(side, controller.player(side))  # a fresh process next time
        except PlayError as error:
            self._message = str(error)
        except Exception as error:  # a bug: keep the board usable and say so
            self._message = "internal error while the engine played"
            if self.log is not None:
                self.log(f"board {self.id[:6]}: internal error: {type(error).__name__}: {error}")
        finally:
            analyst, self._analyst = self._analyst, None
            if analyst is not None:
                analyst.close()  # reaps its engine
            with self._state:
                self._thinking = None
                if self._analysis is not None:
                    self._analysis["running"] = False
                    self._analysis["arrow"] = None
                self._job = None
                self._publish()

    def _search(self, call: Callable[..., Any], kind: str, helper: bool) -> Any:
        """Run one controller search (``call(on_info=...)``), showing its reports as the
        analysis. ``kind`` is ``move``, ``hint`` or ``analyse``; ``helper`` says the engine is
        the one that gives hints (the controller's choice: the other side's engine, else the
        side to move's, else ours), which only matters for the name shown."""
        controller = self.controller
        side = controller.side_to_move
        record = controller.record
        other = "black" if side == "white" else "white"
        names = ([self.players.engine_of(other), self.players.engine_of(side)] if helper
                 else [self.players.engine_of(side)])
        engine = next((name for name in names if name), self.engines.default.name)
        with self._state:
            self._analysis = {"kind": kind, "engine": engine, "running": True, "depth": None,
                              "seldepth": None, "score_cp": None, "mate": None, "nodes": None,
                              "nps": None, "pv": [], "arrow": None, "lines": []}
            self._publish()

        def on_info(report: InfoReport) -> None:
            if report.depth is None and report.score_cp is None and report.score_mate is None:
                return
            sign = 1 if side == "white" else -1
            arrow = _arrow(record, report.pv[0]) if report.pv else None
            pv = [record.display_text(move) for move in report.pv]
            number = getattr(report, "multipv", None) or 1
            with self._state:
                analysis = self._analysis
                if analysis is None:
                    return
                if report.pv:  # a report without moves (nodes, time) leaves the lines
                    lines = analysis["lines"]
                    while len(lines) < number:
                        lines.append(None)
                    lines[number - 1] = {
                        "line": number, "depth": report.depth,
                        "bound": getattr(report, "bound", None),
                        "score_cp": None if report.score_cp is None else sign * report.score_cp,
                        "mate": None if report.score_mate is None else sign * report.score_mate,
                        "pv": pv, "arrow": arrow}
                if number > 1:  # the other lines: the analysis's figures stay line 1's
                    self._bump()
                    return
                analysis.update({
                    "depth": report.depth, "seldepth": report.seldepth,
                    "score_cp": None if report.score_cp is None else sign * report.score_cp,
                    "mate": None if report.score_mate is None else sign * report.score_mate,
                    "nodes": report.nodes, "nps": report.nps, "pv": pv,
                    "arrow": arrow if arrow is not None else analysis["arrow"]})
                self._bump()

        return call(on_info=on_info)

    def _published_move(self) -> None:
        with self._state:
            self._thinking = None
            if self._analysis is not None:
                self._analysis["running"] = False
                self._analysis["arrow"] = None
            self._publish()

    def _set_hint(self, hint: Hint) -> None:
        with self._state:
            arrow = _arrow(self.controller.record, hint.move)
            self._hint = {"move": hint.display, "pdn": hint.move, "arrow": arrow}
            self._publish()

    # ------------------------------------------------------------------ the state

    def _bump(self) -> None:
        """A change inside the snapshot (analysis): new version, wake the streams.
        Caller holds the state condition."""
        self._version += 1
        self._snapshot = dict(self._snapshot, version=self._version,
                              analysis=_copy(self._analysis), hint=self._hint,
                              eval=self._current_eval())
        self._state.notify_all()

    def _publish(self) -> None:
        """Rebuild the snapshot from the controller. Caller holds the state condition and is
        the thread driving the controller."""
        controller = self.controller
        self._sync_tree()
        record = controller.record
        position = record.position
        geometry = position.geometry
        outcome = controller.result()
        if outcome.is_over:
            self.clocks.pause()
        self.clocks.arm(self.closed)
        human_turn = controller.human_to_move() and not outcome.is_over
        legal: List[Dict[str, Any]] = []
        if human_turn and self._thinking is None:
            for move, paths in position.move_variants():
                legal.append({"pdn": move.pdn(), "text": record.display_move(move),
                              "paths": [list(p) for p in paths]})
        last = record.last_move
        moves = [[m.label, m.display] for m in controller.history + controller.upcoming]
        self._version += 1
        self._snapshot = {
            "id": self.id,
            "version": self._version,
            "variant": controller.variant,
            "size": geometry.size,
            # where each square is drawn (boards numbered otherwise: Italian, Spanish, ...)
            "cells": None if getattr(geometry, "layout", STANDARD) == STANDARD else [
                list(geometry.row_col(n)) for n in range(1, geometry.squares + 1)],
            "fen": controller.fen(),
            "start_fen": record.start_fen(),
            "turn": controller.side_to_move,
            "pieces": "".join(position.piece_at(n) or "." for n in range(1, geometry.squares + 1)),
            # the squares' names where the variant's own notation is algebraic (else None):
            # the page names squares with them and draws the files and ranks around the board
            "names": None if record.notation != ALGEBRAIC else [
                geometry.algebraic(n) for n in range(1, geometry.squares + 1)],
            "legal": legal,
            "last": None if last is None else {"path": list(last.path),
                                               "captured": list(last.captured)},
            "moves": moves,
            "ply": controller.ply,
            "can_undo": controller.can_undo(),
            "players": {side: self._player_json(side) for side in SIDES},
            "limit": {"level": self.players.limits.depth,
                      "movetime_ms": self.players.limits.movetime_ms},
            "elo": self.players.elo,
            "delay_ms": self.players.delay_ms,
            "time_control": None if self.players.clock is None else self.players.clock.describe(),
            "thinking": self._thinking,
            "analysing": self._job == "analyse",
            "hinting": self._job == "hint",
            "playing": self._job == "play",  # engines play on (also between their moves)
            "paused": self.paused,
            "analysis": _copy(self._analysis),
            "lines": self.lines,
            "clock": self.clocks.to_json(),
            "hint": self._hint,
            "result": None if not outcome.is_over else {
                "winner": outcome.winner, "reason": outcome.reason, "score": outcome.score},
            "status": self._status(outcome),
            "message": self._message,
            "pdn": self._pdn_text(),
            "line": [node.to_json() for node in self._line],
            "opening": opening_name(controller.variant, [n.move for n in self._line[:8]],
                                    record.start_fen() is None),
            "start_score": score_json(self.tree.root.score),
            "eval": self._current_eval(),
            "review": self.review.to_json(),
        }
        self._state.notify_all()

    def _sync_tree(self) -> None:
        """The tree follows the controller's moves (new ones become variations); a line that
        ends where the tree goes on gets its main continuation (to redo)."""
        controller = self.controller
        moves = controller.history + controller.upcoming
        try:
            line = self.tree.follow(moves)
        except TreeError as error:
            self._message = str(error)
            return
        tip = line[-1] if line else self.tree.root
        if tip.children and not self._thinking and self._job not in ("play", "review"):
            more = tip.main_continuation()
            try:
                controller.set_line([m.text for m in moves] + [n.move for n in more],
                                    controller.ply)
            except PlayError:
                pass
            else:
                line = line + more
        self._line = line

    def _pdn_text(self) -> str:
        try:
            return self.controller.pdn(tree=self.tree.to_move_nodes())
        except (ValueError, DraughtsError):
            return self.controller.pdn()

    def _current_eval(self) -> Optional[Dict[str, Any]]:
        """The score shown by the evaluation bar: the running analysis's, else the review's
        of the position shown (centi-men or mate, White's view)."""
        analysis = self._analysis
        if analysis is not None and (analysis.get("score_cp") is not None
                                     or analysis.get("mate") is not None):
            return {"cp": analysis.get("score_cp"), "mate": analysis.get("mate"),
                    "source": analysis.get("kind")}
        ply = self.controller.ply
        node = self._line[ply - 1] if 0 < ply <= len(self._line) else self.tree.root
        if node.score is None:
            return None
        return {"cp": node.score.cp, "mate": node.score.mate, "source": "review"}

    def _player_json(self, side: str) -> Dict[str, Any]:
        name = self.players.engine_of(side)
        if name is None:
            return {"type": "human", "name": "Human"}
        return {"type": "engine", "engine": name, "name": self.controller.player_name(side)}

    def _status(self, outcome: Any) -> str:
        controller = self.controller
        turn = controller.side_to_move.capitalize()
        if outcome.is_over:
            return f"Game over: {outcome.score} ({outcome.reason})"
        if self._thinking is not None:
            engine = self.players.engine_of(self._thinking) or self.engines.default.name
            return f"{turn} ({engine}) is thinking…"
        if self._job == "analyse":
            return f"{turn} to move; analysing…"
        if self._job == "hint":
            return f"{turn} to move; looking for a hint…"
        progress = self.review.progress
        if self._job == "review" and progress is not None:
            return (f"{turn} to move; reviewing the game "
                    f"({progress['done']}/{progress['total']} positions)…")
        if self.paused and not controller.human_to_move():
            return f"{turn} to move (engine); paused: press Resume"
        return f"{turn} to move"


def _arrow(record: DraughtsRecord, text: str) -> Optional[List[int]]:
    """``[from, to]`` of move text in the record's current position, or None."""
    try:
        squares, _ = parse_squares(text, record.position)
    except ValueError:
        return None
    return [squares[0], squares[-1]]


def _final_analysis(outcome: Any) -> Dict[str, Any]:
    """The analysis of a position where the game is over and no move remains: its result
    (``kind`` ``final``; ``score_cp`` 0 for a draw, ``result`` the score, ``reason``)."""
    return {"kind": "final", "engine": None, "running": False, "depth": None, "seldepth": None,
            "score_cp": 0 if outcome.winner == "draw" else None, "mate": None, "nodes": None,
            "nps": None, "pv": [], "arrow": None, "result": outcome.score,
            "reason": outcome.reason}


def _copy(analysis: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    if analysis is None:
        return None
    lines = [dict(line) for line in analysis.get("lines", []) if line is not None]
    return dict(analysis, pv=list(analysis["pv"]), lines=lines)
