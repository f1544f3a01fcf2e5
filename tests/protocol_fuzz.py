"""Random and mutated command lines for the server, with a model of what they must do.

Used by tests/test_server_fuzz.py (a few thousand lines) and bench/fuzz_protocol.py
(10,000 and more).  The model is the rules core itself: a line either is a valid
``position``/``move``/``undo``/``d``/``isready`` command whose effect the model applies
to a :class:`~draughts_engine.game.Game`, or it must be answered by exactly one
``error`` line and change nothing.
"""
from __future__ import annotations

import random
from typing import List, Optional, Tuple

from draughts_engine.errors import DraughtsError, UndoError
from draughts_engine.game import Game
from protocol import commands as cmd

TEMPLATES = (
    "position startpos",
    "position startpos moves 11-15 23-19 8-11",
    "position fen B:W21-32:B1-12 moves 9-13",
    "position fen W:W18,19,21,23,24,26,29,30,31,32:B1,2,3,5,6,7,9,10,11,12",
    "move 11-15",
    "move 23-19",
    "move 9-14 22-18",
    "undo",
    "undo 2",
    "d",
    "isready",
)
GARBAGE = ("", "foo", "position", "fen", "moves", "x", "-1", "99999999999999999999", "11-", "x15",
           "\x00", "é", "W:W33:B1", "B:W21-32", "undo -3", "move", "11x18x25", "c3-d4", "K", ":")


def mutate(rng: random.Random, line: str) -> str:
    """One random mutation: truncate, swap two tokens, drop or duplicate a token,
    insert garbage, change case, or leave as is."""
    tokens = line.split()
    kind = rng.randrange(8)
    if kind == 0 and line:
        return line[:rng.randrange(len(line))]
    if kind == 1 and len(tokens) > 1:
        i, j = rng.sample(range(len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 2 and tokens:
        del tokens[rng.randrange(len(tokens))]
    elif kind == 3 and tokens:
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(tokens))
    elif kind == 4:
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(GARBAGE))
    elif kind == 5:
        return line.upper()
    elif kind == 6:
        return " ".join(rng.choice(GARBAGE) for _ in range(rng.randint(1, 4)))
    return " ".join(tokens)


def make_lines(count: int, seed: int) -> List[str]:
    """``count`` lines, about half valid templates and half mutations."""
    rng = random.Random(seed)
    return [rng.choice(TEMPLATES) if rng.random() < 0.5 else mutate(rng, rng.choice(TEMPLATES))
            for _ in range(count)]


def expected_effect(game: Game, line: str) -> Tuple[Optional[Game], bool]:
    """(the game after ``line``, whether the line must be answered by an ``error``).

    Only the commands the generator produces are modelled; others count as errors
    if they do not parse."""
    try:
        command = cmd.parse_command(line)
    except cmd.CommandError:
        return game, True
    if command is None:
        return game, False
    if isinstance(command, cmd.SetPosition):
        try:
            fresh = Game("english", fen=command.fen) if command.fen else Game("english")
            fresh.push_all(command.moves)
        except DraughtsError:
            return game, True
        return fresh, False
    if isinstance(command, cmd.PlayMoves):
        try:
            game.push_all(command.moves)
        except DraughtsError:
            return game, True
        return game, False
    if isinstance(command, cmd.Undo):
        if command.bare and game.ply == 0:  # a notice (info string), not an error
            return game, False
        if command.count > game.ply:
            return game, True
        try:
            game.undo(command.count)
        except UndoError:
            return game, True
        return game, False
    return game, False  # d, isready and other harmless commands
