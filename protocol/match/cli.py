"""The command line: ``draughts-match [flags]`` plays a match, ``draughts-match merge FILE ...``
prints the table of finished ones. Every bad flag, value, path or engine gets one line
``draughts-match: error: ...`` and exit status 2; no traceback reaches the user."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import IO, Any, Callable, List, NoReturn, Optional, Sequence, Tuple

from draughts_engine.variants import get_variant, variant_names
from protocol.match.adjudication import endgame_tables, parse_draw, parse_resign
from protocol.match.clock import MAX_CLOCK_MS
from protocol.match.config import MatchConfig
from protocol.match.config_file import config_argv, split_config_flag
from protocol.match.elo import SprtConfig
from protocol.match.engines import parse_engine
from protocol.match.errors import MatchError, bounded_int, quoted
from protocol.match.openings import (
    BALLOTS,
    BUILTIN_SETS,
    OpeningError,
    generate_openings,
    resolve_openings,
)
from protocol.match.plan import MAX_GAMES, TOURNAMENTS, parse_shard, shard_from_environment
from protocol.match.records import DuplicateFinder, FinishedGame, copy_games, read_records
from protocol.match.report import format_report
from protocol.match.runner import MatchRunner, describe_bug

__all__ = ["config_from_args", "merge_main", "main", "parse_sprt"]

MAX_OPENING_PLIES = 200
MAX_CONCURRENCY = 1024
MAX_SECONDS = 10 ** 6
MAX_SEED = 2 ** 63 - 1


class _Parser(argparse.ArgumentParser):
    """argparse that raises :class:`MatchError` instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise MatchError(f"{message} (see {self.prog} --help)")


def _int_in(low: int, high: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        try:
            return bounded_int(text, "the value", low, high)
        except MatchError:
            raise argparse.ArgumentTypeError(
                f"must be an integer in {low}..{high}, got {quoted(text, 20)}") from None
    return convert


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds in (0, {MAX_SECONDS}], got {quoted(text, 20)}")
    return value


def _match_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="draughts-match",
        description="Play engines against each other and write PDN. "
                    "'draughts-match merge A.pdn B.pdn ...' prints the table of finished matches.",
        epilog="Engine keys: name=, cmd=\"...\", dir=, proto=uci|hub|dxp (dxp: host=, port=), "
               "depth=N, nodes=N, "
               "movetime=MS, st=SECONDS, tc=[MOVES/]SECONDS[+INC], option.NAME=VALUE. "
               "Built-in opening sets: ballots (the set of the variant), "
               + ", ".join(sorted(BUILTIN_SETS)) + ".",
    )
    parser.add_argument("--config", metavar="FILE",
                        help="a JSON file of flags and engines (docs/match.md); the flags of "
                             "the command line win")
    parser.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                        help="an engine (give two or more)")
    parser.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                        help="keys applied to every engine (an engine's own keys win)")
    parser.add_argument("--variant", default="english",
                        help=f"english (default), {', '.join(variant_names()[1:])} or an alias")
    parser.add_argument("--tournament", default="round-robin", choices=TOURNAMENTS)
    parser.add_argument("--games", type=_int_in(1, MAX_GAMES), default=2,
                        help="games per pairing (pairs of games share an opening; default 2)")
    parser.add_argument("--concurrency", type=_int_in(1, MAX_CONCURRENCY),
                        default=os.cpu_count() or 1,
                        help="games played at once (default: the number of cores)")
    parser.add_argument("--openings", metavar="NAME|FILE",
                        help="a built-in opening set (ballots: the set of the variant; see "
                             "--list-openings), or a file of FENs (one a line) or PDN games")
    parser.add_argument("--list-openings", action="store_true",
                        help="list the built-in opening sets and exit")
    parser.add_argument("--opening-plies", type=_int_in(0, MAX_OPENING_PLIES), default=None,
                        metavar="N",
                        help="random openings of N plies (default 4; 0: the start position)")
    parser.add_argument("--seed", type=_int_in(0, MAX_SEED), default=1,
                        help="seed of the random openings and of the order of a built-in set "
                             "(a whole number; default 1)")
    parser.add_argument("--pdn", metavar="FILE", help="append each finished game to FILE")
    parser.add_argument("--jsonl", metavar="FILE",
                        help="write one JSON object per finished game (and per SPRT update) "
                             "to FILE as the match runs")
    parser.add_argument("--resume", action="store_true",
                        help="skip the games already in --pdn FILE and play the rest")
    parser.add_argument("--overwrite", action="store_true",
                        help="start --pdn FILE afresh even if it has games")
    parser.add_argument("--shard", default="1/1", metavar="K/N|auto[/N]",
                        help="play only the games whose index %% N == K-1; auto: K and N from "
                             "the job array's environment (Slurm, Kubernetes indexed Job, AWS "
                             "Batch, GitLab parallel, GNU parallel; auto/N when it lacks N)")
    parser.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                        help="elo0=0 elo1=10 alpha=0.05 beta=0.05 (the defaults; give any of "
                             "them): stop when H0 or H1 is accepted")
    parser.add_argument("--max-plies", type=_int_in(0, MAX_GAMES), default=400, metavar="N",
                        help="adjudicate a draw after N plies played by the engines "
                             "(after the opening; 0: no cap; default 400)")
    parser.add_argument("--resign", nargs="+", metavar="KEY=VALUE",
                        help="score=CP movecount=N [twosided=true]: an engine whose own score "
                             "was -CP or worse for N moves in a row loses (twosided: and its "
                             "opponent's +CP or better); off by default")
    parser.add_argument("--draw", nargs="+", metavar="KEY=VALUE",
                        help="movenumber=M movecount=N score=CP: a draw once both engines "
                             "scored within CP of 0 for N moves in a row after move M; off by "
                             "default")
    parser.add_argument("--adjudicate-tables", action="store_true",
                        help="a position the endgame databases hold ends with their result")
    parser.add_argument("--timemargin", type=_int_in(0, MAX_CLOCK_MS), default=200, metavar="MS",
                        help="overstep allowed on the clock or movetime before a time forfeit "
                             "(default 200)")
    parser.add_argument("--move-timeout", type=_seconds, default=120.0, metavar="S",
                        help="a search without a time limit (depth, nodes) that takes longer is "
                             "a forfeit (stalled; default 120)")
    parser.add_argument("--start-timeout", type=_seconds, default=20.0, metavar="S",
                        help="time for an engine to start and answer uci/isready (default 20)")
    parser.add_argument("--event", default="draughts-match", help="the PDN Event tag")
    parser.add_argument("--quiet", action="store_true",
                        help="no header, progress or per-game lines (errors and the table only)")
    return parser


def parse_sprt(tokens: Optional[Sequence[str]]) -> Optional[SprtConfig]:
    """``--sprt [KEY=VALUE ...]`` (match and merge alike); None when not given, the defaults
    for a bare ``--sprt``."""
    if tokens is None:
        return None
    try:
        return SprtConfig.parse(tokens)
    except ValueError as exc:
        raise MatchError(f"--sprt: {exc}") from None


def _openings(args: argparse.Namespace, variant: Any) -> Tuple[List[Any], str]:
    pairs_needed = (args.games + 1) // 2
    try:
        if args.openings:
            if args.opening_plies is not None:
                raise MatchError("give --openings NAME|FILE or --opening-plies N, not both")
            return resolve_openings(args.openings, variant, args.seed)
        plies = 4 if args.opening_plies is None else args.opening_plies
        openings = generate_openings(variant, plies, max(1, pairs_needed), args.seed)
        text = ("the start position" if plies == 0
                else f"{len(set(openings))} random {plies}-ply lines, seed {args.seed}")
        return openings, text
    except OpeningError as exc:
        raise MatchError(str(exc)) from None


def _with_config_files(argv: Sequence[str]) -> List[str]:
    """The command line with the flags of its ``--config`` files put first (so that its own
    flags win; its ``--engine`` flags replace the files' engines)."""
    paths, rest = split_config_flag(argv)
    if not paths:
        return rest
    parser = _match_parser()
    flags = {option[2:]: action for action in parser._actions
             for option in action.option_strings if option.startswith("--")}

    def check(words: List[str]) -> None:
        args = _match_parser().parse_args(words)
        parse_sprt(args.sprt)
        parse_resign(args.resign)
        parse_draw(args.draw)

    def check_engine(tokens: List[str], each: List[str], number: int) -> None:
        parse_engine(tokens, each, number)

    given_engines = any(word == "--engine" or word.startswith("--engine=") for word in rest)
    words: List[str] = []
    for path in paths:
        flags_of_file, engines = config_argv(path, flags, check, check_engine)
        words.extend(flags_of_file)
        if not given_engines:
            words.extend(engines)
    return words + rest


def config_from_args(argv: Sequence[str]) -> MatchConfig:
    """The :class:`MatchConfig` of a command line (without the program name)."""
    args = _match_parser().parse_args(_with_config_files(argv))
    if len(args.engine) < 2:
        raise MatchError("give at least two --engine")
    if args.resume and args.overwrite:
        raise MatchError("give --resume (continue the games of --pdn) or --overwrite (replace "
                         "them), not both")
    if args.overwrite and not (args.pdn or args.jsonl):
        raise MatchError("--overwrite needs --pdn FILE")

    try:
        variant = get_variant(args.variant)
    except ValueError as exc:
        raise MatchError(str(exc)) from None
    engines = [parse_engine(tokens, args.each, i + 1) for i, tokens in enumerate(args.engine)]
    if args.adjudicate_tables:
        endgame_tables(variant)  # no databases for the variant: one line, before any game
    openings, opening_text = _openings(args, variant)
    if args.shard.startswith("auto"):
        shard, shard_source = shard_from_environment(args.shard, os.environ)
    else:
        shard, shard_source = parse_shard(args.shard), ""
    return MatchConfig(
        engines=engines, variant=variant, tournament=args.tournament, games=args.games,
        openings=openings, opening_text=opening_text, concurrency=args.concurrency,
        pdn=args.pdn, resume=args.resume, overwrite=args.overwrite,
        shard=shard, shard_source=shard_source, sprt=parse_sprt(args.sprt), max_plies=args.max_plies,
        timemargin_ms=args.timemargin, move_timeout=args.move_timeout,
        start_timeout=args.start_timeout, event=args.event, quiet=args.quiet,
        resign=parse_resign(args.resign), draw=parse_draw(args.draw),
        adjudicate_tables=args.adjudicate_tables, jsonl=args.jsonl)


def list_openings(out: IO[str]) -> int:
    """``--list-openings``: one line per built-in set."""
    width = max(len(name) for name in BUILTIN_SETS)
    for name in sorted(BUILTIN_SETS):
        spec = BUILTIN_SETS[name]
        out.write(f"{name:<{width}}  {spec.variant:<13}  {spec.description}\n")
    out.write(f"{'ballots':<{width}}  {'(any)':<13}  the set of the match's variant: "
              + ", ".join(f"{v} {n}" for v, n in sorted(BALLOTS.items())) + "\n")
    return 0


def _describe(record: FinishedGame) -> str:
    where = f"{record.span[0]}: " if record.span is not None else ""
    return f"{where}Round {(record.index or 0) + 1} {record.white} vs {record.black}"


def merge_main(argv: Sequence[str], out: Optional[IO[str]] = None,
               err: Optional[IO[str]] = None) -> int:
    """``draughts-match merge A.pdn B.pdn ... [-o OUT.pdn [--overwrite]] [--sprt ...]``.

    A game found twice (same event, round, players, variant, result and moves) counts once;
    games that only share Event and Round are different games (of different matches, as a
    rule: a warning says so) and all count.
    """
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    parser = _Parser(
        prog="draughts-match merge",
        description="The combined table of PDN files written by draughts-match (e.g. shards). "
                    "A game found twice (same Event, Round, players, moves and result) is "
                    "counted once.")
    parser.add_argument("files", nargs="+", metavar="FILE.pdn")
    parser.add_argument("-o", "--output", metavar="OUT.pdn",
                        help="also write the combined games, in plan order")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace OUT.pdn even if it is not empty")
    parser.add_argument("--sprt", nargs="*", metavar="KEY=VALUE", help="report the SPRT LLR too")
    args = parser.parse_args(list(argv))
    sprt = parse_sprt(args.sprt)
    for path in args.files:
        if not os.path.exists(path):
            raise MatchError(f"{path}: no such file")
        if os.path.isdir(path):
            raise MatchError(f"{path} is a folder, not a PDN file")
    if args.output:
        if any(os.path.exists(args.output) and os.path.samefile(args.output, path)
               for path in args.files):
            raise MatchError(f"-o {args.output} is one of the files to merge")
        if os.path.isdir(args.output):
            raise MatchError(f"-o {args.output} is a folder, not a file")
        if (os.path.exists(args.output) and os.path.getsize(args.output) > 0
                and not args.overwrite):
            raise MatchError(f"{args.output} is not empty: use --overwrite to replace it")
    records: List[FinishedGame] = []
    finder = DuplicateFinder()
    duplicates = 0
    for path in args.files:
        contents = read_records(path, check_moves=False, keep_text=False)
        for problem in contents.problems:
            err.write(f"warning: skipped {problem}\n")
        if contents.problem_count > len(contents.problems):
            err.write(f"warning: skipped {contents.problem_count - len(contents.problems)} more "
                      f"game(s) of {path} that cannot be read\n")
        for record in contents.records:
            if finder.add(record):
                duplicates += 1
            else:
                records.append(record)
    if duplicates:
        err.write(f"warning: {duplicates} game(s) appear more than once (same event, round, "
                  f"players, moves and result); counted once\n")
    if finder.clashes:
        first, other = finder.clash_example or (None, None)
        clash_example = (f" (e.g. {_describe(first)} and {_describe(other)})"
                         if first is not None and other is not None else "")
        err.write(f"warning: {finder.clashes} game(s) share Event and Round with a different game"
                  f"{clash_example}: they look like games of different matches; all are "
                  f"counted (give each match its own --event to tell them apart)\n")
    records.sort(key=lambda r: (r.event, r.index is None, r.index or 0))
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
                copy_games(records, handle)
        except OSError as exc:  # opening, or writing (a full disk)
            raise MatchError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    events = sorted({r.event for r in records})
    err.write(f"Merged {len(records)} games from {len(args.files)} file(s)"
              + (f"; events: {', '.join(events)}" if len(events) > 1 else "") + "\n")
    err.flush()
    for line in format_report(records, (), sprt):
        out.write(line + "\n")
    out.flush()
    return 0


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``draughts-match``: the exit status (0 done, 1 internal error, 2 bad usage, an engine that
    cannot start or a file that cannot be written, 130 interrupted)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["merge"]:
            return merge_main(argv[1:])
        if "--list-openings" in argv:
            return list_openings(sys.stdout)
        config = config_from_args(argv)
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
            signal.signal(signal.SIGTERM, _raise_interrupt)
        return MatchRunner(config).run()
    except MatchError as exc:
        sys.stderr.write(f"draughts-match: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("draughts-match: interrupted\n")
        return 130
    except BrokenPipeError:
        try:  # the reader of stdout went away: say nothing more there
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug: one line, not a traceback
        sys.stderr.write(f"draughts-match: internal error: {describe_bug(exc)}\n")
        return 1
