"""The README's Slurm recipe, run for real on a one-node Slurm: munged, slurmctld and slurmd
on localhost (a private configuration, state and ports in a temporary folder), a job array
of ``draughts-match --shard auto`` and the merge job that waits for it
(``--dependency=afterok``); the merged table is the unsharded match's.

Runs as root where Debian's ``slurm-wlm`` and ``munge`` are installed
(tools/install_test_deps.py installs them); skips with the reason elsewhere. Every wait has a
bound (a hang guard, not a measure), and the daemons this test starts are stopped by their
process ids.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOVER = ROOT / "tests" / "fake_engines" / "random_mover.py"
PY = sys.executable
DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo")
WAIT = 30.0  # seconds any step may take before the test gives up (hang guard)


def _why_not() -> str:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root (slurmd runs jobs as their user)"
    missing = [name for name in DAEMONS if shutil.which(name) is None
               and not os.path.exists(f"/usr/sbin/{name}")]
    if missing:
        return (f"{', '.join(missing)} not installed (Debian packages slurm-wlm and munge; "
                f"tools/install_test_deps.py installs them as root)")
    return ""


pytestmark = pytest.mark.skipif(bool(_why_not()), reason=_why_not() or "runs")


def _program(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(folder: Path) -> str:
    return "\n".join([
        "ClusterName=drtest", "SlurmctldHost=localhost", "SlurmUser=root", "SlurmdUser=root",
        "AuthType=auth/munge", f"AuthInfo=socket={folder}/munge.sock", "CredType=cred/munge",
        f"SlurmctldPort={_free_port()}", f"SlurmdPort={_free_port()}",
        f"StateSaveLocation={folder}/state", f"SlurmdSpoolDir={folder}/spool",
        f"SlurmctldPidFile={folder}/slurmctld.pid", f"SlurmdPidFile={folder}/slurmd.pid",
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none", "MpiDefault=none",
        "SchedulerType=sched/builtin", "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_CPU", "ReturnToService=2",
        f"SlurmctldLogFile={folder}/slurmctld.log", f"SlurmdLogFile={folder}/slurmd.log",
        "NodeName=localhost CPUs=2 State=UNKNOWN",
        "PartitionName=debug Nodes=localhost Default=YES MaxTime=10 State=UP", ""])


def _log_tail(folder: Path) -> str:
    parts = []
    for name in ("munged.log", "slurmctld.log", "slurmd.log"):
        path = folder / name
        if path.exists():
            lines = path.read_text(errors="replace").splitlines()[-8:]
            parts.append(f"--- {name}:\n" + "\n".join(lines))
    return "\n".join(parts)


@pytest.fixture(scope="module")
def slurm() -> Iterator[Dict[str, str]]:
    """A running one-node Slurm: the environment that points its commands at it."""
    folder = Path(tempfile.mkdtemp(prefix="slt"))  # short: a socket path has a length limit
    folder.chmod(0o755)  # munged wants every folder above its socket searchable by all
    (folder / "state").mkdir()
    (folder / "spool").mkdir()
    key = folder / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    (folder / "slurm.conf").write_text(_config(folder))
    env = dict(os.environ, SLURM_CONF=str(folder / "slurm.conf"), PYTHONPATH=str(ROOT))
    for name in list(env):
        if name.startswith("SLURM_") and name != "SLURM_CONF":
            del env[name]
    daemons: List["subprocess.Popen[bytes]"] = []
    try:
        daemons.append(subprocess.Popen(
            [_program("munged"), "-F", f"--key-file={key}", f"--socket={folder}/munge.sock",
             f"--pid-file={folder}/munged.pid", f"--log-file={folder}/munged.log",
             f"--seed-file={folder}/munge.seed"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + WAIT
        while not (folder / "munge.sock").exists() and time.monotonic() < deadline:
            if daemons[0].poll() is not None:
                pytest.skip(f"munged ended at once:\n{_log_tail(folder)}")
            time.sleep(0.1)
        for command in ([_program("slurmctld"), "-D", "-i"], [_program("slurmd"), "-D"]):
            daemons.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + WAIT
        state = ""
        while time.monotonic() < deadline:
            try:
                done = subprocess.run([_program("sinfo"), "-h", "-o", "%t"], env=env,
                                      capture_output=True, text=True, timeout=10)
            except subprocess.TimeoutExpired:
                continue
            state = done.stdout.strip()
            if state == "idle":
                break
            time.sleep(0.5)
        if state != "idle":
            pytest.skip(f"the one-node Slurm did not come up (node state {state!r}):\n"
                        f"{_log_tail(folder)}")
        yield env
    finally:
        for daemon in reversed(daemons):
            if daemon.poll() is None:
                daemon.terminate()
                try:
                    daemon.wait(10)
                except subprocess.TimeoutExpired:
                    daemon.kill()
                    daemon.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _match_words() -> List[str]:
    return ["--engine", "name=a", f"cmd={PY} {MOVER} --seed a", "depth=1",
            "--engine", "name=b", f"cmd={PY} {MOVER} --seed b", "depth=1",
            "--games", "8", "--concurrency", "1", "--quiet"]


def test_a_job_array_and_its_merge_job_give_the_unsharded_table(slurm: Dict[str, str],
                                                                tmp_path: Path):
    import shlex

    match = shlex.join([PY, "-m", "protocol.match"] + _match_words())
    script = tmp_path / "match.sh"
    script.write_text("#!/bin/sh\n"
                      f"exec {match} --shard auto --pdn {tmp_path}/shard-$SLURM_ARRAY_TASK_ID.pdn\n")
    sbatch = _program("sbatch")
    array = subprocess.run([sbatch, "--parsable", "--array=1-2", "-D", str(ROOT),
                            "-o", f"{tmp_path}/array-%a.out", str(script)], env=slurm,
                           capture_output=True, text=True, timeout=WAIT)
    assert array.returncode == 0, array.stderr
    job = array.stdout.strip().split(";")[0]
    merge = shlex.join([PY, "-m", "protocol.match", "merge", f"{tmp_path}/shard-1.pdn",
                        f"{tmp_path}/shard-2.pdn", "-o", f"{tmp_path}/all.pdn"])
    merged = subprocess.run([sbatch, "--parsable", "--wait", f"--dependency=afterok:{job}",
                             "-D", str(ROOT), "-o", f"{tmp_path}/merge.out",
                             "--wrap", merge], env=slurm, capture_output=True, text=True,
                            timeout=4 * WAIT)
    outputs = "\n".join(f"--- {p.name}:\n{p.read_text(errors='replace')}"
                        for p in sorted(tmp_path.glob("*.out")))
    assert merged.returncode == 0, merged.stderr + outputs
    whole = subprocess.run([PY, "-m", "protocol.match"] + _match_words()
                           + ["--pdn", str(tmp_path / "whole.pdn")], cwd=ROOT, env=slurm,
                           capture_output=True, text=True, timeout=WAIT)
    table = (tmp_path / "merge.out").read_text()
    assert whole.stdout and whole.stdout in table, outputs
    rounds = [line for line in (tmp_path / "shard-1.pdn").read_text().splitlines()
              if line.startswith("[Round ")]
    assert rounds == ['[Round "1"]', '[Round "3"]', '[Round "5"]', '[Round "7"]']
