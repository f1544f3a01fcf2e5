"""The database file format: one material of one variant per file.

A file is a header line, a JSON line and a compressed stream::

    draughts-egdb 1\\n
    {"variant": "english", "material": "KKvK", "positions": 29760, "count_limit": 80,
     "men_reset": true, "width": 1, "codec": "lzma", "crc32": 123456789}\\n
    <lzma or zlib: wdl plane, dtz plane, dtm plane>

The planes are ``positions`` values each, in index order (:mod:`.index`): the
``wdl`` codes one byte each, then ``dtz`` and ``dtm`` as unsigned integers of
``width`` bytes (little-endian; 0 for draws), so long runs of draws compress
to almost nothing.  ``crc32`` is the checksum of the uncompressed planes.  ``codec`` is ``lzma``
(a third smaller) where the ``lzma`` module exists, else ``zlib``.
``count_limit`` and ``men_reset`` record the draw count the file was solved
under: a file solved under other rules than the variant's is refused.
"""
from __future__ import annotations

import binascii
import json
import os
import sys
import zlib
from array import array
from typing import Dict, Optional, Union

from ..variants import Variant, get_variant
from .index import MaterialIndex
from .material import Material, count_rule
from .table import Table

__all__ = ["save", "load", "read_header", "EndgameFileError", "FORMAT", "SUFFIX", "file_name"]

FORMAT = 1
"""Version of the file format (and of the solver's definitions of dtz and dtm)."""

MAGIC = b"draughts-egdb"
SUFFIX = ".egdb"
_MAX_HEADER = 4096

try:
    import lzma
except ImportError:  # pragma: no cover - Python built without liblzma
    lzma = None  # type: ignore[assignment]


class EndgameFileError(ValueError):
    """A database file that is not one, is damaged, or was solved under other rules."""


def file_name(material: Material) -> str:
    """``KKvK.egdb``."""
    return material.name + SUFFIX


def save(table: Table, path: Union[str, "os.PathLike[str]"], codec: Optional[str] = None) -> int:
    """Write ``table`` to ``path`` (atomically: a temporary file renamed); return its size in bytes.

    ``codec``: ``lzma`` (the default where available) or ``zlib``."""
    codec = codec or ("lzma" if lzma is not None else "zlib")
    if codec not in ("lzma", "zlib") or (codec == "lzma" and lzma is None):
        raise ValueError(f"codec {codec!r} is not available (lzma or zlib)")
    ix = table.index
    width = 1 if max(max(table.dtz, default=0), max(table.dtm, default=0)) < 256 else 2
    code = "B" if width == 1 else "H"
    dtz, dtm = array(code, table.dtz), array(code, table.dtm)
    if width == 2 and sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        dtz.byteswap()
        dtm.byteswap()
    payload = bytes(table.wdl) + dtz.tobytes() + dtm.tobytes()
    header = {
        "variant": ix.variant.name,
        "material": ix.material.name,
        "positions": ix.size,
        "count_limit": table.rule.limit,
        "men_reset": table.rule.men_reset,
        "width": width,
        "codec": codec,
        "crc32": binascii.crc32(payload),
    }
    if codec == "lzma":
        packed = lzma.compress(payload, preset=9)
    else:
        packed = zlib.compress(payload, 9)
    data = (MAGIC + b" " + str(FORMAT).encode() + b"\n" + json.dumps(header).encode() + b"\n"
            + packed)
    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
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
        raise EndgameFileError(f"{where}: a {header.get('variant')!r} database, not {variant.name!r}")
    if material is not None and found != material:
        raise EndgameFileError(f"{where}: holds {found.name}, not {material.name}")
    rule = count_rule(variant, found)
    if header.get("count_limit") != rule.limit or header.get("men_reset") != rule.men_reset:
        raise EndgameFileError(f"{where}: solved under another draw count than {variant.name}'s "
                               f"({rule.limit} plies, {rule.name}); build it again")
    ix = MaterialIndex(variant, found)
    size = ix.size
    width = header.get("width")
    if header.get("positions") != size or width not in (1, 2):
        raise EndgameFileError(f"{where}: header does not fit {found.name} ({size} positions)")
    codec = header.get("codec", "zlib")
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
    if len(payload) != size * (1 + 2 * width) or binascii.crc32(payload) != header.get("crc32"):
        raise EndgameFileError(f"{where}: checksum mismatch (damaged or truncated file)")
    wdl = bytearray(payload[:size])
    code = "B" if width == 1 else "H"
    dtz = array(code, payload[size:size + size * width])
    dtm = array(code, payload[size + size * width:])
    if width == 2 and sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        dtz.byteswap()
        dtm.byteswap()
    if max(wdl, default=0) > 3:
        raise EndgameFileError(f"{where}: bad result codes")
    return Table(ix, rule, wdl, dtz, dtm)
