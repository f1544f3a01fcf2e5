"""docs/play.md shows what the program does: its session transcript is replayed and compared
line by line, and its Python example runs; the README's abbreviated game is a part of the same
output, its lines in order."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

from test_play_support import ROOT, play_env, run_play

DOC = ROOT / "docs" / "play.md"
PROMPT = re.compile(r"^(?:\S+ \d+|game over)> (.*)$")


def transcripts() -> List[Tuple[List[str], List[str]]]:
    """(arguments, expected lines) of each ``<!-- play-transcript: ARGS -->`` block."""
    text = DOC.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"<!-- play-transcript: (.*?) -->\n```\n(.*?)```", text, re.S):
        found.append((shlex.split(match.group(1)), match.group(2).splitlines()))
    return found


def _same_version(line: str) -> str:
    return re.sub(r"draughts-engine \d+\.\d+\.\d+\S*", "draughts-engine <version>", line)


def test_the_documented_session_is_what_the_program_prints() -> None:
    blocks = transcripts()
    assert blocks, "docs/play.md lost its transcript"
    for args, expected in blocks:
        commands = [m.group(1) for m in map(PROMPT.match, expected) if m]
        done = run_play(args, "\n".join(commands) + "\n")
        assert done.returncode == 0, done.stderr
        got = [_same_version(line) for line in done.stdout.splitlines()]
        assert got == [_same_version(line) for line in expected]


def test_the_documented_python_example_runs(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", text, re.S)
    done = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True,
                          cwd=str(tmp_path), env=play_env(), timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.pdn").read_text().startswith('[Event "draughts-play"]')


def test_the_readme_excerpt_is_part_of_what_the_program_prints() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- play-excerpt: (.*?) -->\n```\n(.*?)```", text, re.S)
    assert blocks, "README.md lost its play excerpt"
    for args, body in blocks:
        expected = [line for line in body.splitlines() if not line.startswith("$ ")]
        commands = [m.group(1) for m in map(PROMPT.match, expected) if m]
        done = run_play(shlex.split(args), "\n".join(commands) + "\nquit\n")
        assert done.returncode == 0, done.stderr
        got = iter(_same_version(line) for line in done.stdout.splitlines())
        for line in expected:
            wanted = _same_version(line)
            assert any(line_got == wanted for line_got in got), f"not printed (in order): {line}"
