"""What a match is: :class:`MatchConfig`, built by the command line (or a script) and read by
the runner and by every game it plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from draughts_engine.variants import Variant
from protocol.match.adjudication import DrawRule, ResignRule
from protocol.match.elo import SprtConfig
from protocol.match.engines import EngineSpec
from protocol.match.openings import Opening

__all__ = ["MatchConfig"]


@dataclass
class MatchConfig:
    """A whole match: the engines, the plan, the openings, the files and the rules of a game.

    ``openings`` are played in order (game pair ``p`` plays ``openings[p % len]``);
    ``opening_text`` describes them in the header line. ``date`` goes into the PDN ``Date``
    tag (the runner fills in today when it is empty). ``resign``, ``draw`` and
    ``adjudicate_tables`` are the adjudication rules (:mod:`.adjudication`; None/False: off);
    ``jsonl`` a file that gets one JSON object per finished game and per SPRT update;
    ``shard_source`` says where an automatic shard came from (the header line shows it).
    """

    engines: List[EngineSpec]
    variant: Variant
    tournament: str = "round-robin"
    games: int = 2
    openings: List[Opening] = field(default_factory=list)
    opening_text: str = ""
    concurrency: int = 1
    pdn: Optional[str] = None
    resume: bool = False
    overwrite: bool = False
    shard: Tuple[int, int] = (1, 1)
    sprt: Optional[SprtConfig] = None
    max_plies: int = 400
    timemargin_ms: int = 200
    move_timeout: float = 120.0
    start_timeout: float = 20.0
    event: str = "draughts-match"
    date: str = ""
    quiet: bool = False
    resign: Optional[ResignRule] = None
    draw: Optional[DrawRule] = None
    adjudicate_tables: bool = False
    jsonl: Optional[str] = None
    shard_source: str = ""
