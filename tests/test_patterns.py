"""The local patterns of the tuned evaluation (draughts_engine/eval/patterns.py): locations,
the fast look-up against the plain reference, colour symmetry, the file's checks, the fitting
tool's shared parameters."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import List

import pytest

from draughts_engine.eval import evaluator
from draughts_engine.eval import patterns as pat
from draughts_engine.eval import tuned as evalmodel
from draughts_engine.eval.terms import board_tables
from draughts_engine.position import Position
from draughts_engine.variants import get_variant

from test_evaluate import mirrored, random_positions

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import fit_patterns  # noqa: E402  (its shared parameters need no numpy)
sys.path.pop(0)


def random_tables(size: int, seed: int, span: int = pat.DEFAULT_SPAN,
                  shape: str = pat.ROWS) -> pat.PatternTables:
    """Tables with the file's symmetry (a state and its image score opposite)."""
    rng = random.Random(seed)
    ids, signs, count = fit_patterns.canonical_parameters(size, span, shape)
    values = [[rng.randint(-60, 60) for _ in range(count)] for _ in range(2)]
    opening, ending = ([[signs[i][s] * phase[ids[i][s]] for s in range(len(ids[i]))]
                       for i in range(len(ids))] for phase in values)
    return pat.PatternTables(size, opening, ending, span, shape)


@pytest.mark.parametrize("size,span,count", [(8, 3, 14), (10, 3, 18), (10, 4, 18)])
def test_locations_are_neighbouring_squares_of_two_rows(size: int, span: int,
                                                          count: int) -> None:
    locs = pat.locations(size, span)
    geo = board_tables(size).geo
    assert len(locs) == count
    assert len({loc.squares for loc in locs}) == count
    every = {n for loc in locs for n in loc.squares}
    assert every == set(range(1, size * size // 2 + 1))  # every square, in two rows' groups
    assert span in pat.spans(size)
    assert list(pat.spans(size)) == {8: [2, 3], 10: [3, 4]}[size]  # 2 on 10x10 leaves a gap
    for loc in locs:
        rows = [geo.row_col(n)[0] for n in loc.squares]
        cols = [geo.row_col(n)[1] for n in loc.squares]
        assert rows == [rows[0]] * span + [rows[0] + 1] * span
        assert max(cols) - min(cols) == 2 * span - 1  # 2 * span columns wide: a local group
        for n, offset in zip(loc.squares, loc.offsets):
            assert geo.bit(n) == 1 << (loc.shift + offset)
            assert offset < loc.width


@pytest.mark.parametrize("size,count", [(8, 9), (10, 16)])
def test_block_locations_are_four_rows_and_four_columns(size: int, count: int) -> None:
    """The ``blocks`` shape: every 4x4 block of the board starting at an even row and an
    even column, its 8 playable squares row by row; together they hold every square, and
    the board turned by 180 degrees maps the set onto itself."""
    locs = pat.locations(size, shape=pat.BLOCKS)
    geo = board_tables(size).geo
    turn = board_tables(size).turn
    assert len(locs) == count and len({loc.squares for loc in locs}) == count
    assert {n for loc in locs for n in loc.squares} == set(range(1, size * size // 2 + 1))
    blocks = {frozenset(loc.squares) for loc in locs}
    for loc in locs:
        cells = [geo.row_col(n) for n in loc.squares]
        assert len(cells) == 8 and cells == sorted(cells)  # row by row, left to right
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        assert top % 2 == 0 and left % 2 == 0 and loc.row == top
        assert {r for r, _ in cells} == set(range(top, top + 4))
        assert all(left <= c < left + 4 for _, c in cells)
        assert frozenset(turn(n) for n in loc.squares) in blocks
        for n, offset in zip(loc.squares, loc.offsets):
            assert geo.bit(n) == 1 << (loc.shift + offset)
            assert offset < loc.width
    assert locs[0].squares == {8: (1, 2, 5, 6, 9, 10, 13, 14),
                               10: (1, 2, 6, 7, 11, 12, 16, 17)}[size]


def test_a_state_reads_empty_white_black_as_base_3_digits() -> None:
    loc = pat.locations(10)[0]  # squares 1, 2, 3 and 6, 7, 8
    geo = board_tables(10).geo
    assert loc.squares == (1, 2, 3, 6, 7, 8)
    assert loc.state(0, 0) == 0
    assert loc.state(geo.mask_of([2]), geo.mask_of([6])) == 1 * 3 + 2 * 27
    assert loc.state(geo.mask_of([1, 2, 3, 6, 7, 8]), 0) == sum(3 ** k for k in range(6))
    wide = pat.locations(10, 4)[1]  # the right half of rows 0 and 1: 2-5 and 7-10
    assert wide.squares == (2, 3, 4, 5, 7, 8, 9, 10)
    assert wide.state(geo.mask_of([5]), geo.mask_of([7, 10])) == 27 + 2 * 81 + 2 * 3 ** 7


@pytest.mark.parametrize("traced", [False, True], ids=["interpreted", "traced"])
@pytest.mark.parametrize("variant,span,shape", [
    ("international", 3, pat.ROWS), ("international", 4, pat.ROWS), ("english", 3, pat.ROWS),
    ("international", 3, pat.BLOCKS), ("english", 3, pat.BLOCKS)])
def test_fast_patterns_equal_the_plain_reference(variant: str, span: int, shape: str,
                                                 traced: bool) -> None:
    v = get_variant(variant)
    weights = evalmodel.load_weights(v)
    tables = random_tables(v.size, 5, span, shape)
    fast = evalmodel.build_linear(v, weights, traced=traced, patterns=tables)
    plain = evalmodel.build_linear(v, weights, traced=traced)
    differ = 0
    for position in random_positions(variant, 120, seed=17):
        w, b, k, wtm = position.raw
        reference = evalmodel.linear_score(v, weights, w, b, k, tables)
        assert fast(w, b, k, True) == reference
        assert fast(w, b, k, False) == -reference
        assert sum(value for _, value in fast(w, b, k, wtm, True)) == fast(w, b, k, wtm)
        other = mirrored(position)
        assert fast(*other.raw) == fast(w, b, k, wtm)  # the same game for the other side
        differ += fast(w, b, k, True) != plain(w, b, k, True)
    assert differ > 100  # the patterns weigh


@pytest.mark.parametrize("variant", ["international", "english"])
def test_shipped_patterns_load_and_are_symmetric(variant: str) -> None:
    v = get_variant(variant)
    tables = pat.load_patterns(v)
    assert tables is not None, f"the {variant} patterns file ships with the package"
    ids, signs, _ = fit_patterns.canonical_parameters(v.size, tables.span, tables.shape)
    for table in (tables.opening, tables.ending):
        by_parameter = {}
        for i, row in enumerate(table):
            for state, value in enumerate(row):
                if signs[i][state] == 0:
                    assert value == 0
                else:
                    by_parameter.setdefault(ids[i][state], set()).add(signs[i][state] * value)
        assert all(len(values) == 1 for values in by_parameter.values())
    full = evaluator("full", variant)
    for position in random_positions(variant, 40, seed=3):
        assert full.evaluate(*mirrored(position).raw) == full.evaluate(*position.raw)


def write(path: Path, **data) -> str:
    path.write_text(json.dumps(data))
    return str(path)


def test_a_bad_patterns_file_is_a_clear_error(tmp_path: Path) -> None:
    v = get_variant("international")
    good = [[0] * pat.states() for _ in range(18)]
    assert pat.load_patterns(v, str(tmp_path / "missing.json")) is None
    (tmp_path / "junk.json").write_text("{not json")
    cases = [
        (str(tmp_path / "junk.json"), "cannot read patterns"),
        (write(tmp_path / "b8.json", board=8, open=good, end=good), "board 8, not 10"),
        (write(tmp_path / "short.json", board=10, open=good[:17], end=good),
         "'open' is not 18 lists of 729 integers"),
        (write(tmp_path / "float.json", board=10, open=good, end=[[0.5] * 729] * 18),
         "'end' is not 18 lists"),
        (write(tmp_path / "list.json", board=10, open=good, end=None), "'end' is not"),
        (write(tmp_path / "stm.json", board=10, open=good, end=good, side_to_move=True),
         "tables per side to move"),
        (write(tmp_path / "span5.json", board=10, span=5, open=good, end=good),
         "span 5 is not one of 3, 4"),
        (write(tmp_path / "spanstr.json", board=10, span="4", open=good, end=good),
         "span '4' is not one of"),
        (write(tmp_path / "span4.json", board=10, span=4, open=good, end=good),
         "'open' is not 18 lists of 6561 integers"),
        (write(tmp_path / "hex.json", board=10, shape="hex", open=good, end=good),
         "shape 'hex' is not one of rows, blocks"),
        (write(tmp_path / "sqspan.json", board=10, shape="blocks", span=3, open=good,
               end=good), "a span is for the rows shape, not blocks"),
        (write(tmp_path / "sq.json", board=10, shape="blocks", open=good, end=good),
         "'open' is not 16 lists of 6561 integers"),
    ]
    for path, message in cases:
        with pytest.raises(pat.PatternsError, match=message):
            pat.load_patterns(v, path)
    (tmp_path / "array.json").write_text("[]")
    with pytest.raises(pat.PatternsError, match="not 10"):
        pat.load_patterns(v, str(tmp_path / "array.json"))


def test_fit_reads_labels_once_and_names_a_bad_line(tmp_path: Path) -> None:
    labels = tmp_path / "labels.txt"
    start = Position.start("international")
    w, b, k, _ = start.raw
    labels.write_text(f"{w} {b} {k} 1 12\n{w} {b} {k} 1 30\n{w} {b} {k} 0 -5\n\n")
    assert fit_patterns.read_labels([str(labels)]) == [(w, b, k, True, 12), (w, b, k, False, -5)]
    labels.write_text(f"{w} {b} {k} 1 12\n{w} {b} x\n")
    with pytest.raises(fit_patterns.UsageError, match="labels.txt:2: not a label line"):
        fit_patterns.read_labels([str(labels)])


def test_parameters_pair_each_state_with_its_image() -> None:
    """A state and its image (colours swapped, board turned) share one parameter, opposite
    signs; the image of the image is the state."""
    for size, span, shape in ((8, 3, pat.ROWS), (10, 3, pat.ROWS), (10, 4, pat.ROWS),
                              (8, 3, pat.BLOCKS), (10, 3, pat.BLOCKS)):
        ids, signs, count = fit_patterns.canonical_parameters(size, span, shape)
        width = pat.states(span) if shape == pat.ROWS else 3 ** 8
        seen: List[int] = [0] * count
        own_images = 0  # (the centre block of 8x8 is its own image: so are some states)
        for i in range(len(ids)):
            assert len(ids[i]) == width
            for state in range(width):
                if signs[i][state]:
                    seen[ids[i][state]] += signs[i][state]
                else:
                    own_images += 1
        assert seen == [0] * count  # each parameter once with +1, once with -1
        assert count == (len(ids) * width - own_images) // 2
        assert own_images == {(8, pat.BLOCKS): 81}.get((size, shape), 0)


def test_fit_writes_patterns_the_engine_reads_or_says_it_needs_numpy(tmp_path: Path) -> None:
    """With numpy (a tools venv): a file load_patterns takes; without it (the test
    environments): one line naming numpy and exit status 2, no traceback."""
    import subprocess
    labels = tmp_path / "labels.txt"
    rows, distinct = [], set()
    for i, position in enumerate(random_positions("international", 150, seed=23)):
        w, b, k, wtm = position.raw
        rows.append(f"{w} {b} {k} {int(wtm)} {(i % 7 - 3) * 40}")
        distinct.add((w, b, k))
    labels.write_text("\n".join(rows) + "\n")
    out = tmp_path / "patterns.json"
    wide = subprocess.run([sys.executable, "tools/fit_patterns.py", str(labels), "--out",
                           str(out), "--span", "5"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert wide.returncode == 2 and not out.exists()
    assert wide.stderr.strip().splitlines() == [
        "fit_patterns.py: error: --span 5: the 10x10 board takes 3, 4"]
    shape = subprocess.run([sys.executable, "tools/fit_patterns.py", str(labels), "--out",
                            str(out), "--shape", "hex"], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    assert shape.returncode == 2 and not out.exists()
    assert len(shape.stderr.strip().splitlines()) == 1 and "'hex'" in shape.stderr
    done = subprocess.run([sys.executable, "tools/fit_patterns.py", str(labels), "--out",
                           str(out), "--steps", "30", "--span", "4"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    try:
        import numpy
        del numpy
    except ImportError:
        assert done.returncode == 2 and "numpy" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and not out.exists()
        return
    assert done.returncode == 0, done.stderr
    tables = pat.load_patterns(get_variant("international"), str(out))
    assert tables is not None and json.loads(out.read_text())["positions"] == len(distinct)
    assert tables.span == 4 and len(tables.opening[0]) == pat.states(4)
    blocks = tmp_path / "blocks.json"
    done = subprocess.run([sys.executable, "tools/fit_patterns.py", str(labels), "--out",
                           str(blocks), "--steps", "30", "--shape", "blocks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    tables = pat.load_patterns(get_variant("international"), str(blocks))
    assert tables is not None and tables.shape == pat.BLOCKS
    assert len(tables.opening) == 16 and len(tables.opening[0]) == 3 ** 8
    assert "span" not in json.loads(blocks.read_text())
