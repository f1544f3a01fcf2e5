"""Adjudication of games that are decided or dead before their end, in fastchess's words.

Each rule is off unless asked for; a game it ends gets ``Termination "adjudication"``, an
``Adjudication`` tag naming the rule (:data:`KINDS`) and a comment saying why.

* ``--resign score=CP movecount=N [twosided=true]`` (:class:`ResignRule`): an engine whose own
  score (``info ... score``, the side to move's point of view, as the protocol has it) was
  ``-CP`` or worse for its last ``N`` moves in a row loses; with ``twosided=true`` only when
  the other engine's last ``N`` scores were ``+CP`` or better too.
* ``--draw movenumber=M movecount=N score=CP`` (:class:`DrawRule`): a game in which both
  engines' last ``N`` scores, each given on a move made after the first ``M`` full moves, were
  within ``CP`` of 0 is a draw.
* ``--adjudicate-tables``: a position the project's endgame databases
  (:class:`draughts_engine.endgame.EndgameTables`) hold ends with their result, before the
  side to move is asked for a move (so a 2-kings-against-1 opening ends at once).

A move without a score breaks a run of scores. A ``mate`` score counts as a score beyond any
``CP``. :class:`Adjudicator` holds the scores of one game.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from protocol.match.errors import MatchError, bounded_int, quoted

__all__ = ["KINDS", "ResignRule", "DrawRule", "Adjudicator", "Verdict", "parse_resign",
           "parse_draw", "endgame_tables", "score_of"]

KINDS = ("resign", "draw", "tables", "move cap")
"""The values of the ``Adjudication`` tag."""
MATE_CP = 1_000_000
"""What a ``mate`` score counts as (its sign kept)."""
MAX_CP = 100_000
MAX_COUNT = 10_000


@dataclass(frozen=True)
class ResignRule:
    """``--resign score=CP movecount=N [twosided=true]``."""

    score: int
    movecount: int
    twosided: bool = False

    def __str__(self) -> str:
        return (f"score={self.score} movecount={self.movecount}"
                + (" twosided=true" if self.twosided else ""))


@dataclass(frozen=True)
class DrawRule:
    """``--draw movenumber=M movecount=N score=CP``."""

    movenumber: int
    movecount: int
    score: int

    def __str__(self) -> str:
        return f"movenumber={self.movenumber} movecount={self.movecount} score={self.score}"


@dataclass(frozen=True)
class Verdict:
    """An adjudicated end: ``outcome`` white, black or draw; ``kind`` one of :data:`KINDS`."""

    outcome: str
    kind: str
    reason: str


def _keys(flag: str, tokens: Sequence[str], known: Sequence[str],
          required: Sequence[str]) -> Dict[str, str]:
    values: Dict[str, str] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        key = key.strip().lower()
        if not sep or key not in known:
            raise MatchError(f"{flag}: bad parameter {quoted(token)} (expected "
                             f"{', '.join(k + '=' for k in known)})")
        if key in values:
            raise MatchError(f"{flag}: {key}= given twice")
        values[key] = value.strip()
    missing = [key for key in required if key not in values]
    if missing:
        raise MatchError(f"{flag}: give {' and '.join(k + '=' for k in missing)}")
    return values


def parse_resign(tokens: Optional[Sequence[str]]) -> Optional[ResignRule]:
    """``--resign`` tokens (None: not given). Raises :class:`MatchError` naming the token.

    >>> str(parse_resign(["score=400", "movecount=3", "twosided=true"]))
    'score=400 movecount=3 twosided=true'
    """
    if tokens is None:
        return None
    values = _keys("--resign", tokens, ("score", "movecount", "twosided"),
                   ("score", "movecount"))
    twosided = values.get("twosided", "false").lower()
    if twosided not in ("true", "false"):
        raise MatchError(f"--resign: twosided must be true or false, got {quoted(twosided)}")
    return ResignRule(bounded_int(values["score"], "--resign score", 1, MAX_CP),
                      bounded_int(values["movecount"], "--resign movecount", 1, MAX_COUNT),
                      twosided == "true")


def parse_draw(tokens: Optional[Sequence[str]]) -> Optional[DrawRule]:
    """``--draw`` tokens (None: not given; ``movenumber`` defaults to 0).

    >>> str(parse_draw(["movecount=8", "score=5", "movenumber=30"]))
    'movenumber=30 movecount=8 score=5'
    """
    if tokens is None:
        return None
    values = _keys("--draw", tokens, ("movenumber", "movecount", "score"),
                   ("movecount", "score"))
    return DrawRule(bounded_int(values.get("movenumber", "0"), "--draw movenumber", 0,
                                MAX_COUNT),
                    bounded_int(values["movecount"], "--draw movecount", 1, MAX_COUNT),
                    bounded_int(values["score"], "--draw score", 0, MAX_CP))


_TABLES: Dict[str, Any] = {}
_TABLES_LOCK = threading.Lock()


def endgame_tables(variant: Any) -> Any:
    """The :class:`~draughts_engine.endgame.EndgameTables` of ``variant``, one per variant
    for the whole process (probing is thread-safe); :class:`MatchError` when the variant has
    none on disk."""
    with _TABLES_LOCK:
        tables = _TABLES.get(variant.name)
        if tables is None:
            from draughts_engine.endgame import EndgameTables  # only when asked for
            tables = _TABLES[variant.name] = EndgameTables(variant)
    if tables.max_pieces == 0:
        raise MatchError(f"--adjudicate-tables: no endgame databases for {variant.name} "
                         f"(tools/build_endgames.py builds them)")
    return tables


def score_of(infos: Sequence[Any]) -> Optional[int]:
    """The last score of a search's ``info`` reports (centi-units, side to move's view; a
    mate score as +/- :data:`MATE_CP`); None when no report had one."""
    for info in reversed(tuple(infos)):
        if getattr(info, "score_mate", None) is not None:
            return MATE_CP if info.score_mate > 0 else -MATE_CP
        if getattr(info, "score_cp", None) is not None:
            return int(info.score_cp)
    return None


def _other(side: str) -> str:
    return "black" if side == "white" else "white"


class Adjudicator:
    """The adjudication rules of a match, applied to one game: feed it each move's score
    (:meth:`scored`) and ask it before each move (:meth:`before_move`)."""

    def __init__(self, names: Dict[str, str], resign: Optional[ResignRule] = None,
                 draw: Optional[DrawRule] = None, tables: Any = None) -> None:
        self.names = names
        self.resign = resign
        self.draw = draw
        self.tables = tables
        self.scores: Dict[str, List[Optional[int]]] = {"white": [], "black": []}
        self.plies: Dict[str, List[int]] = {"white": [], "black": []}  # game ply after each

    def before_move(self, game: Any) -> Optional[Verdict]:
        """A verdict of the endgame databases on the position to move, if they hold it."""
        if self.tables is None:
            return None
        position = game.position
        if bin(position.white | position.black).count("1") > self.tables.max_pieces:
            return None
        found = self.tables.probe(position.white, position.black, position.kings,
                                  position.white_to_move, game.counters[-1].quiet_plies)
        if found is None:
            return None
        result, plies = found
        mover = "white" if position.white_to_move else "black"
        if result == 0:
            return Verdict("draw", "tables", "tables adjudication: the endgame databases "
                                             "hold this position as a draw")
        winner = mover if result > 0 else _other(mover)
        return Verdict(winner, "tables",
                       f"tables adjudication: the endgame databases hold this position as a "
                       f"win for {winner.capitalize()} ({self.names[winner]}) in {plies} "
                       f"plies")

    def scored(self, side: str, score: Optional[int], game: Any) -> Optional[Verdict]:
        """``side`` moved reporting ``score`` (None: none); a verdict once a rule holds."""
        self.scores[side].append(score)
        self.plies[side].append(game.ply)
        if self.resign is not None:
            for loser in (side, _other(side)):
                verdict = self._resigns(loser)
                if verdict is not None:
                    return verdict
        if self.draw is not None:
            return self._drawn(game)
        return None

    def _last(self, side: str, count: int) -> Optional[List[int]]:
        last = self.scores[side][-count:]
        if len(last) < count or any(s is None for s in last):
            return None
        return [s for s in last if s is not None]

    def _resigns(self, loser: str) -> Optional[Verdict]:
        rule = self.resign
        assert rule is not None
        own = self._last(loser, rule.movecount)
        if own is None or any(s > -rule.score for s in own):
            return None
        winner = _other(loser)
        if rule.twosided:
            theirs = self._last(winner, rule.movecount)
            if theirs is None or any(s < rule.score for s in theirs):
                return None
        both = " and its opponent's at least +%d" % rule.score if rule.twosided else ""
        return Verdict(winner, "resign",
                       f"resign adjudication: {loser.capitalize()} ({self.names[loser]}) "
                       f"scored {-rule.score} or less{both} for {rule.movecount} moves in a "
                       f"row (--resign {rule})")

    def _drawn(self, game: Any) -> Optional[Verdict]:
        rule = self.draw
        assert rule is not None
        for side in ("white", "black"):
            last = self._last(side, rule.movecount)
            if last is None or any(abs(s) > rule.score for s in last):
                return None
            # each of those moves made after move M (M full moves = 2 M plies before it)
            if self.plies[side][-rule.movecount] <= 2 * rule.movenumber:
                return None
        return Verdict("draw", "draw",
                       f"draw adjudication: both engines scored within {rule.score} of 0 for "
                       f"{rule.movecount} moves in a row after move {rule.movenumber} "
                       f"(--draw {rule})")


def describe(resign: Optional[ResignRule], draw: Optional[DrawRule],
             tables: bool) -> Tuple[str, ...]:
    """The rules that are on, for the header line."""
    parts = []
    if resign is not None:
        parts.append(f"resign {resign}")
    if draw is not None:
        parts.append(f"draw {draw}")
    if tables:
        parts.append("endgame tables")
    return tuple(parts)
