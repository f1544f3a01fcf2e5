"""Probing the databases: :class:`EndgameTables`.

Tables are looked for, by material, in the folders of :func:`.paths.folders`
(the files that come with the package, then the user's cache, where
``tools/build_endgames.py`` puts the bigger ones) and loaded on first use, so
creating an :class:`EndgameTables` costs nothing but a directory listing.
Loading is guarded by a lock; probing reads immutable data and may happen
from any thread.
"""
from __future__ import annotations

import os
import threading
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..bitboard import popcount
from ..variants import Variant, get_variant
from .index import flip
from .material import Material, unsupported_reason
from .paths import folders as default_folders
from .store import SUFFIX, EndgameFileError, load
from .table import LOSS, WIN, Table

__all__ = ["EndgameTables", "WIN_RESULT", "DRAW_RESULT", "LOSS_RESULT"]

WIN_RESULT, DRAW_RESULT, LOSS_RESULT = 1, 0, -1
"""Results of :meth:`EndgameTables.probe`, for the side to move."""

_Key = Tuple[int, int, int, int]


class EndgameTables:
    """The endgame databases of one variant that are on disk, loaded as needed.

    ``folders``: where to look (default :func:`.paths.folders`); the first
    folder holding a material's file wins.
    """

    def __init__(self, variant: Union[Variant, str],
                 folders: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None) -> None:
        self.variant = get_variant(variant)
        self.folders: Tuple[str, ...] = tuple(
            os.fspath(f) for f in (default_folders(self.variant) if folders is None else folders))
        self._files: Dict[Material, str] = {}
        # (none for a variant the tables cannot describe: see unsupported_reason)
        usable = unsupported_reason(self.variant) is None
        for folder in reversed(self.folders if usable else ()):
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                if not name.endswith(SUFFIX):
                    continue
                try:
                    material = Material.parse(name[:-len(SUFFIX)])
                except ValueError:
                    continue
                if material.is_canonical:
                    self._files[material] = os.path.join(folder, name)
        #: material key -> (table, colours flipped), or None when not available
        self._tables: Dict[_Key, Optional[Tuple[Table, bool]]] = {}
        self._loaded: Dict[Material, Optional[Table]] = {}
        self._lock = threading.Lock()
        #: files that could not be read, with the reason (they count as missing).
        self.errors: List[str] = []
        self.max_pieces = max((m.pieces for m in self._files), default=0)
        """The most pieces of any material on disk (0 when there is none)."""

    @property
    def materials(self) -> Tuple[Material, ...]:
        """The canonical materials found on disk, in build order."""
        return tuple(sorted(self._files, key=lambda m: (m.pieces, m.men, m.name)))

    def covers(self, material: Material) -> bool:
        """Whether ``material`` (either colour order) has a table on disk."""
        return material.canonical() in self._files

    def table(self, material: Material) -> Optional[Table]:
        """The loaded table of ``material``'s canonical form, or None."""
        entry = self._entry((material.white_men, material.white_kings,
                             material.black_men, material.black_kings))
        return entry[0] if entry is not None else None

    def probe(self, white: int, black: int, kings: int, white_to_move: bool,
              counted: int = 0) -> Optional[Tuple[int, int]]:
        """``(result, plies)`` of a raw position for the side to move, or None
        when no table covers its material.

        ``result`` is :data:`WIN_RESULT`, :data:`DRAW_RESULT` or :data:`LOSS_RESULT`
        under every draw rule of the variant, with ``counted`` plies already on
        the count that governs the ending (plies since the last capture or
        promotion in a lone-king ending, since the last man move or capture
        otherwise); ``plies`` is the distance to the end of the game (0 for a
        draw), see :mod:`.table`.
        """
        wk = popcount(white & kings)
        bk = popcount(black & kings)
        key = (popcount(white) - wk, wk, popcount(black) - bk, bk)
        entry = self._tables.get(key)
        if entry is None:
            if key in self._tables:
                return None
            entry = self._entry(key)
            if entry is None:
                return None
        table, flipped = entry
        ix = table.index
        if flipped:
            white, black, kings, white_to_move = flip(white, black, kings, white_to_move,
                                                      ix.squares, ix.bit_of, ix.square0)
        found = table.result(ix.encode(white, black, kings, white_to_move), counted)
        if found is None:  # pragma: no cover - every real position has an index
            return None
        value, _, plies = found
        if value == WIN:
            return WIN_RESULT, plies
        if value == LOSS:
            return LOSS_RESULT, plies
        return DRAW_RESULT, 0

    def _entry(self, key: _Key) -> Optional[Tuple[Table, bool]]:
        """Load (once) the table of a material key; None if not available."""
        if key in self._tables:
            return self._tables[key]
        with self._lock:
            if key in self._tables:
                return self._tables[key]
            entry = None
            if min(key[0] + key[1], key[2] + key[3]) >= 1:
                material = Material(*key)
                canonical = material.canonical()
                table = self._load(canonical)
                if table is not None:
                    entry = (table, canonical != material)
            self._tables[key] = entry
            return entry

    def _load(self, material: Material) -> Optional[Table]:
        """The table of a canonical material, read once (the caller holds the lock)."""
        if material in self._loaded:
            return self._loaded[material]
        table = None
        path = self._files.get(material)
        if path is not None:
            try:
                table = load(path, self.variant, material)
            except (OSError, EndgameFileError) as exc:
                self.errors.append(str(exc))
        self._loaded[material] = table
        return table

    def __repr__(self) -> str:
        return (f"EndgameTables({self.variant.name!r}, {len(self._files)} materials, "
                f"up to {self.max_pieces} pieces)")
