"""``--jsonl FILE``: the match as it runs, one JSON object per line (docs/match.md lists the
fields). A ``game`` object for each finished game, written right after the game is saved to
the PDN file; a ``sprt`` object after each game when ``--sprt`` is on. Each line is flushed
at once, so ``tail -f`` or a dashboard sees it; a resumed match appends."""

from __future__ import annotations

import json
import os
from typing import IO, Any, Dict, List, Optional

from draughts_engine.game import GameResult
from protocol.client.children import close_quietly
from protocol.match.errors import MatchError
from protocol.match.openings import Opening
from protocol.match.records import FinishedGame

__all__ = ["JsonlWriter", "game_object", "opening_text"]


def opening_text(opening: Opening) -> str:
    """An opening in one string: its label, else its FEN and moves."""
    if opening.label:
        return opening.label
    return f"{opening.fen} {' '.join(opening.moves)}".strip()


def game_object(record: FinishedGame, variant: Any, opening: Optional[Opening],
                shard: str) -> Dict[str, Any]:
    """The ``game`` object of a finished game."""
    return {
        "type": "game",
        "event": record.event,
        "round": (record.index or 0) + 1,
        "shard": shard,
        "white": record.white,
        "black": record.black,
        "opening": opening_text(opening) if opening is not None else None,
        "result": GameResult(record.outcome, "").pdn(variant),
        "winner": {"white": record.white, "black": record.black}.get(record.outcome),
        "termination": record.termination,
        "adjudication": record.adjudication,
        "reason": record.reason,
        "plies": record.plies,
        "seconds": {"white": round(record.seconds[0], 3), "black": round(record.seconds[1], 3)},
    }


class JsonlWriter:
    """One open ``--jsonl`` file. ``append``: keep its lines (a resumed match)."""

    def __init__(self, path: str, append: bool, overwrite: bool) -> None:
        self.path = path
        if os.path.isdir(path):
            raise MatchError(f"--jsonl {path} is a folder, not a file")
        if (not append and not overwrite and os.path.exists(path)
                and os.path.getsize(path) > 0):
            raise MatchError(f"{path} is not empty: use --resume to add to it or --overwrite "
                             f"to replace it")
        try:
            self.handle: Optional[IO[str]] = open(path, "a" if append else "w",
                                                  encoding="utf-8", newline="\n")
        except OSError as exc:
            raise MatchError(f"cannot write {path}: {exc.strerror or exc}") from None

    def write(self, item: Dict[str, Any]) -> Optional[str]:
        """Write one object as a line; the error text when it could not be written."""
        if self.handle is None:
            return None
        try:
            self.handle.write(json.dumps(item, ensure_ascii=False, allow_nan=False) + "\n")
            self.handle.flush()
        except (OSError, ValueError) as exc:
            return f"cannot write {self.path}: {getattr(exc, 'strerror', None) or exc}"
        return None

    def close(self) -> None:
        close_quietly(self.handle)
        self.handle = None


def sprt_object(state: Any, config: Any, stats: Any) -> Dict[str, Any]:
    """The ``sprt`` object after a game: the counts, the LLR and its bounds, the verdict."""
    def finite(value: float) -> Optional[float]:
        return round(value, 4) if value == value and abs(value) != float("inf") else None

    counts: List[int] = [stats.wins, stats.draws, stats.losses]
    return {
        "type": "sprt",
        "first": stats.first,
        "second": stats.second,
        "games": stats.games,
        "pairs": stats.pairs,
        "wdl": counts,
        "pentanomial": list(stats.pentanomial),
        "model": state.model,
        "llr": finite(state.llr),
        "trinomial_llr": finite(state.trinomial_llr),
        "lower": finite(state.lower),
        "upper": finite(state.upper),
        "elo0": config.elo0,
        "elo1": config.elo1,
        "alpha": config.alpha,
        "beta": config.beta,
        "verdict": state.verdict,
    }
