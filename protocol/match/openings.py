"""Openings for engine matches: built-in sets, files of FENs or PDN games, or generated lines.

An :class:`Opening` is a start position (FEN) plus the moves played from it. A match plays each
opening twice, colours swapped; the opening moves are part of the game record (and marked in
it), so a PDN game replays from its start position.

* :func:`builtin_openings` gives a built-in set (:data:`BUILTIN_SETS`, files under ``data/``
  that name their source in their header): the ACF three-move deck for English checkers, the
  IDF tables for Russian and Brazilian draughts, and a balanced set our own engine made for
  International draughts. ``ballots`` names the set of the match's variant.
* :func:`load_openings` reads a file. PDN (anything with a ``[`` tag or a ``.pdn`` name): one
  opening per game, its start position (the ``FEN`` tag or the variant's start) and its moves.
  Otherwise one opening per line: a FEN, optionally followed by moves (``[moves] m1 m2 ...``);
  blank lines and lines starting with ``#`` are skipped. A byte order mark at the start of
  either kind of file is skipped; in a PDN file, escape lines (``%`` in the first column) are
  ignored.
* :func:`generate_openings` plays ``plies`` random legal moves from the start position with a
  seeded generator, skipping lines whose game is already over and repeated end positions. The
  list is prefix-stable: asking for more openings with the same seed extends it.
* :func:`resolve_openings` is what ``--openings NAME`` does: a built-in set by name, else a file.
"""

from __future__ import annotations

import io
import os
import random
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.position import Position
from draughts_engine.variants import Variant, get_variant
from protocol.match.errors import MatchError
from protocol.match.records import read_game_text, split_games

__all__ = ["Opening", "OpeningError", "BuiltinSet", "BUILTIN_SETS", "BALLOTS", "load_openings",
           "generate_openings", "start_opening", "builtin_openings", "resolve_openings"]

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


class OpeningError(ValueError):
    """A bad openings file or request."""


@dataclass(frozen=True)
class Opening:
    """A start position and the moves (full PDN text) played from it."""

    fen: str
    moves: Tuple[str, ...] = ()
    label: str = ""

    def game(self, variant: Union[Variant, str]) -> Game:
        """A fresh :class:`Game` at the end of this opening."""
        game = Game(variant, fen=self.fen)
        game.push_all(self.moves)
        return game


def start_opening(variant: Union[Variant, str]) -> Opening:
    """The variant's start position with no moves."""
    v = get_variant(variant)
    return Opening(Game(v).start.fen(), (), "start position")


def _checked(opening: Opening, variant: Variant, where: str) -> Opening:
    try:
        game = opening.game(variant)
    except DraughtsError as exc:
        raise OpeningError(f"{where}: {exc}") from None
    if game.result().is_over:
        raise OpeningError(f"{where}: the game is already over after this opening "
                           f"({game.result().reason})")
    # normalise: canonical FEN and full move text
    return Opening(game.start.fen(), tuple(m.pdn() for m in game.moves), opening.label)


def load_openings(path: str, variant: Union[Variant, str]) -> List[Opening]:
    """Openings from a PDN file or a file of FEN lines (see the module docstring)."""
    v = get_variant(variant)
    try:
        with open(path, encoding="utf-8-sig") as handle:  # a byte order mark is skipped
            text = handle.read()
    except OSError as exc:
        raise OpeningError(f"cannot read openings file {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise OpeningError(f"openings file {path!r} is not UTF-8 text") from None
    is_pdn = path.lower().endswith(".pdn") or any(
        line.lstrip().startswith("[") for line in text.splitlines())
    openings: List[Opening] = []
    if is_pdn:
        number = 0
        try:
            for chunk in split_games(io.BytesIO(text.encode("utf-8")), path):
                if chunk.problem:
                    raise OpeningError(chunk.problem)
                for game in read_game_text(chunk, path, v):
                    number += 1
                    if game.variant.name != v.name:
                        raise OpeningError(f"{path}: game {number} is {game.variant.name}, "
                                           f"the match plays {v.name}")
                    opening = Opening(game.start.fen(), tuple(m.pdn() for m in game.moves),
                                      f"{path} game {number}")
                    openings.append(_checked(opening, v, f"{path}: game {number}"))
        except (DraughtsError, MatchError) as exc:
            raise OpeningError(str(exc)) from None
    else:
        for number, line in enumerate(text.splitlines(), 1):
            tokens = line.split()
            if not tokens or tokens[0].startswith("#") or line.startswith("%"):
                continue  # blank, a comment, or a PDN escape line (% in column 1)
            moves = tokens[1:]
            if moves and moves[0] == "moves":
                moves = moves[1:]
            opening = Opening(tokens[0], tuple(moves), f"{path}:{number}")
            openings.append(_checked(opening, v, f"{path}:{number}"))
    if not openings:
        raise OpeningError(f"{path}: no openings found")
    return openings


def generate_openings(variant: Union[Variant, str], plies: int, count: int,
                      seed: Union[int, str] = 1) -> List[Opening]:
    """``count`` openings of ``plies`` random legal moves each (see the module docstring).

    When the variant has fewer distinct lines than asked for (no new one in a long run of
    tries), the distinct ones found repeat.
    """
    v = get_variant(variant)
    if plies < 0:
        raise OpeningError(f"opening plies must be >= 0, got {plies}")
    if plies == 0 or count <= 0:
        return [start_opening(v)] * max(count, 0)
    rng = random.Random(f"draughts-match:{v.name}:{plies}:{seed}")
    start = Position.start(v)
    seen = set()
    openings: List[Opening] = []
    attempts = last_new = 0
    max_attempts = 50 * count + 1000
    while len(openings) < count and attempts < max_attempts:
        attempts += 1
        if attempts - last_new > max(2000, 4 * len(seen)):
            break  # no new line for a long time: (nearly) every distinct line is found
        position, line = start, []
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            line.append(moves[rng.randrange(len(moves))])
            position = position.play(line[-1])
        key = position.key()
        if len(line) < plies or key in seen:
            continue
        game = Game(v)
        game.push_all(line)
        if game.result().is_over:
            continue
        seen.add(key)
        last_new = attempts
        openings.append(Opening(game.start.fen(), tuple(m.pdn() for m in game.moves),
                                f"random {plies} plies #{len(openings) + 1}"))
    if not openings:
        raise OpeningError(f"no {plies}-ply opening of {v.name} leaves a game to play")
    while len(openings) < count:  # fewer distinct lines than asked for: cycle
        openings.append(openings[len(openings) % len(seen)])
    return openings



# --------------------------------------------------------------------------- built-in sets


@dataclass(frozen=True)
class BuiltinSet:
    """A built-in opening set: its ``name``, the variant it is for, its data file and what it is."""

    name: str
    variant: str
    filename: str
    description: str


BUILTIN_SETS: Dict[str, BuiltinSet] = {s.name: s for s in (
    BuiltinSet("acf-3move", "english", "english-acf-3move.txt",
               "the ACF three-move deck: 156 openings of English checkers"),
    BuiltinSet("idf-russian", "russian", "russian-idf.txt",
               "the IDF table of 745 openings of Russian draughts"),
    BuiltinSet("idf-brazilian", "brazilian", "brazilian-idf.txt",
               "the IDF table of 736 openings of Brazilian draughts"),
    BuiltinSet("balanced-international", "international", "international-balanced.txt",
               "4-ply openings of International draughts that our engine finds balanced"),
)}
"""The built-in sets by name; each data file names its source in its header."""

BALLOTS = {s.variant: s.name for s in BUILTIN_SETS.values()}
"""The set ``--openings ballots`` picks for each variant."""


def _parse_set_line(text: str, where: str) -> Tuple[str, str, Tuple[str, ...]]:
    """``label: [FEN] move move ...  # comment`` -> (label, fen or '', moves)."""
    body = text.split("#", 1)[0]
    label, sep, rest = body.partition(":")
    tokens = rest.split()
    if not sep or not label.strip() or not tokens:
        raise OpeningError(f"{where}: expected 'label: moves' or 'label: FEN'")
    fen = tokens.pop(0) if ":" in tokens[0] else ""
    return label.strip(), fen, tuple(tokens)


def builtin_openings(name: str, variant: Union[Variant, str],
                     seed: Optional[Union[int, str]] = None) -> List[Opening]:
    """The openings of a built-in set (``ballots``: the set of ``variant``), checked against
    the rules; in file order, or shuffled by ``seed`` (the same seed, the same order)."""
    v = get_variant(variant)
    key = BALLOTS.get(v.name, "") if name == "ballots" else name
    if key not in BUILTIN_SETS:
        known = ", ".join(["ballots"] + sorted(BUILTIN_SETS))
        raise OpeningError(f"no built-in opening set {name!r} for {v.name} (built-in: {known})")
    spec = BUILTIN_SETS[key]
    if spec.variant != v.name:
        raise OpeningError(f"opening set {key} is for {spec.variant}; the match plays {v.name}")
    path = os.path.join(DATA_DIR, spec.filename)
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise OpeningError(f"opening set {key}: cannot read {path}: "
                           f"{exc.strerror or exc}") from None
    start = Game(v).start.fen()
    openings: List[Opening] = []
    for number, line in enumerate(lines, 1):
        if not line.split("#", 1)[0].strip():
            continue
        where = f"{path}:{number}"
        label, fen, moves = _parse_set_line(line, where)
        openings.append(_checked(Opening(fen or start, moves, f"{key} {label}"), v, where))
    if seed is not None:
        random.Random(f"draughts-match:{key}:{seed}").shuffle(openings)
    return openings


def resolve_openings(name: str, variant: Union[Variant, str],
                     seed: Union[int, str] = 1) -> Tuple[List[Opening], str]:
    """``--openings NAME``: a built-in set (shuffled by ``seed``) or else a file; also the
    text the runner's header line shows for them."""
    v = get_variant(variant)
    if name == "ballots" or name in BUILTIN_SETS:
        openings = builtin_openings(name, v, seed)
        key = BALLOTS.get(v.name, name) if name == "ballots" else name
        return openings, f"{len(openings)} from the built-in set {key} (order: seed {seed})"
    if not os.path.exists(name):
        known = ", ".join(["ballots"] + sorted(BUILTIN_SETS))
        raise OpeningError(f"--openings {name}: no such file, and no built-in set of that name "
                           f"(built-in: {known})")
    openings = load_openings(name, v)
    return openings, f"{len(openings)} from {name}"
