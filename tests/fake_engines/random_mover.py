"""A fake engine that plays random LEGAL moves (rules from draughts_engine), for match tests.

The move is a deterministic function of the seed and the position command (start FEN and moves),
so two runs of the same match plan produce the same games. Misbehaviour can be switched on, each
decided by the same deterministic draw per search, so it hits the same games every run:

    random_mover.py [--seed S] [--name N] [--crash P] [--hang P] [--illegal P] [--think MS]
                    [--crash-at-start] [--bad-info] [--escapes]

``--crash P``: with probability P a search exits the process (status 3) instead of answering;
``--hang P``: a search never answers (and SIGTERM is ignored from then on); ``--illegal P``: a
search answers an illegal move; ``--think MS``: every search sleeps MS milliseconds first
(with a clock in ``go``, at most a tenth of the remaining time unless ``--overstep`` is given).
``--crash-at-start``: exit before answering ``uci`` (after a line on stderr).
``--bad-info``: each search also writes malformed ``info`` lines (``nps 7501.5``, ``depth x``).
``--escapes``: the crash message on stderr carries terminal escapes (a title, a screen clear).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from draughts_engine.game import Game  # noqa: E402
from draughts_engine.variants import get_variant, variant_names  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", default="0")
    parser.add_argument("--name", default="random-mover")
    parser.add_argument("--crash", type=float, default=0.0)
    parser.add_argument("--hang", type=float, default=0.0)
    parser.add_argument("--illegal", type=float, default=0.0)
    parser.add_argument("--think", type=int, default=0)
    parser.add_argument("--overstep", action="store_true")
    parser.add_argument("--crash-at-start", action="store_true")
    parser.add_argument("--bad-info", action="store_true")
    parser.add_argument("--escapes", action="store_true")
    parser.add_argument("--mute-after-newgame", action="store_true",
                        help="answer nothing after the first ucinewgame (a hung engine)")
    args = parser.parse_args()
    if args.crash_at_start:
        sys.stderr.write("random_mover: cannot start (--crash-at-start)\n")
        return 4

    variant = get_variant("english")
    fen = None
    moves: list = []
    game = Game(variant)
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        word = words[0]
        if word == "uci":
            say(f"id name {args.name}")
            say("id author the test suite")
            say("id protocol 1")
            say("option name Variant type combo default english "
                + " ".join(f"var {name}" for name in variant_names()))
            say("option name Hash type spin default 16 min 1 max 1024")
            say("uciok")
        elif word == "isready":
            say("readyok")
        elif word == "setoption":
            if len(words) >= 5 and words[2].lower() == "variant":
                try:
                    variant = get_variant(words[4])
                except ValueError:
                    say(f"error setoption: unknown variant {words[4]}")
                    continue
                fen, moves, game = None, [], Game(variant)
            elif len(words) >= 5 and words[2].lower() == "hash":
                if not words[4].isdigit() or not 1 <= int(words[4]) <= 1024:
                    say(f"error setoption: Hash must be in 1..1024, got {words[4]}")
            elif len(words) >= 3 and words[2].lower() not in ("variant", "hash"):
                say(f"error setoption: unknown option '{words[2]}'")
        elif word == "ucinewgame":
            fen, moves, game = None, [], Game(variant)
            if args.mute_after_newgame:
                for _line in sys.stdin:  # hung: reads on, answers nothing
                    pass
                return 0
        elif word == "position":
            if words[1:2] == ["startpos"]:
                new_fen, rest = None, words[2:]
            elif words[1:2] == ["fen"] and len(words) >= 3:
                new_fen, rest = words[2], words[3:]
            else:
                say("error position: expected startpos or fen")
                continue
            new_moves = rest[1:] if rest[:1] == ["moves"] else []
            try:
                if new_fen == fen and new_moves[:len(moves)] == moves:
                    game.push_all(new_moves[len(moves):])  # extend the cached game
                else:
                    fresh = Game(variant, fen=new_fen)
                    fresh.push_all(new_moves)
                    game = fresh
            except Exception as exc:  # noqa: BLE001 - any rules error is a protocol error
                say(f"error position: {exc}")
                continue
            fen, moves = new_fen, new_moves
        elif word == "go" and "mate" in words:
            say("error go: mate is not supported")
        elif word == "go":
            legal = sorted(m.pdn() for m in game.legal_moves())
            if "searchmoves" in words:  # the root moves given (up to the end: a test fake)
                legal = [m for m in legal if m in words[words.index("searchmoves") + 1:]] or legal
            rng = random.Random(f"{args.seed}|{variant.name}|{fen}|{' '.join(moves)}")
            draw = rng.random()
            if draw < args.crash:
                sys.stderr.write("\x1b]0;pwned\x07\x1b[2Jrandom_mover: simulated crash\n"
                                 if args.escapes else "random_mover: simulated crash\n")
                sys.stderr.flush()
                os._exit(3)
            draw -= args.crash
            if draw < args.hang:
                if hasattr(signal, "SIGTERM"):
                    signal.signal(signal.SIGTERM, signal.SIG_IGN)
                while True:
                    time.sleep(3600)
            draw -= args.hang
            if args.think:
                pause = args.think / 1000
                if "wtime" in words and not args.overstep:
                    clock = int(words[words.index("wtime" if game.position.white_to_move
                                                  else "btime") + 1])
                    pause = min(pause, clock / 10000)
                time.sleep(pause)
            if not legal:
                say("bestmove (none)")
            elif draw < args.illegal:
                say("bestmove 1-2")  # never legal: 1 and 2 are on the same row
            else:
                move = legal[rng.randrange(len(legal))]
                if args.bad_info:
                    say(f"info depth 1 nps 7501.5 score cp 3 pv {move}")
                    say("info depth x nodes 5")
                say(f"info depth 1 seldepth 1 score cp 0 nodes {len(legal)} nps 1000 time 1 "
                    f"hashfull 0 pv {move}")
                say(f"bestmove {move}")
        elif word == "quit":
            return 0
        elif word in ("stop", "ponderhit", "d", "eval"):
            pass
        else:
            say(f"error unknown command: {word}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
