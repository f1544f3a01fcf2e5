"""The data tables of tests/data/ that hold one position a line: ``name; variant; fen; data``."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Tuple


def position_rows(path: Path) -> Iterator[Tuple[int, str, str, str, str]]:
    """``(line number, name, variant, fen, data)`` for each row of ``path``; blank lines and
    ``#`` comments are skipped, and a row without four fields fails with its place."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        assert len(fields) == 4, f"{path}:{number}: expected 4 fields"
        name, variant, fen, data = fields
        yield number, name, variant, fen, data
