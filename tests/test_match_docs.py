"""docs/match.md names the tools it speaks of by their own names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_match_md_calls_py_draughts_by_its_name():
    """py-draughts (PyPI ``py-draughts``, versions 1.x, whose engine is TurboEngine) and
    pydraughts (PyPI ``pydraughts``, versions 0.x, the Hub/DXP client library) are two projects:
    a 1.x version belongs to py-draughts."""
    text = " ".join((ROOT / "docs" / "match.md").read_text(encoding="utf-8").split())
    assert "py-draughts (1.10)" in text
    assert not re.search(r"\bpydraughts\W{0,3}1\.\d", text), "pydraughts has no 1.x version"
