"""Endgame databases: exact results for few pieces, by retrograde analysis.

The table of contents:

* :mod:`.material` material signatures (``KKvK``) and the draw count that governs each
* :mod:`.index` positions of a material <-> consecutive integers
* :mod:`.build` the retrograde solver, on the rules core's move generator
* :mod:`.table` a solved material in memory (``wdl``, ``dtz``, ``dtm`` by index)
* :mod:`.store` the file format (header, checksum, compressed planes)
* :mod:`.paths` where the files live (committed with the package, or the user's cache)
* :mod:`.probe` :class:`EndgameTables`, what the search asks

Nothing is loaded when this package is imported: tables are read on first probe.
``tools/build_endgames.py`` builds more of them.
"""
from __future__ import annotations

from .material import CountRule, Material, count_rule
from .probe import DRAW_RESULT, LOSS_RESULT, WIN_RESULT, EndgameTables

__all__ = ["EndgameTables", "Material", "CountRule", "count_rule",
           "WIN_RESULT", "DRAW_RESULT", "LOSS_RESULT"]
