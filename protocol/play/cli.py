"""``python3 -m protocol.play`` / ``draughts-play``: arguments, start-up and exit status.

Exit status: 0 after ``quit``, the end of input or the last game; 1 when an engine fails
during a game; 2 for bad usage (flags, values, paths, an engine that cannot be started), always
as one line on stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import dataclasses
import os
import signal
import sys
from typing import IO, Callable, List, Optional, Sequence

from draughts_engine.search.limits import InvalidLimitsError, SearchLimits

from protocol.usage import UsageError, UsageParser

from .clock import ClockSetting, ClockSettingError
from .controller import DEFAULT_LIMITS, GameController
from .players import LEVELS, EngineFailure, PlayerSpec, PlayerSpecError
from .records import (
    VARIANTS,
    LoadError,
    PlayError,
    canonical_variant,
    new_record,
    read_game_file,
)
from .render import Style, wants_colour
from .replay import ReplaySession, read_collection
from .terminal import QuitRequested, Series, TerminalSession

__all__ = ["main", "build_parser", "UsageError"]

PROG = "draughts-play"


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(
        prog=PROG,
        description="Play, watch and replay draughts (English, Russian, Brazilian, "
                    "International), tic-tac-toe and Tatedrez in the terminal, against our "
                    "engine or any engine command.",
        epilog="Players: human | engine | cmd:\"<engine command>\", then key=value words: "
               "proto=hub (a Hub engine such as Scan), name=<name>, level=1..12 "
               "or movetime=<ms>. Example: --white engine level=2 --black cmd:\"./scan hub\" "
               "proto=hub. Commands during a game: type help. docs/play.md has the guide.")
    parser.add_argument("--variant", default="english", metavar="NAME",
                        help=f"the game: {', '.join(VARIANTS)} (default english)")
    parser.add_argument("--white", nargs="+", metavar="PLAYER",
                        help="who plays White (X in tic-tac-toe)")
    parser.add_argument("--black", nargs="+", metavar="PLAYER",
                        help="who plays Black (O in tic-tac-toe)")
    parser.add_argument("--level", type=str, metavar="N",
                        help="engine strength 1..12: search N plies deep (default 6)")
    parser.add_argument("--movetime", type=str, metavar="MS",
                        help="engine time per move in milliseconds (instead of a level)")
    parser.add_argument("--fen", metavar="FEN", help="start from this position")
    parser.add_argument("--clock", metavar="TIME",
                        help="a clock for both sides: minutes+increment (5+3) or 'move S' "
                             "(seconds per move); engines play on it (go wtime/btime)")
    parser.add_argument("--load", metavar="FILE", help="start from a saved game (PDN) or a FEN")
    parser.add_argument("--game", type=str, metavar="N",
                        help="with --load or --replay: the N-th game of the file (default 1)")
    parser.add_argument("--delay", type=str, default="0", metavar="SECONDS",
                        help="computer against computer: pause between moves (default 0)")
    parser.add_argument("--games", type=str, default="1", metavar="N",
                        help="computer against computer: play N games, colours alternating")
    parser.add_argument("--save", metavar="FILE",
                        help="append every finished game to this PDN file")
    parser.add_argument("--flip", action="store_true", help="draw the board upside down")
    parser.add_argument("--replay", metavar="FILE.pdn",
                        help="step through the games of a PDN file instead of playing")
    parser.add_argument("--engine-log", metavar="FILE",
                        help="write every line exchanged with the engines to FILE")
    return parser


@dataclasses.dataclass
class Settings:
    variant: str
    white: PlayerSpec
    black: PlayerSpec
    limits: SearchLimits
    delay: float
    games: int
    game_number: int
    fen: Optional[str]
    clock: Optional[ClockSetting] = None


def _whole(text: Optional[str], what: str, low: int, high: Optional[int] = None) -> Optional[int]:
    if text is None:
        return None
    span = f"{low}..{high}" if high is not None else f"at least {low}"
    digits = text[1:] if text[:1] in "+-" else text
    if not text.isascii() or not digits.isdigit():
        raise UsageError(f"{what} must be a whole number, got {text!r}")
    if len(digits) > 9:
        raise UsageError(f"{what} must be {span}, got {text}")
    value = int(text)
    if value < low or (high is not None and value > high):
        raise UsageError(f"{what} must be {span}, got {value}")
    return value


def _players(args: argparse.Namespace, variant: str) -> List[PlayerSpec]:
    try:
        white = PlayerSpec.parse(args.white) if args.white else None
        black = PlayerSpec.parse(args.black) if args.black else None
    except PlayerSpecError as exc:
        raise UsageError(str(exc)) from None
    if white is None and black is None:
        first = new_record(variant).first_player  # the person makes the first move
        human, engine = PlayerSpec.human(), PlayerSpec.own_engine()
        return [human, engine] if first == "white" else [engine, human]
    if white is None:
        white = PlayerSpec.own_engine() if black.is_human else PlayerSpec.human()
    if black is None:
        black = PlayerSpec.own_engine() if white.is_human else PlayerSpec.human()
    return [white, black]


def settings_from(args: argparse.Namespace) -> Settings:
    """Check every flag's value; :class:`UsageError` with one line for the first bad one."""
    try:
        variant = canonical_variant(args.variant)
    except LoadError as exc:
        raise UsageError(str(exc)) from None
    level = _whole(args.level, "--level", LEVELS[0], LEVELS[-1])
    movetime = _whole(args.movetime, "--movetime", 1, 2 ** 31 - 1)
    if level is not None and movetime is not None:
        raise UsageError("give --level or --movetime, not both")
    try:
        limits = (SearchLimits(depth=level, movetime_ms=movetime)
                  if level is not None or movetime is not None else DEFAULT_LIMITS)
    except InvalidLimitsError as exc:
        raise UsageError(str(exc)) from None
    try:
        delay = float(args.delay)
    except ValueError:
        raise UsageError(f"--delay must be a number of seconds, got {args.delay!r}") from None
    if not 0 <= delay <= 3600 or delay != delay:
        raise UsageError(f"--delay must be 0..3600 seconds, got {args.delay!r}")
    games = _whole(args.games, "--games", 1, 100000) or 1
    game_number = _whole(args.game, "--game", 1) or 1
    white, black = _players(args, variant)
    if games > 1 and (white.is_human or black.is_human):
        raise UsageError("--games needs two engines (--white engine --black engine)")
    if args.fen and args.load:
        raise UsageError("give --fen or --load, not both")
    if args.replay and (args.fen or args.load):
        raise UsageError(f"--replay shows the games of its file: it takes no "
                         f"{'--fen' if args.fen else '--load'}")
    if args.game is not None and not (args.load or args.replay):
        raise UsageError("--game goes with --load or --replay")
    if args.save:
        _check_writable(args.save, "--save")
    if args.engine_log:
        _check_writable(args.engine_log, "--engine-log")
    clock = None
    if args.clock:
        try:
            clock = ClockSetting.parse(args.clock)
        except ClockSettingError as exc:
            raise UsageError(f"--clock: {exc}") from None
    return Settings(variant, white, black, limits, delay, games, game_number, args.fen, clock)


def _check_writable(path: str, what: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UsageError(f"{what} {path}: is a folder")
    if not os.path.isdir(folder):
        raise UsageError(f"{what} {path}: no such folder {folder}")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UsageError(f"{what} {path}: not writable")
    if not os.path.exists(path) and not os.access(folder, os.W_OK):
        raise UsageError(f"{what} {path}: cannot create files in {folder}")


def _read_text(path: str, what: str) -> str:
    try:
        return read_game_file(path)
    except LoadError as exc:
        raise UsageError(f"{what} {path}: {exc}") from None


def line_reader(stdin: IO[str], stdout: IO[str], interactive: bool) -> Callable[[str], str]:
    """A function ``prompt -> line`` (EOFError at the end of input).

    On a terminal it is :func:`input` with line editing; otherwise it reads ``stdin`` and
    echoes each line after its prompt, so that the output reads like a session.
    """
    if interactive:
        try:
            importlib.import_module("readline")  # line editing and history for input()
        except ImportError:
            pass
        raw_read: Callable[[str], str] = input
    else:
        def raw_read(prompt: str) -> str:
            stdout.write(prompt)
            stdout.flush()
            line = stdin.readline()
            if not line:
                raise EOFError
            line = line.rstrip("\r\n")
            stdout.write(line + "\n")
            stdout.flush()
            return line

    def read(prompt: str) -> str:
        while True:
            line = raw_read(prompt)
            if UNREADABLE not in line:
                return line
            encoding = getattr(stdin, "encoding", None) or "?"
            stdout.write(f"That line has characters that the input's encoding ({encoding}) "
                         f"cannot read; type it again.\n")
            stdout.flush()
    return read


#: What an undecodable byte of input reads as (see :func:`_tolerant_streams`).
UNREADABLE = "\ufffd"


def _tolerant_streams(*streams: IO[str]) -> None:
    """Undecodable input becomes U+FFFD (a line the reader refuses) and unencodable output a
    replacement character, instead of a UnicodeError that would end the game (a terminal or
    PYTHONIOENCODING with a narrow encoding such as ASCII)."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # closed, or a stream that cannot change now
                pass


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class SignalExit(SystemExit):
    """SIGTERM or SIGHUP arrived: the program ends with status 128 + the signal's number,
    through the finally blocks that reap the engines (and saves an unfinished game with
    ``--save``)."""


def _end_on_signal(signum: int, frame: object) -> None:
    raise SignalExit(128 + signum)


def main(argv: Optional[Sequence[str]] = None, stdin: Optional[IO[str]] = None,
         stdout: Optional[IO[str]] = None, stderr: Optional[IO[str]] = None) -> int:
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        settings = settings_from(args)
    except UsageError as exc:
        stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    previous = _install_signal_handlers()
    _tolerant_streams(stdin, stdout, stderr)
    interactive = _isatty(stdin)
    style = Style(wants_colour(stdout))
    read_line = line_reader(stdin, stdout, interactive)
    try:
        if args.replay:
            return _replay(args, settings, stdout, read_line, style)
        return _play(args, settings, stdout, stderr, read_line, style, interactive)
    except UsageError as exc:
        stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        stderr.write(f"{PROG}: interrupted\n")
        return 130
    except Exception as exc:  # a bug: one line, not a traceback
        stderr.write(f"{PROG}: internal error: {type(exc).__name__}: {exc}\n")
        return 1
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _install_signal_handlers() -> dict:
    """SIGTERM and SIGHUP end the program through its finally blocks (engines are reaped);
    returns the handlers they replace."""
    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        try:
            previous[signum] = signal.signal(signum, _end_on_signal)
        except ValueError:  # not the main thread: leave the handlers alone
            pass
    return previous

def _replay(args: argparse.Namespace, settings: Settings, stdout: IO[str],
            read_line: Callable[[str], str], style: Style) -> int:
    text = _read_text(args.replay, "--replay")
    try:
        games = read_collection(text, settings.variant, args.replay)
    except LoadError as exc:
        raise UsageError(str(exc)) from None
    if settings.game_number > len(games):
        raise UsageError(f"--game {settings.game_number}: {args.replay} has {len(games)} "
                         f"game(s)")
    return ReplaySession(games, stdout, read_line, style, args.flip).run(settings.game_number)


def _play(args: argparse.Namespace, settings: Settings, stdout: IO[str], stderr: IO[str],
          read_line: Callable[[str], str], style: Style, interactive: bool) -> int:
    log_file = open(args.engine_log, "a", encoding="utf-8") if args.engine_log else None

    def write_log(line: str) -> None:
        assert log_file is not None
        log_file.write(line + "\n")
        log_file.flush()
    engine_log = write_log if log_file is not None else None
    try:
        try:
            controller = GameController(settings.variant, settings.white, settings.black,
                                        settings.limits, args.fen, engine_log)
        except PlayError as exc:
            raise UsageError(f"--fen: {exc}" if args.fen else str(exc)) from None
        with controller:
            if args.load:
                try:
                    controller.load(args.load, settings.game_number)
                except LoadError as exc:
                    raise UsageError(f"--load: {exc}") from None
                except EngineFailure as exc:
                    raise UsageError(str(exc)) from None
            try:
                controller.start()
            except EngineFailure as exc:
                raise UsageError(str(exc)) from None
            _distinct_names(controller)
            session = TerminalSession(controller, stdout, read_line, style, interactive,
                                      live=_isatty(stdout), flipped=args.flip,
                                      delay=settings.delay, save_path=args.save,
                                      time_control=settings.clock)
            return _games(session, settings, stderr)
    finally:
        if log_file is not None:
            log_file.close()


def _distinct_names(controller: GameController) -> None:
    """Two engines with the same name get ``#1``/``#2`` so that scores and PDN tell them apart."""
    white, black = controller.player_name("white"), controller.player_name("black")
    if white == black and not controller.has_human():
        for side, suffix in (("white", " #1"), ("black", " #2")):
            controller.players[side] = dataclasses.replace(controller.players[side],
                                                           name=white + suffix)


def _games(session: TerminalSession, settings: Settings, stderr: IO[str]) -> int:
    controller = session.controller
    names = (controller.player_name("white"), controller.player_name("black"))
    series = Series(names)
    record = controller.record
    session.say(f"{record.title}: {record.side_names['white']} {names[0]}, "
                f"{record.side_names['black']} {names[1]}. Type help for commands.")
    try:
        for round_number in range(1, settings.games + 1):
            session.round = round_number
            if settings.games > 1:
                session.say(session.style.bold(
                    f"Game {round_number} of {settings.games}: "
                    f"{controller.player_name('white')} (White) - "
                    f"{controller.player_name('black')} (Black)"))
            outcome = session.play_game()
            series.add(controller.player_name("white"), controller.player_name("black"),
                       outcome)
            if settings.games > 1:
                session.say(series.line())
            if round_number < settings.games:
                controller.swap_sides()
                controller.new_game(settings.fen)  # each game of a series from --fen
    except QuitRequested as request:
        try:
            session.unsaved_game_left(can_ask=not request.end_of_input)
        except QuitRequested:
            pass
        return 0
    except EngineFailure as exc:
        session.say()
        stderr.write(f"{PROG}: engine failure: {exc}\n")
        for line in exc.transcript[-8:]:
            stderr.write(f"  {line}\n")
        if not _save_unfinished(session, stderr, "an engine failed"):
            try:
                session.unsaved_game_left(can_ask=True)
            except QuitRequested:
                pass
        return 1
    except SignalExit:
        session.say()
        stderr.write(f"{PROG}: ended by a signal\n")
        if not _save_unfinished(session, stderr, "the program was ended by a signal"):
            session.unsaved_game_left(can_ask=False)
        raise
    return 0


def _save_unfinished(session: TerminalSession, stderr: IO[str], why: str) -> bool:
    """With ``--save``, keep the game an engine failure or a signal cut short (its result
    ``*``): the moves played are not lost with the engine. Returns whether it was saved."""
    if session.save_path is None or session.controller.record.ply == 0 or \
            session.controller.result().is_over:
        return False
    try:
        session.controller.save(session.save_path, append=True,
                                tags={"Round": str(session.round),
                                      "Termination": f"unfinished: {why}"})
    except PlayError as exc:
        stderr.write(f"{PROG}: the unfinished game is not saved: {exc}\n")
        return False
    stderr.write(f"{PROG}: the unfinished game is saved to {session.save_path}\n")
    return True
