"""Resume and merge on a large match file: how long ``--resume`` and ``merge`` take to read it.

Writes a PDN file of ``--games`` finished games (default 40,000) of a two-engine match, as
draughts-match writes them (every game's tags, ``{end of opening}``, the reason comment; each
game opens with the opening the plan gives it, as ``--resume`` checks, and goes on with random
legal moves, one movetext per distinct opening), then times, each in a fresh process:

* ``draughts-match ... --games N --pdn FILE --resume``: reads the file, finds every game of the
  plan done, prints the table (no engine is started);
* ``draughts-match merge FILE`` and ``merge FILE -o OUT`` (the second copies every game);

and prints a Markdown table of seconds and peak memory (max RSS of the process)::

    python3 bench/match_resume.py                    # 40,000 games
    python3 bench/match_resume.py --games 100000 --keep /tmp/big.pdn
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Tuple

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from protocol.match.openings import Opening, generate_openings  # noqa: E402
from protocol.match.records import game_text  # noqa: E402
from _cli import OneLineParser, positive_int  # noqa: E402

NAMES = ("alpha", "beta")
OPENING_PLIES = 4


def pool_of_games(openings: List[Opening], seed: int) -> Dict[Opening, Tuple[str, str, int]]:
    """A random legal English game from each of ``openings``: (movetext, result, plies)."""
    rng = random.Random(seed)
    pool = {}
    for opening in dict.fromkeys(openings):
        game = opening.game("english")
        while not game.result().is_over and game.ply < 160:
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
        state = game.result()
        result = state.score_text() if state.is_over else "1/2-1/2"
        text = game_text(game, {"Result": result}, "a reason for the end of the game",
                         OPENING_PLIES)
        pool[opening] = (text.split("\n\n")[1], result, game.ply)
    return pool


def write_match(path: str, games: int, openings: List[Opening],
                pool: Dict[Opening, Tuple[str, str, int]]) -> None:
    """``games`` games of the plan of alpha vs beta, in index order."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for index in range(games):
            opening = openings[index // 2]
            movetext, result, plies = pool[opening]
            white, black = NAMES if index % 2 == 0 else NAMES[::-1]
            out.write(f'[Event "bench"]\n[Site "?"]\n[Date "2026.11.23"]\n'
                      f'[Round "{index + 1}"]\n[White "{white}"]\n[Black "{black}"]\n'
                      f'[Result "{result}"]\n[GameType "21"]\n[Termination "normal"]\n'
                      f'[PlyCount "{plies}"]\n[WhiteLimits "depth=1"]\n'
                      f'[BlackLimits "depth=1"]\n[Opening "{opening.label}"]\n'
                      f'\n{movetext}\n\n')


def timed(args: List[str]) -> Tuple[float, float, str]:
    """Run ``python3 -m protocol.match ARGS``: seconds, peak RSS (MiB), last stdout line."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "protocol.match"] + args, cwd=ROOT,
                                stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak memory
        seconds = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            sys.exit(f"failed ({proc.returncode}): {' '.join(args)}\n{err.read()}")
        last = out.read().strip().splitlines()[-1]
    return seconds, usage.ru_maxrss / 1024, last  # ru_maxrss: KiB on Linux


def main(argv=None) -> int:
    parser = OneLineParser(prog="match_resume.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=positive_int, default=40000)
    parser.add_argument("--keep", metavar="FILE", help="write the match file here and keep it")
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="match-resume-")
    path = args.keep or os.path.join(folder, "big.pdn")
    started = time.monotonic()
    openings = generate_openings("english", OPENING_PLIES, (args.games + 1) // 2, 1)  # seed 1
    write_match(path, args.games, openings, pool_of_games(openings, 1))
    size = os.path.getsize(path)
    print(f"{args.games} games, {size / 2 ** 20:.1f} MiB, written in "
          f"{time.monotonic() - started:.1f} s: {path}", flush=True)
    mover = os.path.join(ROOT, "tests", "fake_engines", "random_mover.py")
    engines = []
    for name in NAMES:
        engines += ["--engine", f"name={name}", f"cmd={sys.executable} {mover}", "depth=1"]
    runs = [
        ("--resume (all games done)", engines + ["--games", str(args.games), "--event", "bench",
                                                 "--pdn", path, "--resume", "--quiet"]),
        ("merge", ["merge", path]),
        ("merge -o (copies every game)", ["merge", path, "-o", os.path.join(folder, "out.pdn")]),
    ]
    print("\n| command | games | seconds | peak RSS (MiB) |\n|---|---|---|---|")
    for label, run_args in runs:
        seconds, peak, last = timed(run_args)
        print(f"| {label} | {args.games} | {seconds:.1f} | {peak:.0f} |", flush=True)
    print(f"\nlast line: {last}\n{time.strftime('%Y-%m-%d')}; python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
