"""Game review: how much each move lost by an engine's scores, and the marks it earns.

A review searches every position of a game (ply 0 .. n) under the same limits; each search
gives a score for the side to move and a best move. Scores are turned into centi-men from
White's view (a man is 100; a mate in N is :data:`MATE_CP` less N). The *loss* of the move
from position i-1 to position i is what its player's score dropped::

    loss = score(i-1) + score(i)        (both from the side to move's view, capped at ±CAP)

and a move is marked by the largest threshold its loss reaches (:data:`THRESHOLDS`):
inaccuracy 30, mistake 60, blunder 120 centi-men (a man given away for nothing is about 100,
a mistake; two men or a lost win, a blunder). Scores are capped at ±:data:`CAP` (10 men)
first, so that a won game played on does not fill up with marks.

The review goes into PDN as one comment after each move, a convention of this project
(lichess's PGN ``[%eval]`` command, in men, from White's view)::

    {[%eval 0.35]}                     the score after the move
    {[%eval -1.20] mistake; better 32-28}
    {[%eval #-3] blunder; better 9x18}  a mate in 3 for Black

:func:`review_comment` writes it, :func:`parse_review_comment` reads it back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["Score", "MoveReview", "THRESHOLDS", "CAP", "MATE_CP", "mark_of", "review_moves",
           "review_comment", "parse_review_comment", "summary", "white_view"]

MATE_CP = 10_000
CAP = 1000
THRESHOLDS: Tuple[Tuple[str, int], ...] = (("blunder", 120), ("mistake", 60),
                                           ("inaccuracy", 30))
"""The marks, the largest first, with the loss (centi-men) from which a move earns each."""

_EVAL = re.compile(r"\[%eval\s+(#?[-+]?\d+(?:\.\d+)?)\]\s*(?:(inaccuracy|mistake|blunder)"
                   r"(?:;\s*better\s+(\S+))?)?")


@dataclass(frozen=True)
class Score:
    """An engine's score from White's view: ``cp`` centi-men, or ``mate`` in moves (positive:
    White mates). ``best`` is the best move found in the position (canonical text), if any."""

    cp: Optional[int] = None
    mate: Optional[int] = None
    best: Optional[str] = None

    def as_cp(self) -> int:
        """Centi-men, a mate as :data:`MATE_CP` less its length (a sign for its winner)."""
        if self.mate is not None:
            return (MATE_CP - abs(self.mate)) * (1 if self.mate > 0 else -1)
        return self.cp or 0


@dataclass(frozen=True)
class MoveReview:
    """The review of the move that led to ``ply``: its ``loss`` (centi-men, >= 0), its
    ``mark`` (None, ``inaccuracy``, ``mistake`` or ``blunder``) and the ``better`` move (the
    engine's best in the position before, when the move is marked and was not that move)."""

    ply: int
    side: str
    loss: int
    mark: Optional[str]
    better: Optional[str]


def white_view(score_cp: Optional[int], mate: Optional[int], side: str
               ) -> Tuple[Optional[int], Optional[int]]:
    """An engine's score for the side to move (``side``) from White's view."""
    sign = 1 if side == "white" else -1
    return (None if score_cp is None else sign * score_cp,
            None if mate is None else sign * mate)


def mark_of(loss: int) -> Optional[str]:
    """The mark a move losing ``loss`` centi-men earns (see :data:`THRESHOLDS`)."""
    for name, threshold in THRESHOLDS:
        if loss >= threshold:
            return name
    return None


def _capped(value: int) -> int:
    return max(-CAP, min(CAP, value))


def review_moves(scores: Sequence[Score], moves: Sequence[str], first_side: str
                 ) -> List[MoveReview]:
    """The review of ``moves`` (canonical texts) from ``scores`` of the positions before and
    after each (``len(moves) + 1`` of them, White's view); ``first_side`` plays the first."""
    out: List[MoveReview] = []
    side = first_side
    for ply, move in enumerate(moves, 1):
        before, after = scores[ply - 1], scores[ply]
        sign = 1 if side == "white" else -1
        loss = max(0, sign * (_capped(before.as_cp()) - _capped(after.as_cp())))
        mark = mark_of(loss)
        better = before.best if mark and before.best and before.best != move else None
        out.append(MoveReview(ply, side, loss, mark, better))
        side = "black" if side == "white" else "white"
    return out


def review_comment(score: Score, review: Optional[MoveReview],
                   better_text: Optional[str] = None) -> str:
    """The comment of one reviewed move (see the module docstring); ``better_text`` shows the
    better move in the game's own notation (default: its canonical text)."""
    value = (f"#{score.mate}" if score.mate is not None
             else f"{(score.cp or 0) / 100:.2f}")
    text = f"[%eval {value}]"
    if review is not None and review.mark:
        text += f" {review.mark}"
        better = better_text or review.better
        if better:
            text += f"; better {better}"
    return text


def parse_review_comment(text: str) -> Optional[Tuple[Score, Optional[str], Optional[str], str]]:
    """``(score, mark, better, rest)`` of a comment written by :func:`review_comment` (``rest``:
    the comment's other text), or None when it holds no ``[%eval]``."""
    match = _EVAL.search(text)
    if match is None:
        return None
    value, mark, better = match.groups()
    if value.startswith("#"):
        score = Score(mate=int(value[1:]))
    else:
        score = Score(cp=round(float(value) * 100))
    rest = (text[:match.start()] + text[match.end():]).strip()
    return score, mark, better, rest


def summary(reviews: Sequence[MoveReview]) -> Dict[str, Dict[str, float]]:
    """Per side: ``moves``, ``average_loss`` (centi-men) and the count of each mark."""
    out: Dict[str, Dict[str, float]] = {}
    for side in ("white", "black"):
        mine = [r for r in reviews if r.side == side]
        counts: Dict[str, float] = {"moves": len(mine),
                                    "average_loss": round(sum(r.loss for r in mine) / len(mine))
                                    if mine else 0}
        for name, _ in reversed(THRESHOLDS):
            counts[name] = sum(1 for r in mine if r.mark == name)
        out[side] = counts
    return out
