"""The database file format: one material of one variant per file.

A file is a header line, a JSON line and a compressed stream::

    draughts-egdb 1\\n
    {"variant": "english", "material": "KKvK", "positions": 29760, "count_limit": 80,
     "men_reset": true, "code_width": 1, "tail_width": 1, "codec": "lzma",
     "crc32": 123456789}\\n
    <lzma or zlib: code plane, tail plane>

Both planes hold ``positions`` unsigned little-endian integers of their width
(1 or 2 bytes), in index order (:mod:`.index`):

* the *code* of each position: 0 a draw, 1 an unused index, ``2 * dtz`` a win,
  ``2 * dtz + 3`` a loss (see :mod:`.table` for ``dtz``);
* its *tail*, ``dtm - dtz`` (0 for draws).

Long runs of draws compress to almost nothing.  ``crc32`` is the checksum of
the uncompressed planes.  ``codec`` is ``lzma`` (a third smaller) where the
``lzma`` module exists, else ``zlib``.  ``count_limit`` and ``men_reset``
record the draw count the file was solved under: a file solved under other
rules than the variant's is refused.
"""
from __future__ import annotations

import binascii
import os
import sys
import zlib
from array import array
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ..variants import Variant, get_variant
from .index import MaterialIndex
from .material import Material, count_rule
from .table import DRAW, LOSS, UNUSED, WIN, Table

__all__ = ["save", "load", "read_header", "EndgameFileError", "FORMAT", "SUFFIX", "file_name"]

FORMAT = 1
"""Version of the file format (and of the solver's definitions of dtz and dtm)."""

MAGIC = b"draughts-egdb"
SUFFIX = ".egdb"
_MAX_HEADER = 4096


def _lzma():
    """The ``lzma`` module, or None where Python was built without it (imported
    when a file is read or written, not with the package)."""
    try:
        import lzma
    except ImportError:  # pragma: no cover - Python built without liblzma
        return None
    return lzma


class EndgameFileError(ValueError):
    """A database file that is not one, is damaged, or was solved under other rules."""


def file_name(material: Material) -> str:
    """``KKvK.egdb``."""
    return material.name + SUFFIX


def _codes(table: Table) -> List[int]:
    """The code plane of a table (see the module docstring)."""
    out = []
    for value, dtz in zip(table.wdl, table.dtz):
        if value == DRAW:
            out.append(0)
        elif value == UNUSED:
            out.append(1)
        else:
            out.append(2 * dtz if value == WIN else 2 * dtz + 3)
    return out


def _plane(values: Sequence[int]) -> Tuple[int, bytes]:
    """``(width, little-endian bytes)`` of unsigned values, 1 or 2 bytes each."""
    top = max(values, default=0)
    if top >= 1 << 16:
        raise ValueError(f"distance {top} does not fit the file format")
    packed = array("B" if top < 256 else "H", values)
    if packed.itemsize == 2 and sys.byteorder != "little":  # pragma: no cover
        packed.byteswap()
    return packed.itemsize, packed.tobytes()


def save(table: Table, path: Union[str, "os.PathLike[str]"], codec: Optional[str] = None) -> int:
    """Write ``table`` to ``path`` (atomically: a temporary file renamed); return its size in bytes.

    ``codec``: ``lzma`` (the default where available) or ``zlib``."""
    lzma = _lzma()
    codec = codec or ("lzma" if lzma is not None else "zlib")
    if codec not in ("lzma", "zlib") or (codec == "lzma" and lzma is None):
        raise ValueError(f"codec {codec!r} is not available (lzma or zlib)")
    ix = table.index
    code_width, codes = _plane(_codes(table))
    tail_width, tails = _plane(table.tail)
    payload = codes + tails
    header = {
        "variant": ix.variant.name,
        "material": ix.material.name,
        "positions": ix.size,
        "count_limit": table.rule.limit,
        "men_reset": table.rule.men_reset,
        "code_width": code_width,
        "tail_width": tail_width,
        "codec": codec,
        "crc32": binascii.crc32(payload),
    }
    if codec == "lzma":
        packed = lzma.compress(payload, preset=9)
    else:
        packed = zlib.compress(payload, 9)
    import json
    data = (MAGIC + b" " + str(FORMAT).encode() + b"\n" + json.dumps(header).encode() + b"\n"
            + packed)
    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return len(data)


def read_header(data: bytes, where: str = "database") -> Dict[str, object]:
    """The JSON header of a file's bytes; :class:`EndgameFileError` if it is not one."""
    first, _, rest = data[:_MAX_HEADER].partition(b"\n")
    if not first.startswith(MAGIC + b" "):
        raise EndgameFileError(f"{where}: not an endgame database file")
    version = first[len(MAGIC) + 1:]
    if version != str(FORMAT).encode():
        raise EndgameFileError(f"{where}: format {version.decode(errors='replace')!r}, "
                               f"this engine reads format {FORMAT}")
    import json
    line, sep, _ = rest.partition(b"\n")
    try:
        header = json.loads(line.decode())
    except (UnicodeDecodeError, ValueError):
        header = None
    if not sep or not isinstance(header, dict):
        raise EndgameFileError(f"{where}: damaged header")
    return header


def load(path: Union[str, "os.PathLike[str]"], variant: Union[Variant, str],
         material: Optional[Material] = None) -> Table:
    """Read a table written by :func:`save`, checking it belongs to ``variant``
    (and ``material``), is whole, and was solved under the variant's draw rules.

    Raises :class:`EndgameFileError` (and ``OSError`` when the file cannot be read).
    """
    variant = get_variant(variant)
    where = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    header = read_header(data, where)
    try:
        found = Material.parse(str(header.get("material")))
    except ValueError:
        raise EndgameFileError(f"{where}: bad material {header.get('material')!r}") from None
    if header.get("variant") != variant.name:
        raise EndgameFileError(
            f"{where}: a {header.get('variant')!r} database, not {variant.name!r}")
    if material is not None and found != material:
        raise EndgameFileError(f"{where}: holds {found.name}, not {material.name}")
    rule = count_rule(variant, found)
    if header.get("count_limit") != rule.limit or header.get("men_reset") != rule.men_reset:
        raise EndgameFileError(f"{where}: solved under another draw count than {variant.name}'s "
                               f"({rule.limit} plies, {rule.name}); build it again")
    ix = MaterialIndex(variant, found)
    size = ix.size
    code_width, tail_width = header.get("code_width"), header.get("tail_width")
    if header.get("positions") != size or code_width not in (1, 2) or tail_width not in (1, 2):
        raise EndgameFileError(f"{where}: header does not fit {found.name} ({size} positions)")
    codec = header.get("codec", "zlib")
    lzma = _lzma()
    if codec == "lzma" and lzma is None:  # pragma: no cover - Python built without liblzma
        raise EndgameFileError(f"{where}: needs the lzma module, which this Python lacks")
    if codec not in ("lzma", "zlib"):
        raise EndgameFileError(f"{where}: unknown codec {codec!r}")
    start = data.index(b"\n", data.index(b"\n") + 1) + 1
    try:
        if codec == "lzma":
            payload = lzma.decompress(data[start:])
        else:
            payload = zlib.decompress(data[start:])
    except (zlib.error, EOFError, ValueError, getattr(lzma, "LZMAError", ValueError)):
        raise EndgameFileError(f"{where}: damaged data") from None
    if (len(payload) != size * (code_width + tail_width)
            or binascii.crc32(payload) != header.get("crc32")):
        raise EndgameFileError(f"{where}: checksum mismatch (damaged or truncated file)")
    codes = payload[:size * code_width]
    tail = _unpack(payload[size * code_width:], tail_width)
    if code_width == 1:  # one C-level pass per plane
        wdl, dtz = codes.translate(_WDL_OF_CODE), codes.translate(_DTZ_OF_CODE)
    else:
        wdl, dtz = _decode(_unpack(codes, 2))
    return Table(ix, rule, wdl, dtz, tail)


def _unpack(data: bytes, width: int) -> Sequence[int]:
    if width == 1:
        return data
    values = array("H", data)
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        values.byteswap()
    return values


def _decode(codes: Sequence[int]) -> Tuple[bytearray, array]:
    """``(wdl, dtz)`` planes of a code plane."""
    wdl = bytearray(len(codes))
    dtz = array("H", bytes(2 * len(codes)))
    for i, c in enumerate(codes):
        if c == 1:
            wdl[i] = UNUSED
        elif c:
            wdl[i] = WIN if c % 2 == 0 else LOSS
            dtz[i] = c // 2 if c % 2 == 0 else (c - 3) // 2
    return wdl, dtz


_WDL_OF_CODE, _DTZ_OF_CODE = (bytes(plane.tolist() if isinstance(plane, array) else plane)
                              for plane in _decode(range(256)))
