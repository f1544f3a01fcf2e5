"""The server's options: their declarations, ``option`` lines and validation.

PROTOCOL.md section 5 is the contract.  Names and combo values are
case-insensitive; a bad value raises :class:`OptionError` and leaves the
option unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

from draughts_engine.book import BUILTIN, DEFAULT_BOOK_DEPTH
from draughts_engine.eval import evaluation_names
from draughts_engine.games import GAME_NAMES
from draughts_engine.runtime import max_threads
from draughts_engine.search.limits import MAX_MULTIPV
from draughts_engine.search.skill import ELO_DEFAULT, ELO_MAX, ELO_MIN
from draughts_engine.variants import UnknownVariantError, get_variant

from .commands import DEFAULT_VARIANT, show_token

__all__ = ["OptionSpec", "OptionError", "Options", "OPTION_SPECS", "VARIANT_VALUES"]

VARIANT_VALUES = GAME_NAMES
"""The values of the ``Variant`` option: every draughts variant, then the small games."""

Value = Union[int, bool, str]


class OptionError(ValueError):
    """An unknown option or a value it does not accept; the message is the error detail.

    ``option`` is the name of the option whose value was refused ("" for an unknown
    option) and ``detail`` what is wrong with the value; the message is both, in that
    order.  A front end that names the option differently (the Hub's ``set-param``)
    rewords it with :meth:`named`.
    """

    def __init__(self, detail: str, option: str = "") -> None:
        super().__init__(f"{option} {detail}" if option else detail)
        self.option = option
        self.detail = detail

    def named(self, name: str) -> str:
        """The message with ``name`` standing for the option's name."""
        return f"{name} {self.detail}" if self.option else self.detail


@dataclass(frozen=True)
class OptionSpec:
    """One option: ``kind`` is ``spin``, ``check``, ``combo``, ``string`` (any text of one
    line, kept as given: a file name) or ``button`` (an action with no value:
    ``setoption name Clear Hash``)."""

    name: str
    kind: str
    default: Value
    low: int = 0
    high: int = 0
    choices: Tuple[str, ...] = ()

    def line(self) -> str:
        """The ``option ...`` line of the ``uci`` reply."""
        if self.kind == "button":
            return f"option name {self.name} type button"
        default = str(self.default).lower() if self.kind == "check" else self.default
        text = f"option name {self.name} type {self.kind} default {default}"
        if self.kind == "spin":
            text += f" min {self.low} max {self.high}"
        for choice in self.choices:
            text += f" var {choice}"
        return text

    def parse(self, raw: Optional[str]) -> Value:
        """The value ``raw`` stands for, or :class:`OptionError`."""
        if self.kind == "button":
            if raw is not None and raw.strip(" \t"):
                raise OptionError(f"is a button and takes no value, got '{show_token(raw)}'",
                                  self.name)
            return True
        if raw is None:
            raise OptionError("needs a value", self.name)
        text = raw.strip(" \t")  # the protocol's separators only (PROTOCOL.md §1)
        if self.kind == "spin":
            body = text[1:] if text[:1] == "-" else text
            if not body.isdigit() or not body.isascii():
                raise OptionError(f"needs an integer, got '{show_token(text)}'", self.name)
            if len(body.lstrip("0")) > len(str(max(abs(self.low), abs(self.high)))):
                raise OptionError(f"must be in {self.low}..{self.high}, got '{show_token(text)}'",
                                  self.name)  # no giant int() conversions
            value = int(text)
            if not self.low <= value <= self.high:
                raise OptionError(f"must be in {self.low}..{self.high}, got {value}", self.name)
            return value
        if self.kind == "string":
            if not text:
                raise OptionError("needs a value", self.name)
            return text
        if self.kind == "check":
            lowered = text.lower()
            if lowered not in ("true", "false"):
                raise OptionError(f"must be true or false, got '{show_token(text)}'", self.name)
            return lowered == "true"
        lowered = text.lower()
        if self.name == "Variant" and lowered not in self.choices and lowered == lowered.strip():
            # an alias (american, fries, ...); get_variant would strip other white space too
            try:
                lowered = get_variant(lowered).name
            except UnknownVariantError:
                pass
        if lowered not in self.choices:
            raise OptionError(f"must be one of {' '.join(self.choices)}, got '{show_token(text)}'",
                              self.name)
        return lowered


#: The evaluations an engine can be given (``Eval``; the Hub ``eval`` param, DXP ``--eval``).
EVAL_CHOICES: Tuple[str, ...] = evaluation_names()

OPTION_SPECS: Tuple[OptionSpec, ...] = (
    OptionSpec("Variant", "combo", DEFAULT_VARIANT, choices=VARIANT_VALUES),
    OptionSpec("Hash", "spin", 16, 1, 1024),
    OptionSpec("Threads", "spin", 1, 1, max_threads()),
    OptionSpec("Search", "combo", "pvs", choices=("pvs", "minimax", "negamax", "alphabeta", "negascout")),
    OptionSpec("Eval", "combo", "full", choices=EVAL_CHOICES),
    OptionSpec("Ponder", "check", False),
    OptionSpec("MoveOverhead", "spin", 30, 0, 5000),
    OptionSpec("Notation", "combo", "numeric", choices=("numeric", "algebraic", "variant")),
    OptionSpec("EndgameTables", "check", True),
    OptionSpec("MultiPV", "spin", 1, 1, MAX_MULTIPV),
    OptionSpec("UCI_LimitStrength", "check", False),
    OptionSpec("UCI_Elo", "spin", ELO_DEFAULT, ELO_MIN, ELO_MAX),
    OptionSpec("Seed", "spin", 0, 0, 2 ** 31 - 1),
    OptionSpec("OwnBook", "check", True),  # its SPRT: +31 Elo at 4+0.04 (BENCHMARKS.md)
    OptionSpec("BookFile", "string", BUILTIN),
    OptionSpec("BookDepth", "spin", DEFAULT_BOOK_DEPTH, 0, 200),
    OptionSpec("Clear Hash", "button", True),
)


class Options:
    """Current option values, keyed by canonical name."""

    def __init__(self) -> None:
        self._specs: Dict[str, OptionSpec] = {spec.name.lower(): spec for spec in OPTION_SPECS}
        self.values: Dict[str, Value] = {spec.name: spec.default for spec in OPTION_SPECS}

    def lines(self) -> List[str]:
        return [spec.line() for spec in OPTION_SPECS]

    def resolve(self, name: str, raw: Optional[str]) -> Tuple[str, Value]:
        """(canonical name, parsed value) or :class:`OptionError`; changes nothing."""
        spec = self._specs.get(name.strip(" \t").lower())
        if spec is None:
            raise OptionError(f"unknown option '{show_token(name)}'")
        return spec.name, spec.parse(raw)

    def __getitem__(self, name: str) -> Value:
        return self.values[name]
