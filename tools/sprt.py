"""Test a change of the engine by SPRT: one git ref (or the working tree) against another.

    python3 tools/sprt.py --base main --new HEAD --variant english --tc 4+0.04
    python3 tools/sprt.py --base 7b85dfc --new WORKTREE --variant international --movetime 200 \\
        --elo0 0 --elo1 20 --pdn sprt.pdn --name "capture ordering"

Each ref is exported (``git archive``; ``WORKTREE``: a copy of this checkout's files, tracked
and untracked but not ignored, so that edits made while the test runs do not reach it) into a
temporary folder, and the match runner of this
checkout (``python3 -m protocol.match``) plays ``python3 -m protocol`` run in one folder
against the same run in the other (``cmd=`` and ``dir=``), from the variant's built-in balanced
openings (``--openings ballots``), each opening with both colours, as many games at once as
there are cores, until the SPRT accepts H0 or H1 (or ``--games`` are played).  ``WORKTREE``
names the files of this checkout as they are (uncommitted changes included); ``HEAD``, ``main``,
a tag or a hash name commits.

The runner runs under ``nice`` (``--nice``, default 10) so that other work on the machine
keeps its share; both engines share the load, so equal-time matches stay fair.  At the end a
Markdown row for BENCHMARKS.md is printed (change, games, W/D/L, Elo with its 95% interval,
the SPRT verdict, time control, variant, date and the load average).  An interrupted test
continues with the same command plus ``--resume`` (the PDN file holds every finished game);
an existing games file is never replaced unless ``--overwrite`` says so.

Stopping: Ctrl-C, SIGTERM or SIGHUP is passed on to the runner (SIGINT as SIGINT, the others
as SIGTERM; the runner runs in its own process group, so a Ctrl-C reaches it once, through this
script); the runner stops its engines and keeps the finished games, this script waits for it,
removes the exported trees and says so in one line. A second signal stops the runner at once.

Exit status: 0 when the match ended (whatever the verdict), 2 on bad usage (one line), or the
runner's status (130 when interrupted; 130 too when a signal came before the runner started).
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, List, Optional, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.usage import UsageError, UsageParser, run_program  # noqa: E402

WORKTREE = "WORKTREE"
"""The ref name that means this checkout's files as they are."""


class Interrupted(Exception):
    """A signal came before the runner was started: nothing to wait for."""


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))
"""The signals that stop a test (each passed on to the runner)."""


class SignalRelay:
    """Pass a stop signal on to the runner once it runs (SIGINT as SIGINT, SIGTERM and SIGHUP
    as SIGTERM, the runner's own clean stop); before that, raise :class:`Interrupted`.

    ``received`` is the first signal's number (None while there was none)."""

    def __init__(self) -> None:
        self.process: "Optional[subprocess.Popen[bytes]]" = None
        self.starting = False  # the runner is being started: a signal is passed on after
        self.received: Optional[int] = None

    def install(self) -> None:
        for signum in STOP_SIGNALS:
            signal.signal(signum, self)

    def __call__(self, signum: int, frame: Any) -> None:
        if self.received is None:
            self.received = signum
        if self.process is None:
            if self.starting:
                return  # passed on by started()
            raise Interrupted(signal.Signals(signum).name)
        self.forward(signum)

    def started(self, process: "subprocess.Popen[bytes]") -> None:
        """The runner runs: a signal that came while it was being started is passed on."""
        self.process = process
        if self.received is not None:
            self.forward(self.received)

    def forward(self, signum: int) -> None:
        process = self.process
        if process is not None and process.poll() is None:
            try:
                process.send_signal(signal.SIGINT if signum == signal.SIGINT else signal.SIGTERM)
            except OSError:  # it has just ended
                pass


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = UsageParser(prog="sprt.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="the reference: a git ref or WORKTREE "
                        "(default main)")
    parser.add_argument("--new", required=True, help="the change: a git ref, or WORKTREE for "
                        "this checkout's files as they are (required: a match may run for hours)")
    parser.add_argument("--variant", default="english")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--tc", help="a clock kept by the runner, [MOVES/]SECONDS[+INC] "
                       "(default 4+0.04)")
    limit.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move")
    limit.add_argument("--depth", type=int, help="fixed depth (no time: a check of behaviour)")
    limit.add_argument("--nodes", type=int, help="fixed node count per move")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--games", type=int, default=20000, help="at most this many games")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--openings", default="ballots",
                        help="opening set or file for the runner (default ballots)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the order of the openings")
    parser.add_argument("--pdn", help="the games (default: sprt-<variant>-<base>-<new>.pdn in "
                        "the current folder, kept for --resume)")
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument("--resume", action="store_true", help="continue the games of --pdn")
    keep.add_argument("--overwrite", action="store_true",
                      help="replace the games of an existing --pdn file (they are lost)")
    parser.add_argument("--name", help="the change's name in the Markdown row")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter of both engines (default: this one)")
    parser.add_argument("--new-option", action="append", default=[], metavar="NAME=VALUE",
                        help="setoption for the new engine (repeatable)")
    parser.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                        help="setoption for the base engine (repeatable)")
    parser.add_argument("--timemargin", type=int, default=500, metavar="MS",
                        help="overstep allowed before a time forfeit (default 500: a loaded "
                             "host delays processes)")
    parser.add_argument("--nice", type=int, default=10, help="niceness of the match (default 10)")
    parser.add_argument("--keep", action="store_true", help="keep the exported trees")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the runner's command line and stop")
    args = parser.parse_args(list(argv))
    if args.tc is None and args.movetime is None and args.depth is None and args.nodes is None:
        args.tc = "4+0.04"
    for name in ("movetime", "depth", "nodes", "games", "concurrency"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise UsageError(f"--{name} must be at least 1, got {value}")
    for option in args.new_option + args.base_option:
        if "=" not in option:
            raise UsageError(f"an option is NAME=VALUE, got {option!r}")
    return args


def git(*words: str) -> str:
    """Run git in this checkout; its output, stripped. Raises UsageError when git fails."""
    try:
        done = subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True,
                              check=False)
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        raise UsageError(f"git {' '.join(words)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def resolve(ref: str) -> str:
    """The commit hash of ``ref``, or WORKTREE."""
    if ref == WORKTREE:
        return WORKTREE
    return git("rev-parse", "--verify", "--quiet", ref + "^{commit}")


def copy_worktree(target: str) -> str:
    """Copy this checkout's files as they are (tracked, and untracked ones git does not ignore)
    into ``target``; the folder to run the engine in."""
    names = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in names:
        source = os.path.join(ROOT, name)
        if not name or not os.path.isfile(source):  # a tracked file deleted in the worktree
            continue
        destination = os.path.join(target, name)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copy2(source, destination)
    return target


def export(commit: str, folder: str) -> str:
    """The tree of ``commit`` (or a copy of this checkout for WORKTREE) as a folder to run
    the engine in."""
    if commit == WORKTREE:
        return copy_worktree(os.path.join(folder, "worktree"))
    target = os.path.join(folder, commit[:12])
    os.makedirs(target, exist_ok=True)
    archive = subprocess.Popen(["git", "archive", "--format=tar", commit], cwd=ROOT,
                               stdout=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", target], stdin=archive.stdout, check=False)
    archive.stdout.close()  # type: ignore[union-attr]
    if archive.wait() != 0 or untar.returncode != 0:
        raise UsageError(f"cannot export {commit[:12]} into {target}")
    return target


def limits_words(args: argparse.Namespace) -> List[str]:
    if args.tc is not None:
        return [f"tc={args.tc}"]
    if args.movetime is not None:
        return [f"movetime={args.movetime}"]
    if args.depth is not None:
        return [f"depth={args.depth}"]
    return [f"nodes={args.nodes}"]


def short(ref: str, commit: str) -> str:
    return "worktree" if commit == WORKTREE else f"{ref}@{commit[:7]}" if ref != commit else \
        commit[:7]


def runner_args(args: argparse.Namespace, new_dir: str, base_dir: str, new_name: str,
                base_name: str, pdn: str) -> List[str]:
    engine = f"cmd={args.python} -m protocol"
    limits = limits_words(args)
    words = ["--engine", f"name={new_name}", engine, f"dir={new_dir}", *limits]
    words += [f"option.{o.split('=', 1)[0]}={o.split('=', 1)[1]}" for o in args.new_option]
    words += ["--engine", f"name={base_name}", engine, f"dir={base_dir}", *limits]
    words += [f"option.{o.split('=', 1)[0]}={o.split('=', 1)[1]}" for o in args.base_option]
    words += ["--variant", args.variant, "--openings", args.openings, "--seed", str(args.seed),
              "--games", str(args.games), "--concurrency", str(args.concurrency),
              "--sprt", f"elo0={args.elo0:g}", f"elo1={args.elo1:g}", f"alpha={args.alpha:g}",
              f"beta={args.beta:g}", "--pdn", pdn, "--timemargin", str(args.timemargin)]
    words += ["--resume"] if args.resume else ["--overwrite"] if args.overwrite else []
    return words


def default_pdn(variant: str, base: str, new: str) -> str:
    """The games file when ``--pdn`` is not given: in the current folder, named after the
    variant and both commits, so that the same command with ``--resume`` finds it."""
    def part(commit: str) -> str:
        return "worktree" if commit == WORKTREE else commit[:7]

    return f"sprt-{variant}-{part(base)}-{part(new)}.pdn"


def markdown_row(args: argparse.Namespace, pdn: str, new_name: str, base_name: str,
                 load: float) -> Optional[str]:
    """The BENCHMARKS.md row of the finished match (None when no game was played)."""
    from protocol.match import read_records, summarize
    from protocol.match.elo import SprtConfig, format_elo, pentanomial_interval
    from protocol.match.report import sprt_state

    records = read_records(pdn, check_moves=False, keep_text=False).records
    if not records:
        return None
    stats = summarize(records, [new_name, base_name]).pairs[0]
    est = pentanomial_interval(stats.pentanomial)  # the games come in pairs (both colours)
    config = SprtConfig(args.elo0, args.elo1, args.alpha, args.beta)
    state = sprt_state(stats, config, paired=True)
    llr, verdict = state.llr, state.verdict
    verdict_text = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(verdict or "", "no decision")
    error = "inf" if est.error != est.error or est.error == float("inf") else f"{est.error:.1f}"
    name = args.name or f"{new_name} vs {base_name}"
    return (f"| {name} | {stats.games} | +{stats.wins} ={stats.draws} -{stats.losses} "
            f"(pairs {stats.pentanomial}) | "
            f"{format_elo(est.elo)} +/- {error} | [{args.elo0:g}, {args.elo1:g}] LLR {llr:.2f}, "
            f"{verdict_text} | {' '.join(limits_words(args))} | {args.variant} | "
            f"{time.strftime('%Y-%m-%d')}, load {load:.1f} |")


def run(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    base = resolve(args.base)
    new = resolve(args.new)
    new_name = "new-" + short(args.new, new)
    base_name = "base-" + short(args.base, base)
    pdn = os.path.abspath(args.pdn or default_pdn(args.variant, base, new))
    if not (args.resume or args.overwrite) and os.path.isfile(pdn) and os.path.getsize(pdn):
        message = (f"{pdn} already exists: add --resume to continue its games, or "
                   f"--overwrite to replace them")
        if not args.dry_run:
            raise UsageError(message)
        print(f"sprt.py: note: {message}", file=sys.stderr)  # (a dry run changes nothing)
    relay = SignalRelay()
    relay.install()
    folder = tempfile.mkdtemp(prefix="draughts-sprt-")
    try:
        new_dir = export(new, folder)
        base_dir = export(base, folder)
        words = runner_args(args, new_dir, base_dir, new_name, base_name, pdn)
        command = ["nice", "-n", str(args.nice), sys.executable, "-m", "protocol.match", *words]
        print("sprt.py: " + shlex.join(command), file=sys.stderr, flush=True)
        if args.dry_run:
            return 0
        # its own process group: a Ctrl-C at the terminal reaches it once, through the relay
        relay.starting = True
        runner = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
        relay.started(runner)
        code = runner.wait()  # (the relay's handler returns: the wait goes on)
        if relay.received is not None:
            print(f"sprt.py: stopped by {signal.Signals(relay.received).name}: the runner kept "
                  f"the finished games in {pdn} (continue with --resume)", file=sys.stderr)
            code = code or 130
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        if os.path.exists(pdn):
            row = markdown_row(args, pdn, new_name, base_name, load)
            if row is not None:
                print()
                print("| change | games | +W =D -L | Elo (95%) | SPRT | limits | variant | "
                      "date, load |")
                print("|---|---|---|---|---|---|---|---|")
                print(row)
        return code
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"sprt.py: trees kept in {folder}", file=sys.stderr)


def main(argv: Optional[Sequence[str]] = None) -> int:
    def run_until_signal(words: Sequence[str]) -> int:
        try:
            return run(words)
        except Interrupted as exc:
            print(f"sprt.py: stopped by {exc} before the match started", file=sys.stderr)
            return 130

    return run_program("sprt.py", run_until_signal, argv)


if __name__ == "__main__":
    sys.exit(main())
