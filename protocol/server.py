"""The stdin/stdout engine server (PROTOCOL.md is the contract).

Threads:

* a **reader** turns stdin bytes into lines (:class:`protocol.commands.LineReader`)
  and queues them; it also makes ``quit`` work while ``perft`` or ``bench``
  keep the dispatcher busy;
* the **dispatcher** (the caller of :meth:`Server.run`) parses and executes
  queued lines in order;
* a **search** thread per ``go``, which reports ``info`` lines and writes the
  one ``bestmove`` of that ``go``.

Only this module writes to stdout, one whole line at a time under a lock,
flushed at once.  Diagnostics go to stderr.
"""
from __future__ import annotations


import io
import os
import queue
import sys
from collections import deque
import threading
import traceback
from typing import Any, BinaryIO, Callable, Deque, Dict, List, Optional, TextIO, Union

from draughts_engine import __version__
from draughts_engine.search.limits import RootMoveInfo, SearchInfo, SearchLimits

from . import commands as cmd
from .options import OptionError
from .search_job import SearchJob
from .session import Session, SessionError

__all__ = ["Server", "main", "format_info"]

ENGINE_NAME = "draughts-engine"
ENGINE_AUTHOR = "the draughts-engine authors"
_EOF = object()
QUIT_WAIT = 0.8
"""Seconds ``quit`` waits for a search to write its own bestmove before writing one for it."""
SEARCH_WAIT_POLL = 0.05
"""Seconds between two looks at the input while a command waits for a search to end."""
STOPPED_WAIT_GRACE = 0.8
"""Seconds a command waits for a stopped search before a ``quit`` read meanwhile cuts the
wait short (a search that stops at once lets the commands before that ``quit`` run).  A first
search on PyPy on a busy host (the JIT warming up, the weights and patterns read) took more
than 0.2 s to answer its ``stop``, and the ``position``/``go``/``stop`` before the ``quit``
were dropped; 0.8 s keeps PROTOCOL.md's "within a second"."""


def format_info(info: SearchInfo, pv: List[str]) -> str:
    """The ``info`` line of one search report (``multipv`` only for a search of several
    lines, a bound only for a failed aspiration window); a book move is ``info string book
    <move>``."""
    if getattr(info, "book", False):
        return f"info string book {pv[0] if pv else ''}".rstrip()
    if info.mate_in is not None:
        score = f"score mate {info.mate_in}"
    else:
        score = f"score cp {info.score_cp if info.score_cp is not None else 0}"
    if info.bound:
        score += f" {info.bound}"
    lines = f" multipv {info.multipv}" if info.multipv else ""
    line = (f"info depth {info.depth} seldepth {info.seldepth}{lines} {score} nodes {info.nodes} "
            f"nps {info.nps} time {info.time_ms} hashfull {info.hashfull}")
    line += f" tbhits {info.tbhits}" if getattr(info, "tbhits", 0) else ""
    return line + (" pv " + " ".join(pv) if pv else "")


class _SearchJob(SearchJob):
    """One ``go``: runs the search on its own thread and writes its ``bestmove``.

    ``bestmove`` is held back in infinite and ponder modes until :meth:`stop`
    or (ponder) :meth:`ponderhit`.
    """

    def __init__(self, server: "Server", limits: SearchLimits, hold: bool) -> None:
        super().__init__(server.session, limits, hold, "search")
        self.server = server

    def report(self, info: SearchInfo) -> None:
        self.server.send(format_info(info, self.board.move_texts(info.pv)))

    reports_root_moves = True

    def report_root_move(self, info: RootMoveInfo) -> None:
        move = self.board.move_texts([info.move])[0]
        self.server.send(f"info depth {info.depth} currmove {move} "
                         f"currmovenumber {info.number}")

    def final_line(self, best: Optional[Any], ponder: Optional[Any]) -> str:
        if best is None:
            return "bestmove (none)"
        texts = self.board.move_texts([best] if ponder is None else [best, ponder])
        return " ".join(["bestmove", texts[0]] + (["ponder", texts[1]] if len(texts) > 1 else []))

    def finish(self, line: str) -> None:
        self.server.finish_search(self, line)

    def log(self, text: str) -> None:
        try:
            self.server.stderr.write(text + "\n")
            self.server.stderr.flush()
        except (OSError, ValueError):
            pass


class Server:
    """The protocol server over binary stdin and text stdout."""

    def __init__(self, stdin: BinaryIO, stdout: TextIO, stderr: TextIO = sys.stderr,
                 session: Optional[Session] = None) -> None:
        """``session``: the options, engine and board to serve (a fresh one by default; tests
        hand in a session with an engine of their own)."""
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.session = session if session is not None else Session()
        self._out_lock = threading.Lock()
        self._job_lock = threading.Lock()
        self.job: Optional[_SearchJob] = None
        self._lines: "queue.Queue[object]" = queue.Queue()
        # lines taken from the queue by a command waiting for a search, not yet executed
        self._pending: Deque[object] = deque()
        self._blocking = threading.Event()  # perft/bench running on the dispatcher
        self._seen_command = False
        self._handlers: Dict[type, Callable] = {
            cmd.Uci: self._uci, cmd.IsReady: self._isready, cmd.SetOption: self._setoption,
            cmd.UciNewGame: self._ucinewgame, cmd.SetPosition: self._position, cmd.PlayMoves: self._move,
            cmd.Undo: self._undo, cmd.Go: self._go, cmd.Stop: self._stop,
            cmd.PonderHit: self._ponderhit, cmd.Display: self._display, cmd.Perft: self._perft,
            cmd.Eval: self._eval, cmd.Bench: self._bench, cmd.Help: self._help,
        }

    # ---- output ---------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one protocol line and flush; a closed stdout ends the process quietly."""
        self.send_lines([line])

    def send_lines(self, lines: List[str]) -> None:
        """Write a block of lines (``d``, ``uci``, ...) at once and flush: no line of a running
        search's reports comes between them; a closed stdout ends the process quietly."""
        if not lines:
            return
        with self._out_lock:
            try:
                self.stdout.write("".join(line + "\n" for line in lines))
                self.stdout.flush()
            except (BrokenPipeError, ValueError, OSError):
                os._exit(0)

    def error(self, reason: str) -> None:
        self.send(f"error {reason}")

    def current_job(self) -> Optional[_SearchJob]:
        """The running search, if any; once it is gone its bestmove has been written."""
        with self._job_lock:
            return self.job

    def finish_search(self, job: _SearchJob, bestmove_line: str) -> None:
        """Called by the search thread: the search is over; write its bestmove, then
        forget the job (so that whoever finds no job knows its bestmove is out)."""
        with self._job_lock:  # readers of the job take this lock: they see it with its line
            self.send(bestmove_line)
            if self.job is job:
                self.job = None

    # ---- main loop ---------------------------------------------------------------
    def run(self, hub: bool = False) -> int:
        """Serve until ``quit`` or end of input; return the exit status (0).

        ``hub``: speak Hub v2 from the start (``draughts-engine hub``, as Scan is started);
        the client's own first ``hub`` line is then answered like any ``hub`` command.
        """
        reader = threading.Thread(target=self._read_loop, name="reader", daemon=True)
        reader.start()
        if hub:
            from .hub.server import HubServer
            return HubServer(self, greet=False).run()
        while True:
            item = self._take()
            if item is _EOF:
                self._end_of_input()
                return 0
            if isinstance(item, cmd.LineError):
                self.error(str(item))
                continue
            if self._dispatch(item):
                return 0

    def next_item(self) -> Union[str, cmd.LineError, None]:
        """The next input line (waiting for it), a :class:`LineError` for a bad line,
        or None at end of input.  For protocol modes that take over the session (Hub)."""
        item = self._take()
        return None if item is _EOF else item  # type: ignore[return-value]

    def _take(self) -> object:
        """The next queued item in the order read (waiting for it)."""
        if self._pending:
            return self._pending.popleft()
        return self._lines.get()

    def wait_for_search(self, job: Any, waiting_word: str, search_word: str = "go") -> bool:
        """Wait until ``job`` has written its final line, so that the command at hand can run
        after it (PROTOCOL.md section 3); True when a ``quit`` read meanwhile ends the server.

        While it waits, the lines read meanwhile are looked at, not executed: a ``quit`` among
        them stops the search at once (after :data:`STOPPED_WAIT_GRACE` for a search already
        told to stop, so that one which stops at once lets the commands before the ``quit``
        run); a ``stop`` ends the awaited search unless a ``search_word`` line comes before it
        (``waiting_word``, the command that waits, included): that ``stop`` is meant for the
        later search. The lines stay queued in order.
        """
        waited = 0.0
        quit_seen = stop_seen = False
        stop_open = waiting_word != search_word
        unseen: List[object] = list(self._pending)  # queued by an earlier wait, not yet looked at
        while not job.wait(SEARCH_WAIT_POLL):
            waited += SEARCH_WAIT_POLL
            unseen += self._read_ahead()
            for item in unseen:  # each line is looked at once, however long the wait
                words = cmd.tokenize(item) if isinstance(item, str) else []
                if words == ["quit"]:
                    quit_seen = True
                elif words[:1] == [search_word]:
                    stop_open = False
                elif words[:1] == ["stop"] and stop_open:
                    stop_seen = True
            unseen = []
            if quit_seen and (not job.stopping or waited >= STOPPED_WAIT_GRACE):
                return True
            if stop_seen and not job.stopping:
                job.stop()
        return False

    def _read_ahead(self) -> List[object]:
        """Move the lines read so far into the pending list (they stay in order there);
        return them."""
        moved: List[object] = []
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return moved
            self._pending.append(item)
            moved.append(item)

    def _read_loop(self) -> None:
        reader = cmd.LineReader(self.stdin)
        while True:
            try:
                line = reader.read_line()
            except cmd.LineError as exc:
                self._lines.put(exc)
                continue
            except (OSError, ValueError):
                line = None
            if line is None:
                self._lines.put(_EOF)
                return
            if self._blocking.is_set() and cmd.tokenize(line) == ["quit"]:
                self._exit_now()
            self._lines.put(line)

    def _dispatch(self, line: str) -> bool:
        """Execute one line; True when the server must exit."""
        try:
            command = cmd.parse_command(line)
        except cmd.CommandError as exc:
            self._seen_command = True
            self.error(str(exc))
            return False
        if command is None:
            return False
        first = not self._seen_command
        self._seen_command = True
        if isinstance(command, cmd.Quit):
            self._quit()
            return True
        if isinstance(command, cmd.Hub):
            if not first:
                self.error("hub: only valid as the first command")
                return False
            from .hub.server import HubServer
            HubServer(self).run()  # Hub v2 for the rest of the session (PROTOCOL.md 10)
            return True
        job = self.current_job()
        if job is not None and not command.allowed_during_search:
            if not job.ends_soon:  # go infinite, a ponder search: no end
                self.error(f"busy: {command.word} during search")
                return False
            # A search that ends by itself (its limits, or a stop): the command waits for its
            # bestmove and then runs, as do the commands after it, in order; a quit read
            # meanwhile is obeyed at once (the bestmove first, see _quit).
            if self.wait_for_search(job, command.word):
                self._quit()
                return True
        try:
            self._handlers[type(command)](command)
        except (SessionError, OptionError, cmd.CommandError) as exc:
            self.error(f"{command.word}: {exc}")
        except Exception as exc:  # a bug must not kill the server
            self._log_bug(exc)
            self.error(f"{command.word}: internal error: {type(exc).__name__}: "
                       f"{cmd.show_token(str(exc))}")
        return False

    def _log_bug(self, exc: Exception) -> None:
        """A bug on stderr: one line, or the whole traceback when DRAUGHTS_DEBUG is set."""
        try:
            if os.environ.get("DRAUGHTS_DEBUG"):
                traceback.print_exception(type(exc), exc, exc.__traceback__, file=self.stderr)
            else:
                self.stderr.write(f"draughts-engine: bug: {type(exc).__name__}: "
                                  f"{cmd.show_token(str(exc))} (set DRAUGHTS_DEBUG=1 for details)\n")
            self.stderr.flush()
        except (OSError, ValueError):
            pass

    # ---- exit ----------------------------------------------------------------------
    def _quit(self) -> None:
        job = self.current_job()
        if job is not None:
            job.end(QUIT_WAIT)

    def _end_of_input(self) -> None:
        job = self.current_job()
        if job is not None:
            if job.bounded:  # a search with its own limit may finish
                job.wait()
            else:  # infinite, ponder or a bare go would not end soon
                job.end(QUIT_WAIT)

    def _exit_now(self) -> None:
        try:
            self.stdout.flush()
        except (OSError, ValueError):
            pass
        os._exit(0)

    # ---- commands -------------------------------------------------------------------
    def _uci(self, _: cmd.Uci) -> None:
        self.send_lines([f"id name {ENGINE_NAME} {__version__}", f"id author {ENGINE_AUTHOR}",
                         f"id protocol {cmd.PROTOCOL_VERSION}"] + self.session.options.lines()
                        + ["uciok"])

    def _isready(self, _: cmd.IsReady) -> None:
        if self.current_job() is None:
            self.session.engine()  # load the search now (UCI's moment for slow set-up), not at go
        self.send("readyok")

    def _setoption(self, command: cmd.SetOption) -> None:
        self.session.set_option(command.name, command.value)

    def _ucinewgame(self, _: cmd.UciNewGame) -> None:
        self.session.new_game()

    def _position(self, command: cmd.SetPosition) -> None:
        self.session.board.set_position(command.fen, command.moves)

    def _move(self, command: cmd.PlayMoves) -> None:
        self.session.board.play(command.moves)

    def _undo(self, command: cmd.Undo) -> None:
        board = self.session.board
        if command.bare and board.ply == 0:  # a take-back at the start: nothing to do
            self.send("info string undo: nothing to take back")
            return
        board.undo(command.count)

    def _go(self, command: cmd.Go) -> None:
        limits = self.session.search_limits(command.limits, command.searchmoves)
        job = _SearchJob(self, limits, hold=limits.infinite or limits.ponder)
        with self._job_lock:
            self.job = job
        job.start()

    def _stop(self, _: cmd.Stop) -> None:
        job = self.current_job()
        if job is not None:
            job.stop()

    def _ponderhit(self, _: cmd.PonderHit) -> None:
        job = self.current_job()
        if job is not None:
            job.ponderhit()

    def _display(self, _: cmd.Display) -> None:
        self.send_lines(list(self.session.board.display()))

    def _help(self, _: cmd.Help) -> None:
        self.send_lines([f"info string {text}" for text in cmd.COMMAND_HELP.values()])

    def _perft(self, command: cmd.Perft) -> None:
        self._blocking.set()
        try:
            lines = self.session.board.perft(command.depth)
        finally:
            self._blocking.clear()
        self.send_lines(list(lines))

    def _eval(self, _: cmd.Eval) -> None:
        self.send_lines(list(self.session.board.eval_lines(str(self.session.options["Eval"]))))

    def _bench(self, command: cmd.Bench) -> None:
        from .bench import run_bench
        self._blocking.set()
        try:
            run_bench(command.depth, self.send, evaluation=str(self.session.options["Eval"]),
                      hash_mb=int(self.session.options["Hash"]))
        finally:
            self._blocking.clear()
        engine = self.session.engine_if_built()
        if engine is not None:
            engine.new_game()



USAGE = """\
usage: python3 -m protocol [hub | --dxp [DXP OPTIONS] | --version | --help]
       (console script: draughts-engine)

Without options the engine speaks the text protocol of PROTOCOL.md on stdin/stdout:
one command per line (uci, isready, position, go, stop, quit, ...).
Hub mode: send "hub" as the first line, or start it as "python3 -m protocol hub" (as
Scan is started), and the engine speaks Hub v2, the protocol of Scan and the draughts
GUIs (PROTOCOL.md section 10).
DXP: "--dxp [--host 127.0.0.1] [--port 27531]" waits for DamExchange games over TCP
(PROTOCOL.md section 11; "python3 -m protocol --dxp --help" lists its options).

  --version   print the version and exit
  --help      print this text and exit"""


def _say(text: str, stream: Optional[TextIO], status: int) -> int:
    """Print ``text`` (a closed pipe or stream is no error) and return ``status``."""
    if stream is None:  # the stream was closed before the start (``2>&-``): say nothing
        return status
    try:
        print(text, file=stream, flush=True)
    except (BrokenPipeError, OSError, ValueError):
        pass
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``python3 -m protocol`` and ``draughts-engine``."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args:
        if args[0] in ("-h", "--help"):
            return _say(USAGE, sys.stdout, 0)
        if args[0] == "--version":
            return _say(f"{ENGINE_NAME} {__version__}", sys.stdout, 0)
        if args[0] == "--dxp":
            try:
                from .dxp import main as dxp_main
            except KeyboardInterrupt:  # Ctrl-C while it loads: 130, quietly (protocol.launch)
                return 130
            return dxp_main(args[1:])
        if args == ["hub"]:
            return _serve(hub=True)
        if args[0] == "hub":
            shown = cmd.show_token(" ".join(args[1:]))
            return _say(f"draughts-engine: hub takes no arguments, got '{shown}' (try --help)",
                        sys.stderr, 2)
        shown = cmd.show_token(args[0])
        return _say(f"draughts-engine: unknown option '{shown}' (try --help)", sys.stderr, 2)
    return _serve(hub=False)


def _serve(hub: bool) -> int:
    """Serve stdin/stdout until the end, then leave the process (see the end)."""
    sys.setswitchinterval(0.001)  # keep isready/stop answers prompt during a search
    if sys.stdout is None:  # started with stdout closed (``>&-``): nobody to answer
        os._exit(0)
    if sys.stderr is None:  # started with stderr closed (``2>&-``): diagnostics go nowhere
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)
    # Started with stdin closed (``<&-``): no command will come, as at the end of input.
    stdin = sys.stdin.buffer if sys.stdin is not None else io.BytesIO()
    server = Server(stdin, stdout, sys.stderr)
    try:
        status = server.run(hub=hub)
    except KeyboardInterrupt:
        status = 130
    except Exception as exc:  # the last guard: a bug ends the process with one line, no traceback
        _say(f"draughts-engine: internal error: {type(exc).__name__}: {cmd.show_token(str(exc))}",
             sys.stderr, 1)
        status = 1
    try:
        stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    # The reader thread may sit in a blocking read of stdin: leave without
    # waiting for it (a normal interpreter shutdown would trip over it).
    os._exit(status)
