"""Run the test suite: the README's test command, ``python3 tools/run_tests.py``.

Standard library only, so that the system Python of a fresh machine can run it:

1. ``.venv-test/`` (a virtual environment of this Python, made once) gets tox.  Nothing is
   installed into the system Python, which Debian and Ubuntu refuse (PEP 668).  Where the venv
   module cannot install pip (Debian and Ubuntu without python3-venv have no ensurepip), the
   environment is made without pip and pip is installed from its wheel on PyPI, checked
   against PyPI's SHA-256; where that fails too and this is root with apt-get, python3-venv is
   installed and venv tried again.
2. ``tox p -p all`` runs tox.ini's environments: "system" (the programs some tests drive),
   then the suite on each interpreter present (Python 3.11, 3.9, PyPy, and the Python running
   this script), side by side.  Arguments go to tox: ``-e py311 -- tests/test_docs.py -x``.
3. tox shows no test output in a parallel run, so for each interpreter this prints pytest's
   closing sections (failures, skip reasons) and its counts, then one pytest-like total line.

The exit status is tox's: non-zero when any run failed (and 1 when no interpreter ran the
tests).
"""
from __future__ import annotations

import configparser
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-test"
RESULTS = ROOT / ".tox" / "run_tests.json"  # tox's --result-json, read after the run
PIP_JSON = "https://pypi.org/pypi/pip/json"
TOX_REQUIREMENT = "tox>=4"


class EnvironmentSetupError(Exception):
    """The test environment could not be made; the message says what to do."""


# --------------------------------------------------------------------------- the environment

def venv_python(folder: Path) -> Path:
    """The interpreter of the virtual environment in ``folder``."""
    if os.name == "nt":
        return folder / "Scripts" / "python.exe"
    return folder / "bin" / "python"


def _runs(command: Sequence[str]) -> bool:
    try:
        return subprocess.run(list(command), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def has_module(python: Path, module: str) -> bool:
    """Whether ``python`` can import ``module``."""
    return _runs([str(python), "-c", f"import {module}"])


def _version_key(text: str) -> Tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:4])


def python_allows(requires_python: Optional[str], version: Sequence[int]) -> bool:
    """Whether a ``Requires-Python`` specifier (``>=3.9``, ``>=2.7,!=3.0.*``) admits ``version``.

    >>> python_allows(">=3.10", (3, 9, 18)), python_allows(">=3.7,!=3.8.*", (3, 9, 0))
    (False, True)
    """
    have = tuple(version[:3])
    for clause in (requires_python or "").split(","):
        match = re.fullmatch(r"\s*(>=|<=|==|!=|>|<|~=)\s*([\d.]+)(\.\*)?\s*", clause)
        if not clause.strip():
            continue
        if match is None:
            return False  # a specifier this reader does not know: not this release
        op, text, star = match.groups()
        want = _version_key(text)
        ours = have[:len(want)] if star else have + (0,) * (len(want) - len(have))
        if op == "~=":
            op, ours, want = ">=", have, want
        ok = {">=": ours >= want, "<=": ours <= want, ">": ours > want, "<": ours < want,
              "==": ours == want, "!=": ours != want}[op]
        if not ok:
            return False
    return True


def pip_wheel_url(version: Sequence[int]) -> Tuple[str, str]:
    """The URL and SHA-256 of the newest pip wheel on PyPI for this Python version."""
    with urllib.request.urlopen(PIP_JSON, timeout=60) as answer:
        releases = json.load(answer)["releases"]
    for release in sorted(releases, key=_version_key, reverse=True):
        if not re.fullmatch(r"[\d.]+", release):
            continue  # pre-releases
        for file in releases[release]:
            if (file["packagetype"] == "bdist_wheel" and not file.get("yanked")
                    and python_allows(file.get("requires_python"), version)):
                # (a mirror may answer with URLs relative to the JSON's)
                return urllib.parse.urljoin(PIP_JSON, file["url"]), file["digests"]["sha256"]
    raise EnvironmentSetupError(f"PyPI has no pip wheel for Python {'.'.join(map(str, version[:2]))}")


def install_pip(python: Path, wheel_url: Optional[str] = None,
                sha256: Optional[str] = None) -> None:
    """Install pip into the environment of ``python`` from pip's wheel (PyPI's newest for
    this Python unless ``wheel_url`` is given): a pip wheel runs itself
    (``python pip.whl/pip install pip.whl``)."""
    if wheel_url is None:
        wheel_url, sha256 = pip_wheel_url(sys.version_info)
    with tempfile.TemporaryDirectory() as folder:
        wheel = Path(folder) / wheel_url.rsplit("/", 1)[-1]
        with urllib.request.urlopen(wheel_url, timeout=120) as answer:
            data = answer.read()
        if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
            raise EnvironmentSetupError(f"{wheel_url}: the download does not match PyPI's SHA-256")
        wheel.write_bytes(data)
        done = subprocess.run([str(python), str(wheel / "pip"), "install", "--quiet",
                               "--no-index", "--disable-pip-version-check", str(wheel)])
    if done.returncode != 0 or not has_module(python, "pip"):
        raise EnvironmentSetupError(f"installing pip from {wheel_url} failed")


def _venv(folder: Path, *extra: str) -> bool:
    return _runs([sys.executable, "-m", "venv", "--clear", *extra, str(folder)])


def _apt_install_venv() -> bool:
    """As root with apt-get: install the venv module's ensurepip (python3-venv)."""
    sys.path.insert(0, str(ROOT / "tools"))
    from install_test_deps import apt_install, can_apt

    if not can_apt():
        return False
    versioned = f"python{sys.version_info[0]}.{sys.version_info[1]}-venv"
    print(f"installing {versioned} with apt-get (for pip in .venv-test) ...", flush=True)
    return apt_install([versioned]) or apt_install(["python3-venv"])


def make_venv(folder: Path, wheel_url: Optional[str] = None, sha256: Optional[str] = None) -> Path:
    """Make (or remake) a virtual environment of this Python in ``folder`` with pip in it;
    its interpreter.  See the module docstring for the fallbacks."""
    python = venv_python(folder)
    if not (_venv(folder) and has_module(python, "pip")):
        print("venv could not install pip (on Debian and Ubuntu: python3-venv is not "
              "installed); installing pip from its wheel on PyPI ...", flush=True)
        if not _venv(folder, "--without-pip"):
            raise EnvironmentSetupError(f"{sys.executable} -m venv --without-pip {folder} failed")
        try:
            install_pip(python, wheel_url, sha256)
        # no network (URLError is an OSError), an answer not as expected, a failed install
        except (OSError, ValueError, LookupError, TypeError, EnvironmentSetupError) as exc:
            if not (_apt_install_venv() and _venv(folder) and has_module(python, "pip")):
                raise EnvironmentSetupError(
                    f"no pip for {folder}: {exc}. Install the venv module's pip (Debian, "
                    f"Ubuntu: sudo apt-get install python3-venv) and run this again") from None
    # a virtual environment is no part of the repository (Python 3.13's venv does the same)
    (folder / ".gitignore").write_text("*\n", encoding="utf-8")
    return python


def ensure_tox(folder: Path = VENV) -> Path:
    """The interpreter of ``folder``'s environment, made if needed, with tox installed."""
    python = venv_python(folder)
    if has_module(python, "tox"):
        return python
    if not has_module(python, "pip"):  # absent, or broken (its Python gone)
        print(f"making {folder.name}/, a virtual environment for tox ...", flush=True)
        python = make_venv(folder)
    print(f"installing tox into {folder.name}/ ...", flush=True)
    if subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                       "--disable-pip-version-check", TOX_REQUIREMENT]).returncode != 0:
        raise EnvironmentSetupError(f"{python} -m pip install {TOX_REQUIREMENT} failed (see above)")
    return python


# --------------------------------------------------------------------------- which runs

def _split_posargs(args: Sequence[str]) -> Tuple[List[str], List[str]]:
    args = list(args)
    if "--" in args:
        cut = args.index("--")
        return args[:cut], args[cut:]
    return args, []


def default_envs(tox_ini: Path = ROOT / "tox.ini") -> List[str]:
    """tox.ini's envlist, plus ``pyXY`` for the Python running this script when the list does
    not name its version (so that a machine's own Python always runs the suite)."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(tox_ini, encoding="utf-8")
    envs = [name for name in re.split(r"[\s,]+", config.get("tox", "envlist", fallback=""))
            if name]
    own = f"py{sys.version_info[0]}{sys.version_info[1]}"
    if sys.implementation.name == "cpython" and own not in envs:
        envs.append(own)
    return envs


def tox_command(python: Path, args: Sequence[str], results: Path = RESULTS) -> List[str]:
    options, posargs = _split_posargs(args)
    if not any(option.startswith(("-e", "--env")) for option in options):
        options = ["-e", ",".join(default_envs())] + options
    quiet = [] if sys.stdout.isatty() else ["--parallel-no-spinner"]  # no spinner in CI logs
    return ([str(python), "-m", "tox", "p", "-p", "all", *quiet, "--result-json", str(results)]
            + options + posargs)


# --------------------------------------------------------------------------- what they said

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|"
                    r"warnings?)\b")
_SUMMARY = re.compile(r"^=*\s*((\d+ \w+(, )?)+|no tests ran)( in [\d.]+s.*)?\s*=*$")
_SECTION = re.compile(r"^=+ .+ =+$")
_ORDER = ("failed", "passed", "skipped", "xfailed", "xpassed", "error", "deselected", "warning")


def pytest_tail(output: str) -> Tuple[List[str], Optional[str]]:
    """pytest's closing sections (failures, warnings, the short summary with skip reasons)
    and its counts line, from its output."""
    lines = [_ANSI.sub("", line) for line in output.splitlines()]
    summary_at = next((i for i in range(len(lines) - 1, -1, -1)
                       if _SUMMARY.match(lines[i].strip())), None)
    if summary_at is None:
        return [], None
    first = next((i for i in range(summary_at) if _SECTION.match(lines[i])), summary_at)
    return lines[first:summary_at], lines[summary_at].strip(" =")


def counts_of(summary: str) -> Dict[str, int]:
    """``{"passed": 2582, "skipped": 23}`` from pytest's counts line (plural words folded)."""
    counts: Dict[str, int] = {}
    for number, word in _COUNT.findall(summary):
        word = word.rstrip("s") if word in ("errors", "warnings") else word
        counts[word] = counts.get(word, 0) + int(number)
    return counts


def format_counts(counts: Dict[str, int]) -> str:
    """pytest's words for ``counts``: ``1 failed, 2580 passed, 2 errors``."""
    words = []
    for word in _ORDER:
        if counts.get(word):
            plural = word in ("error", "warning") and counts[word] != 1
            words.append(f"{counts[word]} {word}{'s' if plural else ''}")
    return ", ".join(words) or "no tests ran"


def report(journal: dict, envs: Sequence[str], seconds: float, out=sys.stdout) -> int:
    """Print each run's pytest sections and counts, then the total line; the number of runs
    that failed plus 1 if no interpreter ran the tests (0: all good)."""
    runs = journal.get("testenvs", {})
    # tox lists every environment it configured; only those with a result ran (not .pkg)
    names = [name for name in envs if "result" in runs.get(name, {})]
    names += [name for name, run in runs.items() if name not in names and "result" in run]
    total: Dict[str, int] = {}
    ran: List[str] = []
    failed: List[str] = []
    for name in names:
        run = runs[name]
        result = run.get("result", {})
        if result.get("skipped"):
            print(f"---- {name}: skipped (interpreter not found)", file=out)
            continue
        commands = run.get("test", [])
        python = run.get("python") or {}
        version = ".".join(map(str, python.get("version_info", [])[:3]))
        where = f" ({python.get('implementation', '')} {version})" if version else ""
        ok = bool(result.get("success"))
        if not ok:
            failed.append(name)
        sections, summary = pytest_tail(commands[-1].get("output", "")) if commands else ([], None)
        if summary is None:  # not pytest ("system"), or the run failed before pytest's end
            print(f"---- {name}{where}: {'ok' if ok else 'FAILED'}", file=out)
            shown = commands[-1:] if ok else [c for c in run.get("setup", []) + commands
                                               if c.get("retcode") not in (0, None)]
            for command in shown:
                text = (command.get("output", "") + command.get("err", "")).strip()
                print("\n".join(_ANSI.sub("", line) for line in text.splitlines()[-40:]),
                      file=out)
            continue
        ran.append(name)
        words = list(commands[-1].get("command", []))
        shown = shlex.join([Path(words[0]).name] + words[1:]) if words else "pytest"
        print(f"---- {name}{where}: {shown}", file=out)
        for line in sections:
            print(line, file=out)
        print(f"{name}: {summary}", file=out)
        for word, number in counts_of(summary).items():
            total[word] = total.get(word, 0) + number
    line = f"{format_counts(total)} in {seconds:.1f}s ({', '.join(ran) or 'no interpreter'})"
    if failed:
        line += f"; FAILED: {', '.join(failed)}"
    print(f" {line} ".center(max(len(line) + 4, 88), "="), file=out)
    return len(failed) + (0 if ran else 1)


def main(argv: Sequence[str]) -> int:
    if sys.version_info < (3, 9):
        print(f"the tests need Python 3.9 or newer; this is {sys.version.split()[0]}")
        return 2
    try:
        python = ensure_tox()
    except EnvironmentSetupError as exc:
        print(f"run_tests: {exc}", file=sys.stderr)
        return 2
    command = tox_command(python, argv)
    envs = command[command.index("-e") + 1].split(",") if "-e" in command else []
    RESULTS.parent.mkdir(exist_ok=True)
    if RESULTS.exists():
        RESULTS.unlink()
    print(" ".join(["tox"] + command[3:]), flush=True)
    start = time.monotonic()
    code = subprocess.run(command, cwd=ROOT).returncode
    seconds = time.monotonic() - start
    try:
        journal = json.loads(RESULTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        print(f"tox wrote no results (exit status {code})", file=sys.stderr)
        return code or 1
    failures = report(journal, envs, seconds)
    return code or (1 if failures else 0)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
