"""The match table: per pairing wins/draws/losses, score, Elo with its 95% interval and the
likelihood of superiority; the game pairs of each pairing (pentanomial counts: the points the
first engine took from each opening played with both colours) with the Elo and interval they
give; per engine totals with more than two engines; terminations (adjudications by kind) and
forfeits; the SPRT lines (pentanomial when the games come in pairs, and trinomial); and the
one-line summary cutechess-cli users expect last
(``Score of A vs B: W - L - D [score] N, Elo ...``)."""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from protocol.match.elo import (PAIR_POINTS, SprtConfig, elo_interval, format_elo, los,
                                pentanomial_interval, sprt_bounds, sprt_llr,
                                sprt_llr_pentanomial, sprt_verdict)
from protocol.match.records import FORFEITS, TERMINATIONS, FinishedGame

__all__ = ["PairStats", "Summary", "SprtState", "points", "summarize", "percent",
           "score_line", "sprt_state", "format_report"]


@dataclass
class PairStats:
    """Results of ``first`` against ``second``, from ``first``'s point of view."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    order: float = math.inf
    pentanomial: List[int] = field(default_factory=lambda: [0] * len(PAIR_POINTS))
    """Game pairs by the points ``first`` took from them (:data:`~.elo.PAIR_POINTS` order)."""
    halves: Dict[int, Tuple[str, str, float]] = field(default_factory=dict, repr=False)
    """Games waiting for the other game of their pair: ``index // 2`` -> (white, black,
    ``first``'s points)."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        """Complete game pairs counted in :attr:`pentanomial`."""
        return sum(self.pentanomial)

    def add_game(self, record: FinishedGame) -> None:
        """Count a game of ``first``: its result, and its pair once the other game of the
        pair (plan indexes ``2k`` and ``2k + 1``: one opening, the same two engines with the
        colours swapped) is counted too."""
        own = points(record, self.first)
        self.add(own)
        if record.index is None:
            return
        key = record.index // 2
        other = self.halves.pop(key, None)
        if other is None:
            self.halves[key] = (record.white, record.black, own)
        elif (other[0], other[1]) == (record.black, record.white):
            self.pentanomial[int(round(2 * (other[2] + own)))] += 1

    def add(self, points_first: float) -> None:
        if points_first == 1.0:
            self.wins += 1
        elif points_first == 0.0:
            self.losses += 1
        else:
            self.draws += 1


@dataclass
class Summary:
    pairs: List[PairStats]
    engines: Dict[str, PairStats]           # per engine, second = "all"
    terminations: Dict[str, int]
    forfeits: Dict[Tuple[str, str], int]    # (termination, loser) -> games
    adjudications: Dict[str, int] = field(default_factory=dict)  # kind -> games


def points(record: FinishedGame, player: str) -> float:
    """What ``player`` scored in the game (1, 0.5 or 0)."""
    if record.outcome == "draw":
        return 0.5
    winner = record.white if record.outcome == "white" else record.black
    return 1.0 if winner == player else 0.0


def summarize(records: Sequence[FinishedGame], engine_order: Sequence[str] = ()) -> Summary:
    """Tables from records. A pairing's first engine is the one with White in its even-index
    games (the plan's order), so sharded and whole matches give the same orientation."""
    ordered = sorted(records, key=lambda r: (r.index is None, r.index or 0))
    pairs: Dict[frozenset, PairStats] = {}
    engines: Dict[str, PairStats] = {name: PairStats(name, "all") for name in engine_order}
    terminations: Dict[str, int] = collections.Counter()
    forfeits: Dict[Tuple[str, str], int] = collections.Counter()
    adjudications: Dict[str, int] = collections.Counter()
    for position, record in enumerate(ordered):
        key = frozenset((record.white, record.black))
        stats = pairs.get(key)
        if stats is None:
            if record.index is not None:
                first, second = ((record.white, record.black) if record.index % 2 == 0
                                 else (record.black, record.white))
            else:
                first, second = record.white, record.black
            if engine_order and first in engine_order and second in engine_order \
                    and engine_order.index(first) > engine_order.index(second):
                first, second = second, first
            stats = pairs[key] = PairStats(first, second)
        stats.order = min(stats.order, record.index if record.index is not None
                          else 1e12 + position)
        stats.add_game(record)
        for name in (record.white, record.black):
            engines.setdefault(name, PairStats(name, "all")).add(points(record, name))
        terminations[record.termination] += 1
        if record.termination == "adjudication":
            adjudications[record.adjudication or "unrecorded"] += 1
        if record.termination in FORFEITS and record.loser is not None:
            forfeits[(record.termination, record.loser)] += 1
    pair_list = sorted(pairs.values(), key=lambda p: p.order)
    return Summary(pair_list, engines, dict(terminations), dict(forfeits), dict(adjudications))


def percent(value: float) -> str:
    """``55.0%`` (``nan`` for no value)."""
    return "nan" if math.isnan(value) else f"{100 * value:.1f}%"


def _error_text(error: float) -> str:
    return "nan" if math.isnan(error) else ("inf" if math.isinf(error) else f"{error:.1f}")


def score_line(stats: PairStats) -> str:
    """``Score of A vs B: W - L - D [0.550] N, Elo +34.9 +/- 48.5, LOS 92.1%``."""
    est = elo_interval(stats.wins, stats.draws, stats.losses)
    score = "nan" if stats.games == 0 else f"{est.score:.3f}"
    error = "nan" if math.isnan(est.error) else ("inf" if math.isinf(est.error)
                                                  else f"{est.error:.1f}")
    return (f"Score of {stats.first} vs {stats.second}: {stats.wins} - {stats.losses} - "
            f"{stats.draws} [{score}] {stats.games}, Elo {format_elo(est.elo)} +/- {error}, "
            f"LOS {percent(los(stats.wins, stats.draws, stats.losses))}")


@dataclass(frozen=True)
class SprtState:
    """Where an SPRT stands: the model its LLR comes from (``pentanomial``: complete game
    pairs, ``trinomial``: games), the LLR, Wald's bounds and the verdict (None: go on)."""

    model: str
    llr: float
    lower: float
    upper: float
    verdict: Optional[str]
    trinomial_llr: float

    def text(self) -> str:
        """``accepted H1``-style words for the verdict."""
        return {"H0": "H0 accepted", "H1": "H1 accepted"}.get(self.verdict or "",
                                                                "no decision yet")


def sprt_state(stats: PairStats, config: SprtConfig, paired: Optional[bool] = None
               ) -> SprtState:
    """The SPRT of ``stats`` under ``config``. With ``model=auto`` the pentanomial model is
    used when the games come in pairs: ``paired`` says so (the runner: ``--games`` >= 2),
    or, when None, whether any pair is complete."""
    trinomial = sprt_llr(stats.wins, stats.draws, stats.losses, config.elo0, config.elo1)
    model = config.model
    if model == "auto":
        in_pairs = stats.pairs > 0 if paired is None else paired
        model = "pentanomial" if in_pairs else "trinomial"
    llr = (sprt_llr_pentanomial(stats.pentanomial, config.elo0, config.elo1)
           if model == "pentanomial" else trinomial)
    lower, upper = sprt_bounds(config.alpha, config.beta)
    return SprtState(model, llr, lower, upper, sprt_verdict(llr, config), trinomial)


def _pair_lines(pairs: Sequence[PairStats], width: int) -> List[str]:
    """The game-pair table: pentanomial counts, Elo and interval from them."""
    heads = "".join(f"{format(p, 'g'):>5}" for p in PAIR_POINTS)
    lines = [f"{'game pairs':<{width}}  pairs {heads}      Elo   95% interval"]
    for stats in pairs:
        est = pentanomial_interval(stats.pentanomial)
        counts = "".join(f"{count:5d}" for count in stats.pentanomial)
        interval = f"[{format_elo(est.low)}, {format_elo(est.high)}]"
        lines.append(f"{stats.first + ' vs ' + stats.second:<{width}}  {stats.pairs:5d} "
                     f"{counts} {format_elo(est.elo):>8}   {interval}")
    return lines


def format_report(records: Sequence[FinishedGame], engine_order: Sequence[str] = (),
                  sprt: Optional[SprtConfig] = None, paired: Optional[bool] = None
                  ) -> List[str]:
    """The final table; the last line is the one-line summary. ``paired``: see
    :func:`sprt_state`."""
    summary = summarize(records, engine_order)
    lines: List[str] = []
    if not summary.pairs:
        lines.append("No finished games.")
        return lines
    width = max(len(f"{p.first} vs {p.second}") for p in summary.pairs)
    width = max(width, len("pairing"))
    lines.append(f"{'pairing':<{width}}  games     +     =     -   score  draws      Elo"
                 f"   95% interval          LOS")
    for stats in summary.pairs:
        est = elo_interval(stats.wins, stats.draws, stats.losses)
        draws = stats.draws / stats.games if stats.games else math.nan
        interval = f"[{format_elo(est.low)}, {format_elo(est.high)}]"
        superiority = percent(los(stats.wins, stats.draws, stats.losses))
        lines.append(
            f"{stats.first + ' vs ' + stats.second:<{width}}  {stats.games:5d} {stats.wins:5d} "
            f"{stats.draws:5d} {stats.losses:5d}  {percent(est.score):>6} {percent(draws):>6} "
            f"{format_elo(est.elo):>8}   {interval:<20} {superiority:>6}")
    if any(stats.pairs for stats in summary.pairs):
        lines.append("")
        lines.extend(_pair_lines([p for p in summary.pairs if p.pairs], width))
    if len(summary.engines) > 2:
        lines.append("")
        name_width = max(len("engine"), max(len(n) for n in summary.engines))
        lines.append(f"{'engine':<{name_width}}  games     +     =     -   score      Elo")
        for stats in sorted(summary.engines.values(),
                            key=lambda s: -(s.wins + s.draws / 2) / s.games if s.games else 0):
            est = elo_interval(stats.wins, stats.draws, stats.losses)
            lines.append(f"{stats.first:<{name_width}}  {stats.games:5d} {stats.wins:5d} "
                         f"{stats.draws:5d} {stats.losses:5d}  {percent(est.score):>6} "
                         f"{format_elo(est.elo):>8}")
    lines.append("")
    def end_order(item: Tuple[str, int]) -> Tuple[int, str]:
        known = item[0] in TERMINATIONS
        return (TERMINATIONS.index(item[0]) if known else 99, item[0])

    ends = ", ".join(f"{name} {count}"
                     for name, count in sorted(summary.terminations.items(), key=end_order))
    lines.append(f"Terminations: {ends}")
    if summary.adjudications:
        lines.append("Adjudications: " + ", ".join(
            f"{kind} {count}" for kind, count in sorted(summary.adjudications.items())))
    if summary.forfeits:
        lines.append("Forfeits: " + ", ".join(
            f"{loser} {termination} {count}"
            for (termination, loser), count in sorted(summary.forfeits.items(),
                                                      key=lambda item: (item[0][1], item[0][0]))))
    head = summary.pairs[0]
    verdict_text = ""
    if sprt is not None:
        state = sprt_state(head, sprt, paired)
        units = (f"{head.pairs} pairs" if state.model == "pentanomial"
                 else f"{head.games} games")
        lines.append(f"SPRT ({sprt}): LLR {state.llr:.2f} in [{state.lower:.2f}, "
                     f"{state.upper:.2f}] ({state.model}, {units}): {state.text()}")
        if state.model == "pentanomial":
            lines.append(f"  trinomial LLR (games taken as independent): "
                         f"{state.trinomial_llr:.2f}")
        verdict_text = f", SPRT LLR {state.llr:.2f} ({state.text()})"
    if head.pairs and len(summary.pairs) == 1:
        est = pentanomial_interval(head.pentanomial)
        lines.append(f"Ptnml(0-2) of {head.first} vs {head.second}: "
                     f"[{', '.join(str(c) for c in head.pentanomial)}], Elo "
                     f"{format_elo(est.elo)} +/- {_error_text(est.error)} from {head.pairs} "
                     f"pair{'s' if head.pairs != 1 else ''}")
    if len(summary.pairs) == 1:
        lines.append(score_line(head) + verdict_text)
    else:
        first = engine_order[0] if engine_order else head.first
        total = summary.engines[first]
        lines.append(score_line(PairStats(first, "the field", total.wins, total.draws,
                                          total.losses)) + verdict_text)
    return lines
