"""The match table: per pairing wins/draws/losses, score, Elo with its 95% interval and the
likelihood of superiority; per engine totals with more than two engines; terminations and
forfeits; the SPRT line; and the one-line summary cutechess-cli users expect last
(``Score of A vs B: W - L - D [score] N, Elo ...``)."""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from protocol.match.elo import SprtConfig, elo_interval, format_elo, los, sprt_bounds, sprt_status
from protocol.match.records import FORFEITS, TERMINATIONS, FinishedGame

__all__ = ["PairStats", "Summary", "points", "summarize", "percent", "score_line",
           "format_report"]


@dataclass
class PairStats:
    """Results of ``first`` against ``second``, from ``first``'s point of view."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    order: float = math.inf

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

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
        stats.add(points(record, stats.first))
        for name in (record.white, record.black):
            engines.setdefault(name, PairStats(name, "all")).add(points(record, name))
        terminations[record.termination] += 1
        if record.termination in FORFEITS and record.loser is not None:
            forfeits[(record.termination, record.loser)] += 1
    pair_list = sorted(pairs.values(), key=lambda p: p.order)
    return Summary(pair_list, engines, dict(terminations), dict(forfeits))


def percent(value: float) -> str:
    """``55.0%`` (``nan`` for no value)."""
    return "nan" if math.isnan(value) else f"{100 * value:.1f}%"


def score_line(stats: PairStats) -> str:
    """``Score of A vs B: W - L - D [0.550] N, Elo +34.9 +/- 48.5, LOS 92.1%``."""
    est = elo_interval(stats.wins, stats.draws, stats.losses)
    score = "nan" if stats.games == 0 else f"{est.score:.3f}"
    error = "nan" if math.isnan(est.error) else ("inf" if math.isinf(est.error)
                                                  else f"{est.error:.1f}")
    return (f"Score of {stats.first} vs {stats.second}: {stats.wins} - {stats.losses} - "
            f"{stats.draws} [{score}] {stats.games}, Elo {format_elo(est.elo)} +/- {error}, "
            f"LOS {percent(los(stats.wins, stats.draws, stats.losses))}")


def format_report(records: Sequence[FinishedGame], engine_order: Sequence[str] = (),
                  sprt: Optional[SprtConfig] = None) -> List[str]:
    """The final table; the last line is the one-line summary."""
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
    if summary.forfeits:
        lines.append("Forfeits: " + ", ".join(
            f"{loser} {termination} {count}"
            for (termination, loser), count in sorted(summary.forfeits.items(),
                                                      key=lambda item: (item[0][1], item[0][0]))))
    head = summary.pairs[0]
    verdict_text = ""
    if sprt is not None:
        llr, verdict = sprt_status(head.wins, head.draws, head.losses, sprt)
        lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
        decided = {"H0": "H0 accepted", "H1": "H1 accepted"}.get(verdict or "", "no decision yet")
        lines.append(f"SPRT ({sprt}): LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}]: {decided}")
        verdict_text = f", SPRT LLR {llr:.2f} ({decided})"
    if len(summary.pairs) == 1:
        lines.append(score_line(head) + verdict_text)
    else:
        first = engine_order[0] if engine_order else head.first
        total = summary.engines[first]
        lines.append(score_line(PairStats(first, "the field", total.wins, total.draws,
                                          total.losses)) + verdict_text)
    return lines
