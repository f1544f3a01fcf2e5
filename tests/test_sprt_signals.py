"""tools/sprt.py stopped by a signal: the runner and its engines stop with it, the exported
trees are removed, and one line says what happened (POSIX only: signals and /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from git_checkout import needs_git_checkout

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.skipif(not os.path.isdir("/proc/self") or os.name != "posix",
                                 reason="needs POSIX signals and /proc"),
              needs_git_checkout]


def _processes_in(folder: Path) -> list:
    """Pids of the processes whose working folder or command line is under ``folder``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().decode("utf-8", "replace")
        except OSError:
            continue
        if cwd.startswith(str(folder)) or str(folder) in cmdline:
            found.append(int(entry))
    return found


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_reaches_the_runner_and_its_engines(tmp_path: Path, signum: int) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    pdn = tmp_path / "games.pdn"
    env = dict(os.environ, TMPDIR=str(temp))
    err_path = tmp_path / "stderr.txt"
    with open(tmp_path / "stdout.txt", "wb") as out, open(err_path, "wb") as err:
        process = subprocess.Popen(
            ["nice", "-n", "10", sys.executable, str(ROOT / "tools" / "sprt.py"), "--new",
             "HEAD", "--base", "HEAD", "--depth", "1", "--games", "2000", "--concurrency", "1",
             "--pdn", str(pdn)],
            cwd=tmp_path, env=env, stdout=out, stderr=err)
    try:
        # the runner plays: a game was written
        assert _wait_for(lambda: pdn.exists() and "[Result" in pdn.read_text(), 240), \
            "no game was played"
        assert _processes_in(temp), "the runner and its engines run in the exported trees"
        process.send_signal(signum)
        process.wait(timeout=120)
        # nothing is left: no runner, no engine, no exported tree
        left = _wait_for(lambda: not _processes_in(temp), 30)
        assert left, "the runner or an engine outlived sprt.py"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in _processes_in(temp):  # what this test started and left behind
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    assert process.returncode != 0
    text = err_path.read_text()
    assert f"stopped by {signal.Signals(signum).name}" in text
    assert "Traceback" not in text
    assert list(temp.iterdir()) == []
    assert "[Result" in pdn.read_text()  # the finished games were kept


def test_a_signal_before_the_runner_starts_stops_the_export(tmp_path: Path) -> None:
    """A signal while the trees are exported raises Interrupted (run() then removes them and
    main() says so in one line, status 130)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import sprt  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "tools"))
    relay = sprt.SignalRelay()
    with pytest.raises(sprt.Interrupted):
        relay(signal.SIGTERM, None)
    assert relay.received == signal.SIGTERM
