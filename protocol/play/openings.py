"""Opening names: what to call the start of a game, where a published list gives names.

* English checkers: the traditional names of the first moves and of a few two-move openings
  (from the "go as you please" literature: Edinburgh 9-13, Double Corner 9-14, Denny 10-14,
  Kelso 10-15, Bristol 11-16, Dundee 12-16; Single Corner 11-15 22-18, Cross 11-15 23-18,
  Switcher 11-15 21-17, Second Double Corner 11-15 24-19, Edinburgh Single 9-13 22-18,
  Bristol Cross 11-16 23-18), and the number of the game's ballot in the ACF three-move deck
  (the match runner's ``acf-3move`` set, :mod:`protocol.match.openings`).
* Russian and Brazilian: the label of the game's opening in the IDF tables (``I-1``; the
  tables number their openings, they do not name them).
* Missing: the names of the 156 three-move openings of the ACF deck (several have
  traditional names, but no list of them was at hand to check against: none is invented
  here), and names for International draughts and the other variants.
"""
from __future__ import annotations

import threading
from typing import Dict, Optional, Sequence, Tuple

from draughts_engine.variants import ENGLISH

__all__ = ["opening_name", "ENGLISH_NAMES"]

ENGLISH_NAMES: Dict[Tuple[str, ...], str] = {
    ("9-13",): "Edinburgh",
    ("9-14",): "Double Corner",
    ("10-14",): "Denny",
    ("10-15",): "Kelso",
    ("11-15",): "Single Corner group",
    ("11-16",): "Bristol",
    ("12-16",): "Dundee",
    ("9-13", "22-18"): "Edinburgh Single",
    ("11-15", "22-18"): "Single Corner",
    ("11-15", "23-18"): "Cross",
    ("11-15", "21-17"): "Switcher",
    ("11-15", "24-19"): "Second Double Corner",
    ("11-16", "23-18"): "Bristol Cross",
}
"""Names of English openings by their first moves (PDN numbers)."""

NAMES: Dict[str, Dict[Tuple[str, ...], str]] = {ENGLISH.name: ENGLISH_NAMES}
"""Opening names by variant."""

_TITLES = {"acf-3move": "ACF ballot", "idf-russian": "IDF opening",
           "idf-brazilian": "IDF opening"}
"""What the published tables of the match runner's built-in sets call their openings (the
other sets are not published lists: they give no names)."""
_cache: Dict[str, Dict[Tuple[str, ...], str]] = {}
_lock = threading.Lock()


def _ballots(variant: str) -> Dict[Tuple[str, ...], str]:
    """The variant's ballots by their moves from the start position (canonical texts)."""
    with _lock:
        if variant in _cache:
            return _cache[variant]
        table: Dict[Tuple[str, ...], str] = {}
        from draughts_engine.game import Game
        from protocol.match.openings import BALLOTS, OpeningError, builtin_openings
        set_name = BALLOTS.get(variant)
        title = _TITLES.get(set_name or "")
        if set_name is not None and title is not None:
            start = Game(variant).start.fen()
            try:
                for opening in builtin_openings(set_name, variant):
                    if opening.fen == start and opening.moves:
                        moves = tuple(m.pdn() for m in opening.game(variant).moves)
                        table[moves] = f"{title} {opening.label.split()[-1].lstrip('0')}"
            except OpeningError:
                table = {}
        _cache[variant] = table
        return table


def opening_name(variant: str, moves: Sequence[str], from_start: bool = True) -> Optional[str]:
    """What to call the opening of a game of ``variant`` whose moves (canonical texts) begin
    with ``moves``: a name and/or the ballot it is, or None. ``from_start``: the game began
    at the variant's start position (else nothing is named)."""
    if not from_start or not moves:
        return None
    parts = []
    names = NAMES.get(variant, {})
    for length in range(min(len(moves), 3), 0, -1):
        name = names.get(tuple(moves[:length]))
        if name:
            parts.append(name)
            break
    ballots = _ballots(variant)
    if ballots:
        longest = max(len(key) for key in ballots)
        for length in range(min(len(moves), longest), 0, -1):
            label = ballots.get(tuple(moves[:length]))
            if label:
                parts.append(label)
                break
    return " · ".join(parts) or None
