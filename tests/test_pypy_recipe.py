"""README's recipe for PyPy outside the repository folder ("Strongest play: PyPy"), followed
offline: a PyPy virtual environment, the repository installed into it with its own pip, and its
console script, by full path, as the engine command from another folder."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPY3 = shutil.which("pypy3")


def readme_recipe() -> Tuple[str, str]:
    """The PyPy section's install command: (the venv folder, the pip arguments after install)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Strongest play: PyPy"):]
    section = section[:section.index("\n## ")]
    line = next(line.strip() for line in section.splitlines()
                if line.strip().startswith("pypy3 -m venv "))
    match = re.fullmatch(r"pypy3 -m venv (\S+) && (\S+)/bin/pip install (.+)", line)
    assert match and match.group(1) == match.group(2), line
    assert f"{match.group(1)}/bin/draughts-engine" in section  # the engine command it names
    return match.group(1), match.group(3)


def test_the_readme_shows_the_recipe() -> None:
    folder, arguments = readme_recipe()
    assert folder == "~/.venvs/draughts-pypy" and arguments == "/path/to/draughts-engine"


def _copy_of_the_repository(into: Path) -> Path:
    """What ``pip install`` needs of the repository, copied (a build writes ``build/`` and
    ``*.egg-info`` beside the sources; the runs of the other interpreters share this folder)."""
    into.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, into / name)
    for package in ("draughts_engine", "protocol"):
        shutil.copytree(ROOT / package, into / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return into


def _run(command: List[str], **options: object) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(command, capture_output=True, text=True, timeout=600, **options)


@pytest.mark.skipif(PYPY3 is None, reason="pypy3 is not installed (Debian, Ubuntu: apt-get "
                                          "install pypy3; the test command installs it as root)")
def test_the_readme_pypy_recipe_gives_an_engine_command_for_any_folder(tmp_path: Path) -> None:
    assert PYPY3 is not None
    repository = _copy_of_the_repository(tmp_path / "draughts-engine")
    venv = tmp_path / "draughts-pypy"
    made = _run([PYPY3, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stdout + made.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    # Offline: no index, the venv's own setuptools (README's command fetches what it needs).
    offline = ["--quiet", "--no-index", "--no-deps", "--disable-pip-version-check"]
    _, arguments = readme_recipe()  # README's pip install, for our folders, offline
    done = _run([str(bin_dir / "pip"), "install", "--no-build-isolation", *offline,
                 *arguments.replace("/path/to/draughts-engine", str(repository)).split()])
    if done.returncode != 0:
        # The venv's setuptools cannot build a wheel by itself (before setuptools 70.1 it
        # needs the wheel package: Debian 12's PyPy); build it with this interpreter's.
        wheels = tmp_path / "wheels"
        built = _run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", *offline,
                      "--wheel-dir", str(wheels), str(repository)])
        if built.returncode != 0:
            pytest.skip("no setuptools here can build a wheel offline (the PyPy venv's: "
                        f"{done.stderr.strip()[-200:]!r}; this interpreter's: "
                        f"{built.stderr.strip()[-200:]!r})")
        done = _run([str(bin_dir / "pip"), "install", *offline,
                     *map(str, wheels.glob("draughts_engine-*.whl"))])
    assert done.returncode == 0, done.stdout + done.stderr
    engine = bin_dir / ("draughts-engine.exe" if os.name == "nt" else "draughts-engine")
    assert engine.exists()
    # From another folder, with nothing of the repository or of tox's environment in sight.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(folder for folder in env.get("PATH", "").split(os.pathsep)
                                  if folder and not (Path(folder).parent / "pyvenv.cfg").exists())
    session = _run([str(engine)], input="uci\nisready\nposition startpos\ngo depth 3\n"
                   "isready\nquit\n", cwd=elsewhere, env=env)
    assert session.returncode == 0, session.stdout + session.stderr
    lines = session.stdout.splitlines()
    assert "uciok" in lines and lines.count("readyok") == 2, session.stdout
    assert any(line.startswith("bestmove ") for line in lines), session.stdout
    implementation = _run([str(bin_dir / "python"), "-c",
                           "import platform, protocol; print(platform.python_implementation(), "
                           "protocol.__file__)"], cwd=elsewhere, env=env)
    name, where = implementation.stdout.split()
    assert name == "PyPy" and Path(where).resolve().is_relative_to(venv.resolve())
