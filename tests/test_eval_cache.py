"""The search's cache of static evaluations (draughts_engine.search.eval_cache)."""
from __future__ import annotations

import functools
import random
import sys
from typing import List, Tuple

import pytest

import draughts_engine.search.engine as engine_module
from draughts_engine.eval import evaluator
from draughts_engine.position import Position
from draughts_engine.search.engine import Searcher
from draughts_engine.search.eval_cache import EvaluationCache, cached_evaluation
from draughts_engine.search.limits import SearchLimits

Raw = Tuple[int, int, int, bool]


def remembering(monkeypatch: pytest.MonkeyPatch, enabled: bool) -> None:
    """Searchers made from now on have their evaluation cache on (or off), whatever the
    interpreter's default."""
    monkeypatch.setattr(engine_module, "EvaluationCache",
                        functools.partial(EvaluationCache, enabled=enabled))


def walk(variant: str, plies: int, seed: int) -> List[Raw]:
    """The positions of a random game of ``plies`` plies at most, repeats included."""
    rng = random.Random(seed)
    position = Position.start(variant)
    out = [position.raw]
    for _ in range(plies):
        moves = position.raw_moves()
        if not moves:
            break
        position = position.play_raw(rng.choice(moves))
        out.append(position.raw)
    return out


@pytest.mark.parametrize("variant", ["english", "international", "russian"])
def test_cached_values_equal_the_evaluation(variant: str) -> None:
    evaluate = evaluator("full", variant).evaluate
    cached = cached_evaluation(evaluate)
    positions = walk(variant, 80, 3) * 2  # every position asked twice
    assert [cached(*raw) for raw in positions] == [evaluate(*raw) for raw in positions]


def test_a_position_is_evaluated_once_while_it_is_remembered() -> None:
    calls: List[Raw] = []

    def counting(w: int, b: int, k: int, wtm: bool) -> int:
        calls.append((w, b, k, wtm))
        return w - b

    cached = cached_evaluation(counting)
    assert [cached(5, 3, 0, True), cached(5, 3, 0, True), cached(5, 3, 0, False)] == [2, 2, 2]
    assert calls == [(5, 3, 0, True), (5, 3, 0, False)]


def test_a_full_cache_empties_and_still_answers_right() -> None:
    calls: List[Raw] = []

    def counting(w: int, b: int, k: int, wtm: bool) -> int:
        calls.append((w, b, k, wtm))
        return 3 * w + b

    cached = cached_evaluation(counting, entries=2)
    keys = [(n, 1, 0, True) for n in range(5)] * 3
    assert [cached(*key) for key in keys] == [3 * w + b for w, b, _, _ in keys]
    # at most 2 remembered: the positions cycle through 5, so each is evaluated again
    assert len(calls) == len(keys)


@pytest.mark.parametrize("variant,fen,depth", [
    ("english", None, 9),
    ("international", "W:W28,31,35,36,37,38,41,42,43,45,46,47,48,49,50"
                      ":B1,2,3,4,5,6,7,9,10,11,12,15,17,19,21", 6),
])
def test_the_cache_changes_no_search(monkeypatch: pytest.MonkeyPatch, variant: str,
                                     fen: str, depth: int) -> None:
    """Same score, move, line and node count with the cache as without it."""
    position = Position.start(variant) if fen is None else Position.from_fen(fen, variant)

    def search() -> Tuple:
        result = Searcher().search(position, SearchLimits(depth=depth))
        return result.score_cp, result.best_move, result.pv, result.nodes

    remembering(monkeypatch, True)
    cached = search()
    remembering(monkeypatch, False)
    assert search() == cached


def test_a_game_searched_with_remembered_evaluations_is_the_same_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One searcher keeps its cache from move to move: the moves, scores and node counts of
    a game equal those of a searcher that remembers nothing."""
    def game() -> List[Tuple]:
        searcher = Searcher()
        position = Position.start("international")
        history = [position.raw]
        out = []
        for _ in range(6):
            result = searcher.search(position, SearchLimits(depth=5), history=history)
            out.append((result.best_move, result.score_cp, result.nodes))
            position = position.play_raw(result.best_move.raw)
            history.append(position.raw)
        return out

    remembering(monkeypatch, True)
    remembered = game()
    remembering(monkeypatch, False)
    assert game() == remembered


def test_the_cache_follows_the_evaluation_searched() -> None:
    english = evaluator("full", "english").evaluate
    international = evaluator("full", "international").evaluate
    cache = EvaluationCache(enabled=True)
    first = cache.wrap(english)
    assert cache.wrap(english) is first  # kept between searches of the same evaluation
    other = cache.wrap(international)
    assert other is not first
    raw = Position.start("international").raw
    assert other(*raw) == international(*raw)
    cache.clear()
    assert cache.wrap(international) is not other  # emptied
    assert EvaluationCache(enabled=False).wrap(english) is english


def test_the_searchers_cache_is_on_where_it_pays() -> None:
    """On CPython only (on PyPy it cost time: BENCHMARKS.md)."""
    assert EvaluationCache().enabled == (sys.implementation.name != "pypy")
