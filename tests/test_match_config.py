"""``--config FILE`` (protocol/match/config_file.py): a match as a JSON file; flags win."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from protocol.match import MatchError, MatchRunner, config_from_args

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable


def _engines() -> List[Dict[str, Any]]:
    return [{"name": "a", "cmd": [PY, str(MOVER), "--seed", "a"], "depth": 1},
            {"name": "b", "cmd": f"{PY} {MOVER} --seed b", "depth": 2,
             "options": {"Hash": 8}}]


def _write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def _play(argv: List[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert MatchRunner(config_from_args(argv), out, err).run() == 0, err.getvalue()
    return out.getvalue()


def test_a_config_file_plays_the_same_pdn_as_the_same_flags(tmp_path: Path):
    config = _write(tmp_path, {"variant": "english", "games": 4, "seed": 7, "concurrency": 1,
                               "opening_plies": 3, "event": "cfg", "quiet": True,
                               "engines": _engines()})
    by_file, by_flags = tmp_path / "file.pdn", tmp_path / "flags.pdn"
    _play(["--config", config, "--pdn", str(by_file)])
    _play(["--engine", "name=a", f"cmd={PY} {MOVER} --seed a", "depth=1",
           "--engine", "name=b", f"cmd={PY} {MOVER} --seed b", "depth=2", "option.Hash=8",
           "--variant", "english", "--games", "4", "--seed", "7", "--concurrency", "1",
           "--opening-plies", "3", "--event", "cfg", "--quiet", "--pdn", str(by_flags)])
    assert by_file.read_bytes() == by_flags.read_bytes()
    assert by_file.read_text(encoding="utf-8").count("[Event ") == 4


def test_flags_win_over_the_file_and_engine_flags_replace_its_engines(tmp_path: Path):
    config = _write(tmp_path, {"games": 40, "seed": 3, "sprt": {"elo1": 5},
                               "resign": {"score": 300, "movecount": 3},
                               "adjudicate-tables": True, "engines": _engines()})
    parsed = config_from_args(["--config", config, "--games", "6"])
    assert parsed.games == 6 and parsed.sprt is not None and parsed.sprt.elo1 == 5
    assert parsed.resign is not None and parsed.resign.movecount == 3
    assert parsed.adjudicate_tables and [e.name for e in parsed.engines] == ["a", "b"]
    assert parsed.engines[1].options == [("Hash", "8")]
    replaced = config_from_args([f"--config={config}", "--engine", "name=x", "cmd=x", "depth=1",
                                 "--engine", "name=y", "cmd=y", "depth=1"])
    assert [e.name for e in replaced.engines] == ["x", "y"]


@pytest.mark.parametrize("data, words", [
    ({"games": "x"}, "key 'games'"),
    ({"gmes": 3}, "key 'gmes': unknown key"),
    ({"quiet": "yes"}, "key 'quiet': expected true or false"),
    ({"sprt": [1]}, "key 'sprt': expected an object"),
    ({"sprt": {"elo9": 1}}, "key 'sprt'"),
    ({"engines": [{"cmd": "a", "depht": 3}]}, "engines[0]: engine 1: unknown key 'depht'"),
    ({"engines": {"cmd": "a"}}, "key 'engines': expected a list"),
    ({"engines": [{"cmd": "a", "depth": 1, "options": 3}]}, "key 'options'"),
    ("[1, 2]", "expected a JSON object"),
    ('{"games": 3,', "not valid JSON"),
])
def test_errors_name_the_file_and_the_key(tmp_path: Path, data: Any, words: str):
    config = _write(tmp_path, data)
    with pytest.raises(MatchError) as caught:
        config_from_args(["--config", config])
    assert words in str(caught.value) and config in str(caught.value)


def test_a_missing_config_file_is_one_line(tmp_path: Path):
    with pytest.raises(MatchError, match="--config .*nope.json"):
        config_from_args(["--config", str(tmp_path / "nope.json")])
    with pytest.raises(MatchError, match="--config needs a FILE"):
        config_from_args(["--config"])
