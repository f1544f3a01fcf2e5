"""Static evaluation: the evaluations by name, and the one door to them (:func:`evaluator`).

An evaluation is a function ``(white, black, kings, white_to_move) -> int`` over a raw
position (see :mod:`..movegen`), in centi-men (a man is 100) from the side to move's point
of view.  It is built once per variant and evaluation name, with every mask and table
precomputed; nothing in the hot code reads or writes module state.

Evaluations, looked up by name with :func:`evaluator` (the values of the ``Eval`` option):

``full`` (default)
    the tuned linear model of :mod:`.tuned` (material, exchange, tapered piece-square
    tables of men, kings' squares, mobility, safety, balance, runaway men; weights fitted
    on self-play games, read from ``draughts_engine/data/weights-<variant>.json`` on first
    use) plus the king-ending knowledge of :mod:`.terms`; a variant without a weights file
    gets ``hand``.
``hand``
    the hand-set evaluation of :mod:`.handset` (material, exchange, back rank, centre,
    safety, mobility, advancement, runaway men, king endings).
``classic``
    the textbook weighted count of :mod:`.classic`.

The all-squares boards (Turkish) have evaluations of their own (:mod:`.allsquares`), and the
variants with another goal get theirs (:mod:`.goals`: antidraughts turns the sign,
breakthrough races to the first king), under the same names.

The modules: :mod:`.terms` (board tables, king endings and the terms the evaluations share),
:mod:`.handset`, :mod:`.tuned`, :mod:`.classic`, :mod:`.allsquares`, :mod:`.goals`.

``Evaluator.explain`` lists ``(term, value)`` pairs whose sum is exactly the evaluation.
Module helpers :func:`evaluate` and :func:`explain` take a :class:`~..position.Position`.

>>> from draughts_engine.position import Position
>>> p = Position.from_fen("W:WK28:B3", "international")
>>> dict(explain(p))["material"] == p.variant.king_value - MAN_VALUE
True
>>> evaluate(p) == sum(value for _, value in explain(p))
True
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

from ..errors import DraughtsError
from ..variants import CROWN_GOAL, LOSE_GOAL, Variant, get_variant
from .classic import build_classic
from .goals import build_race, for_losing
from .handset import build_handset
from .terms import MAN_VALUE

__all__ = ["Evaluator", "UnknownEvaluationError", "evaluator", "evaluation_names", "evaluation_key",
           "evaluate", "explain", "EVALUATIONS", "MAN_VALUE"]

RawEval = Callable[[int, int, int, bool], int]
Terms = List[Tuple[str, int]]
Build = Callable[[Variant], Callable[..., object]]


class UnknownEvaluationError(DraughtsError):
    """Raised for an evaluation name that is not in :data:`EVALUATIONS`."""


class Evaluator:
    """One evaluation function for one variant.

    ``evaluate(white, black, kings, white_to_move) -> int`` is the hot entry
    point (a plain function attribute); ``explain(...)`` returns the terms.
    Build instances through :func:`evaluator` (they are cached and immutable).
    """

    def __init__(self, name: str, variant: Variant, function: Callable[..., object]) -> None:
        self.name = name
        self.variant = variant
        self._function = function
        self.evaluate: RawEval = function  # type: ignore[assignment]

    def explain(self, white: int, black: int, kings: int, white_to_move: bool) -> Terms:
        """``(term, value)`` pairs, side to move's view; their sum is ``evaluate(...)``."""
        return self._function(white, black, kings, white_to_move, True)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"evaluator({self.name!r}, {self.variant.name!r})"


def _build_tuned(variant: Variant) -> Callable[..., object]:
    from .tuned import build_tuned  # the module and its weights: on first use, not at import
    return build_tuned(variant)


EVALUATIONS: Dict[str, Build] = {
    "full": _build_tuned,
    "hand": build_handset,
    "classic": build_classic,
}
"""The evaluations of the diagonal boards by name, the default first."""

_CACHE: Dict[Tuple[str, str], Evaluator] = {}


def evaluation_names() -> Tuple[str, ...]:
    """Names accepted by :func:`evaluator`, the default first."""
    return tuple(EVALUATIONS)


def evaluation_key(name: str) -> str:
    """The registered form of an evaluation name (stripped, lower case), without building
    anything; raises :class:`UnknownEvaluationError` for an unknown name."""
    key_name = name.strip().lower() if isinstance(name, str) else name
    if key_name not in EVALUATIONS:
        raise UnknownEvaluationError(
            f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})")
    return key_name  # type: ignore[return-value]


def _builder(key_name: str, variant: Variant) -> Build:
    """The builder of evaluation ``key_name`` for ``variant``'s board and goal."""
    build = EVALUATIONS[key_name]
    if variant.all_squares:
        from .allsquares import ALLSQUARES_EVALUATIONS
        # their hand-set evaluation is also their "full" (no tuned weights for them yet)
        build = ALLSQUARES_EVALUATIONS.get(key_name, ALLSQUARES_EVALUATIONS["hand"])
    if variant.goal == CROWN_GOAL:
        return build_race
    if variant.goal == LOSE_GOAL:
        return for_losing(build)
    return build


def evaluator(name: str = "full", variant: "Variant | str" = "english") -> Evaluator:
    """The (cached) evaluator called ``name`` for ``variant`` (built, and its weights read,
    on the first call for that pair).

    Raises :class:`UnknownEvaluationError` for an unknown name.
    """
    key_name = evaluation_key(name)
    v = get_variant(variant)
    cached = _CACHE.get((key_name, v.name))
    if cached is None:
        build = _builder(key_name, v)
        cached = _CACHE[(key_name, v.name)] = Evaluator(key_name, v, build(v))
    return cached


def evaluate(position, name: str = "full") -> int:
    """Evaluation of a :class:`~..position.Position` for its side to move."""
    return evaluator(name, position.variant).evaluate(*position.raw)


def explain(position, name: str = "full") -> Terms:
    """Terms of the evaluation of a position; their sum equals :func:`evaluate`."""
    return evaluator(name, position.variant).explain(*position.raw)
