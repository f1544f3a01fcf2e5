"""A web board's game review: every position of the line shown searched by an engine of its
own, then each move marked by what it lost (the marks and summaries are
:mod:`protocol.play.review`'s; they are kept on the tree's nodes, :mod:`.tree`).

The board runs :meth:`GameReview.run` on its worker thread and stops it through its *halt*
event and :attr:`GameReview.engine` (``stop``, or ``kill`` when it does not answer).
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional

from draughts_engine.search.limits import SearchLimits
from protocol.play.controller import PlayerSpec
from protocol.play.players import EnginePlayer
from protocol.play.records import DraughtsRecord
from protocol.play.review import CAP, Score, review_moves, summary, white_view

from .tree import TreeNode

__all__ = ["GameReview", "REVIEW_DEPTH"]

REVIEW_DEPTH = 6
"""The search depth of a game review when none is asked for."""


class GameReview:
    """The review of one board: :attr:`limits` (each position's search), :attr:`engine` (started
    by the first review, kept for the next ones) and :attr:`progress`, the last review's
    ``running``, ``done`` and ``total`` positions, ``summary`` and ``limit`` (``None`` before
    any review of this game)."""

    def __init__(self) -> None:
        self.limits = SearchLimits(depth=REVIEW_DEPTH)
        self.engine: Optional[EnginePlayer] = None
        self.progress: Optional[Dict[str, Any]] = None

    def forget(self) -> None:
        """A new game: no review of it yet."""
        self.progress = None

    def to_json(self) -> Optional[Dict[str, Any]]:
        """:attr:`progress` for the page (a copy)."""
        return None if self.progress is None else dict(self.progress)

    def close(self) -> None:
        """Reap the review's engine, if it ever ran."""
        if self.engine is not None:
            self.engine.close()

    def run(self, start: DraughtsRecord, nodes: List[TreeNode], spec: PlayerSpec,
            halt: threading.Event, state: threading.Condition,
            publish: Callable[[], None]) -> None:
        """Review the line ``nodes`` (the tree's root, then each move's node) from ``start``:
        each position searched in turn (``spec`` is the engine, when none runs yet), its score
        kept on its node, ``publish`` called (``state`` held) after each so the page sees the
        progress; then each move marked. Stopped early (``halt`` set), it marks what it
        searched."""
        texts = [node.move for node in nodes[1:]]
        first_side = start.side_to_move
        with state:
            self.progress = {"running": True, "done": 0, "total": len(nodes), "summary": None,
                             "limit": {"depth": self.limits.depth,
                                       "movetime_ms": self.limits.movetime_ms}}
            for node in nodes:
                node.forget_review()
            publish()
        if self.engine is None:
            self.engine = EnginePlayer(spec, start.variant, None)
        reviewer = self.engine
        if reviewer.variant != start.variant:
            reviewer.set_variant(start.variant)
        else:
            reviewer.new_game()
        scores: List[Score] = []
        try:
            for index, node in enumerate(nodes):
                if halt.is_set():
                    break
                record = start.replayed(texts[:index])
                outcome = record.result()
                if outcome.is_over:
                    sign = {"white": 1, "black": -1}.get(outcome.winner or "", 0)
                    score = Score(cp=sign * CAP)
                else:
                    best, info = reviewer.choose(record, self.limits, None)
                    if halt.is_set():
                        break
                    cp, mate = white_view(info.score_cp if info else None,
                                          info.score_mate if info else None, record.side_to_move)
                    score = Score(cp if cp is not None or mate is not None else 0, mate, best)
                scores.append(score)
                with state:
                    node.score = score
                    self.progress["done"] = index + 1
                    publish()
        finally:
            reviews = review_moves(scores, texts[:max(0, len(scores) - 1)], first_side)
            for review in reviews:
                node = nodes[review.ply]
                node.mark = review.mark
                node.better = review.better
                if review.better:
                    before = start.replayed(texts[:review.ply - 1])
                    node.better_display = before.display_text(review.better)
            with state:
                if self.progress is not None:
                    self.progress["running"] = False
                    self.progress["summary"] = summary(reviews)
                publish()
