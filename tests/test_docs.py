"""The documentation, executed: every example session in README.md, PROTOCOL.md and docs/*.md is
replayed against the real server, and the Python snippets of README.md and docs/*.md are run.

How an example session is written (PROTOCOL.md, "Notation", says the same for readers):

* A code block (indented by four spaces, or fenced with ```) whose lines start with ``> `` or
  ``< `` is a session. Each session is replayed against a fresh server, ``python3 -m protocol``
  started in the repository folder; a session whose first line is ``> hub`` is Hub mode.
* ``> text`` is a line the client sends. It is sent as soon as the lines before it have matched,
  so a line shown after a ``bestmove`` is sent after the ``bestmove`` arrived.
* ``< text`` is a line the server writes. It is compared with the server's next line in full,
  except for two marks:
    - ``<word>`` (a lowercase word in angle brackets: ``<n>``, ``<ms>``, ``<score>``) stands for
      one token that varies from run to run or from one search to another (node counts, times,
      nps, search-dependent scores and moves);
    - ``...`` inside a ``<`` line stands for any text, e.g. ``< info depth 1 ...``.
* A line ``...`` on its own stands for any number of server lines (zero or more): the next
  ``<`` line is looked for further down the output. Without ``...`` between them, shown lines
  must follow each other exactly.
* Blank lines inside a session are ignored.
* When the session is over, stdin is closed; the server must then exit with status 0 and
  write nothing more, unless the session ends with ``...``.
* A session that cannot be replayed by this test (it needs a second program, a network peer,
  minutes of play) is preceded, on the line just before its block, by an HTML comment
  ``<!-- not replayed: <reason> -->``. It is reported as a skipped test with that reason, never
  dropped silently. A session must start with a ``>`` line (the server speaks only when spoken
  to), so an output fragment without that comment fails, as does any other line in a session.

Python snippets (```` ```python ```` blocks) are run from a temporary folder with the repository
on ``PYTHONPATH`` (the way README.md tells users to run their own scripts): a snippet with
``>>>`` prompts is a doctest (ELLIPSIS and NORMALIZE_WHITESPACE on), any other snippet must run
to exit status 0. A snippet that needs what the tests do not have (pydraughts, a GUI) is
preceded by ``<!-- not run: <reason> -->`` and reported as skipped.

docs/match.md shows the report of a 40-game match, too long to replay: the same report for a
four-game match of deterministic random movers must have its lines, figures aside.

Files and modules the docs name in backquotes (``protocol/client.py``,
``protocol.client.Engine``, ``tests/fake_engines/random_mover.py``) must exist, so a file that
moves without its docs fails here too.

The ``...`` and ``<word>`` marks are what keeps a figure out of the comparison; everything else a
session shows is checked, so an example edited to a wrong output fails here (the meta-tests at the
end prove it). Nothing here measures time: the waits are hang guards only.
"""
from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES: Tuple[str, ...] = ("README.md", "PROTOCOL.md") + tuple(
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))
SERVER = [sys.executable, "-m", "protocol"]
# Hang guards, not measurements: a healthy server answers every shown line in well under a second.
LINE_TIMEOUT = 30.0
EXIT_TIMEOUT = 60.0

# Sessions that show the intended behaviour while the program does not follow it yet (a bug in
# the program, not drift in the doc), keyed by Session.key (the file and the lines sent). Each
# must fail (strict xfail): once the program is fixed the test passes, XPASS fails the suite,
# and the entry is removed. Their hang guard is shorter (a line that never comes is the
# expected failure, and a healthy server answers these in well under a second).
EXPECTED_TO_FAIL: Dict[str, str] = {}
XFAIL_LINE_TIMEOUT = 10.0

_NOT_REPLAYED = re.compile(r"^<!--\s*not (?:replayed|run):\s*(?P<reason>.+?)\s*-->$")
_MARK = re.compile(r"(<[a-z][a-z0-9-]*>|\.\.\.)")


class DocFormatError(ValueError):
    """A code block looks like a session but breaks the notation (the message names the line)."""


class Mismatch(AssertionError):
    """The server's output differs from what a session shows."""


@dataclass(frozen=True)
class Step:
    """One line of a session: ``send`` (``> ``), ``expect`` (``< ``) or ``skip`` (``...``)."""

    kind: str
    text: str
    line: int


@dataclass(frozen=True)
class Session:
    """An example session of a doc file; ``not_replayed`` is the reason given in its marker."""

    path: str
    line: int
    steps: Tuple[Step, ...]
    not_replayed: Optional[str] = None

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def key(self) -> str:
        """``<file>: <sent line> | <sent line> ...``: names the session while lines move."""
        return f"{self.path}: " + " | ".join(s.text for s in self.steps if s.kind == "send")


@dataclass(frozen=True)
class CodeBlock:
    """A Markdown code block: its first line number, its lines (indentation removed), the fence's
    info string (``python``; empty for indented blocks) and the last non-blank line before it."""

    line: int
    lines: Tuple[str, ...]
    info: str
    before: str


# --------------------------------------------------------------------------- reading the docs

def code_blocks(text: str) -> Iterator[CodeBlock]:
    """Fenced (```) and indented (four spaces after a blank line) code blocks of Markdown text."""
    lines = text.split("\n")
    before = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            indent = len(line) - len(line.lstrip())
            body: List[str] = []
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
                j += 1
            yield CodeBlock(i + 2, tuple(body), stripped[3:].strip(), before)
            before = ""
            i = j + 1
            continue
        if line.startswith("    ") and stripped and (i == 0 or not lines[i - 1].strip()):
            body = []
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                body.append(lines[j][4:])
                j += 1
            while body and not body[-1].strip():
                body.pop()
            yield CodeBlock(i + 1, tuple(body), "", before)
            before = ""
            i = j
            continue
        if stripped:
            before = stripped
        i += 1


def _is_session_line(line: str) -> bool:
    return line in (">", "<") or line.startswith("> ") or line.startswith("< ")


def session_of(path: str, block: CodeBlock) -> Optional[Session]:
    """The session a code block shows, or None when it shows none (a command line, a grammar)."""
    if block.info.lower() not in ("", "text", "console"):
        return None
    if not any(_is_session_line(line.rstrip()) for line in block.lines):
        return None
    steps: List[Step] = []
    for offset, raw in enumerate(block.lines):
        line = raw.rstrip()
        number = block.line + offset
        if not line:
            continue
        if line == "...":
            steps.append(Step("skip", "", number))
        elif line[0] == ">" and _is_session_line(line):
            steps.append(Step("send", line[2:], number))
        elif line[0] == "<" and _is_session_line(line):
            steps.append(Step("expect", line[2:], number))
        else:
            raise DocFormatError(f"{path}:{number}: a session line must start with '> ', '< ' "
                                 f"or be '...', got {line!r}")
    marker = _NOT_REPLAYED.match(block.before)
    session = Session(path, block.line, tuple(steps), marker.group("reason") if marker else None)
    if session.not_replayed is None and steps[0].kind != "send":
        raise DocFormatError(f"{path}:{block.line}: a session starts with a '> ' line (the server "
                             "writes nothing first); mark a fragment '<!-- not replayed: why -->'")
    return session


def sessions_in(path: str, text: str) -> List[Session]:
    return [s for s in (session_of(path, b) for b in code_blocks(text)) if s is not None]


def python_snippets(path: str, text: str) -> List[CodeBlock]:
    return [b for b in code_blocks(text) if b.info.lower() in ("python", "py", "pycon")]


def _read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def all_sessions() -> List[Session]:
    return [s for path in DOC_FILES for s in sessions_in(path, _read(path))]


# --------------------------------------------------------------------------- comparing lines

def line_pattern(expected: str) -> "re.Pattern[str]":
    """The regular expression a shown ``<`` line stands for: ``<word>`` is one token, ``...`` any
    text, everything else literal."""
    parts = []
    for piece in _MARK.split(expected):
        if piece == "...":
            parts.append(".*")
        elif _MARK.fullmatch(piece):
            parts.append(r"\S+")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def line_matches(expected: str, actual: str) -> bool:
    return line_pattern(expected).fullmatch(actual) is not None


# --------------------------------------------------------------------------- the replay

class _Output:
    """The server's stdout lines through a queue (None at end of output), and its stderr."""

    def __init__(self, proc: "subprocess.Popen[bytes]") -> None:
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stderr: List[bytes] = []
        self._threads = [threading.Thread(target=self._pump, args=(proc.stdout,), daemon=True),
                         threading.Thread(target=self._drain, args=(proc.stderr,), daemon=True)]
        for thread in self._threads:
            thread.start()

    def _pump(self, stream) -> None:
        for raw in iter(stream.readline, b""):
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def _drain(self, stream) -> None:
        for raw in iter(stream.readline, b""):
            self.stderr.append(raw)

    def next(self, timeout: float) -> Optional[str]:
        """The next line; None at end of output; raises queue.Empty after ``timeout`` s."""
        return self.lines.get(timeout=timeout)

    def join(self) -> None:
        for thread in self._threads:
            thread.join(EXIT_TIMEOUT)


def replay(session: Session, command: Sequence[str] = SERVER,
           line_timeout: float = LINE_TIMEOUT) -> List[str]:
    """Replay ``session`` against a fresh server; return the transcript, raise Mismatch on the
    first difference (with the file line and the transcript so far). ``line_timeout`` is the
    hang guard: how long to wait for a shown line before calling it missing."""
    proc = subprocess.Popen(list(command), cwd=str(ROOT), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = _Output(proc)
    transcript: List[str] = []

    def fail(step: Optional[Step], problem: str) -> Mismatch:
        where = f"{session.path}:{step.line}" if step else session.name
        shown = "\n".join(transcript[-30:])
        err = b"".join(output.stderr).decode("utf-8", "replace")[-2000:]
        return Mismatch(f"{where}: {problem}\n--- transcript (last lines) ---\n{shown}"
                        + (f"\n--- stderr ---\n{err}" if err else ""))

    try:
        skipping = False
        for step in session.steps:
            if step.kind == "skip":
                skipping = True
            elif step.kind == "send":
                transcript.append("> " + step.text)
                try:
                    proc.stdin.write(step.text.encode("utf-8") + b"\n")
                    proc.stdin.flush()
                except (BrokenPipeError, OSError):
                    raise fail(step, f"the server had exited before {step.text!r} was sent")
            else:
                while True:
                    try:
                        actual = output.next(line_timeout)
                    except queue.Empty:
                        raise fail(step, f"expected {step.text!r}, the server wrote nothing "
                                         f"for {line_timeout:.0f} s") from None
                    if actual is None:
                        raise fail(step, f"expected {step.text!r}, the output ended")
                    transcript.append("< " + actual)
                    if line_matches(step.text, actual):
                        skipping = False
                        break
                    if not skipping:
                        raise fail(step, f"expected {step.text!r}, the server wrote {actual!r}")
        try:
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        while True:
            try:
                actual = output.next(EXIT_TIMEOUT)
            except queue.Empty:
                raise fail(None, "the output did not end after the input ended") from None
            if actual is None:
                break
            transcript.append("< " + actual)
            if not skipping:
                raise fail(None, f"the session ended but the server wrote {actual!r}")
        try:
            status = proc.wait(EXIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise fail(None, "the server did not exit after its input ended")
        output.join()
        if status != 0:
            raise fail(None, f"the server exited with status {status}")
        return transcript
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except (BrokenPipeError, OSError):
                pass


# --------------------------------------------------------------------------- the tests

def _session_params() -> List[object]:
    params: List[object] = []
    for path in DOC_FILES:
        for block in code_blocks(_read(path)):
            try:
                session_of(path, block)
            except DocFormatError as error:
                params.append(pytest.param(error, id=f"{path}:{block.line}"))
    for session in _sessions_that_parse():
        marks = []
        if session.not_replayed is not None:
            reason = f"{session.name} not replayed: {session.not_replayed}"
            marks.append(pytest.mark.skip(reason=reason))
        elif session.key in EXPECTED_TO_FAIL:
            marks.append(pytest.mark.xfail(reason=EXPECTED_TO_FAIL[session.key], strict=True,
                                           raises=Mismatch))
        params.append(pytest.param(session, id=session.name, marks=marks))
    return params


def _sessions_that_parse() -> List[Session]:
    found = []
    for path in DOC_FILES:
        for block in code_blocks(_read(path)):
            try:
                session = session_of(path, block)
            except DocFormatError:
                continue
            if session is not None:
                found.append(session)
    return found


@pytest.mark.parametrize("session", _session_params())
def test_doc_session_replays_against_the_server(session: object) -> None:
    if isinstance(session, DocFormatError):
        pytest.fail(str(session))
    assert isinstance(session, Session)
    expected_to_fail = session.key in EXPECTED_TO_FAIL
    replay(session, line_timeout=XFAIL_LINE_TIMEOUT if expected_to_fail else LINE_TIMEOUT)


def _run_snippet(block: CodeBlock, name: str) -> "subprocess.CompletedProcess[str]":
    """Run a snippet in a fresh interpreter from an empty temporary folder (repository on
    PYTHONPATH, as README.md tells users); a doctest when it has ``>>>`` prompts."""
    source = "\n".join(block.lines) + "\n"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    with tempfile.TemporaryDirectory() as folder:
        if ">>>" in source:
            driver = (
                "import doctest, sys\n"
                "text = sys.stdin.read()\n"
                f"test = doctest.DocTestParser().get_doctest(text, {{}}, {name!r}, {name!r}, 0)\n"
                "flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE\n"
                "runner = doctest.DocTestRunner(optionflags=flags)\n"
                "runner.run(test)\n"
                "sys.exit(1 if runner.failures else 0)\n")
            args = [sys.executable, "-c", driver]
        else:
            script = Path(folder) / "snippet.py"
            script.write_text(source, encoding="utf-8")
            args = [sys.executable, str(script)]
        return subprocess.run(args, input=source if ">>>" in source else None, cwd=folder, env=env,
                              capture_output=True, text=True, timeout=120)


def _snippet_params() -> List[object]:
    params = []
    for path in DOC_FILES:
        for block in python_snippets(path, _read(path)):
            marker = _NOT_REPLAYED.match(block.before)
            reason = f"{path}:{block.line} not run: {marker.group('reason')}" if marker else ""
            marks = [pytest.mark.skip(reason=reason)] if marker else []
            params.append(pytest.param(block, f"{path}:{block.line}", id=f"{path}:{block.line}",
                                       marks=marks))
    return params


@pytest.mark.parametrize("block, name", _snippet_params())
def test_python_snippet_runs_from_another_folder(block: CodeBlock, name: str) -> None:
    done = _run_snippet(block, name)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"


# --------------------------------------------------------------------------- the docs are covered

def test_every_doc_file_is_read_and_sessions_are_found() -> None:
    assert "docs/match.md" in DOC_FILES and "docs/small-games.md" in DOC_FILES
    sessions = all_sessions()
    for path in ("README.md", "PROTOCOL.md"):
        assert any(s.path == path and s.not_replayed is None for s in sessions), path
    assert python_snippets("README.md", _read("README.md"))


def test_no_session_line_is_outside_a_parsed_session() -> None:
    """A '> '/'< ' line the parser did not take as part of a session (a block it misread) fails."""
    for path in DOC_FILES:
        text = _read(path)
        covered = set()
        for block in code_blocks(text):
            if session_of(path, block) is not None:
                covered.update(range(block.line, block.line + len(block.lines)))
        for number, line in enumerate(text.split("\n"), start=1):
            if line.startswith(" ") and _is_session_line(line.strip()) and number not in covered:
                pytest.fail(f"{path}:{number}: a session line outside any session: {line!r}")


def test_expected_to_fail_entries_name_existing_sessions() -> None:
    keys = [s.key for s in all_sessions()]
    for key in EXPECTED_TO_FAIL:
        assert keys.count(key) == 1, key


# --------------------------------------------------------------------------- meta-tests

def _first_replayable(path: str) -> Session:
    return next(s for s in sessions_in(path, _read(path)) if s.not_replayed is None
                and s.key not in EXPECTED_TO_FAIL)


def _session_with(path: str, sent: str) -> Session:
    return next(s for s in sessions_in(path, _read(path))
                if any(step.kind == "send" and step.text == sent for step in s.steps))


def _mutated(session: Session, index: int, text: str) -> Session:
    steps = list(session.steps)
    steps[index] = replace(steps[index], text=text)
    return replace(session, steps=tuple(steps))


def test_line_marks() -> None:
    assert line_matches("nodes <n> nps <n>", "nodes 8 nps 25998")
    assert not line_matches("nodes <n>", "nodes 8 9")
    assert not line_matches("nodes <n>", "nodes ")
    assert line_matches("info depth 1 ...", "info depth 1 seldepth 1 pv 9-14")
    assert line_matches("a ... b", "a  b") and not line_matches("a ... b", "a c")
    assert line_matches("error go: x (y) [z]", "error go: x (y) [z]")
    assert not line_matches("bestmove 9-14", "bestmove 9-14 ponder 23-18")


def test_parser_rejects_a_stray_line_and_an_unmarked_fragment() -> None:
    with pytest.raises(DocFormatError, match="x.md:4"):
        sessions_in("x.md", "Text:\n\n    > uci\n    id name\n")
    with pytest.raises(DocFormatError, match="starts with"):
        sessions_in("x.md", "Output:\n\n    < bestmove 11-15\n")
    fragment = "Output:\n<!-- not replayed: a fragment -->\n\n    < bestmove 11-15\n"
    marked = sessions_in("x.md", fragment)
    assert marked[0].not_replayed == "a fragment"
    plain = sessions_in("x.md", "Run:\n\n    python3 -m protocol\n\n```python\n>>> 1\n1\n```\n")
    assert plain == []


@pytest.mark.parametrize("path", ["README.md", "PROTOCOL.md"])
def test_a_doc_example_edited_to_a_wrong_output_fails(path: str) -> None:
    """Mutate one shown output line of a real example in memory: the replay must fail."""
    session = _first_replayable(path)
    index = next(i for i, step in enumerate(session.steps)
                 if step.kind == "expect" and not _MARK.search(step.text)
                 and session.steps[i - 1].kind != "skip")
    wrong = _mutated(session, index, session.steps[index].text + "0")
    with pytest.raises(Mismatch, match=f"{path}:{session.steps[index].line}"):
        replay(wrong)


def test_a_wrong_error_text_and_a_missing_line_fail() -> None:
    session = _session_with("PROTOCOL.md", "setoption name hash value 4096")
    replay(session)
    index = next(i for i, s in enumerate(session.steps) if s.kind == "expect")
    right = session.steps[index].text
    with pytest.raises(Mismatch, match="the server wrote 'error setoption"):
        replay(_mutated(session, index, right.replace("1..1024", "1..2048")))
    dropped = replace(session, steps=session.steps[:index] + session.steps[index + 1:])
    with pytest.raises(Mismatch, match="the server wrote 'error setoption"):
        replay(dropped)


def test_a_wrong_hub_example_fails() -> None:
    session = _session_with("PROTOCOL.md", "hub")
    index = next(i for i, s in enumerate(session.steps) if s.kind == "expect")
    wrong = _mutated(session, index, session.steps[index].text.replace("draughts-engine", "scan"))
    with pytest.raises(Mismatch):
        replay(wrong)


def test_a_wrong_python_snippet_output_fails() -> None:
    block = next(b for b in python_snippets("README.md", _read("README.md"))
                 if any(line.startswith(">>>") for line in b.lines))
    lines = list(block.lines)
    index = next(i for i, line in enumerate(lines)
                 if "36768" in line and not line.startswith(">>>"))
    lines[index] = lines[index].replace("36768", "36767")
    done = _run_snippet(replace(block, lines=tuple(lines)), "README.md (mutated)")
    assert done.returncode != 0 and "36767" in done.stdout


# --------------------------------------------------------------------------- named files, modules

_PATH_REF = re.compile(r"`((?:protocol|draughts_engine|tests|bench|docs|\.ci)/[\w./-]*[\w/])`")
_MODULE_REF = re.compile(r"`((?:protocol|draughts_engine)(?:\.\w+)+)(?:\([^`]*\))?`")


def _resolves(dotted: str) -> bool:
    """True when ``dotted`` names a module, or an attribute reached from its longest module."""
    import importlib
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


HISTORY_FILES = frozenset({"docs/benchmarks-history.md"})
"""Dated records: they name files as they were then (BENCHMARKS.md names today's)."""


@pytest.mark.parametrize("path", sorted(set(DOC_FILES) - HISTORY_FILES))
def test_files_and_modules_named_in_the_docs_exist(path: str) -> None:
    text = _read(path)
    missing = []
    for number, line in enumerate(text.split("\n"), start=1):
        for ref in _PATH_REF.findall(line):
            if not (ROOT / ref).exists():
                missing.append(f"{path}:{number}: no file or folder {ref}")
        for ref in _MODULE_REF.findall(line):
            if not _resolves(ref):
                missing.append(f"{path}:{number}: cannot import {ref}")
    assert not missing, "\n".join(missing)



# --------------------------------------------------------------------------- docs/match.md's table

_FIGURE = re.compile(r"[+-]?(?:\d+(?:\.\d+)?|inf)%?")


def _shape(lines: Sequence[str]) -> List[str]:
    """Lines with every figure replaced by '#' and blanks collapsed: what a format change alters."""
    return [" ".join(_FIGURE.sub("#", line).split()) for line in lines]


def test_match_md_sample_output_has_the_shape_the_runner_prints() -> None:
    """docs/match.md shows the end of a 40-game match, too long to replay here; the same report
    for four games between deterministic random movers must have the same lines, figures aside."""
    blocks = code_blocks(_read("docs/match.md"))
    sample = next(b for b in blocks if b.lines and b.lines[0].startswith("pairing"))
    mover = [sys.executable, str(ROOT / "tests" / "fake_engines" / "random_mover.py")]
    command = [sys.executable, "-m", "protocol.match",
               "--engine", "name=deep", "cmd=" + shlex.join(mover + ["--seed", "1"]), "depth=4",
               "--engine", "name=shallow", "cmd=" + shlex.join(mover + ["--seed", "2"]), "depth=2",
               "--variant", "english", "--games", "4", "--concurrency", "2"]
    done = subprocess.run(command, cwd=str(ROOT), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    printed = done.stdout.rstrip("\n").split("\n")
    assert _shape(printed) == _shape(sample.lines), (
        f"docs/match.md:{sample.line} no longer has the shape of the runner's report:\n"
        + "\n".join(printed))


def test_the_shape_check_sees_a_renamed_column() -> None:
    shape = _shape(["deep vs shallow  40  28  82.5%  [+178.4, +inf]"])
    assert shape == ["deep vs shallow # # # [#, #]"]
    assert _shape(["pairing games +"]) != _shape(["pairing games W"])


def _quick_start_commands() -> List[str]:
    """The commands of README.md's "Quick start" before its first session: run, then test."""
    text = _read("README.md")
    start = text.index("## Quick start")
    blocks = code_blocks(text[start:])
    commands = []
    for block in blocks:
        if block.lines and block.lines[0].startswith(("> ", "< ")):
            break
        commands.extend(line.strip() for line in block.lines if line.strip())
    return commands


def test_the_ci_runs_exactly_the_readmes_test_command() -> None:
    """README.md's Quick start shows two commands, the engine and the tests; `.ci/run` must run
    that test command as written, so the instructions a newcomer follows are what CI proves."""
    commands = _quick_start_commands()
    assert commands[0] == "python3 -m protocol"
    assert len(commands) == 2, commands
    script = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
              if line.strip() and not line.lstrip().startswith("#")]
    assert script[-1] == commands[1]


def _readme_client_snippet() -> CodeBlock:
    """README.md's reference-client snippet (the first that imports protocol.client; the
    analysis one after it is run by the snippet test like every other)."""
    blocks = [block for block in python_snippets("README.md", _read("README.md"))
              if any(line.startswith("from protocol.client import") for line in block.lines)]
    assert blocks, "README.md has no reference-client snippet"
    return blocks[0]


def _without_virtual_environments(path: str) -> str:
    """``path`` without the ``bin`` folders of virtual environments (tox's, a user's)."""
    return os.pathsep.join(folder for folder in path.split(os.pathsep)
                           if folder and not (Path(folder).parent / "pyvenv.cfg").exists())


def test_the_readme_client_snippet_runs_with_a_venvs_interpreter_given_by_path(
        tmp_path: Path) -> None:
    """A user's virtual environment that holds the repository (here through a ``.pth`` file, as
    an editable install does) and the README's client snippet saved in another folder, run as
    ``/path/to/venv/bin/python script.py``: no PYTHONPATH and no virtual environment on PATH, so
    the engine the snippet starts must be that same Python (``"python3"`` on PATH is not)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   capture_output=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = _without_virtual_environments(env.get("PATH", ""))
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                              "['purelib'])"], check=True, capture_output=True, text=True,
                             env=env, timeout=60).stdout.strip()
    Path(purelib, "draughts_engine_repository.pth").write_text(f"{ROOT}\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = elsewhere / "client.py"
    script.write_text("\n".join(_readme_client_snippet().lines) + "\n", encoding="utf-8")
    done = subprocess.run([str(python), str(script)], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), "the snippet printed nothing"
