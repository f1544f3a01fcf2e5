"""The test command (``tools/run_tests.py``): its pip bootstrap without ensurepip, the tox
command it runs, and the report it prints from tox's results (counts, skip reasons, status)."""
from __future__ import annotations

import glob
import importlib.util
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("run_tests", ROOT / "tools" / "run_tests.py")
run_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_tests)  # type: ignore[union-attr]


def test_requires_python_is_read_as_pip_releases_write_it() -> None:
    allows = run_tests.python_allows
    assert allows(">=3.9", (3, 9, 18)) and not allows(">=3.10", (3, 9, 18))
    assert allows(None, (3, 9, 0)) and allows("", (3, 9, 0))
    assert allows(">=2.7,!=3.0.*,!=3.1.*,!=3.2.*,!=3.3.*,!=3.4.*", (3, 11, 7))
    assert not allows(">=3.7,!=3.9.*", (3, 9, 2))
    assert not allows(">=3.9; garbage", (3, 11, 0))  # unknown syntax: not this release


def test_the_tox_command_runs_every_environment_in_parallel_and_keeps_pytest_arguments() -> None:
    python = Path("/venv/bin/python")
    command = run_tests.tox_command(python, ["--", "tests/test_docs.py", "-k", "x"])
    assert command[:6] == [str(python), "-m", "tox", "p", "-p", "all"]
    envs = command[command.index("-e") + 1].split(",")
    assert envs[:4] == ["system", "py311", "py39", "pypy3"]
    own = f"py{sys.version_info[0]}{sys.version_info[1]}"
    assert own in envs or sys.implementation.name != "cpython"
    assert command[-4:] == ["--", "tests/test_docs.py", "-k", "x"]
    assert ("--parallel-no-spinner" in command) is not sys.stdout.isatty()
    chosen = run_tests.tox_command(python, ["-e", "py311", "--", "-x"])
    assert chosen.count("-e") == 1 and chosen[-4:] == ["-e", "py311", "--", "-x"]


PYTEST_OUTPUT = """\
........s.......                                                        [100%]
=========================== short test summary info ============================
SKIPPED [1] tests/test_web_browser.py:40: Chromium is not installed
SKIPPED [2] tests/test_play_tmux.py:12: tmux is not installed
2580 passed, 3 skipped in 301.52s (0:05:01)
"""

FAILED_OUTPUT = """\
....F.
=================================== FAILURES ===================================
___________________________________ test_one ___________________________________
E   assert 1 == 2
=========================== short test summary info ============================
FAILED tests/test_x.py::test_one - assert 1 == 2
1 failed, 5 passed in 0.50s
"""


def _run(name: str, output: str, success: bool = True) -> dict:
    return {"python": {"implementation": "CPython", "version_info": [3, 11, 7, "final", 0]},
            "result": {"success": success, "exit_code": 0 if success else 1, "skipped": False},
            "test": [{"command": [f"/r/.tox/{name}/bin/pytest", "-q", "-rfEs"], "output": output,
                      "err": "", "retcode": 0 if success else 1}]}


def test_the_report_shows_each_interpreters_counts_and_skip_reasons_then_a_total() -> None:
    journal = {"testenvs": {
        "py311": _run("py311", PYTEST_OUTPUT),
        ".pkg": {"test": []},                                    # tox's packaging env: not a run
        "system": _run("system", "test programs: tmux, chromium and pypy3 are installed\n"),
        "py39": {"result": {"success": True, "skipped": True}},   # interpreter not found
        "pypy3": _run("pypy3", PYTEST_OUTPUT.replace("2580", "1900")),
        "pypy3-full": {}}}                                      # configured, not run
    out = io.StringIO()
    assert run_tests.report(journal, ["system", "py311", "py39", "pypy3"], 612.3, out) == 0
    text = out.getvalue()
    assert ".pkg" not in text and "pypy3-full" not in text
    assert "test programs: tmux, chromium and pypy3 are installed" in text
    assert text.count("SKIPPED [1] tests/test_web_browser.py:40: Chromium is not installed") == 2
    assert "py311: 2580 passed, 3 skipped in 301.52s (0:05:01)" in text
    assert "py39: skipped (interpreter not found)" in text
    last = text.splitlines()[-1]
    assert last.startswith("=") and last.endswith("=")
    assert " 4480 passed, 6 skipped in 612.3s (py311, pypy3) " in last


def test_the_report_names_a_failed_run_and_shows_its_failures() -> None:
    journal = {"testenvs": {"py311": _run("py311", PYTEST_OUTPUT),
                            "py39": _run("py39", FAILED_OUTPUT, success=False),
                            "pypy3": {"result": {"success": False, "skipped": False},
                                      "setup": [{"output": "", "err": "pip: no network\n",
                                                 "retcode": 1}]}}}
    out = io.StringIO()
    assert run_tests.report(journal, ["py311", "py39", "pypy3"], 10.0, out) == 2
    text = out.getvalue()
    assert "E   assert 1 == 2" in text and "FAILED tests/test_x.py::test_one" in text
    assert "pip: no network" in text
    assert text.splitlines()[-1].strip("= ") == (
        "1 failed, 2585 passed, 3 skipped in 10.0s (py311, py39); FAILED: py39, pypy3")


def test_the_report_fails_when_no_interpreter_ran_the_tests() -> None:
    journal = {"testenvs": {"py39": {"result": {"success": True, "skipped": True}}}}
    out = io.StringIO()
    assert run_tests.report(journal, ["py39"], 1.0, out) == 1
    assert "no tests ran" in out.getvalue().splitlines()[-1]


def _pip_wheel() -> str:
    """A pip wheel on this machine (CPython's bundled one, or Debian's), or skip."""
    candidates = glob.glob("/usr/share/python-wheels/pip-*.whl")
    try:
        import ensurepip  # where the bundled wheels live, when the interpreter keeps them
    except ImportError:  # Debian and Ubuntu without python3-venv
        pass
    else:
        folder = os.path.join(os.path.dirname(ensurepip.__file__), "_bundled")
        candidates = glob.glob(os.path.join(folder, "pip-*.whl")) + candidates
    if not candidates:
        pytest.skip("no pip wheel on this machine (ensurepip's bundled one or Debian's "
                    "python3-pip-whl) to install offline")
    return candidates[0]


def test_without_ensurepip_the_environment_gets_pip_from_its_wheel(monkeypatch) -> None:
    """Debian and Ubuntu without python3-venv: ``python3 -m venv`` fails for want of
    ensurepip (simulated: the plain call fails); the environment is remade without pip
    (really) and pip installed from a wheel (a local one here, offline; PyPI's in use)."""
    wheel = _pip_wheel()
    real_venv, calls = run_tests._venv, []

    def venv_without_ensurepip(folder: Path, *extra: str) -> bool:
        calls.append(extra)
        return real_venv(folder, *extra) if "--without-pip" in extra else False

    monkeypatch.setattr(run_tests, "_venv", venv_without_ensurepip)
    monkeypatch.setattr(run_tests, "_apt_install_venv", lambda: False)  # never apt in a test
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "venv"
        python = run_tests.make_venv(target, Path(wheel).as_uri(), None)
        assert calls == [(), ("--without-pip",)]
        assert python == run_tests.venv_python(target)
        done = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0 and str(target) in done.stdout, done.stdout + done.stderr
        assert (target / ".gitignore").read_text() == "*\n"


def test_a_wheel_that_does_not_match_its_checksum_is_refused() -> None:
    wheel = _pip_wheel()
    with tempfile.TemporaryDirectory() as folder:
        python = Path(folder) / "never-run"
        with pytest.raises(run_tests.EnvironmentSetupError, match="SHA-256"):
            run_tests.install_pip(python, Path(wheel).as_uri(), "0" * 64)
