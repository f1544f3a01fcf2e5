"""The engines a web board may use: fixed on the server's command line, chosen by name.

``--engine`` takes one string: optional ``name=`` and ``proto=`` (``uci``, the default, or
``hub``) tokens and ``option.NAME=VALUE`` tokens (sent as ``setoption`` when the engine
starts; text-protocol engines only), then the command, either as the remaining words or as
``cmd="..."``::

    --engine "python3 -m protocol"
    --engine "name=scan proto=hub /opt/scan/scan hub"
    --engine 'name=deep cmd="python3 -m protocol"'
    --engine "name=two-cores option.Threads=2 option.OwnBook=false python3 -m protocol"

The browser only ever sends a name from :class:`EngineBook`; it never supplies a command.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["EngineChoice", "EngineBook", "EngineSpecError", "parse_engine_spec",
           "default_engine", "DEFAULT_ENGINE_NAME"]

DEFAULT_ENGINE_NAME = "draughts-engine"
_KEYS = ("name", "proto", "cmd")
_MAX_NAME = 40


class EngineSpecError(ValueError):
    """An ``--engine`` value that cannot be used (the message names it)."""


@dataclass(frozen=True)
class EngineChoice:
    """One engine the page can pick: its ``name``, ``command`` (argv), ``proto`` and the
    ``options`` it is given when it starts (``(name, value)`` pairs)."""

    name: str
    command: Tuple[str, ...]
    proto: str = "uci"
    options: Tuple[Tuple[str, str], ...] = ()

    def describe(self) -> str:
        """``name: command [proto=hub]`` for the server's start-up lines."""
        text = f"{self.name}: {' '.join(shlex.quote(word) for word in self.command)}"
        text += "".join(f" option.{name}={value}" for name, value in self.options)
        return text + (f" (proto={self.proto})" if self.proto != "uci" else "")


def default_engine() -> EngineChoice:
    """This project's engine, run by the Python that runs the server."""
    return EngineChoice(DEFAULT_ENGINE_NAME, (sys.executable, "-m", "protocol"))


def _name_of(command: Sequence[str]) -> str:
    base = os.path.basename(command[0])
    if base.lower().startswith(("python", "pypy")) and len(command) >= 3 and command[1] == "-m":
        return DEFAULT_ENGINE_NAME if command[2] == "protocol" else command[2]
    return base


def parse_engine_spec(text: str) -> EngineChoice:
    """An :class:`EngineChoice` from one ``--engine`` value (see the module docstring).

    Raises :class:`EngineSpecError` for an empty command, a bad ``proto``, a bad name, or
    a program that cannot be found.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise EngineSpecError(f"bad --engine {text!r}: {exc}") from None
    values: Dict[str, str] = {}
    options: List[Tuple[str, str]] = []
    while words:
        key, sep, value = words[0].partition("=")
        if sep and key.startswith("option.") and key[len("option."):].strip():
            if not value or not value.isprintable():
                raise EngineSpecError(f"bad --engine {text!r}: {key}= needs a value")
            options.append((key[len("option."):], value))
            words.pop(0)
            continue
        if not sep or key not in _KEYS or key in values:
            break
        values[key] = value
        words.pop(0)
    if "cmd" in values:
        if words:
            raise EngineSpecError(f"bad --engine {text!r}: give the command as cmd=... or as "
                                  "words, not both")
        try:
            words = shlex.split(values["cmd"])
        except ValueError as exc:
            raise EngineSpecError(f"bad --engine cmd {values['cmd']!r}: {exc}") from None
    if not words:
        raise EngineSpecError(f"bad --engine {text!r}: no command")
    proto = values.get("proto", "uci").lower()
    if proto not in ("uci", "hub"):
        raise EngineSpecError(f"bad --engine {text!r}: proto must be uci or hub, got {proto!r}")
    if options and proto != "uci":
        raise EngineSpecError(f"bad --engine {text!r}: option.NAME= is for engines of the text "
                              "protocol (proto=uci)")
    if "name" in values and not values["name"]:
        raise EngineSpecError(f"bad --engine {text!r}: empty name=")
    name = values.get("name") or _name_of(words)
    if not name or len(name) > _MAX_NAME or not name.isprintable():
        raise EngineSpecError(f"bad --engine {text!r}: the name must be 1-{_MAX_NAME} "
                              "printable characters")
    program = words[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        found = os.path.isfile(program) and os.access(program, os.X_OK)
    else:
        found = shutil.which(program) is not None
    if not found:
        raise EngineSpecError(f"engine {name}: program {program!r} not found")
    return EngineChoice(name, tuple(words), proto, tuple(options))


class EngineBook:
    """The engines of one server, in command-line order; the first is the default.

    Two engines with the same name get ``-2``, ``-3``, ... appended.
    """

    def __init__(self, choices: Sequence[EngineChoice]) -> None:
        if not choices:
            choices = [default_engine()]
        self._choices: Dict[str, EngineChoice] = {}
        for choice in choices:
            name, n = choice.name, 1
            while name in self._choices:
                n += 1
                name = f"{choice.name}-{n}"
            self._choices[name] = EngineChoice(name, choice.command, choice.proto,
                                               choice.options)

    @property
    def names(self) -> List[str]:
        return list(self._choices)

    @property
    def default(self) -> EngineChoice:
        return next(iter(self._choices.values()))

    def get(self, name: str) -> Optional[EngineChoice]:
        """The engine called exactly ``name``, or None."""
        return self._choices.get(name) if isinstance(name, str) else None

    def __iter__(self):
        return iter(self._choices.values())
