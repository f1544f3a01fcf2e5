"""``--shard auto`` (protocol/match/plan.py): K and N from a job array's environment, with the
index base of each scheduler, and a real run under GNU parallel (skipped where it is absent)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from protocol.match import MatchError, MatchRunner, config_from_args
from protocol.match.plan import shard_from_environment

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable
SLURM_3_OF_4 = {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1",
                "SLURM_ARRAY_TASK_MAX": "4"}


@pytest.mark.parametrize("text, env, shard, said", [
    ("auto", SLURM_3_OF_4, (3, 4), "Slurm job array: SLURM_ARRAY_TASK_ID=3"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0",
              "SLURM_ARRAY_TASK_COUNT": "16"}, (1, 16), "SLURM_ARRAY_TASK_COUNT=16"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1",
              "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_STEP": "2"}, (3, 4), "STEP=2"),
    ("auto/4", SLURM_3_OF_4, (3, 4), "Slurm"),
    ("auto/8", {"JOB_COMPLETION_INDEX": "0"}, (1, 8), "Kubernetes indexed Job"),
    ("auto/8", {"JOB_COMPLETION_INDEX": "7"}, (8, 8), "JOB_COMPLETION_INDEX=7"),
    ("auto/3", {"AWS_BATCH_JOB_ARRAY_INDEX": "2"}, (3, 3), "AWS Batch"),
    ("auto", {"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "5"}, (2, 5), "GitLab"),
    ("auto/4", {"PARALLEL_SEQ": "4"}, (4, 4), "GNU parallel: PARALLEL_SEQ=4"),
])
def test_each_scheduler_with_its_index_base(text: str, env: Dict[str, str], shard, said: str):
    found, source = shard_from_environment(text, env)
    assert found == shard and said in source


@pytest.mark.parametrize("text, env, words", [
    ("auto", {}, "none of SLURM_ARRAY_TASK_ID"),
    ("auto", {"JOB_COMPLETION_INDEX": "0"}, "give --shard auto/N"),
    ("auto", {"PARALLEL_SEQ": "1"}, "give --shard auto/N"),
    ("auto/5", SLURM_3_OF_4, "has 4 tasks, not 5"),
    ("auto/2", {"JOB_COMPLETION_INDEX": "2"}, "task 3 of the Kubernetes indexed Job is not in"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_MIN": "1"}, "not a whole number"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1",
              "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "3"}, "not a range"),
    ("automatic", SLURM_3_OF_4, "K/N, auto or auto/N"),
    ("auto/0", SLURM_3_OF_4, "auto/N needs"),
])
def test_what_cannot_be_told_is_one_clear_error(text: str, env: Dict[str, str], words: str):
    with pytest.raises(MatchError, match=words):
        shard_from_environment(text, env)


def _match(*more: str) -> List[str]:
    return ["--engine", "name=a", f"cmd={PY} {MOVER} --seed a", "depth=1",
            "--engine", "name=b", f"cmd={PY} {MOVER} --seed b", "depth=1",
            "--games", "8", "--concurrency", "1"] + list(more)


def test_a_slurm_task_plays_its_shard_and_says_where_it_came_from(tmp_path: Path,
                                                                   monkeypatch):
    for name, value in SLURM_3_OF_4.items():
        monkeypatch.setenv(name, value)
    pdn = tmp_path / "s.pdn"
    out, err = io.StringIO(), io.StringIO()
    config = config_from_args(_match("--shard", "auto", "--pdn", str(pdn)))
    assert config.shard == (3, 4)
    assert MatchRunner(config, out, err).run() == 0
    assert "shard 3/4 (from the Slurm job array: SLURM_ARRAY_TASK_ID=3" in err.getvalue()
    rounds = [line for line in pdn.read_text(encoding="utf-8").splitlines()
              if line.startswith("[Round ")]
    assert rounds == ['[Round "3"]', '[Round "7"]']


@pytest.mark.skipif(shutil.which("parallel") is None,
                    reason="GNU parallel is not installed (Debian package parallel; "
                           "tools/install_test_deps.py installs it as root)")
def test_gnu_parallel_shards_merge_to_the_unsharded_match(tmp_path: Path):
    words = _match("--quiet")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = ["parallel", "--will-cite", "-q", "--halt", "now,fail=1", "-j", "2", PY, "-m",
               "protocol.match"] + words + ["--shard", "auto/2", "--pdn",
                                            str(tmp_path / "shard-{}.pdn"), ":::", "1", "2"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    merged = subprocess.run([PY, "-m", "protocol.match", "merge", str(tmp_path / "shard-1.pdn"),
                             str(tmp_path / "shard-2.pdn")], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    whole = subprocess.run([PY, "-m", "protocol.match"] + words + ["--pdn",
                           str(tmp_path / "whole.pdn")], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=60)
    assert merged.returncode == 0 and whole.returncode == 0, merged.stderr + whole.stderr
    assert merged.stdout == whole.stdout and "game pairs" in whole.stdout
