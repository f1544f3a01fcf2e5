"""Shared by the web board's tests: a server of its own on a free port, in this process."""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from protocol.web.cli import build_server


@contextlib.contextmanager
def web_server(**options: Any) -> Iterator[Any]:
    """A started ``build_server(port=0, **options)``, stopped on leaving the block."""
    web = build_server(port=0, **options).start()
    try:
        yield web
    finally:
        web.stop()
