"""Tests of the static evaluation (draughts_engine.eval)."""
from __future__ import annotations

import random
from typing import List

import pytest

from draughts_engine.eval import (MAN_VALUE, UnknownEvaluationError, evaluate, evaluation_names,
                                  evaluator, explain)
from draughts_engine.eval.classic import CLASSIC_SCALE
from draughts_engine.eval import tuned as evalmodel
from draughts_engine.position import Position
from draughts_engine.search.interface import MATE_BOUND
from draughts_engine.variants import NORMAL_GOAL, get_variant, variant_names

VARIANTS = variant_names()
NAMES = evaluation_names()


def random_positions(variant: str, count: int, seed: int) -> List[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        position = Position.start(variant)
        for _ in range(rng.randrange(0, 120)):
            moves = position.raw_moves()
            if not moves:
                break
            position = position.play_raw(rng.choice(moves))
        out.append(position)
    return out


def mirrored(position: Position) -> Position:
    """Colours swapped and the board turned: the same game for the other side."""
    geo = position.geometry
    n = geo.squares

    def turn(mask: int) -> int:
        return geo.mask_of(n + 1 - s for s in geo.squares_of(mask))

    # (the board's kings only: a Frisian king-move count above them does not turn)
    return Position(position.variant, turn(position.black), turn(position.white),
                    turn(position.kings & geo.board), not position.white_to_move)


def test_names_and_errors() -> None:
    assert NAMES[0] == "full" and "classic" in NAMES and "hand" in NAMES
    with pytest.raises(UnknownEvaluationError):
        evaluator("nonsense", "english")
    assert issubclass(UnknownEvaluationError, ValueError)
    assert evaluator("FULL", "american") is evaluator("full", "english")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", NAMES)
def test_start_position_is_balanced(variant: str, name: str) -> None:
    assert evaluate(Position.start(variant), name) == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", NAMES)
def test_explain_sums_to_evaluate_and_colours_are_symmetric(variant: str, name: str) -> None:
    ev = evaluator(name, variant)
    for position in random_positions(variant, 150, seed=VARIANTS.index(variant)):
        score = evaluate(position, name)
        terms = explain(position, name)
        assert sum(value for _, value in terms) == score
        assert all(term.isalpha() and term.islower() for term, _ in terms)
        # Side-to-move view: the same board with the other side to move negates.
        w, b, k, wtm = position.raw
        assert ev.evaluate(w, b, k, not wtm) == -score
        # The mirrored game is worth the same to its side to move.
        assert evaluate(mirrored(position), name) == score
        assert abs(score) < MATE_BOUND


@pytest.mark.parametrize("variant", VARIANTS)
def test_material_dominates(variant: str) -> None:
    start = Position.start(variant)
    geo = start.geometry
    # Remove one black man from the back row: White is about a man up (more
    # than that when few men start, as in Frysk!: the side ahead likes trades).
    missing = geo.bit(geo.squares_of(start.black)[0])
    up = Position(start.variant, start.white, start.black & ~missing, 0, True)
    sign = -1 if start.variant.goal == "lose" else 1  # antidraughts: the extra man is a burden
    score = sign * evaluate(up)
    few = len(geo.squares_of(start.black)) < 12
    assert MAN_VALUE // 2 < score < (3 if few else 2) * MAN_VALUE
    assert dict(explain(up))["material"] == sign * MAN_VALUE
    assert sign * evaluate(up, "classic") >= 5 * CLASSIC_SCALE - 2 * CLASSIC_SCALE


def test_king_values_per_variant() -> None:
    king = {name: get_variant(name).king_value for name in ("english", "russian", "international")}
    assert king["international"] > king["english"] > MAN_VALUE
    assert king["russian"] > king["english"]
    a = Position.from_fen("W:WK18:B3", "english")
    assert dict(explain(a))["material"] == king["english"] - MAN_VALUE
    b = Position.from_fen("W:WK28:B3", "international")
    assert dict(explain(b))["material"] == king["international"] - MAN_VALUE


def test_classic_weights() -> None:
    # White man on 30 (own back row? no: row 7 is 29-32, so yes) and a king on 15 (centre)
    # against a black man on 5 (left edge) and one on 1 (own back row).
    position = Position.from_fen("W:W30,K15:B1,5", "english")
    terms = dict(explain(position, "classic"))
    s = CLASSIC_SCALE
    assert terms["material"] == (5 + 10 - 5 - 5) * s
    assert terms["backrank"] == (1 - 1) * s
    assert terms["centre"] == 3 * s
    assert terms["edge"] == -1 * s
    assert evaluate(position, "classic") == sum(terms.values())


def test_back_rank_and_centre_are_rewarded() -> None:
    guarded = Position.from_fen("W:W30,22:B3,10", "english")
    moved = Position.from_fen("W:W26,22:B3,10", "english")
    assert dict(explain(guarded, "hand"))["backrank"] > dict(explain(moved, "hand"))["backrank"]
    central = Position.from_fen("W:W18:B5", "english")
    side = Position.from_fen("W:W21:B5", "english")
    assert dict(explain(central, "hand"))["centre"] > dict(explain(side, "hand"))["centre"]


def test_runaway_man() -> None:
    free = Position.from_fen("W:W10,K32:B28,K29", "english")      # nothing ahead of 10
    blocked = Position.from_fen("W:W10,K32:B6,K29", "english")    # 6 stands in its way
    for name in ("hand", "full"):
        assert dict(explain(free, name))["runaway"] > 0
        assert dict(explain(blocked, name))["runaway"] == 0


def test_safety_counts_men_that_cannot_be_jumped() -> None:
    edge = Position.from_fen("W:W20:B1", "english")      # 20 is on the right edge
    open_man = Position.from_fen("W:W18:B1", "english")  # 18 can be jumped both ways
    assert dict(explain(edge, "hand"))["safety"] > dict(explain(open_man, "hand"))["safety"]


def test_endgame_two_kings_against_one_english() -> None:
    near = Position.from_fen("W:WK14,K10:BK5", "english")
    far = Position.from_fen("W:WK32,K31:BK5", "english")
    assert evaluate(near) > evaluate(far)  # approach the lone king
    assert evaluate(far) > 2 * MAN_VALUE     # and it is won


def test_endgame_draws_of_too_little_material_with_flying_kings() -> None:
    two = Position.from_fen("W:WK46,K50:BK3", "international")
    three_off = Position.from_fen("W:WK46,K50,K45:BK3", "international")
    three_on = Position.from_fen("W:WK48,K50,K45:BK28", "international")  # 28 is on the main diagonal
    assert evaluate(two) < 150         # two kings cannot win
    assert evaluate(three_off) > 500   # three kings win while the long diagonal is free ...
    assert evaluate(three_on) < evaluate(three_off) // 2  # ... not when the lone king holds it
    assert dict(explain(two))["endgame"] < 0


# ---------------------------------------------------------------------------
# The tuned model (draughts_engine.eval.tuned): the fast function adds up what the plain
# reference does, the features agree with both, weight files are checked.

#: The model is for the diagonal boards (the all-squares boards have evaluations of their own).
#: The variants the tuned model can describe: diagonal 8x8 and 10x10 boards where
#: material is wanted (the losing and crowning games keep their own evaluations).
MODEL_VARIANTS = [name for name in VARIANTS
                  if not get_variant(name).all_squares
                  and get_variant(name).size in evalmodel.EXCHANGE_OFFSET
                  and get_variant(name).goal == NORMAL_GOAL]


def random_weights(variant: str, seed: int) -> dict:
    rng = random.Random(seed)
    names = evalmodel.feature_names(get_variant(variant))
    weights = {name: rng.randint(-40, 40) for name in names}
    weights["exchange"] = rng.randint(500, 3000)
    return weights


@pytest.mark.parametrize("traced", [False, True], ids=["interpreted", "traced"])
@pytest.mark.parametrize("variant", MODEL_VARIANTS)
def test_fast_model_equals_the_plain_reference(variant: str, traced: bool) -> None:
    """Both shapes of the fast function (CPython's and PyPy's, see draughts_engine.runtime)."""
    v = get_variant(variant)
    weights = random_weights(variant, 7)
    fast = evalmodel.build_linear(v, weights, traced=traced)
    for position in random_positions(variant, 120, seed=11):
        w, b, k, wtm = position.raw
        reference = evalmodel.linear_score(v, weights, w, b, k)
        assert fast(w, b, k, True) == reference
        assert fast(w, b, k, False) == -reference
        assert sum(value for _, value in fast(w, b, k, wtm, True)) == fast(w, b, k, wtm)


@pytest.mark.parametrize("variant", MODEL_VARIANTS)
def test_features_are_what_the_model_weighs(variant: str) -> None:
    v = get_variant(variant)
    weights = random_weights(variant, 3)
    for position in random_positions(variant, 60, seed=5):
        w, b, k, _ = position.raw
        values = evalmodel.features(v, w, b, k)
        lead = dict(explain(position, "hand"))["material"] * (1 if position.white_to_move
                                                              else -1)
        dot = sum(weights.get(name, 0) * value
                  * (1 / evalmodel.EXCHANGE_UNIT if name == "exchange" else 1)
                  for name, value in values.items())
        # integer rounding: the tapered table, the exchange, halved runaways
        assert abs(lead + dot - evalmodel.linear_score(v, weights, w, b, k)) <= 5


@pytest.mark.parametrize("variant", MODEL_VARIANTS)
def test_shipped_weights_load_and_fit_their_board(variant: str) -> None:
    v = get_variant(variant)
    weights = evalmodel.load_weights(v)
    if weights is None:
        pytest.skip(f"no weights file for {variant}: the hand-set evaluation plays")
    assert set(weights) <= set(evalmodel.feature_names(v))
    assert evaluator("full", v).evaluate(*Position.start(v).raw) == 0


def test_bad_weight_files_are_refused(tmp_path) -> None:
    v = get_variant("english")
    path = tmp_path / "w.json"
    assert evalmodel.load_weights(v, str(tmp_path / "missing.json")) is None
    for text, message in (("{", "cannot read"), ('{"board": 8}', "no 'weights'"),
                          ('{"board": 10, "weights": {}}', "board 10"),
                          ('{"board": 8, "weights": {"magic": 1}}', "unknown feature"),
                          ('{"board": 8, "weights": {"safety": 1.5}}', "not an integer")):
        path.write_text(text)
        with pytest.raises(evalmodel.WeightsError, match=message):
            evalmodel.load_weights(v, str(path))
