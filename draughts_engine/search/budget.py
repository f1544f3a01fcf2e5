"""The limits of a running search, obeyed in one place: :class:`SearchBudget`.

:class:`~.limits.SearchLimits` says what a ``go`` asks for; a budget applies it while a
search runs, for every search of the package: the engine's (:mod:`.pvs`), the classic
searches driven by :meth:`~.engine.Searcher.search` (:mod:`.classic`) and the small games'
(:mod:`.generic`).  The node loop calls :meth:`SearchBudget.poll` at the node count its last
call returned (every :data:`POLL_NODES` nodes, or exactly at the node limit): ``stop``,
``ponderhit``, node limit, hard deadline; the iteration driver asks
:meth:`SearchBudget.another_iteration` after each completed iteration (``stop``, ``ponder``,
depth, soft deadline, node limit).  Deadlines come from :mod:`.timeman`.
"""
from __future__ import annotations

import dataclasses
import threading
import time
from typing import Optional, Tuple

from .limits import MAX_DEPTH, SearchLimits
from .timeman import deadlines

# MAX_DEPTH (from .limits) is the deepest nominal iteration, also the cap of
# ``infinite`` and ``ponder`` searches.
__all__ = ["SearchBudget", "SearchAborted", "POLL_NODES", "MAX_DEPTH", "CLOCK_SAVING"]

POLL_NODES = 256
"""Nodes between two checks of ``stop``, the clock and the node limit."""


CLOCK_SAVING = 0.6
"""Under a clock, no new iteration after this share of the soft deadline."""


class SearchAborted(Exception):
    """Raised by :meth:`SearchBudget.poll`: the search must end now (stopped or out of budget)."""


class SearchBudget:
    """What a running search may still spend.

    Attributes (read by the driver; changed only here): ``pondering``,
    ``depth_limit``, ``node_limit`` (None: none), ``soft`` / ``hard`` (seconds
    from ``clock_start``, None: no deadline), ``clock_start`` (the search start,
    or the ``ponderhit``), ``node_base`` (nodes searched before the ponderhit;
    limits count from there), ``first_iteration`` (set False by the driver
    once depth 1 is complete: until then only ``stop`` ends the search, so
    there is always a move), ``completed_depth`` (set by the driver after each
    iteration: a ponder search past the depth limit of its ``go`` ends at the
    first poll after the ponderhit) and ``spends_all`` (a fixed move time without a
    clock: time left unused is lost, so iterations start until the deadline and
    the last one, cut short, may still change the move).
    """

    def __init__(self, limits: SearchLimits, white_to_move: Optional[bool],
                 stop: threading.Event, ponderhit: Optional[threading.Event], start: float,
                 default_depth: int = MAX_DEPTH) -> None:
        """``white_to_move``: whose clock counts (None: unknown, the smaller clock counts);
        ``ponderhit``: None for a search that has none (a ``ponder`` search then runs until
        ``stop``, as ``infinite``); ``start``: the search's start (``time.perf_counter()``);
        ``default_depth``: the depth limit when ``limits`` give none."""
        self.limits = limits
        self.white_to_move = white_to_move
        self.stop = stop
        self.ponderhit = ponderhit if ponderhit is not None else threading.Event()
        self.default_depth = default_depth
        self.pondering = limits.ponder
        unlimited = limits.infinite or limits.ponder
        self.node_limit: Optional[int] = None if unlimited else limits.nodes
        self.depth_limit = MAX_DEPTH if unlimited else self._depth_limit()
        self.soft: Optional[float] = None
        self.hard: Optional[float] = None
        if not unlimited:
            self.soft, self.hard = self._deadlines()
        self.spends_all = limits.movetime_ms is not None and not limits.has_clock
        self.clock_start = start
        self.node_base = 0
        self.first_iteration = True
        self.completed_depth = 0

    def check_ponderhit(self, nodes: int) -> None:
        """After ``ponderhit``: apply the limits of ``go ponder``, counted from now
        (``nodes``: the nodes searched so far)."""
        if self.ponderhit.is_set():
            limits = self.limits
            self.pondering = False
            self.clock_start = time.perf_counter()
            self.node_base = nodes
            self.node_limit = limits.nodes
            self.depth_limit = self._depth_limit()
            self.soft, self.hard = self._deadlines()

    def _stopped(self, nodes: int) -> bool:
        """Whether ``stop`` has come; if not, a ``ponderhit`` is taken (:meth:`check_ponderhit`)."""
        if self.stop.is_set():
            return True
        if self.pondering:
            self.check_ponderhit(nodes)
        return False

    def _depth_limit(self) -> int:
        return min(MAX_DEPTH, self.limits.depth or self.default_depth)

    def _deadlines(self) -> Tuple[Optional[float], Optional[float]]:
        """The soft and hard deadlines of the limits (:func:`.timeman.deadlines`); when the
        side to move is unknown, from the smaller of the two clocks."""
        limits, white = self.limits, self.white_to_move
        if white is None:
            white = True
            if limits.has_clock:
                left = min(limits.wtime_ms or 0, limits.btime_ms or 0)
                limits = dataclasses.replace(limits, wtime_ms=left, btime_ms=left,
                                             binc_ms=limits.winc_ms)
        times = deadlines(limits, white)
        return times.soft, times.hard

    def poll(self, nodes: int) -> int:
        """Check stop, ponderhit, depth and node limits and hard deadline after ``nodes`` nodes.

        Returns the node count at which to poll next; raises
        :class:`SearchAborted` when the search must end.
        """
        next_poll = nodes + POLL_NODES
        if self._stopped(nodes):
            raise SearchAborted
        if self.first_iteration:
            return next_poll
        if self.completed_depth >= self.depth_limit:  # (only after a ponderhit, past it)
            raise SearchAborted
        node_limit = self.node_limit
        if node_limit is not None:
            if nodes - self.node_base >= node_limit:
                raise SearchAborted
            next_poll = min(next_poll, self.node_base + node_limit)
        if self.hard is not None and time.perf_counter() - self.clock_start >= self.hard:
            raise SearchAborted
        return next_poll

    def another_iteration(self, depth: int, nodes: int, single_move: bool) -> bool:
        """Whether to start the iteration after ``depth`` (just completed, ``nodes``
        searched so far; ``single_move``: the root has one legal move).

        Not after ``stop``; always while pondering; then not beyond the depth
        limit, nor with a single move under a time limit, nor after the soft
        deadline (under a clock: after :data:`CLOCK_SAVING` of it, since an
        iteration started later would most likely be cut short), nor beyond the
        node limit.
        """
        if self._stopped(nodes):
            return False
        if self.pondering:  # (no ponderhit yet)
            return True
        if depth >= self.depth_limit:
            return False
        soft = self.soft
        if soft is not None:
            if single_move:
                return False
            used = time.perf_counter() - self.clock_start
            if used >= soft:
                return False
            if used >= CLOCK_SAVING * soft and depth >= 2 and not self.spends_all:
                return False
        return self.node_limit is None or nodes - self.node_base < self.node_limit
