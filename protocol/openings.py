"""Openings for engine matches: read from a file of FENs or PDN games, or generated from the rules.

An :class:`Opening` is a start position (FEN) plus the moves played from it. A match plays each
opening twice, colours swapped; the opening moves are part of the game record, so a PDN game
replays from its start position.

* :func:`load_openings` reads a file. PDN (anything with a ``[`` tag or a ``.pdn`` name): one
  opening per game, its start position (the ``FEN`` tag or the variant's start) and its moves.
  Otherwise one opening per line: a FEN, optionally followed by moves (``[moves] m1 m2 ...``);
  blank lines and lines starting with ``#`` are skipped.
* :func:`generate_openings` plays ``plies`` random legal moves from the start position with a
  seeded generator, skipping lines whose game is already over and repeated end positions. The
  list is prefix-stable: asking for more openings with the same seed extends it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import List, Tuple, Union

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.pdn import read_games
from draughts_engine.variants import Variant, get_variant

__all__ = ["Opening", "OpeningError", "load_openings", "generate_openings", "start_opening"]


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
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise OpeningError(f"cannot read openings file {path!r}: {exc.strerror or exc}") from None
    is_pdn = path.lower().endswith(".pdn") or any(
        line.lstrip().startswith("[") for line in text.splitlines())
    openings: List[Opening] = []
    if is_pdn:
        try:
            games = read_games(text, v, source=path)
        except DraughtsError as exc:
            raise OpeningError(str(exc)) from None
        for number, game in enumerate(games, 1):
            if game.variant.name != v.name:
                raise OpeningError(f"{path}: game {number} is {game.variant.name}, "
                                   f"the match plays {v.name}")
            opening = Opening(game.start.fen(), tuple(m.pdn() for m in game.moves),
                              f"{path} game {number}")
            openings.append(_checked(opening, v, f"{path}: game {number}"))
    else:
        for number, line in enumerate(text.splitlines(), 1):
            tokens = line.split()
            if not tokens or tokens[0].startswith("#"):
                continue
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

    When the variant has fewer distinct lines than asked for, the distinct ones repeat.
    """
    v = get_variant(variant)
    if plies < 0:
        raise OpeningError(f"opening plies must be >= 0, got {plies}")
    if plies == 0 or count <= 0:
        return [start_opening(v)] * max(count, 0)
    rng = random.Random(f"draughts-match:{v.name}:{plies}:{seed}")
    seen = set()
    openings: List[Opening] = []
    attempts = 0
    max_attempts = 50 * count + 1000
    while len(openings) < count and attempts < max_attempts:
        attempts += 1
        game = Game(v)
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(moves[rng.randrange(len(moves))])
        if game.ply < plies or game.result().is_over:
            continue
        key = game.position.key()
        if key in seen:
            continue
        seen.add(key)
        openings.append(Opening(game.start.fen(), tuple(m.pdn() for m in game.moves),
                                f"random {plies} plies #{len(openings) + 1}"))
    if not openings:
        raise OpeningError(f"no {plies}-ply opening of {v.name} leaves a game to play")
    while len(openings) < count:  # fewer distinct lines than asked for: cycle
        openings.append(openings[len(openings) % len(seen)])
    return openings

