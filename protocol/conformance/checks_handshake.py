"""Checks 1-5: the handshake (``uci``), ``isready`` and the options (``setoption``)."""

from __future__ import annotations

import time
from typing import List, Optional

from .errors import CheckFailed, CheckSkipped, SetupError, fail
from .harness import Context, read_handshake
from .steps import expect_error, expect_silent
from .validators import validate_handshake
from .wire import ArgumentError, EngineTerminatedError, EngineOption, SetOption

__all__ = ["check_handshake", "check_isready", "check_options_accepted", "check_spin_range",
           "check_bad_options"]

RESOURCE_OPTIONS = frozenset({"hash", "threads"})
"""Spin options not set to their maximum by the suite (a huge allocation proves nothing)."""


def check_handshake(context: Context) -> str:
    """uci -> id name, id author, id protocol 1, well-formed options, uciok; twice the same
    (without uciok the run stops here)."""
    handle = context.spawn(handshake=False)
    early = handle.drain(0.1)
    if early:
        raise fail(f"the engine wrote before receiving a line: {early[0]!r}")
    try:
        first = read_handshake(handle, context.config.timeout)
    except CheckFailed as exc:  # no uciok in time: nothing else can be checked either
        raise SetupError(str(exc)) from None
    except EngineTerminatedError as exc:
        raise SetupError(f"no uciok: {handle.ended(exc)}") from None
    reply = validate_handshake(first)
    again = read_handshake(handle, context.config.timeout)
    if tuple(again) != reply.lines:
        raise fail("the second uci reply differs from the first")
    name = dict(reply.ids).get("name", "?")
    return f"id name {name}, {len(reply.options)} options, uciok (same reply twice)"


def check_isready(context: Context) -> str:
    """isready -> readyok; CRLF, blank lines, spaces and tabs are handled."""
    handle = context.engine()
    sent = time.monotonic()
    if handle.sync():
        raise fail("output before readyok")
    took = round((time.monotonic() - sent) * 1000)
    for raw in (b"isready\r\n", b"  \tisready \t\n"):
        handle.send(raw)
        line = handle.read()
        if line != "readyok":
            raise fail(f"{raw!r} was answered {line!r}")
    for blank in (b"\n", b" \t \n", b"\r\n"):
        handle.send(blank)
    lines = handle.sync()
    if lines:
        raise fail(f"a blank line was answered {lines[0]!r}")
    return f"readyok in {took} ms; CRLF, blank lines and tabs handled"


def _valid_values(spec: EngineOption) -> List[Optional[str]]:
    if spec.type == "button":
        return [None]
    if spec.type == "spin":
        assert spec.min is not None and spec.max is not None
        values = [spec.default, str(spec.min)]
        if spec.name.casefold() not in RESOURCE_OPTIONS:
            values.append(str(spec.max))
        return values
    if spec.type == "check":
        return ["true", "false", spec.default]
    if spec.type == "combo":
        return list(spec.vars) + [spec.default]
    return [spec.default]


def _setoption_line(name: str, value: Optional[str]) -> Optional[str]:
    try:
        return SetOption(name, value).to_line()
    except ArgumentError:
        return None


def check_options_accepted(context: Context) -> str:
    """setoption of every advertised option with valid values (and case-insensitive names and
    combo values) is accepted silently."""
    handle = context.engine()
    context.dirty = True
    specs = context.handshake().options
    if not specs:
        raise CheckSkipped("the engine advertises no options")
    count = 0
    for spec in specs:
        for value in _valid_values(spec):
            line = _setoption_line(spec.name, value)
            if line is not None:
                expect_silent(handle, line)
                count += 1
    for spec in specs:
        if spec.type in ("spin", "check", "combo") and spec.default:
            value = spec.default.upper() if spec.type != "spin" else spec.default
            line = _setoption_line(spec.name.swapcase(), value)
            if line is not None:
                expect_silent(handle, line)
                count += 1
    return f"{count} settings of {len(specs)} options accepted"


def check_spin_range(context: Context) -> str:
    """setoption of a spin option out of its range is an error and changes nothing."""
    handle = context.engine()
    context.dirty = True
    spins = [s for s in context.handshake().options if s.type == "spin"]
    if not spins:
        raise CheckSkipped("the engine advertises no spin option")
    count = 0
    for spec in spins:
        assert spec.min is not None and spec.max is not None
        for value in (spec.min - 1, spec.max + 1):
            expect_error(handle, f"setoption name {spec.name} value {value}", "setoption:")
            count += 1
    if handle.sync():
        raise fail("output after the errors")
    return f"{count} out-of-range values rejected with 'error setoption: ...'"


def check_bad_options(context: Context) -> str:
    """Unknown option names, bad combo/check/spin values and missing values are errors."""
    handle = context.engine()
    context.dirty = True
    lines = ["setoption name NoSuchOption value 1", "setoption name NoSuchOption"]
    for spec in context.handshake().options:
        bad = {"spin": "abc", "check": "maybe", "combo": "no-such-value"}.get(spec.type)
        if bad is not None:
            lines += [f"setoption name {spec.name} value {bad}", f"setoption name {spec.name}"]
    for line in lines:
        expect_error(handle, line, "setoption:")
    note = ""
    if context.handshake().option("Variant") is not None and context.offers(handle, "d"):
        shown = context.display(handle)
        if shown.variant != context.rules.name:
            raise fail(f"a rejected Variant value changed the variant to {shown.variant}")
        note = "; Variant unchanged"
    return f"{len(lines)} bad setoption lines rejected{note}"
