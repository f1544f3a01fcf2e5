"""``--jsonl FILE`` (protocol/match/jsonl.py): one JSON object per finished game and per SPRT
update, the same results as the PDN file."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import List

from draughts_engine.pdn import read_games
from protocol.match import MatchError, MatchRunner, config_from_args

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable


def _args(tmp_path: Path, *more: str) -> List[str]:
    return ["--engine", "name=a", f"cmd={PY} {MOVER} --seed a", "depth=1",
            "--engine", "name=b", f"cmd={PY} {MOVER} --seed b", "depth=1",
            "--games", "4", "--concurrency", "2", "--pdn", str(tmp_path / "m.pdn"),
            "--jsonl", str(tmp_path / "m.jsonl")] + list(more)


def _run(argv: List[str]) -> int:
    return MatchRunner(config_from_args(argv), io.StringIO(), io.StringIO()).run()


def test_one_line_per_game_and_per_sprt_update_with_the_pdn_results(tmp_path: Path):
    assert _run(_args(tmp_path, "--sprt", "elo1=50", "--shard", "1/1")) == 0
    lines = (tmp_path / "m.jsonl").read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines]
    games = [item for item in items if item["type"] == "game"]
    updates = [item for item in items if item["type"] == "sprt"]
    assert len(games) == 4 and len(updates) == 4 and len(items) == 8
    pdn = {int(g.tags["Round"]): g for g in
           read_games((tmp_path / "m.pdn").read_text(encoding="utf-8"))}
    for game in games:
        tags = pdn[game["round"]].tags
        assert (game["white"], game["black"], game["result"], game["termination"]) == (
            tags["White"], tags["Black"], tags["Result"], tags["Termination"])
        assert game["plies"] == int(tags["PlyCount"]) and game["opening"] == tags["Opening"]
        assert set(game["seconds"]) == {"white", "black"} and game["shard"] == "1/1"
    last = updates[-1]
    assert last["games"] == 4 and last["pairs"] == 2 and sum(last["pentanomial"]) == 2
    assert last["model"] == "pentanomial" and last["elo1"] == 50 and sum(last["wdl"]) == 4


def test_a_resumed_match_appends_and_a_full_file_is_not_replaced(tmp_path: Path):
    (tmp_path / "m.jsonl").write_text('{"type": "old"}\n', encoding="utf-8")
    with pytest.raises(MatchError, match="not empty"):
        _run(_args(tmp_path))
    assert _run(_args(tmp_path, "--overwrite")) == 0
    assert len((tmp_path / "m.jsonl").read_text(encoding="utf-8").splitlines()) == 4
    text = (tmp_path / "m.pdn").read_text(encoding="utf-8")
    (tmp_path / "m.pdn").write_text(text[:text.index('[Event', 10)], encoding="utf-8")
    assert _run(_args(tmp_path, "--resume")) == 0
    lines = (tmp_path / "m.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and all(json.loads(line)["type"] == "game" for line in lines)
