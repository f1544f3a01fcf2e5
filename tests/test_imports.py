"""Every module compiles and every package module imports on the interpreter running the tests.

Cheap, and the one check of some code on every interpreter: the Python 3.9 and PyPy runs
leave the front ends' tests to the CPython 3.11 run (tox.ini), so here at least a syntax
or an annotation that 3.9 does not accept, or an import that fails, is caught there too.
"""
from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

import draughts_engine
import protocol

ROOT = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("draughts_engine", "protocol", "tools", "bench")


def package_modules() -> List[str]:
    """Every module of the two packages, ``__main__`` modules aside (importing one runs it)."""
    names = []
    for package in (draughts_engine, protocol):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                names.append(info.name)
    return sorted(names)


def source_files() -> List[Path]:
    return sorted(path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def test_the_lists_are_not_empty() -> None:
    modules = package_modules()
    assert "protocol.web.board" in modules and "draughts_engine.search.pvs" in modules
    assert ROOT / "tools" / "build_book.py" in source_files()


@pytest.mark.parametrize("name", package_modules())
def test_module_imports(name: str) -> None:
    importlib.import_module(name)


def test_every_source_file_compiles() -> None:
    failures = []
    for path in source_files():
        try:
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
        except SyntaxError as error:
            failures.append(f"{path.relative_to(ROOT)}:{error.lineno}: {error.msg}")
    assert not failures, failures


#: Standard modules the server loads only when a command needs them (a subprocess, a file of
#: JSON, the helper processes, a socket): each would add milliseconds to every start-up.
NOT_AT_START_UP = ("subprocess", "json", "multiprocessing", "platform", "socket", "asyncio")


def test_the_server_starts_without_the_modules_only_some_commands_need() -> None:
    script = ("import sys; import protocol.server; "
              f"print(' '.join(m for m in {NOT_AT_START_UP!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == []
