"""Conformance checks for any Hub v2 engine (``draughts-conformance --hub -- <command>``).

:func:`run_hub_checks` starts the engine, talks Hub to it and returns one
``(name, passed, reason)`` per check, in order.  The checks follow PROTOCOL.md
section 10 where it restates Hub v2 (Scan 3.x): the ``hub`` handshake, ``init``,
``ping``, ``pos``/``level``/``go`` with ``info`` and exactly one ``done``, move
notation, ``stop``, ``ponder``/``ponder-hit``, errors for bad input, ``quit`` and
end of input, a silent stderr.  Checks that need a variant the engine does not
offer (Russian) are reported as passed with the reason ``skipped: ...``.

Usage from Python::

    for name, passed, reason in run_hub_checks(["python3", "-m", "protocol"]):
        print("PASS" if passed else "FAIL", name, reason)

``python3 -m protocol.hub_conformance -- <command...>`` prints the same table and exits 1 when a
check failed.
"""
from __future__ import annotations

import shlex
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from draughts_engine.errors import DraughtsError
from draughts_engine.game import Game
from draughts_engine.notation import parse_hub_move
from draughts_engine.position import Position
from draughts_engine.variants import get_variant

from protocol.client import EngineError
from protocol.hub import HubSyntaxError, format_hub_line, hub_pos, parse_hub_line
from protocol.hub.client import HubEngine

__all__ = ["run_hub_checks", "CheckResult", "main"]

CheckResult = Tuple[str, bool, str]

# A position where White must take three men in one capture (from 46, several routes).
_CAPTURE_FEN = "W:W46:B41,31,21,42"
_PLAIN_PAIRS = ("id", "param")


class _Failed(Exception):
    """A check failed; the message is the reason."""


class _Session:
    """One engine process and the raw Hub lines exchanged with it."""

    def __init__(self, command: Sequence[str], cwd: Optional[str], timeout: float) -> None:
        self.timeout = timeout
        self.engine = HubEngine.popen(command, cwd=cwd, handshake=False, strict=False,
                                      timeout=timeout, quit_timeout=2.0)

    def send(self, line: str) -> None:
        self.engine.send_raw(line)

    def read(self, timeout: Optional[float] = None) -> str:
        return self.engine.read_line(self.timeout if timeout is None else timeout)

    def until(self, command: str, timeout: Optional[float] = None) -> List[str]:
        """Lines up to and including the first whose command is ``command``."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        lines: List[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Failed(f"no {command!r} line within {timeout or self.timeout:g} s "
                              f"(got {lines[-3:]})")
            try:
                line = self.read(left)
            except EngineError as exc:
                raise _Failed(f"waiting for {command!r}: {exc.message}") from None
            lines.append(line)
            if _command_of(line) == command:
                return lines

    def ping(self, timeout: Optional[float] = None) -> List[str]:
        """Send ``ping``; the lines before ``pong``."""
        self.send("ping")
        return self.until("pong", timeout)[:-1]

    def close(self) -> Optional[int]:
        return self.engine.quit()


def _command_of(line: str) -> str:
    try:
        return parse_hub_line(line)[0]
    except HubSyntaxError:
        return ""


def _pairs(line: str) -> List[Tuple[str, Optional[str]]]:
    try:
        return parse_hub_line(line)[1]
    except HubSyntaxError as exc:
        raise _Failed(f"malformed line {line!r}: {exc}") from None


def _check_search(lines: List[str], root: Position, numbering: Callable[[str], str]) -> str:
    """Validate the info lines and the one done line of a search; return the best move text."""
    done = [line for line in lines if _command_of(line) == "done"]
    if len(done) != 1:
        raise _Failed(f"expected exactly one done line, got {len(done)}")
    for line in lines:
        command = _command_of(line)
        if command == "info":
            for name, value in _pairs(line):
                if value is None:
                    raise _Failed(f"bare flag {name!r} in info line {line!r}")
                if name in ("depth", "nodes") and not value.isdigit():
                    raise _Failed(f"{name} is not an integer in {line!r}")
                if name in ("score", "time", "nps"):
                    try:
                        float(value)
                    except ValueError:
                        raise _Failed(f"{name} is not a number in {line!r}") from None
    pairs = _pairs(done[0])
    if not pairs or pairs[0][0] != "move" or pairs[0][1] is None:
        raise _Failed(f"done must start with move=<move>: {done[0]!r}")
    best = pairs[0][1]
    try:
        move = parse_hub_move(root, numbering(best))
    except DraughtsError as exc:
        raise _Failed(f"done move={best} is not a legal Hub move: {exc}") from None
    ponder = dict(pairs).get("ponder")
    if ponder:
        try:
            parse_hub_move(root.play_raw(move.raw), numbering(ponder))
        except DraughtsError as exc:
            raise _Failed(f"done ponder={ponder} is not legal after {best}: {exc}") from None
    return best


def run_hub_checks(command: Sequence[str], *, cwd: Optional[str] = None, timeout: float = 10.0,
                   search_seconds: float = 0.3,
                   log: Optional[Callable[[str], None]] = None) -> List[CheckResult]:
    """Run the Hub checks against ``command``; a list of ``(name, passed, reason)``.

    ``timeout`` bounds every wait for an answer; ``search_seconds`` is the move time used by
    the timed searches.  ``log`` receives one line per check as it finishes.
    """
    results: List[CheckResult] = []
    state: Dict[str, object] = {}

    def record(name: str, passed: bool, reason: str) -> None:
        results.append((name, passed, reason))
        if log is not None:
            log(f"{'PASS' if passed else 'FAIL'} {name}: {reason}")

    try:
        session = _Session(command, cwd, timeout)
    except (OSError, EngineError) as exc:
        record("start", False, f"cannot start {shlex.join(command)}: {exc}")
        return results

    def check(name: str, body: Callable[[], str]) -> bool:
        if state.get("dead"):
            record(name, False, "not run: the engine is no longer answering")
            return False
        try:
            reason = body()
        except _Failed as exc:
            record(name, False, str(exc))
            return False
        except EngineError as exc:
            state["dead"] = True
            record(name, False, exc.message)
            return False
        record(name, True, reason)
        return True

    params: Dict[str, Dict[str, Optional[str]]] = {}
    numbering = {"fn": (lambda text: text)}

    def handshake() -> str:
        session.send("hub")
        lines = session.until("wait")
        ids = [line for line in lines if _command_of(line) == "id"]
        if not ids:
            raise _Failed("no id line before wait")
        for line in lines[:-1]:
            command_word = _command_of(line)
            if command_word not in _PLAIN_PAIRS:
                raise _Failed(f"unexpected line before wait: {line!r}")
            for name, value in _pairs(line):
                if value is None:
                    raise _Failed(f"bare flag {name!r} in {line!r}")
            if command_word == "param":
                args = dict(_pairs(line))
                if not args.get("name") or "value" not in args or not args.get("type"):
                    raise _Failed(f"param line needs name=, value= and type=: {line!r}")
                if args["type"] == "enum" and not args.get("values"):
                    raise _Failed(f"enum param without values=: {line!r}")
                if args["type"] in ("int", "real") and ("min" not in args or "max" not in args):
                    raise _Failed(f"{args['type']} param without min= and max=: {line!r}")
                params[str(args["name"])] = args
        engine_name = dict(_pairs(ids[0])).get("name")
        if not engine_name:
            raise _Failed(f"id line without name=: {ids[0]!r}")
        return f"id name={engine_name}, {len(params)} params, wait"

    if not check("handshake", handshake):
        session.close()
        return results

    def variant_param() -> str:
        variant = params.get("variant")
        if variant is None:
            return "no variant parameter: the engine plays International (normal) only"
        values = (variant.get("values") or "").split()
        if "normal" not in values:
            raise _Failed(f"variant values {values} lack 'normal' (International, as Scan)")
        return f"variant values: {' '.join(values)}"

    check("variant-param", variant_param)

    def init() -> str:
        if "numbering" in params:
            session.send(format_hub_line("set-param", ("name", "numbering"), ("value", "pdn")))
        session.send("init")
        session.until("ready")
        return "init -> ready"

    if not check("init", init):
        session.close()
        return results

    def ping() -> str:
        extra = session.ping(timeout)
        if extra:
            raise _Failed(f"unexpected lines before pong: {extra}")
        return "ping -> pong"

    check("ping", ping)

    start = Position.start("international")

    def think_depth() -> str:
        session.send(f"pos pos={hub_pos(start)}")
        session.send("level depth=2")
        session.send("go think")
        lines = session.until("done", timeout)
        best = _check_search(lines, start, numbering["fn"])
        infos = sum(1 for line in lines if _command_of(line) == "info")
        return f"level depth=2: {infos} info lines, done move={best}"

    check("think-depth", think_depth)

    def pos_start() -> str:
        session.send("pos start")
        session.send("level depth=1")
        session.send("go think")
        best = _check_search(session.until("done", timeout), start, numbering["fn"])
        return f"pos start: done move={best}"

    check("pos-start", pos_start)

    def pos_moves() -> str:
        game = Game("international")
        texts = ["32-28", "19-23", "28x19"]
        hub_moves = [game.push(text).hub() for text in texts]
        session.send(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", " ".join(hub_moves))))
        session.send("level depth=1")
        session.send("go think")
        best = _check_search(session.until("done", timeout), game.position, numbering["fn"])
        return f"pos with moves {' '.join(hub_moves)}: done move={best}"

    check("pos-moves", pos_moves)

    def capture_notation() -> str:
        position = Position.from_fen(_CAPTURE_FEN, "international")
        session.send(f"pos pos={hub_pos(position)}")
        session.send("level depth=1")
        session.send("go think")
        best = _check_search(session.until("done", timeout), position, numbering["fn"])
        squares = best.split("x")
        if len(squares) != 2 + 3:
            raise _Failed(f"a capture of three men must read from x to x three captured squares, "
                          f"got {best}")
        return f"capture written {best}"

    check("capture-notation", capture_notation)

    def move_time() -> str:
        session.send(f"pos pos={hub_pos(start)}")
        session.send(f"level move-time={search_seconds:g}")
        started = time.monotonic()
        session.send("go think")
        _check_search(session.until("done", search_seconds + timeout), start, numbering["fn"])
        took = time.monotonic() - started
        if took > search_seconds + 1.0:
            raise _Failed(f"level move-time={search_seconds:g} took {took:.2f} s")
        return f"level move-time={search_seconds:g}: done after {took:.2f} s"

    check("move-time", move_time)

    def clock() -> str:
        session.send(f"pos pos={hub_pos(start)}")
        session.send("level moves=40 time=4 inc=0.05")
        started = time.monotonic()
        session.send("go think")
        _check_search(session.until("done", timeout), start, numbering["fn"])
        took = time.monotonic() - started
        if took > 2.0:
            raise _Failed(f"level moves=40 time=4 inc=0.05 took {took:.2f} s")
        return f"level moves=40 time=4 inc=0.05: done after {took:.2f} s"

    check("clock", clock)

    def infinite_stop() -> str:
        session.send(f"pos pos={hub_pos(start)}")
        session.send("level infinite")
        session.send("go analyze")
        time.sleep(search_seconds)
        early = session.ping(timeout)
        if any(_command_of(line) == "done" for line in early):
            raise _Failed("done before stop in an infinite search")
        started = time.monotonic()
        session.send("stop")
        lines = early + session.until("done", timeout)
        took = time.monotonic() - started
        best = _check_search(lines, start, numbering["fn"])
        if took > 1.5:
            raise _Failed(f"done came {took:.2f} s after stop")
        return f"ping answered during the search; stop -> done move={best} in {took:.2f} s"

    check("infinite-stop", infinite_stop)

    def ponder_hit() -> str:
        game = Game("international")
        game.push("32-28")
        session.send(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", "32-28")))
        session.send(f"level move-time={search_seconds:g}")
        session.send("go ponder")
        time.sleep(search_seconds / 2)
        session.send("ponder-hit")
        best = _check_search(session.until("done", search_seconds + timeout), game.position,
                             numbering["fn"])
        return f"go ponder + ponder-hit -> done move={best}"

    check("ponder-hit", ponder_hit)

    def ponder_stop() -> str:
        session.send(f"pos pos={hub_pos(start)}")
        session.send("level time=60")
        session.send("go ponder")
        time.sleep(search_seconds / 2)
        session.send("stop")
        best = _check_search(session.until("done", timeout), start, numbering["fn"])
        extra = session.ping(timeout)
        if any(_command_of(line) == "done" for line in extra):
            raise _Failed("a second done after stop")
        return f"go ponder + stop -> one done move={best}"

    check("ponder-stop", ponder_stop)

    def bad_pos() -> str:
        session.send("pos pos=Xnonsense")
        lines = session.ping(timeout)
        errors = [line for line in lines if _command_of(line) == "error"]
        if not errors:
            raise _Failed("no error line for pos pos=Xnonsense")
        if dict(_pairs(errors[0])).get("message") is None:
            raise _Failed(f"error line without message=: {errors[0]!r}")
        return f"answered {errors[0]}"

    check("bad-pos", bad_pos)

    def illegal_move() -> str:
        session.send(format_hub_line("pos", ("pos", hub_pos(start)), ("moves", "32-26")))
        lines = session.ping(timeout)
        if not any(_command_of(line) == "error" for line in lines):
            raise _Failed("no error line for the illegal move 32-26")
        return "illegal move in pos answered by error"

    check("illegal-move", illegal_move)

    def unknown_command() -> str:
        session.send("frobnicate now=1")
        lines = session.ping(timeout)
        bad = [line for line in lines if _command_of(line) not in ("error", "")]
        if bad:
            raise _Failed(f"unexpected answer to an unknown command: {bad}")
        return "unknown command: " + ("error line" if lines else "ignored") + ", still answering"

    check("unknown-command", unknown_command)

    def new_game() -> str:
        session.send("new-game")
        lines = session.ping(timeout)
        if lines:
            raise _Failed(f"new-game answered {lines}")
        return "new-game is silent"

    check("new-game", new_game)

    def russian() -> str:
        values = (params.get("variant", {}).get("values") or "").split()
        if "russian" not in values:
            return "skipped: the engine offers no russian variant"
        variant = get_variant("russian")
        session.send(format_hub_line("set-param", ("name", "variant"), ("value", "russian")))
        game = Game(variant)
        hub_moves = [game.push(text).hub() for text in ("c3-d4", "f6-e5")]
        root = Position.start(variant)
        session.send(format_hub_line("pos", ("pos", hub_pos(root)), ("moves", " ".join(hub_moves))))
        session.send("level depth=2")
        session.send("go think")
        lines = session.until("done", timeout)
        errors = [line for line in lines if _command_of(line) == "error"]
        if errors:
            raise _Failed(f"russian position refused: {errors[0]}")
        best = _check_search(lines, game.position, numbering["fn"])
        if len(hub_pos(root)) != 33:
            raise _Failed("internal: russian pos text must have 33 characters")
        return f"variant russian, 33-character pos: done move={best}"

    check("russian", russian)

    def quit_() -> str:
        started = time.monotonic()
        code = session.close()
        took = time.monotonic() - started
        if code != 0:
            raise _Failed(f"quit: exit status {code}")
        if took > 2.5:
            raise _Failed(f"quit took {took:.2f} s")
        return f"exit status 0 after {took:.2f} s"

    check("quit", quit_)

    def stderr_silent() -> str:
        lines = session.engine.stderr_lines
        if lines:
            raise _Failed(f"the engine wrote to stderr: {list(lines)[:3]}")
        return "nothing on stderr"

    check("stderr-silent", stderr_silent)

    state["dead"] = False

    def end_of_input() -> str:
        process = subprocess.Popen(list(command), cwd=cwd, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, _ = process.communicate(b"hub\n", timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise _Failed(f"still running {timeout:g} s after its input closed") from None
        if process.returncode != 0:
            raise _Failed(f"exit status {process.returncode} at end of input")
        if b"wait" not in out:
            raise _Failed("no handshake before the end of input")
        return "exits with status 0 when its input closes"

    check("end-of-input", end_of_input)
    return results


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m protocol.hub_conformance [--timeout S] -- <command...>``."""
    args = list(sys.argv[1:] if argv is None else argv)
    timeout = 10.0
    if args[:1] == ["--timeout"] and len(args) > 1:
        timeout = float(args[1])
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print("usage: python3 -m protocol.hub_conformance [--timeout S] -- <engine command...>",
              file=sys.stderr)
        return 2
    results = run_hub_checks(args, timeout=timeout)
    width = max(len(name) for name, _, _ in results)
    for name, passed, reason in results:
        print(f"{'PASS' if passed else 'FAIL'}  {name:<{width}}  {reason}")
    failed = sum(1 for _, passed, _ in results if not passed)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
