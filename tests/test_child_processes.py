"""Engines end with the program that started them, however it ends: ``kill -9`` of a match
runner or of a program using the reference client leaves no engine running, also one that
ignores the end of its input and SIGTERM and has started a process of its own
(tests/fake_engines/outlives_its_input.py); so does ``kill -9`` of the web board. The guard
(protocol/client/guard.py) is also driven directly. POSIX only: Windows has no guard."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path
from typing import List

import pytest

from protocol.client import ProcessTransport, children
from protocol.client.guard import serve, start_time

sys.path.insert(0, os.path.dirname(__file__))
from helpers_processes import left_after, running  # noqa: E402

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the guard is POSIX-only")

ROOT = Path(__file__).resolve().parent.parent
STUBBORN = ROOT / "tests" / "fake_engines" / "outlives_its_input.py"
PY = sys.executable
FRONT_ENDS_ON_CPYTHON = pytest.mark.skipif(
    sys.implementation.name == "pypy",
    reason="the front ends' tests run on CPython (tox.ini); the guard's on PyPy as well")


def pids_in(path: Path) -> List[int]:
    try:
        return [int(word) for word in path.read_text().split()]
    except (OSError, ValueError):
        return []


def wait_for_pids(path: Path, count: int, process: "subprocess.Popen[bytes]",
                  seconds: float = 120.0) -> List[int]:
    """The pids in ``path`` once it has ``count`` of them (the program must still run)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = pids_in(path)
        if len(pids) >= count:
            return pids
        assert process.poll() is None, "the program ended before its engines started"
        time.sleep(0.1)
    process.kill()
    left_after(pids_in(path), 0)
    raise AssertionError(f"{path} has {len(pids_in(path))} pids after {seconds} s, not {count}")


def stubborn_shell() -> "subprocess.Popen[bytes]":
    """A process group that ignores SIGTERM: a shell and a sleeping child of it."""
    return subprocess.Popen(["sh", "-c", "trap '' TERM; sleep 300 & wait"],
                            start_new_session=True)


# ------------------------------------------------------------------------------ the guard alone


def test_the_guard_ends_a_watched_group_that_ignores_sigterm():
    shell = stubborn_shell()
    time.sleep(0.2)  # the shell's trap is set
    lines = f"+ {shell.pid} g {start_time(shell.pid) or '-'}\n".encode()
    serve(io.BytesIO(lines), grace=0.2)  # the end of input: the program is gone
    assert shell.wait(10) == -signal.SIGKILL


def test_the_guard_leaves_alone_what_was_released_or_is_not_the_same_process():
    released, impostor = stubborn_shell(), stubborn_shell()
    try:
        lines = (f"+ {released.pid} g -\n- {released.pid}\n"
                 f"+ {impostor.pid} g 12345\n").encode()  # not its start time: a reused pid
        if start_time(impostor.pid) is None:
            lines = f"+ {released.pid} g -\n- {released.pid}\n".encode()  # no /proc
        serve(io.BytesIO(lines + b"garbage\n+ x y z\n"), grace=0.2)
        time.sleep(0.2)
        assert released.poll() is None and impostor.poll() is None
    finally:
        for shell in (released, impostor):
            os.killpg(shell.pid, signal.SIGKILL)
            shell.wait()


# ------------------------------------------------------------------------------ the transport


def test_an_engine_started_from_a_thread_that_has_ended_keeps_running():
    """Not prctl(PR_SET_PDEATHSIG): that would kill an engine when the thread that started it
    ends (a web board's request thread, a match runner's worker)."""
    started: List[ProcessTransport] = []
    thread = threading.Thread(target=lambda: started.append(ProcessTransport.spawn(
        [PY, "-c", "import sys; sys.stdin.read()"], own_session=True)))
    thread.start()
    thread.join()
    transport = started[0]
    try:
        time.sleep(0.5)
        assert transport.process.poll() is None
    finally:
        assert transport.close(2.0) == 0


def test_closing_an_engine_kills_what_is_left_of_its_group(tmp_path):
    pid_file = tmp_path / "pids"
    transport = ProcessTransport.spawn([PY, str(STUBBORN), str(pid_file)], own_session=True)
    transport.start(lambda line: None, lambda line: None)
    engine_pid, child_pid = wait_for_pids(pid_file, 2, transport.process)
    transport.close(0.2)  # quit ignored, SIGTERM ignored: SIGKILL
    assert left_after([engine_pid, child_pid]) == []


# ----------------------------------------------------------------------------- kill -9 of a program

CLIENT_PROGRAM = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from protocol.client import Engine
    engines = [Engine.popen([sys.executable, {engine!r}, {pids!r}], own_session=True)
               for _ in range(2)]
    print("ready", flush=True)
    time.sleep(600)
""")

PLAYER_PROGRAM = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from protocol.play.players import EnginePlayer, PlayerSpec
    spec = PlayerSpec(kind="engine", command=(sys.executable, {engine!r}, {pids!r}))
    player = EnginePlayer(spec, "english")
    player.start()
    print("ready", flush=True)
    time.sleep(600)
""")


@pytest.mark.parametrize("program, engines", [(CLIENT_PROGRAM, 2), (PLAYER_PROGRAM, 1)],
                         ids=["reference-client", "play-front-end-player"])
def test_kill_9_of_a_program_using_the_client_leaves_no_engine(tmp_path, program, engines):
    pid_file = tmp_path / "pids"
    code = program.format(root=str(ROOT), engine=str(STUBBORN), pids=str(pid_file))
    process = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == b"ready\n"
        pids = wait_for_pids(pid_file, 2 * engines, process)
        assert all(running(pid) for pid in pids)
    finally:
        process.kill()
        process.wait()
    assert left_after(pids_in(pid_file)) == []


@FRONT_ENDS_ON_CPYTHON
@pytest.mark.parametrize("concurrency", [1, 2])
def test_kill_9_of_a_match_runner_leaves_no_engine(tmp_path, concurrency):
    """Engines that ignore quit, the end of input and SIGTERM, each with a child of its own:
    once the games run, the runner is killed with SIGKILL."""
    pid_file = tmp_path / "pids"
    command = [PY, "-m", "protocol.match", "--games", "20", "--concurrency", str(concurrency),
               "--pdn", str(tmp_path / "m.pdn")]
    for name in ("a", "b"):
        command += ["--engine", f"name={name}",
                    f"cmd={PY} {STUBBORN} {pid_file} --seed {name} --think 50", "depth=1"]
    runner = subprocess.Popen(command, cwd=str(ROOT), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        # two lines (engine, child) per start: the two checked at the start, then each worker's
        wait_for_pids(pid_file, 2 * (2 + 2 * concurrency), runner)
    finally:
        runner.kill()
        runner.wait()
    pids = pids_in(pid_file)
    assert left_after(pids) == []


def test_an_engine_not_guarded_outlives_a_killed_program(tmp_path):
    """The control experiment: ``guarded=False`` is what happened before the guard."""
    pid_file = tmp_path / "pids"
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from protocol.client import ProcessTransport
        t = ProcessTransport.spawn([sys.executable, {str(STUBBORN)!r}, {str(pid_file)!r}],
                                   own_session=True, guarded=False)
        print("ready", flush=True)
        time.sleep(600)
    """)
    process = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        wait_for_pids(pid_file, 2, process)
    finally:
        process.kill()
        process.wait()
    time.sleep(2.0)
    assert all(running(pid) for pid in pids_in(pid_file))
    left_after(pids_in(pid_file), 0)


def test_watching_degrades_to_nothing_where_there_is_no_guard(monkeypatch):
    monkeypatch.setattr(children, "available", lambda: False)
    transport = ProcessTransport.spawn([PY, "-c", "pass"])
    assert transport.close(2.0) == 0


@FRONT_ENDS_ON_CPYTHON
def test_kill_9_of_the_web_board_leaves_no_engine(tmp_path):
    """A board of two engines that play each other (started on the board's own thread)."""
    pid_file = tmp_path / "pids"
    engine = f"name=stub {PY} {STUBBORN} {pid_file} --think 200"
    server = subprocess.Popen([PY, "-m", "protocol.web", "--port", "0", "--engine", engine],
                              cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert server.stdout is not None
        banner = server.stdout.readline().decode()  # draughts-web: serving http://...:PORT/
        port = banner.rsplit(":", 1)[1].split("/")[0]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/boards", method="POST",
            data=json.dumps({"variant": "english", "white": "engine:stub",
                             "black": "engine:stub"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        wait_for_pids(pid_file, 4, server)
    finally:
        server.kill()
        server.wait()
    assert left_after(pids_in(pid_file)) == []


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="no os.register_at_fork")
def test_a_forked_copy_of_the_program_does_not_keep_its_engines_alive(tmp_path):
    """A copy made by fork() must not hold the guard's pipe open: the engines end with the
    program that started them even while the copy lives on."""
    pid_file = tmp_path / "pids"
    code = textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from protocol.client import ProcessTransport
        t = ProcessTransport.spawn([sys.executable, {str(STUBBORN)!r}, {str(pid_file)!r}],
                                   own_session=True)
        copy = os.fork()
        if copy == 0:
            time.sleep(60)
            os._exit(0)
        print(copy, flush=True)
        time.sleep(600)
    """)
    process = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    copy = None
    try:
        assert process.stdout is not None
        copy = int(process.stdout.readline())
        pids = wait_for_pids(pid_file, 2, process)
    finally:
        process.kill()
        process.wait()
    try:
        assert running(copy)
        assert left_after(pids) == []
    finally:
        os.kill(copy, signal.SIGKILL)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the guard through /proc")
def test_a_guard_that_was_killed_is_replaced_and_still_knows_every_engine(tmp_path):
    pid_file = tmp_path / "pids"
    code = textwrap.dedent(f"""
        import os, signal, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from protocol.client import ProcessTransport

        def guards():
            found = []
            for entry in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{{entry}}/stat", "rb") as handle:
                        parent = int(handle.read().rsplit(b")", 1)[1].split()[1])
                    with open(f"/proc/{{entry}}/cmdline", "rb") as handle:
                        line = handle.read()
                except (OSError, ValueError):
                    continue
                if parent == os.getpid() and b"guard.py" in line:
                    found.append(int(entry))
            return found

        engine = [sys.executable, {str(STUBBORN)!r}, {str(pid_file)!r}]
        first = ProcessTransport.spawn(engine, own_session=True)
        def one_guard():  # the guard execs its own program: wait until it shows (hang guard)
            deadline = time.monotonic() + 20
            while len(guards()) != 1 and time.monotonic() < deadline:
                time.sleep(0.02)
            return guards()

        (guard,) = one_guard()
        os.kill(guard, signal.SIGKILL)
        os.waitpid(guard, 0)
        second = ProcessTransport.spawn(engine, own_session=True)  # a new guard, told of both
        assert len(one_guard()) == 1
        print("ready", flush=True)
        time.sleep(600)
    """)
    process = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        pids = wait_for_pids(pid_file, 4, process)
    finally:
        process.kill()
        process.wait()
    assert left_after(pids) == []
