"""Where the database files live.

* :func:`package_folder`: the files that come with the package
  (``draughts_engine/endgame/data/<variant>/``): the small endings, committed.
* :func:`cache_folder`: the user's cache (``$XDG_CACHE_HOME/draughts-engine/endgame-2/<variant>/``,
  ``~/.cache/...`` by default), where ``tools/build_endgames.py`` writes the bigger ones.

The cache's folder carries :data:`RULES_EDITION`: files built under other draw rules (the
first edition restarted a lone-king count at each capture or promotion inside its ending)
are not read, and ``tools/build_endgames.py`` builds them again.
"""
from __future__ import annotations

import os
from typing import Tuple

from ..variants import Variant

__all__ = ["package_folder", "cache_folder", "folders", "RULES_EDITION"]

RULES_EDITION = 2
"""Bumped when a change of the rules changes what a built database holds."""


def package_folder(variant: Variant) -> str:
    """The committed databases of ``variant``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", variant.name)


def cache_folder(variant: Variant) -> str:
    """The user's cache folder for ``variant``'s databases (it may not exist yet)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "draughts-engine", f"endgame-{RULES_EDITION}", variant.name)


def folders(variant: Variant) -> Tuple[str, ...]:
    """Where :class:`~.probe.EndgameTables` looks, first match first."""
    return package_folder(variant), cache_folder(variant)
