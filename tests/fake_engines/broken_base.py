"""Shared skeleton of the deliberately broken fake engines (standard library only).

:class:`CannedEngine` answers the way tests/fake_engines/well_behaved.py does: it knows no rules
and plays canned moves that are legal in the English start position. Each ``broken_*.py``
script subclasses it and breaks exactly one thing, so the conformance suite's matching checks
must FAIL while the others still behave as against the well-behaved fake. Subclasses override
the ``on_<command>`` methods; a method returning an int ends the process with that status.
The other misbehaving fakes of this protocol (``garbage.py``, ``hang_on_go.py``,
``die_mid_search.py``, ``info_flood.py``) are built the same way.
"""

from __future__ import annotations

import sys
from typing import Callable, List, Optional

START_MOVES = ("9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16")
"""The legal moves of the English start position, for canned perft answers."""


class CannedEngine:
    """A canned engine: ``go`` answers ``bestmove 11-15``; infinite/ponder wait for stop."""

    name = "canned-engine"

    def __init__(self, argv: List[str]) -> None:
        self.argv = argv
        self.pending = False  # an infinite or ponder search is running

    def say(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def run(self) -> int:
        """Serve stdin until quit or end of input; returns the exit status."""
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            word = words[0]
            if self.pending and word not in ("isready", "stop", "ponderhit", "quit", "uci"):
                self.say(f"error busy: {word} during search")
                continue
            status = self.handler(word)(words)
            if status is not None:
                return status
        return self.on_end_of_input()

    def handler(self, word: str) -> Callable[[List[str]], Optional[int]]:
        """The method that answers the command ``word``: ``on_<word>``, else ``on_unknown``."""
        return getattr(self, f"on_{word}", self.on_unknown)

    # ---- commands -----------------------------------------------------------------------

    def on_uci(self, words: List[str]) -> Optional[int]:
        for line in (f"id name {self.name}", "id author the test suite", "id protocol 1",
                     "option name Hash type spin default 16 min 1 max 1024"):
            self.say(line)
        self.say("uciok")
        return None

    def on_isready(self, words: List[str]) -> Optional[int]:
        self.say("readyok")
        return None

    def on_setoption(self, words: List[str]) -> Optional[int]:
        if words[1:3] == ["name", "Hash"] and len(words) == 5:
            value = words[4]
            if not value.lstrip("-").isdigit() or not 1 <= int(value) <= 1024:
                self.say(f"error setoption: Hash must be in 1..1024, got {value}")
        return None

    def on_position(self, words: List[str]) -> Optional[int]:
        return None

    def on_ucinewgame(self, words: List[str]) -> Optional[int]:
        return None

    def on_go(self, words: List[str]) -> Optional[int]:
        if "infinite" in words or "ponder" in words:
            self.pending = True
            self.say("info depth 1 seldepth 1 score cp 5 nodes 8 nps 8000 time 1 hashfull 0 pv 11-15")
            return None
        return self.finish()

    def on_stop(self, words: List[str]) -> Optional[int]:
        if self.pending:
            self.pending = False
            return self.finish()
        return None

    def on_ponderhit(self, words: List[str]) -> Optional[int]:
        return self.on_stop(words)

    def on_quit(self, words: List[str]) -> Optional[int]:
        return 0

    def on_unknown(self, words: List[str]) -> Optional[int]:
        self.say(f"error unknown command: {words[0]}")
        return None

    def on_end_of_input(self) -> int:
        return 0

    # ---- search output -------------------------------------------------------------------

    def finish(self) -> Optional[int]:
        """Write the result of a search."""
        self.say("info depth 2 seldepth 3 score cp 12 nodes 60 nps 6000 time 10 hashfull 1 "
                 "pv 11-15 23-19")
        self.say("bestmove 11-15 ponder 23-19")
        return None


def serve(engine_class: type) -> None:
    """Run ``engine_class(sys.argv)`` and exit with its status."""
    sys.exit(engine_class(sys.argv).run())
