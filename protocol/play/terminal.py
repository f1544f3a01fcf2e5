"""The terminal front end: draws the game, reads moves and commands, shows engines thinking.

:class:`TerminalSession` drives a :class:`~protocol.play.controller.GameController` with one
command per line, from a person at a terminal or from a script (stdin not a terminal: each line
read is echoed after the prompt, so the output reads like a session). Ctrl-C while an engine
thinks makes it play its best move so far (when two engines play, the program then asks whether
to quit); Ctrl-C anywhere else asks before quitting.

Commands (``help`` prints them): a move, ``undo [N]``, ``redo [N]``, ``hint``, ``lines N``,
``review [DEPTH]``, ``moves``, ``board``, ``flip``, ``new``, ``fen [FEN]``, ``save FILE``,
``load FILE [N]``, ``help``, ``quit``. With a clock (``clock``, :mod:`.clock`) the prompt shows
the time left; a person whose time has run out when a move comes loses on time.
A command given words it does not take is refused, and so is a word that is neither a command
nor move text (:func:`looks_like_move`); both leave the game as it was.

The board is drawn once per move, never twice: after a person's move that an engine answers,
only the position after the engine's reply is drawn (it follows at once), not the one between.
"""
from __future__ import annotations

import dataclasses
import shutil
import threading
import time
from typing import IO, Any, Callable, Dict, Optional, Tuple

from draughts_engine.search.limits import SearchLimits
from protocol.client import InfoReport

from .controller import GameController, PlayedMove
from . import players
from .players import EngineFailure
from .records import GameFinishedError, MoveRejected, Outcome, PlayError
from .clock import GameClock, ClockSetting, flag_outcome
from .render import Style, board_lines, info_text, score_text
from .review import Score, summary

__all__ = ["TerminalSession", "Series", "HELP_LINES", "QuitRequested", "looks_like_move"]

HELP_LINES = (
    "Moves: 11-15, 28x19, a capture path 15x24x31, algebraic on 8x8 (c3-d4); from-to is",
    "  enough unless two captures share it. Tic-tac-toe: b2. Tatedrez: N@b2, a1-b3, pass.",
    "Commands:",
    "  undo         take back to your previous turn (one move between two people)",
    "  undo N       take back N moves (plies), either side's: undo 2 = a move and its reply",
    "  redo [N]     replay what undo took back (N: that many moves)",
    "  hint         ask the engine for a move",
    "  lines N      the engine's N best lines in this position (1..5)",
    "  review [D]   review the game: each move's score, mistakes marked (depth D, default 6)",
    "  moves        list the legal moves",
    "  board        draw the board again",
    "  flip         turn the board around",
    "  new          start a new game",
    "  fen [FEN]    show the position's FEN, or set up a position",
    "  save FILE    write the game as PDN",
    "  load FILE [N]  load a PDN game (the N-th, default 1) or a FEN",
    "  help         this list",
    "  quit         leave (Ctrl-D too)",
    "Ctrl-C while an engine thinks: it plays its best move so far.",
)

_COMMANDS = ("undo", "redo", "hint", "moves", "board", "flip", "new", "fen", "save", "load",
             "help", "quit", "exit", "?", "review", "lines")
MAX_LINES = 5
REVIEW_DEPTH = 6
MARK_GLYPHS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
_ALIASES = {"exit": "quit", "?": "help"}
#: Commands that take nothing after them: ``new game now`` is refused, not read as ``new``.
_NO_ARGUMENTS = frozenset(("hint", "moves", "board", "flip", "new", "help", "quit"))


def looks_like_move(line: str) -> bool:
    """Whether a line that is not a command is meant as a move, so that a problem with it is
    a move's problem: its first word has a digit or a ``-``/``@`` (``11-15``, ``28x19``,
    ``11 15``, ``c3-d4``, ``b2``, ``N@b2``, ``foo-bar``) or is ``pass`` (Tatedrez). A word
    without them (``foo``, ``xx``) is an unknown command."""
    words = line.split()
    if not words:
        return False
    word = words[0]
    return word.lower() == "pass" or any(ch in "0123456789-@" for ch in word)


def _count(rest: str, available: int, what: str, done: str) -> Optional[int]:
    """The ``N`` of ``undo N``/``redo N`` (None when not given): a whole number from 1 to
    ``available``; anything else is a :class:`PlayError` naming the bad input."""
    if not rest:
        return None
    if available == 0:
        raise PlayError(f"no move to {what}")
    if not (rest.isascii() and rest.isdigit() and len(rest) <= 9) or \
            not 1 <= int(rest) <= available:
        if available == 1:
            allowed = f"1 (one move can be {done})"
        else:
            allowed = f"1..{available} ({available} moves can be {done})"
        raise PlayError(f"N must be {allowed}, got {rest!r}")
    return int(rest)


class QuitRequested(Exception):
    """The person asked to leave (``quit``, end of input, Ctrl-C confirmed); ``end_of_input``
    when nothing more can be read."""

    def __init__(self, end_of_input: bool = False) -> None:
        super().__init__("quit")
        self.end_of_input = end_of_input


@dataclasses.dataclass
class Series:
    """The running score of several games between the same two players (by name)."""

    names: Tuple[str, str]
    points: Dict[str, float] = dataclasses.field(default_factory=dict)
    games: int = 0
    wins: Dict[str, int] = dataclasses.field(default_factory=dict)
    draws: int = 0

    def add(self, white: str, black: str, outcome: Outcome) -> None:
        self.games += 1
        for name in (white, black):
            self.points.setdefault(name, 0.0)
            self.wins.setdefault(name, 0)
        if outcome.winner == "draw":
            self.points[white] += 0.5
            self.points[black] += 0.5
            self.draws += 1
        elif outcome.winner in ("white", "black"):
            winner = white if outcome.winner == "white" else black
            self.points[winner] += 1.0
            self.wins[winner] += 1

    def line(self) -> str:
        """``Score after 3 games: deep 2.5 - 0.5 shallow (+2 =1 -0 for deep)``."""
        first, second = self.names
        plural = "s" if self.games != 1 else ""
        return (f"Score after {self.games} game{plural}: {first} {self.points.get(first, 0.0):g}"
                f" - {self.points.get(second, 0.0):g} {second} (+{self.wins.get(first, 0)} "
                f"={self.draws} -{self.wins.get(second, 0)} for {first})")


class TerminalSession:
    """One person (or script) at a terminal, playing or watching through a controller.

    ``interactive``: stdin is a terminal (prompts are typed over, Ctrl-C at the prompt asks
    before quitting, the end of a game offers to save). ``live``: stdout is a terminal (the
    engine's thinking is one line updated in place; otherwise every report is its own line).
    """

    def __init__(self, controller: GameController, out: IO[str], read_line: Callable[[str], str],
                 style: Style, interactive: bool, live: bool, flipped: bool = False,
                 delay: float = 0.0, save_path: Optional[str] = None,
                 time_control: Optional[ClockSetting] = None) -> None:
        self.controller = controller
        self.time_control = time_control
        self.clock: Optional[GameClock] = None
        self.out = out
        self._read_line = read_line
        self.style = style
        self.interactive = interactive
        self.live = live
        self.flipped = flipped
        self.delay = delay
        self.save_path = save_path
        self._status_shown = False
        self._write_lock = threading.Lock()
        self._announced: Optional[int] = None  # the ply whose result was announced
        self._moved_here: Optional[int] = None  # the ply of the last move played here
        self.unsaved = False  # a move was played here since the game was last saved
        self._interrupted = False  # Ctrl-C during the last search
        self.round = 1

    # ---- output ----------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        with self._write_lock:
            self._clear_status()
            self.out.write(text + "\n")
            self.out.flush()

    def _clear_status(self) -> None:
        if self._status_shown:
            self.out.write("\r\x1b[K")
            self._status_shown = False

    def _status(self, text: str) -> None:
        """A line that the next output replaces (live terminals only)."""
        with self._write_lock:
            # One column short of the width: a line that fills the last column wraps on
            # some terminals, and "\r" then no longer goes back to its start.
            width = shutil.get_terminal_size((100, 24)).columns - 1
            self.out.write("\r\x1b[K" + text[:max(0, width)])
            self.out.flush()
            self._status_shown = True

    def show_board(self) -> None:
        controller = self.controller
        record = controller.record
        for line in board_lines(controller.board_view(), self.style, self.flipped):
            self.say(line)
        history = controller.history
        if history:
            last = history[-1]
            self.say(f"Last move: {last.label} {last.display}")
        outcome = controller.result()
        if outcome.is_over:
            self.say(self.style.bold(self._outcome_text(outcome)))
            return
        side = controller.side_to_move
        self.say(f"{record.title}, move {controller.move_number()}: "
                 f"{self.style.bold(record.side_names[side])} to move "
                 f"({controller.player_name(side)})")

    def _outcome_text(self, outcome: Outcome) -> str:
        names = self.controller.record.side_names
        if outcome.winner == "draw":
            head = f"Draw ({outcome.score})"
        else:
            head = f"{names[outcome.winner]} wins ({outcome.score})"
        return f"Game over: {head}: {outcome.reason}."

    def _played(self, move: PlayedMove) -> None:
        names = self.controller.record.side_names
        text = f"{move.label} {move.display}  ({names[move.side]}, {move.by})"
        if move.info is not None and (move.info.score_cp is not None
                                      or move.info.score_mate is not None):
            text += f"  score {score_text(move.info)}"
        self.say(text)

    # ---- input -----------------------------------------------------------------------
    def _prompt(self) -> str:
        controller = self.controller
        side = controller.record.side_names[controller.side_to_move]
        if controller.result().is_over:
            return "game over> "
        clock = ""
        if self.clock is not None:
            names = controller.record.side_names
            clock = "[" + " | ".join(f"{names[s]} {_clock_text(self.clock.left(s))}"
                                     for s in ("white", "black")) + "] "
        return f"{clock}{side} {controller.move_number()}> "

    def read_command(self, prompt: str) -> str:
        """The next line, stripped; Ctrl-C asks before quitting; raises :class:`QuitRequested`
        at the end of input or when the person confirms."""
        while True:
            try:
                return self._read_line(prompt).strip()
            except EOFError:
                self.say()
                raise QuitRequested(end_of_input=True) from None
            except KeyboardInterrupt:
                self.say()
                self.confirm_quit()

    def confirm_quit(self) -> None:
        """Ask whether to quit; raises :class:`QuitRequested` on yes, Ctrl-C or end of input."""
        try:
            answer = self._read_line("Quit? [y/N] ").strip().lower()
        except EOFError:
            self.say()
            raise QuitRequested(end_of_input=True) from None
        except KeyboardInterrupt:
            self.say()
            raise QuitRequested() from None
        if answer in ("y", "yes", "q", "quit"):
            raise QuitRequested()

    # ---- engines ---------------------------------------------------------------------
    def _on_info(self, label: str) -> Callable[[InfoReport], None]:
        """Show an engine's reports: in place on a live terminal, else a line each."""
        def show(info: InfoReport) -> None:
            if info.depth is None and not info.pv:
                return
            text = f"{label} {info_text(info, shown=self.controller.display_text)}"
            if self.live:
                self._status(text)
            else:
                self.say("  " + text)
        return show

    def _think(self, work: Callable[[], Any], label: str,
               on_interrupt: str = "(move now: the engine plays its best move so far)") -> Any:
        """Run ``work`` (an engine search) in a thread, ``label`` on the status line until
        the first report; Ctrl-C meanwhile stops the search so that it answers with its best
        move so far, says ``on_interrupt`` once and sets ``_interrupted``; a second Ctrl-C
        offers to kill an engine that does not answer."""
        box: Dict[str, Any] = {}
        done = threading.Event()
        self._interrupted = False

        def run() -> None:
            try:
                box["value"] = work()
            except BaseException as exc:  # handed to the waiting thread
                box["error"] = exc
            finally:
                done.set()

        thread = threading.Thread(target=run, name="engine-search", daemon=True)
        # Wait on an Event, not on join(): a KeyboardInterrupt inside Thread.join() can leave
        # the thread looking finished while it still runs. A Ctrl-C is only counted where it
        # lands and acted on inside the try, so a press during the action is not lost.
        presses = handled = 0
        while not done.is_set():
            try:
                if thread.ident is None:  # here, so that a Ctrl-C at once is "move now" too
                    thread.start()
                    if self.live:
                        self._status(label + " ...")
                if handled < presses:
                    handled = presses
                    if not self._interrupted:
                        self._interrupted = True
                        self.controller.move_now()
                        self.say(on_interrupt)
                    else:  # Ctrl-C again: the engine has not answered stop yet
                        self._interrupted_again(done)
                    continue
                done.wait(0.1)
            except KeyboardInterrupt:
                presses += 1
        thread.join()
        with self._write_lock:
            self._clear_status()
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def _interrupted_again(self, done: threading.Event) -> None:
        """A second Ctrl-C while a stopped engine has not answered: at a terminal ask whether
        to kill it now (it is killed anyway after the grace); from a script kill it. A killed
        engine is an engine failure: the game ends as for any other."""
        if self.interactive:
            try:
                answer = self._read_line(
                    f"The engine has not answered stop yet (it is killed after "
                    f"{players.STOP_GRACE_SECONDS:g} s). Kill it now and end the game? "
                    f"[y/N] ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.say()
                answer = "y"
            if answer not in ("y", "yes") or done.is_set():
                return
        self.controller.abandon_search("was killed (Ctrl-C twice: it did not answer stop)")

    def engine_turn(self) -> None:
        side = self.controller.side_to_move
        label = f"{self.controller.record.side_names[side]} thinks:"
        if self.clock is not None:
            self.controller.limits = self.clock.limits(side)  # go wtime btime winc binc
        move = self._think(lambda: self.controller.engine_move(on_info=self._on_info(label)),
                           label)
        self._clock_moved(side)
        self._moved_here = self.controller.ply
        self.unsaved = True
        self._played(move)
        self.show_board()

    def _fresh_game(self, note: str = "") -> None:
        """A game is on the board anew (started, new, set up, loaded): nothing of it announced,
        played or left unsaved here yet. Says ``note``, then shows the board."""
        self._announced = None
        self._moved_here = None
        self.unsaved = False
        if self.time_control is not None:
            self.clock = GameClock(self.time_control)
            if not self.controller.result().is_over:
                self.clock.start(self.controller.side_to_move)
        if note:
            self.say(note)
        self.show_board()

    # ---- the game loop ---------------------------------------------------------------
    def play_game(self) -> Outcome:
        """Play until the game ends (engines only) or the person quits.

        Returns the outcome of a finished game when no person plays; with a person, loops
        until ``quit`` (raises :class:`QuitRequested`). Raises :class:`EngineFailure`.
        """
        controller = self.controller
        self._fresh_game()
        watching = not controller.has_human()
        while True:
            outcome = controller.result()
            if outcome.is_over:
                if self._announced != controller.ply:
                    self._announced = controller.ply
                    self.game_finished(outcome, self._moved_here == controller.ply)
                if watching:
                    return outcome
            elif not controller.human_to_move():
                if watching and self.delay > 0 and controller.ply > 0:
                    self._pause(self.delay)
                self.engine_turn()
                if watching and self._interrupted:  # Ctrl-C: the move is played; go on?
                    self.confirm_quit()
                continue
            self.handle(self.read_command(self._prompt()))

    def _pause(self, seconds: float) -> None:
        try:
            time.sleep(seconds)
        except KeyboardInterrupt:
            self.say()
            self.confirm_quit()

    def game_finished(self, outcome: Outcome, played_here: bool = True) -> None:
        """After the board has shown the result of a game that ended with a move played in
        this session (``played_here``): append it to ``--save``, or offer to save a person's
        game. A game loaded, set up or replayed (redo) to its end is only shown."""
        if played_here and self.save_path is not None:
            try:
                self.controller.save(self.save_path, append=True, tags={"Round": str(self.round)})
                self.unsaved = False
                self.say(f"Saved to {self.save_path}.")
            except PlayError as exc:
                self.say(self.style.problem(f"Not saved: {exc}"))
        if not self.controller.has_human():
            return
        if played_here and self.interactive and self.save_path is None:
            self._offer_save()
        self.say("Type undo to take back, new for another game, save FILE to keep it, or quit.")

    def _offer_save(self) -> None:
        """Ask for a file name to save the game in; Enter skips. An answer that is a command
        (``moves``, ``new``, ...) is not taken for a file name: it is carried out instead."""
        prompt = "Save this game? Type a file name to save it, or press Enter to skip: "
        while True:
            try:
                answer = self._read_line(prompt).strip()
            except (EOFError, KeyboardInterrupt):
                self.say()
                return
            if answer.lower() not in ("y", "yes"):
                break
            prompt = "File name (Enter to skip): "
        if not answer or answer.lower() in ("n", "no"):
            return
        if answer.split()[0].lower() in _COMMANDS:
            self.say(f"Not saved: {answer.split()[0]!r} is a command (it is carried out); "
                     f"save FILE keeps the game.")
            self.handle(answer)
            return
        self._save(answer)

    # ---- commands --------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Carry out one line: a command or a move. Problems are reported, never raised
        (except :class:`QuitRequested` and :class:`EngineFailure`)."""
        words = line.split(None, 1)
        if not words:
            return
        word_lower, rest = words[0].lower(), words[1].strip() if len(words) > 1 else ""
        if word_lower not in _COMMANDS:
            if looks_like_move(line):
                self._move(line)
            else:
                self.say(self.style.problem(
                    f"Unknown command {words[0]!r} (type help for the commands, moves for the "
                    f"legal moves)"))
            return
        name = _ALIASES.get(word_lower, word_lower)
        try:
            if rest and name in _NO_ARGUMENTS:
                raise PlayError(f"takes no arguments, got {rest!r} (nothing done)")
            getattr(self, "_command_" + name)(rest)
        except EngineFailure:
            raise
        except PlayError as exc:
            self.say(self.style.problem(f"{word_lower}: {exc}"))

    def _clock_moved(self, side: str) -> None:
        """``side`` has moved: its clock stops (the increment added), the other's runs; a
        clock that had run out ends the game on time."""
        if self.clock is not None and not self.clock.moved(side):
            self._flag(side)

    def _flag(self, side: str) -> None:
        self.controller.end_game(flag_outcome(side, self.controller.variant))
        self.say(self.style.problem(
            f"{self.controller.record.side_names[side]}'s time is up."))

    def _move(self, text: str) -> None:
        side = self.controller.side_to_move
        if self.clock is not None and self.controller.human_to_move() and \
                not self.controller.result().is_over and self.clock.left(side) <= 0:
            self._flag(side)
            self.show_board()
            return
        try:
            move = self.controller.play(text)
        except MoveRejected as exc:
            self.say(self.style.problem(f"Not played: {exc.reason}"))
            self.say("Legal moves: " + " ".join(exc.legal))
            return
        except GameFinishedError as exc:
            self.say(self.style.problem(f"Not played: {exc}. Type undo, new or quit."))
            return
        except PlayError as exc:
            self.say(self.style.problem(f"Not played: {exc}"))
            return
        self._moved_here = self.controller.ply
        self.unsaved = True
        self._clock_moved(side)
        self._played(move)
        self._show_turn()

    def _show_turn(self) -> None:
        """Draw the board, unless an engine moves next in a person's game: its move is played
        at once and draws the board then, so a move gets one board, not two."""
        controller = self.controller
        if controller.has_human() and not controller.human_to_move() and \
                not controller.result().is_over:
            return
        self.show_board()

    def _command_undo(self, rest: str) -> None:
        """``undo``: back to the person's previous turn; ``undo N``: N plies, either side's,
        as the protocol's ``undo N`` (an engine left to move then moves again)."""
        controller = self.controller
        count = _count(rest, controller.ply, "take back", "taken back")
        if count is None:
            shown = [controller.display_text(text) for text in controller.undo()]
        else:
            shown = [move.display for move in controller.history[-count:]]
            controller.go_to(controller.ply - count)
        self.say(f"Took back {' '.join(shown)}.")
        self._announced = None
        self._moved_here = None
        self._show_turn()

    def _command_redo(self, rest: str) -> None:
        """``redo``: replay up to the person's next turn; ``redo N``: N plies."""
        controller = self.controller
        count = _count(rest, len(controller.upcoming), "redo", "redone")
        if count is None:
            moves = controller.redo()
        else:
            moves = controller.upcoming[:count]
            controller.go_to(controller.ply + count)
        self.say(f"Replayed {' '.join(move.display for move in moves)}.")
        self._show_turn()

    def _command_hint(self, rest: str) -> None:
        hint = self._think(lambda: self.controller.hint(on_info=self._on_info("hint:")),
                           "hint:", on_interrupt="(hint stopped: the best move found so far follows; "
                                        "nothing is played)")
        text = f"Hint: {hint.display}"
        if hint.info is not None and (hint.info.score_cp is not None
                                      or hint.info.score_mate is not None):
            text += f"  (score {score_text(hint.info)})"
        self.say(text)

    def _command_lines(self, rest: str) -> None:
        """``lines N``: the engine's N best lines here (its MultiPV), searched under the
        game's limits; the best first."""
        count = _count(rest, MAX_LINES, "show", "shown") if rest else None
        if count is None:
            raise PlayError(f"give the number of lines, 1..{MAX_LINES}")
        best: Dict[int, InfoReport] = {}
        show = self._on_info("lines:")

        def keep(info: InfoReport) -> None:
            if info.pv and getattr(info, "bound", None) is None:
                best[getattr(info, "multipv", None) or 1] = info
            show(info)
        controller = self.controller
        self._think(lambda: controller.analyse(keep, lines=count, limits=controller.limits),
                    "lines:", on_interrupt="(stopped: the lines found so far follow)")
        if len(best) < count:
            self.say(f"(the engine gave {len(best)} line{'s' if len(best) != 1 else ''})")
        for number in sorted(best):
            info = best[number]
            moves = " ".join(controller.display_text(move) for move in info.pv[:10])
            self.say(f"  {number}. {score_text(info):>8}  {moves}")

    def _command_review(self, rest: str) -> None:
        """``review [DEPTH]``: every position of the game searched, each move's score (White's
        view) and the mistakes marked with the better move; a summary per side."""
        depth = REVIEW_DEPTH
        if rest:
            if not (rest.isascii() and rest.isdigit()) or not 1 <= int(rest) <= 20:
                raise PlayError(f"DEPTH must be 1..20, got {rest!r}")
            depth = int(rest)
        controller = self.controller
        history = controller.history
        if not history:
            raise PlayError("no move to review yet")

        def progress(done: int, total: int) -> None:
            if self.live:
                self._status(f"reviewing: {done}/{total} positions")
        scores, reviews = self._think(
            lambda: controller.review(SearchLimits(depth=depth), progress), "reviewing:",
            on_interrupt="(review stopped: the moves searched so far follow)")
        self.say(f"Review (depth {depth}, scores in men from White's view):")
        for review in reviews:
            move = history[review.ply - 1]
            mark = review.mark or ""
            text = f"  {move.label:<6} {move.display + MARK_GLYPHS.get(mark, ''):<14}" \
                   f"{_score(scores[review.ply]):>7}"
            if mark:
                text += f"  {mark} (lost {review.loss / 100:.2f})"
                if review.better:
                    before = controller.record.replayed(controller.record.move_texts[
                        :review.ply - 1])
                    text += f"; better {before.display_text(review.better)}"
            self.say(text)
        names = controller.record.side_names
        for side, counts in summary(reviews).items():
            self.say(f"{names[side]}: average loss {counts['average_loss'] / 100:.2f} over "
                     f"{counts['moves']} moves; {counts['inaccuracy']} inaccuracies, "
                     f"{counts['mistake']} mistakes, {counts['blunder']} blunders")

    def _command_moves(self, rest: str) -> None:
        legal = self.controller.display_legal_moves()
        self.say("Legal moves: " + (" ".join(legal) if legal else "none (the game is over)"))

    def _command_board(self, rest: str) -> None:
        self.show_board()

    def _command_flip(self, rest: str) -> None:
        self.flipped = not self.flipped
        self.show_board()

    def _command_new(self, rest: str) -> None:
        self.unsaved_game_left(can_ask=True)
        self.controller.new_game()
        self._fresh_game("New game.")

    def _command_fen(self, rest: str) -> None:
        if not rest:
            self.say(self.controller.fen())
            return
        self.unsaved_game_left(can_ask=True)
        self.controller.set_position(rest)
        self._fresh_game("Position set up.")

    def _command_save(self, rest: str) -> None:
        if not rest:
            raise PlayError("give a file name: save FILE")
        self._save(rest)

    def _save(self, path: str) -> bool:
        try:
            self.controller.save(path)
        except PlayError as exc:
            self.say(self.style.problem(f"save: {exc}"))
            return False
        self.unsaved = False
        self.say(f"Saved to {path}.")
        return True

    def unsaved_game_left(self, can_ask: bool) -> bool:
        """Before leaving or replacing a game (quit, an engine failure, ``new``, ``fen``,
        ``load``): an unfinished game with moves played here since it was last saved is not
        dropped silently. At a terminal (``can_ask``)
        the person may type a file name to save it; otherwise one line says it is not saved.
        Returns whether such a game was left unsaved."""
        controller = self.controller
        if not self.unsaved or controller.ply == 0 or controller.result().is_over:
            return False
        if can_ask and self.interactive:
            prompt = "This game is not finished and not saved. File name to save it (Enter " \
                     "to leave without saving): "
            while True:
                try:
                    answer = self._read_line(prompt).strip()
                except (EOFError, KeyboardInterrupt):
                    self.say()
                    answer = ""
                if not answer:
                    break
                if self._save(answer):
                    return False
        plies = controller.ply
        self.say(f"The unfinished game ({plies} move{'s' if plies != 1 else ''}) is not saved.")
        return True

    def _command_load(self, rest: str) -> None:
        if not rest:
            raise PlayError("give a file name: load FILE [N]")
        path, number = rest, 1
        head, _, tail = rest.rpartition(" ")
        if head and tail.isdigit():
            path, number = head.strip(), int(tail)
        self.unsaved_game_left(can_ask=True)
        self.controller.load(path, number)
        self._fresh_game(f"Loaded {path}.")

    def _command_help(self, rest: str) -> None:
        for line in HELP_LINES:
            self.say(line)

    def _command_quit(self, rest: str) -> None:
        raise QuitRequested()


def _clock_text(ms: int) -> str:
    """``m:ss`` (tenths under ten seconds) of a clock; 0:00.0 once it has run out."""
    left = max(0, ms)
    if left < 10_000:
        return f"0:{left / 1000:04.1f}"
    return f"{left // 60_000}:{left // 1000 % 60:02d}"


def _score(score: Score) -> str:
    if score.mate is not None:
        return f"{'+' if score.mate > 0 else '-'}M{abs(score.mate)}"
    return f"{(score.cp or 0) / 100:+.2f}"
