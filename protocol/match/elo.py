"""Match statistics: Elo difference with a confidence interval, likelihood of superiority, SPRT.

All functions take game counts from one player's point of view: ``wins``, ``draws``, ``losses``.
The Elo model is the logistic one (a score ``s`` means ``-400 * log10(1/s - 1)`` Elo).

* :func:`elo_interval` is the trinomial normal approximation cutechess-cli uses for its
  ``Elo difference: X +/- E``: the mean score and its standard error from the per-game scores,
  mapped through the logistic curve.
* :func:`los` is the likelihood of superiority, ``P(true Elo > 0)``, from wins and losses only
  (draws carry no information about who is stronger):
  ``0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))``.
* :func:`sprt_llr` is the generalised SPRT log-likelihood ratio of H1 (Elo = ``elo1``) against
  H0 (Elo = ``elo0``) for trinomial results (Michel Van den Bergh's GSPRT, as in fishtest's
  trinomial mode): the counts' likelihood under the maximum-likelihood win/draw/loss
  distributions whose mean scores are ``s1`` and ``s0``. :func:`sprt_llr_approx` is its usual
  quadratic approximation ``N * (s1 - s0) * (2 x - s0 - s1) / (2 var)`` (``x`` the mean score,
  ``var`` the per-game score variance).
  :func:`sprt_bounds` are Wald's bounds ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``.

Game pairs (one opening, colours swapped) are not independent games: the pentanomial model
(fishtest's, ``server/fishtest/stats/LLRcalc.py``) counts the pairs by the points the player
took from them, 0, 0.5, 1, 1.5 or 2 (:data:`PAIR_POINTS`). :func:`pentanomial_interval` is
the Elo with its interval from those counts (the per-game score of a pair is its points / 2;
its variance over pairs gives the standard error), and :func:`sprt_llr_pentanomial` the same
generalised SPRT as :func:`sprt_llr` over the five pair outcomes instead of the three game
outcomes (fishtest's ``LLR_logistic`` on pentanomial results: zero counts regularised to
0.001, the maximum-likelihood distributions of mean ``s0`` and ``s1``).
:func:`sprt_verdict` is the one test both models share.

>>> round(score_to_elo(0.75), 2)
190.85
>>> round(los(60, 0, 40), 4)
0.9772
>>> est = pentanomial_interval((1, 2, 10, 5, 2))
>>> (est.games, round(est.score, 4), round(est.elo, 1))
(40, 0.5625, 43.7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Dict, Optional, Sequence, Tuple

__all__ = [
    "score_to_elo",
    "elo_to_score",
    "EloEstimate",
    "elo_interval",
    "los",
    "SprtConfig",
    "sprt_llr",
    "sprt_llr_approx",
    "sprt_bounds",
    "sprt_status",
    "format_elo",
    "PAIR_POINTS",
    "SPRT_MODELS",
    "pentanomial_interval",
    "sprt_llr_pentanomial",
    "sprt_verdict",
]

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)
"""The points a player can take from a game pair, the order of pentanomial counts."""
SPRT_MODELS = ("auto", "pentanomial", "trinomial")
"""``--sprt model=``: ``auto`` is pentanomial when the games come in pairs (the runner's
default), trinomial otherwise."""


def score_to_elo(score: float) -> float:
    """Elo difference of a mean score in [0, 1] (``+inf``/``-inf`` at the ends)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its confidence interval (``low``, ``high``) at ``confidence``."""

    games: int
    score: float  # mean score per game, 0..1 (nan without games)
    elo: float
    low: float
    high: float
    confidence: float = 0.95

    @property
    def error(self) -> float:
        """Half the width of the interval (cutechess's ``+/-``); inf when a bound is infinite."""
        if math.isinf(self.high) or math.isinf(self.low):
            return math.inf
        return (self.high - self.low) / 2.0


def _estimate(scores: Sequence[float], counts: Sequence[int], games_each: int,
              confidence: float) -> EloEstimate:
    """Elo and interval from ``counts`` of units (games or pairs) scoring ``scores`` per game
    (0..1): the mean and the standard error of the units' scores, mapped to Elo."""
    n = sum(counts)
    if n == 0:
        nan = math.nan
        return EloEstimate(0, nan, nan, nan, nan, confidence)
    mu = sum(c * a for c, a in zip(counts, scores)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, scores)) / n
    stderr = math.sqrt(var / n)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    return EloEstimate(
        n * games_each, mu, score_to_elo(mu), score_to_elo(mu - z * stderr),
        score_to_elo(mu + z * stderr), confidence,
    )


def elo_interval(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """Elo difference and its ``confidence`` interval (trinomial normal approximation)."""
    return _estimate(_SCORES, (wins, draws, losses), 1, confidence)


def pentanomial_interval(pairs: Sequence[int], confidence: float = 0.95) -> EloEstimate:
    """Elo difference and its ``confidence`` interval from game pairs: ``pairs[i]`` pairs in
    which the player took :data:`PAIR_POINTS` ``[i]`` points (``games`` is twice the pairs)."""
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts are five numbers, got {len(pairs)}")
    return _estimate(_PAIR_SCORES, pairs, 2, confidence)


def los(wins: int, draws: int, losses: int) -> float:
    """Likelihood of superiority: P(the player is stronger); 0.5 without decisive games."""
    decisive = wins + losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))


@dataclass(frozen=True)
class SprtConfig:
    """``elo0``/``elo1``: the Elo of H0 and H1; ``alpha``/``beta``: the error rates;
    ``model``: one of :data:`SPRT_MODELS` (the counts the LLR is computed from)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "auto"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if not -2000.0 <= value <= 2000.0:
                raise ValueError(f"SPRT {name} must be in -2000..2000, got {value:g}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got elo0={self.elo0} elo1={self.elo1}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be in (0, 0.5), got {value}")
        if self.model not in SPRT_MODELS:
            raise ValueError(f"SPRT model must be {', '.join(SPRT_MODELS)}, got {self.model!r}")

    @classmethod
    def parse(cls, tokens: Sequence[str]) -> "SprtConfig":
        """From ``["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]`` (any subset, any order);
        the one parser of ``--sprt`` (match and merge). Raises ValueError naming the token.

        >>> str(SprtConfig.parse(["elo1=5", "alpha=0.1"]))
        'elo0=0 elo1=5 alpha=0.1 beta=0.05'
        """
        values: Dict[str, Any] = {}
        for token in tokens:
            key, sep, value = token.partition("=")
            key = key.strip().lower()
            shown = repr(token) if len(token) <= 40 else repr(token[:40]) + "..."
            if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise ValueError(f"bad SPRT parameter {shown} "
                                 f"(expected elo0=, elo1=, alpha=, beta=, model=)")
            if key == "model":
                values[key] = value.strip().lower()
                continue
            try:
                values[key] = float(value)
            except ValueError:
                raise ValueError(f"bad SPRT parameter {shown}: not a number") from None
        return cls(**values)

    def __str__(self) -> str:
        text = f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"
        return text if self.model == "auto" else text + f" model={self.model}"


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


_SCORES = (1.0, 0.5, 0.0)
_PAIR_SCORES = tuple(points / 2.0 for points in PAIR_POINTS)
_EPSILON = 1e-3  # stands in for a count of zero (fishtest's regularisation)


def _constrained_mle(probs: Tuple[float, ...], s: float,
                     scores: Tuple[float, ...]) -> Tuple[float, ...]:
    """The distribution over ``scores`` (per game, 0..1, at least one each side of ``s``)
    closest (in likelihood) to ``probs`` whose mean is ``s``: ``p_i / (1 + theta (a_i - s))``
    with ``theta`` found by bisection."""
    top, bottom = max(scores), min(scores)
    lo = -1.0 / (top - s) if s < top else -math.inf
    hi = 1.0 / (s - bottom) if s > bottom else math.inf
    lo, hi = lo + 1e-12 * abs(lo), hi - 1e-12 * abs(hi)

    def slope(theta: float) -> float:  # decreasing in theta
        return sum(p * (a - s) / (1.0 + theta * (a - s)) for p, a in zip(probs, scores))

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if slope(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2.0
    return tuple(p / (1.0 + theta * (a - s)) for p, a in zip(probs, scores))


def _gsprt_llr(counts: Sequence[int], scores: Tuple[float, ...], elo0: float,
               elo1: float) -> float:
    """The generalised SPRT LLR of outcome ``counts`` (each scoring ``scores``)."""
    if sum(counts) == 0:
        return 0.0
    regular = tuple(max(float(c), _EPSILON) for c in counts)
    total = sum(regular)
    probs = tuple(c / total for c in regular)
    p0 = _constrained_mle(probs, elo_to_score(elo0), scores)
    p1 = _constrained_mle(probs, elo_to_score(elo1), scores)
    return sum(c * math.log(b / a) for c, a, b in zip(regular, p0, p1))


def sprt_llr_pentanomial(pairs: Sequence[int], elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio of Elo ``elo1`` against ``elo0`` from game-pair
    counts (:data:`PAIR_POINTS` order; 0 without pairs)."""
    if len(pairs) != 5:
        raise ValueError(f"pentanomial counts are five numbers, got {len(pairs)}")
    return _gsprt_llr(pairs, _PAIR_SCORES, elo0, elo1)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio of Elo ``elo1`` against ``elo0`` (0 without games).

    Exact for trinomial results: the likelihood of the counts under the maximum-likelihood
    distribution with mean score ``s1`` over the one with mean ``s0``; a count of zero is
    taken as 0.001 so that, e.g., ``n`` straight wins give about ``n * ln(s1 / s0)``.
    """
    return _gsprt_llr((wins, draws, losses), _SCORES, elo0, elo1)


def sprt_llr_approx(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """The quadratic approximation ``N (s1 - s0) (2 x - s0 - s1) / (2 var)`` of
    :func:`sprt_llr` (good while the score is not extreme; 0 when every game scored the same)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    x = (wins + draws / 2.0) / n
    var = (wins * (1.0 - x) ** 2 + draws * (0.5 - x) ** 2 + losses * x ** 2) / n
    if var <= 0.0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var)


def sprt_status(wins: int, draws: int, losses: int,
                config: SprtConfig) -> Tuple[float, Optional[str]]:
    """``(llr, verdict)``: verdict ``"H0"``/``"H1"`` once a bound is reached, else None."""
    llr = sprt_llr(wins, draws, losses, config.elo0, config.elo1)
    return llr, sprt_verdict(llr, config)


def sprt_verdict(llr: float, config: SprtConfig) -> Optional[str]:
    """``"H0"``/``"H1"`` once ``llr`` reaches Wald's bound of ``config``, else None."""
    lower, upper = sprt_bounds(config.alpha, config.beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


def format_elo(value: float, digits: int = 1) -> str:
    """``+12.3``, ``-4.0``, ``+inf``, ``-inf``, ``nan``."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    text = f"{value:+.{digits}f}"
    return "+" + text[1:] if float(text) == 0 else text
