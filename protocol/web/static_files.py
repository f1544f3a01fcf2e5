"""The page's files, served from the package's ``static`` folder and nowhere else.

The folder is read once when the server starts: a request can only name one of the
regular files found there (by its plain file name), so no path from a request is ever
joined to a directory and nothing outside the folder can be reached.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, Optional

__all__ = ["StaticFile", "StaticFiles", "STATIC_DIR"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
MAX_FILE_BYTES = 4 << 20
"""Files larger than this are not served (the page's files are a few tens of KB)."""


@dataclass(frozen=True)
class StaticFile:
    """One servable file: its bytes and ``Content-Type``."""

    name: str
    body: bytes
    content_type: str


class StaticFiles:
    """The servable files of ``folder``, loaded into memory once.

    Only regular files directly in ``folder`` with a known extension are kept;
    sub-folders, links and dot-files are ignored.
    """

    def __init__(self, folder: str = STATIC_DIR) -> None:
        self.folder = folder
        self._files: Dict[str, StaticFile] = {}
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            extension = os.path.splitext(name)[1].lower()
            if (name.startswith(".") or extension not in CONTENT_TYPES or os.path.islink(path)
                    or not os.path.isfile(path) or os.path.getsize(path) > MAX_FILE_BYTES):
                continue
            with open(path, "rb") as handle:
                self._files[name] = StaticFile(name, handle.read(), CONTENT_TYPES[extension])

    def get(self, name: str) -> Optional[StaticFile]:
        """The file called exactly ``name``, or None."""
        return self._files.get(name)

    def names(self):
        """The servable file names, sorted."""
        return sorted(self._files)
