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

import dataclasses
import os
import queue
import sys
import threading
import traceback
from typing import BinaryIO, Callable, Dict, List, Optional, TextIO, Tuple, Union

from draughts_engine import __version__
from draughts_engine.search.limits import SearchInfo, SearchLimits

from . import commands as cmd
from .options import OptionError, Options
from .search_job import SearchJob
from .session import Session, SessionError, new_session

__all__ = ["Server", "main", "format_info"]

ENGINE_NAME = "draughts-engine"
ENGINE_AUTHOR = "the draughts-engine authors"
_EOF = object()
QUIT_WAIT = 0.8
"""Seconds ``quit`` waits for a search to write its own bestmove before writing one for it."""


def format_info(info: SearchInfo, pv: List[str]) -> str:
    """The ``info`` line of one search report."""
    if info.mate_in is not None:
        score = f"score mate {info.mate_in}"
    else:
        score = f"score cp {info.score_cp if info.score_cp is not None else 0}"
    line = (f"info depth {info.depth} seldepth {info.seldepth} {score} nodes {info.nodes} "
            f"nps {info.nps} time {info.time_ms} hashfull {info.hashfull}")
    return line + (" pv " + " ".join(pv) if pv else "")


class _SearchJob(SearchJob):
    """One ``go``: runs the search on its own thread and writes its ``bestmove``.

    ``bestmove`` is held back in infinite and ponder modes until :meth:`stop`
    or (ponder) :meth:`ponderhit`.
    """

    def __init__(self, server: "Server", limits: SearchLimits, hold: bool, bounded: bool) -> None:
        super().__init__(limits, hold, "search")
        self.server = server
        self.bounded = bounded  # ends by itself (depth, nodes, movetime or clock)

    def engine_ponderhit(self) -> None:
        engine = self.server.engine_if_created()
        if engine is not None:
            engine.ponderhit()

    def search(self) -> Tuple[Optional[str], Optional[str]]:
        server = self.server
        try:
            best, ponder = server.session.search(server.engine(), self.limits, self._report,
                                                 self.stop_event)
            return best, ponder
        except Exception:  # never leave a go without its bestmove
            traceback.print_exc(file=sys.stderr)
            legal = server.session.legal_texts()
            return (legal[0] if legal else None), None

    def final_line(self, best: Optional[str], ponder: Optional[str]) -> str:
        text = f"bestmove {best}" if best else "bestmove (none)"
        if best and ponder:
            text += f" ponder {ponder}"
        return text

    def finish(self, line: str) -> None:
        self.server.finish_search(self, line)

    def _report(self, info: SearchInfo, pv: List[str]) -> None:
        self.server.send(format_info(info, pv))


class Server:
    """The protocol server over binary stdin and text stdout."""

    def __init__(self, stdin: BinaryIO, stdout: TextIO, stderr: TextIO = sys.stderr) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.options = Options()
        self.session: Session = new_session("english")
        self._engine = None
        self._out_lock = threading.Lock()
        self._job_lock = threading.Lock()
        self.job: Optional[_SearchJob] = None
        self._lines: "queue.Queue[object]" = queue.Queue()
        self._blocking = threading.Event()  # perft/bench running on the dispatcher
        self._seen_command = False
        self._handlers: Dict[type, Callable] = {
            cmd.Uci: self._uci, cmd.IsReady: self._isready, cmd.SetOption: self._setoption,
            cmd.UciNewGame: self._ucinewgame, cmd.Position: self._position, cmd.Move: self._move,
            cmd.Undo: self._undo, cmd.Go: self._go, cmd.Stop: self._stop,
            cmd.PonderHit: self._ponderhit, cmd.Display: self._display, cmd.Perft: self._perft,
            cmd.Eval: self._eval, cmd.Bench: self._bench,
        }

    # ---- output ---------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one protocol line and flush; a closed stdout ends the process quietly."""
        with self._out_lock:
            try:
                self.stdout.write(line + "\n")
                self.stdout.flush()
            except (BrokenPipeError, ValueError, OSError):
                os._exit(0)

    def error(self, reason: str) -> None:
        self.send(f"error {reason}")

    # ---- engine -----------------------------------------------------------------
    def engine(self):
        """The search engine, created on first use (keeps start-up fast)."""
        if self._engine is None:
            from draughts_engine.search.engine import Engine
            self._engine = Engine(hash_mb=int(self.options["Hash"]),
                                  evaluation=str(self.options["Eval"]),
                                  algorithm=str(self.options["Search"]))
        return self._engine

    def engine_if_created(self):
        return self._engine

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
    def run(self) -> int:
        """Serve until ``quit`` or end of input; return the exit status (0)."""
        reader = threading.Thread(target=self._read_loop, name="reader", daemon=True)
        reader.start()
        while True:
            item = self._lines.get()
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
        item = self._lines.get()
        return None if item is _EOF else item  # type: ignore[return-value]

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
        if self.current_job() is not None and not command.allowed_during_search:
            self.error(f"busy: {command.word} during search")
            return False
        try:
            self._handlers[type(command)](command)
        except (SessionError, OptionError, cmd.CommandError) as exc:
            self.error(f"{command.word}: {exc}")
        except Exception as exc:  # a bug must not kill the server
            traceback.print_exc(file=self.stderr)
            self.error(f"{command.word}: internal error: {type(exc).__name__}: {exc}")
        return False

    # ---- exit ----------------------------------------------------------------------
    def _quit(self) -> None:
        job = self.current_job()
        if job is not None:
            job.end(QUIT_WAIT, self._fallback_move())

    def _end_of_input(self) -> None:
        job = self.current_job()
        if job is not None:
            if job.bounded:  # a search with its own limit may finish
                job.wait()
            else:  # infinite, ponder or a bare go would not end soon
                job.end(QUIT_WAIT, self._fallback_move())

    def _fallback_move(self) -> Tuple[Optional[str], None]:
        """What a search that does not stop in time plays: the first legal move."""
        legal = self.session.legal_texts()
        return (legal[0] if legal else None), None

    def _exit_now(self) -> None:
        try:
            self.stdout.flush()
        except (OSError, ValueError):
            pass
        os._exit(0)

    # ---- commands -------------------------------------------------------------------
    def _uci(self, _: cmd.Uci) -> None:
        for line in ([f"id name {ENGINE_NAME} {__version__}", f"id author {ENGINE_AUTHOR}",
                      f"id protocol {cmd.PROTOCOL_VERSION}"] + self.options.lines() + ["uciok"]):
            self.send(line)

    def _isready(self, _: cmd.IsReady) -> None:
        if self.current_job() is None and self._engine is None:
            self.engine()  # load the search now (UCI's moment for slow set-up), not at go
        self.send("readyok")

    def _setoption(self, command: cmd.SetOption) -> None:
        name, value = self.options.resolve(command.name, command.value)
        if name == "Variant":
            session = new_session(str(value))
            self.session = session
            if self._engine is not None:
                self._engine.new_game()
        elif self._engine is not None:
            if name == "Hash":
                self._engine.set_hash_size(int(value))
            elif name == "Eval":
                self._engine.set_evaluation(str(value))
            elif name == "Search":
                self._engine.set_algorithm(str(value))
        self.options.values[name] = value

    def _ucinewgame(self, _: cmd.UciNewGame) -> None:
        self.session = new_session(self.session.variant_name)
        if self._engine is not None:
            self._engine.new_game()

    def _position(self, command: cmd.Position) -> None:
        self.session.set_position(command.fen, command.moves)

    def _move(self, command: cmd.Move) -> None:
        self.session.play(command.moves)

    def _undo(self, command: cmd.Undo) -> None:
        self.session.undo(command.count)

    def _go(self, command: cmd.Go) -> None:
        limits = dataclasses.replace(command.limits,
                                     move_overhead_ms=int(self.options["MoveOverhead"]))
        algorithm = str(self.options["Search"])
        if algorithm != "pvs" and (limits.depth is None or limits.nodes is not None
                                   or limits.is_timed or limits.infinite or limits.ponder):
            raise SessionError(f"{algorithm} search supports only go depth N")
        job = _SearchJob(self, limits, hold=limits.infinite or limits.ponder,
                         bounded=limits.is_bounded)
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
        for line in self.session.display():
            self.send(line)

    def _perft(self, command: cmd.Perft) -> None:
        self._blocking.set()
        try:
            lines = self.session.perft(command.depth)
        finally:
            self._blocking.clear()
        for line in lines:
            self.send(line)

    def _eval(self, _: cmd.Eval) -> None:
        for line in self.session.eval_lines(str(self.options["Eval"])):
            self.send(line)

    def _bench(self, command: cmd.Bench) -> None:
        from .bench import run_bench
        self._blocking.set()
        try:
            run_bench(command.depth, self.send, evaluation=str(self.options["Eval"]),
                      hash_mb=int(self.options["Hash"]))
        finally:
            self._blocking.clear()
        if self._engine is not None:
            self._engine.new_game()



def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``python3 -m protocol`` and ``draughts-engine``."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print("usage: draughts-engine   (speaks the protocol of PROTOCOL.md on stdin/stdout)\n"
              "       draughts-engine --dxp [--host 127.0.0.1] [--port 27531]")
        return 0
    if args and args[0] == "--dxp":
        from .dxp import main as dxp_main
        return dxp_main(args[1:])
    sys.setswitchinterval(0.001)  # keep isready/stop answers prompt during a search
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)
    server = Server(sys.stdin.buffer, stdout)
    status = server.run()
    try:
        stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    # The reader thread may sit in a blocking read of stdin: leave without
    # waiting for it (a normal interpreter shutdown would trip over it).
    os._exit(status)
