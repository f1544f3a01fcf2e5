"""Small helpers over the text of protocol lines, shared by validators, harness and report."""

from __future__ import annotations

from .wire import token_spans, tokenize

__all__ = ["plural", "first_word", "is_info_string"]


def plural(count: int, noun: str) -> str:
    """``1 check``, ``2 checks``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def first_word(line: str) -> str:
    """The first token of ``line`` ('' for a line without tokens)."""
    spans = token_spans(line)
    return spans[0][0] if spans else ""


def is_info_string(line: str) -> bool:
    """True for ``info string ...`` lines, which may come at any time and are ignored."""
    tokens = tokenize(line)
    return len(tokens) >= 2 and tokens[0] == "info" and tokens[1] == "string"
