"""Shared by the tests of the play front end (protocol/play/)."""
from __future__ import annotations

import pytest

from protocol.play import MoveRejected


def rejection(record, text: str) -> MoveRejected:
    """What ``record.play_text(text)`` raises: a refused move's reason and the legal moves."""
    with pytest.raises(MoveRejected) as caught:
        record.play_text(text)
    return caught.value
