"""Ctrl-C while a command line loads its modules: status 130, nothing printed.

A real Ctrl-C lands wherever the process happens to be; to test each place where the
loading can be cut, the commands run with a ``sitecustomize`` module (``tests/data/interrupt``)
that raises KeyboardInterrupt when a chosen module is imported, as the signal would.
"""
from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Dict, List

import pytest

import protocol.launch as launch

ROOT = Path(__file__).resolve().parent.parent
HOOK = ROOT / "tests" / "data" / "interrupt"


def _run(args: List[str], interrupt_at: str) -> subprocess.CompletedProcess:
    env: Dict[str, str] = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HOOK), str(ROOT)])
    env["DRAUGHTS_TEST_INTERRUPT_AT"] = interrupt_at
    return subprocess.run([sys.executable] + args, cwd=str(ROOT), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


def test_the_hook_interrupts_an_import() -> None:
    """The test's own tool works: a plain program sees the KeyboardInterrupt it raises."""
    probe = ("try:\n import draughts_engine\nexcept KeyboardInterrupt:\n print('interrupted')")
    done = _run(["-c", probe], "draughts_engine.position")
    assert done.stdout.strip() == "interrupted", done.stderr
    assert done.returncode == 0


# Each command, with modules it loads: one its package loads before the command's own guard
# (under ``python -m``, the package __init__s run first), one the command loads under it.
COMMANDS = [
    (["-m", "protocol"], "draughts_engine.position"),
    (["-m", "protocol"], "protocol.server"),
    (["-m", "protocol", "hub"], "protocol.hub.server"),
    (["-m", "protocol", "--dxp", "--help"], "protocol.dxp.cli"),
    (["-m", "draughts_engine", "perft", "--depth", "3"], "draughts_engine.position"),
    (["-m", "draughts_engine", "perft", "--depth", "3"], "draughts_engine.cli"),
    (["-m", "protocol.match", "--help"], "draughts_engine.position"),
    (["-m", "protocol.match", "--help"], "protocol.match.cli"),
    (["-m", "protocol.conformance", "--help"], "draughts_engine.position"),
    (["-m", "protocol.conformance", "--help"], "protocol.conformance.cli"),
    (["-m", "protocol.play", "--help"], "draughts_engine.position"),
    (["-m", "protocol.play", "--help"], "protocol.play.cli"),
    (["-m", "protocol.web", "--help"], "draughts_engine.position"),
    (["-m", "protocol.web", "--help"], "protocol.web.cli"),
]


@pytest.mark.parametrize("args,module", COMMANDS,
                         ids=[f"{' '.join(c[0][:2])} at {c[1]}" for c in COMMANDS])
def test_ctrl_c_while_a_command_loads_ends_it_quietly(args: List[str], module: str) -> None:
    done = _run(args, module)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


@pytest.mark.parametrize("entry,module", [("engine", "protocol.server"),
                                          ("perft", "draughts_engine.position"),
                                          ("match", "protocol.match.runner"),
                                          ("conformance", "protocol.conformance.harness"),
                                          ("play", "protocol.play.controller"),
                                          ("web", "protocol.web.cli")])
def test_a_console_script_interrupted_while_it_loads_ends_quietly(entry: str, module: str) -> None:
    """What pip's generated script does: import the entry point, call it, exit with its status."""
    script = f"import sys\nfrom protocol.launch import {entry}\nsys.exit({entry}())"
    done = _run(["-c", script], module)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")


def test_a_program_importing_the_packages_still_gets_its_keyboard_interrupt() -> None:
    probe = ("import sys\nfor name in ('draughts_engine', 'protocol.match'):\n"
             " try:\n  __import__(name)\n except KeyboardInterrupt:\n  print('interrupted', name)\n"
             "  sys.modules.pop(name, None)")
    done = _run(["-c", probe], "draughts_engine.position")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["interrupted draughts_engine",
                                            "interrupted protocol.match"]


def test_every_console_script_starts_through_the_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyproject's scripts name launcher functions, each of which names a real ``main``."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    scripts = dict(re.findall(r'^([\w-]+)\s*=\s*"([\w.:]+)"', section, re.M))
    assert set(scripts) == {"draughts-engine", "draughts-perft", "draughts-conformance",
                            "draughts-match", "draughts-play", "draughts-web"}
    called = []
    monkeypatch.setattr(launch, "run_main", lambda module, function="main": called.append(
        (module, function)) or 0)
    for target in scripts.values():
        module, _, function = target.partition(":")
        assert module == "protocol.launch"
        assert getattr(launch, function)() == 0
    for module, function in called:
        assert callable(getattr(importlib.import_module(module), function)), (module, function)


def test_run_main_returns_the_status_of_main(monkeypatch: pytest.MonkeyPatch) -> None:
    mains = types.ModuleType("fake_mains")
    mains.returns_three = lambda: 3  # type: ignore[attr-defined]
    mains.main = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_mains", mains)
    assert launch.run_main("fake_mains", "returns_three") == 3
    assert launch.run_main("fake_mains") == 0
