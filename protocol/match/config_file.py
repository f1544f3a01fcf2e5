"""``--config FILE``: a match as a JSON file, turned into the flags it stands for.

The file is one JSON object whose keys are the long flags without their dashes (``games``,
``max-plies`` or ``max_plies``, ...), plus ``engines``, a list of engine objects::

    {"variant": "english", "games": 40, "seed": 7, "concurrency": 2, "pdn": "out.pdn",
     "engines": [{"name": "deep", "cmd": "python3 -m protocol", "depth": 4,
                  "options": {"Hash": 16}},
                 {"name": "shallow", "cmd": ["python3", "-m", "protocol"], "depth": 2}],
     "sprt": {"elo0": 0, "elo1": 10}, "resign": {"score": 400, "movecount": 3}}

An engine object holds the keys of ``--engine`` (``cmd`` a string or a list of words, and
``options``, an object of ``setoption`` values, besides ``option.NAME`` keys); ``each`` is one
such object for every engine. ``true`` turns a switch on (``false`` leaves it off); a flag of
``KEY=VALUE`` words (``sprt``, ``resign``, ``draw``) takes an object, ``sprt`` also ``true``.

:func:`config_argv` returns the flags; the command line goes after them, so a flag given there
wins (``--engine`` flags replace the file's engines). Every error names the file and the key.
"""

from __future__ import annotations

import json
import shlex
from typing import Any, Callable, Dict, List, Sequence

from protocol.match.errors import MatchError, quoted

__all__ = ["config_argv", "split_config_flag", "ENGINE_LIST_KEY"]

ENGINE_LIST_KEY = "engines"
_WORD_FLAGS = ("sprt", "resign", "draw")
_NOT_IN_FILE = ("config", "help", "list-openings", "engine")


def split_config_flag(argv: Sequence[str]) -> "tuple[List[str], List[str]]":
    """``(paths of --config, the other words)``."""
    paths: List[str] = []
    rest: List[str] = []
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--config":
            if index + 1 >= len(words):
                raise MatchError("--config needs a FILE")
            paths.append(words[index + 1])
            index += 2
            continue
        if word.startswith("--config="):
            paths.append(word[len("--config="):])
        else:
            rest.append(word)
        index += 1
    return paths, rest


def _scalar(value: Any, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return format(value, "g") if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    raise MatchError(f"{where}: expected a string or a number, got {type(value).__name__}")


def _engine_tokens(entry: Any, where: str) -> List[str]:
    if not isinstance(entry, dict):
        raise MatchError(f"{where}: expected an object of engine keys (name, cmd, dir, proto, "
                         f"limits, options), got {type(entry).__name__}")
    tokens: List[str] = []
    for key, value in entry.items():
        if key == "options":
            if not isinstance(value, dict):
                raise MatchError(f"{where}: key 'options': expected an object of option "
                                 f"values")
            for name, option in value.items():
                tokens.append(f"option.{name}={_scalar(option, f'{where}: option {name!r}')}")
        elif key == "cmd" and isinstance(value, list):
            words = [_scalar(word, f"{where}: key 'cmd'") for word in value]
            tokens.append(f"cmd={shlex.join(words)}")
        else:
            tokens.append(f"{key}={_scalar(value, f'{where}: key {key!r}')}")
    return tokens


def _word_tokens(value: Any, where: str, bare_ok: bool) -> List[str]:
    if value is True and bare_ok:
        return []
    if not isinstance(value, dict):
        raise MatchError(f"{where}: expected an object of KEY: VALUE"
                         + (" or true" if bare_ok else ""))
    return [f"{key}={_scalar(item, f'{where}: key {key!r}')}" for key, item in value.items()]


def config_argv(path: str, flags: Dict[str, Any],
                check: Callable[[List[str]], None],
                check_engine: Callable[[List[str], List[str], int], None]
                ) -> "tuple[List[str], List[str]]":
    """The flags that ``path`` stands for: ``(the flags, the --engine flags)``.

    ``flags`` maps each long flag (without dashes) to its argparse action (``nargs`` and
    ``option_strings`` are looked at); ``check(words)`` parses the words of one key (raising
    :class:`MatchError`), ``check_engine(tokens, each, number)`` checks one engine.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(1 << 22)
    except OSError as exc:
        raise MatchError(f"--config {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MatchError(f"--config {path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise MatchError(f"--config {path}: not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    if not isinstance(data, dict):
        raise MatchError(f"--config {path}: expected a JSON object of flags and engines")
    argv: List[str] = []
    each: List[str] = []
    engines: List[List[str]] = []
    for key, value in data.items():
        where = f"--config {path}: key {key!r}"
        flag = key.replace("_", "-")
        if flag == ENGINE_LIST_KEY:
            if not isinstance(value, list):
                raise MatchError(f"{where}: expected a list of engine objects")
            engines = [_engine_tokens(entry, f"--config {path}: engines[{number}]")
                       for number, entry in enumerate(value)]
            continue
        action = flags.get(flag)
        if action is None or flag in _NOT_IN_FILE:
            known = sorted(set(flags) - set(_NOT_IN_FILE)) + [ENGINE_LIST_KEY]
            raise MatchError(f"{where}: unknown key (known: {', '.join(known)})")
        option = f"--{flag}"
        if flag == "each":
            each = _engine_tokens(value, where)
            words = [option] + each
        elif flag in _WORD_FLAGS:
            words = [option] + _word_tokens(value, where, bare_ok=flag == "sprt")
        elif action.nargs == 0:
            if not isinstance(value, bool):
                raise MatchError(f"{where}: expected true or false, got {quoted(str(value))}")
            words = [option] if value else []
        else:
            words = [f"{option}={_scalar(value, where)}"]
        try:
            check(words)
        except MatchError as exc:
            raise MatchError(f"{where}: {exc}") from None
        argv.extend(words)
    engine_argv: List[str] = []
    for number, tokens in enumerate(engines):
        try:
            check_engine(tokens, each, number + 1)
        except MatchError as exc:
            raise MatchError(f"--config {path}: engines[{number}]: {exc}") from None
        engine_argv.extend(["--engine"] + tokens)
    return argv, engine_argv
