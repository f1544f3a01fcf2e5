"""Textbook fixed-depth searches: minimax, negamax, alpha-beta and NegaScout.

This is the teaching layer: plain recursive functions over any ``GameState``,
with no move ordering, transposition table or iterative deepening.  All four
searches share one contract:

* ``search(state, depth) -> ClassicResult``; ``depth`` must be at least 1,
  otherwise ``ValueError`` is raised.
* The score is from the point of view of the side to move at the root.
* A leaf is a finished game, scored by ``terminal_score()`` adjusted by the ply
  at which it was found (``win_in(ply)`` / ``loss_in(ply)``), or a node at
  depth 0, scored by ``evaluate()``.
* Moves are visited in the order of ``legal_moves()``; the best move is the
  first root move that achieves the best score.  Hence all four searches
  return the same score and the same best move; they differ only in how many
  nodes they visit.  A finished root position returns ``best_move=None``.
* ``nodes`` counts every visited state, the root included.
* ``poll`` (optional) is how a caller keeps the search within its limits: it is
  called with the nodes visited so far once they reach :data:`STOP_POLL_NODES`,
  and then again at the count each call returns; when it returns None the search
  raises :class:`SearchStopped` and has no result (the caller keeps the last one
  it completed).  :meth:`~.engine.Searcher.search` drives these searches one ply
  deeper at a time under its :class:`~.budget.SearchBudget`, the limits of every
  search, with a ``poll`` that asks the budget (so ``nodes N`` stops at N).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping, Optional, Tuple

from .interface import WIN, GameContractError, GameState, Move, ply_adjusted

__all__ = ["minimax", "negamax", "alphabeta", "negascout", "SEARCHES", "ClassicResult",
           "SearchStopped", "STOP_POLL_NODES", "Poll"]

INFINITY = WIN + 1
"""Strictly larger than any score a search can return."""

STOP_POLL_NODES = 256
"""Nodes before the first call of a search's ``poll``."""

Poll = Optional[Callable[[int], Optional[int]]]
"""``poll(nodes) -> the node count of the next call, or None: stop`` (see the module)."""

ScoredMove = Tuple[int, Optional[Move]]


@dataclass(frozen=True)
class ClassicResult:
    """Outcome of a search: root score, first best root move, visited nodes."""

    score: int
    best_move: Optional[Move]
    nodes: int


class SearchStopped(Exception):
    """A classic search was told to stop (its ``poll`` returned None) before it ended."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"search stopped after {nodes} nodes")
        self.nodes = nodes


class _NodeCounter:
    """Counts visited nodes during one search call and polls its caller."""

    __slots__ = ("nodes", "next_poll", "poll")

    def __init__(self, poll: Poll = None) -> None:
        self.nodes = 0
        self.poll = poll
        self.next_poll = STOP_POLL_NODES if poll is not None else -1

    def visit(self) -> None:
        """Count one node; raise :class:`SearchStopped` when the poll says stop."""
        self.nodes += 1
        if self.nodes == self.next_poll:
            next_poll = self.poll(self.nodes)  # type: ignore[misc]
            if next_poll is None:
                raise SearchStopped(self.nodes)
            self.next_poll = max(next_poll, self.nodes + 1)


def _require_positive_depth(depth: int) -> None:
    if depth < 1:
        raise ValueError(f"search depth must be at least 1, got {depth}")


def _windowed(search: Callable[..., ScoredMove], state: GameState, depth: int,
              poll: Poll) -> ClassicResult:
    """Run a windowed ``search(state, depth, alpha, beta, ply, counter)`` from the root
    with the full window."""
    _require_positive_depth(depth)
    counter = _NodeCounter(poll)
    score, best_move = search(state, depth, -INFINITY, INFINITY, 0, counter)
    return ClassicResult(score, best_move, counter.nodes)


def _leaf_score(state: GameState, depth: int, ply: int) -> Optional[int]:
    """Score of ``state`` for its side to move if it is a leaf, else None."""
    terminal = state.terminal_score()
    if terminal is not None:
        return ply_adjusted(terminal, ply)
    if depth == 0:
        return state.evaluate()
    return None


def _require_moves(state: GameState, best_move: Optional[Move]) -> None:
    if best_move is None:
        raise GameContractError(
            f"{type(state).__name__} has no legal moves but is not finished"
        )


# --------------------------------------------------------------------------
# Minimax: two players, scores always from the root player's point of view.


def minimax(state: GameState, depth: int, poll: Poll = None) -> ClassicResult:
    """Minimax with an explicit maximizing (root) and minimizing player.

    Every score is kept from the root player's point of view: the root player
    picks the largest child score, the opponent the smallest.  Visits the
    whole tree to ``depth`` plies.
    """
    _require_positive_depth(depth)
    counter = _NodeCounter(poll)
    score, best_move = _minimax(state, depth, 0, True, counter)
    return ClassicResult(score, best_move, counter.nodes)


def _minimax(
    state: GameState, depth: int, ply: int, maximizing: bool, counter: _NodeCounter
) -> ScoredMove:
    counter.visit()
    leaf = _leaf_score(state, depth, ply)
    if leaf is not None:
        # Leaf scores are from the side to move's view; convert to the root's.
        return (leaf if maximizing else -leaf), None
    best_score = -INFINITY if maximizing else INFINITY
    best_move: Optional[Move] = None
    for move in state.legal_moves():
        score, _ = _minimax(state.play(move), depth - 1, ply + 1, not maximizing, counter)
        if (maximizing and score > best_score) or (not maximizing and score < best_score):
            best_score, best_move = score, move
    _require_moves(state, best_move)
    return best_score, best_move


# --------------------------------------------------------------------------
# Negamax: one rule for both players, max(a, b) == -min(-a, -b).


def negamax(state: GameState, depth: int, poll: Poll = None) -> ClassicResult:
    """Negamax: every node maximizes the negated scores of its children.

    Scores are from the side to move's point of view at every node.  Visits
    the whole tree to ``depth`` plies, exactly like ``minimax``.
    """
    _require_positive_depth(depth)
    counter = _NodeCounter(poll)
    score, best_move = _negamax(state, depth, 0, counter)
    return ClassicResult(score, best_move, counter.nodes)


def _negamax(state: GameState, depth: int, ply: int, counter: _NodeCounter) -> ScoredMove:
    counter.visit()
    leaf = _leaf_score(state, depth, ply)
    if leaf is not None:
        return leaf, None
    best_score, best_move = -INFINITY, None
    for move in state.legal_moves():
        score = -_negamax(state.play(move), depth - 1, ply + 1, counter)[0]
        if score > best_score:
            best_score, best_move = score, move
    _require_moves(state, best_move)
    return best_score, best_move


# --------------------------------------------------------------------------
# Alpha-beta (fail-soft negamax form).


def alphabeta(state: GameState, depth: int, poll: Poll = None) -> ClassicResult:
    """Fail-soft alpha-beta in negamax form, called with the full window.

    Inside the tree, a node searched with window ``(alpha, beta)`` returns a
    value ``v`` such that: ``v <= alpha`` means the true value is at most
    ``v``; ``v >= beta`` means it is at least ``v``; otherwise ``v`` is exact.
    The root uses the full window, so its score is exact.
    """
    return _windowed(_alphabeta, state, depth, poll)


def _alphabeta(
    state: GameState, depth: int, alpha: int, beta: int, ply: int, counter: _NodeCounter
) -> ScoredMove:
    counter.visit()
    leaf = _leaf_score(state, depth, ply)
    if leaf is not None:
        return leaf, None
    best_score, best_move = -INFINITY, None
    for move in state.legal_moves():
        score = -_alphabeta(state.play(move), depth - 1, -beta, -alpha, ply + 1, counter)[0]
        if score > best_score:
            best_score, best_move = score, move
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break  # the opponent will avoid this node: a beta cutoff
    _require_moves(state, best_move)
    return best_score, best_move


# --------------------------------------------------------------------------
# NegaScout / principal variation search (fail-soft).


def negascout(state: GameState, depth: int, poll: Poll = None) -> ClassicResult:
    """NegaScout (Reinefeld), fail-soft, called with the full window.

    The first move of each node is searched with the node's window; every
    later move first gets a null window ``(alpha, alpha + 1)`` that only tests
    whether it beats ``alpha``.  If it does (a fail-high inside the window),
    the move is searched again with the window ``(value, beta)`` to learn its
    exact value.  The re-search is skipped at depth <= 2, where a fail-soft
    null-window fail-high is already exact (the child's children are leaves).
    Same window semantics as ``alphabeta``.
    """
    return _windowed(_negascout, state, depth, poll)


def _negascout(
    state: GameState, depth: int, alpha: int, beta: int, ply: int, counter: _NodeCounter
) -> ScoredMove:
    counter.visit()
    leaf = _leaf_score(state, depth, ply)
    if leaf is not None:
        return leaf, None
    best_score, best_move = -INFINITY, None
    for index, move in enumerate(state.legal_moves()):
        child = state.play(move)
        if index == 0:
            score = -_negascout(child, depth - 1, -beta, -alpha, ply + 1, counter)[0]
        else:
            score = -_negascout(child, depth - 1, -alpha - 1, -alpha, ply + 1, counter)[0]
            if alpha < score < beta and depth > 2:
                score = -_negascout(child, depth - 1, -beta, -score, ply + 1, counter)[0]
        if score > best_score:
            best_score, best_move = score, move
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break
    _require_moves(state, best_move)
    return best_score, best_move


SEARCHES: Mapping[str, Callable[..., ClassicResult]] = MappingProxyType(
    {
        "minimax": minimax,
        "negamax": negamax,
        "alphabeta": alphabeta,
        "negascout": negascout,
    }
)
"""The classic searches by name, in teaching order (read-only)."""

