"""Which addresses the web board listens on and which ``Host`` headers it answers.

DNS rebinding: a page on ``evil.example`` can point that name at 127.0.0.1 and then
talk to a local server as if it were its own origin. The defence is to answer only
requests whose ``Host`` header names the server by something an attacker cannot
re-point: an IP literal, ``localhost`` (and ``*.localhost``), or a name the person
running the server allowed explicitly.
"""
from __future__ import annotations

import ipaddress
from typing import Iterable, Optional, Tuple

__all__ = ["HostPolicy", "is_loopback", "split_host_header"]

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the server on this machine.

    ``host`` is what ``--host`` received: an IP literal or a name. Names other than
    ``localhost`` are not resolved here, so they count as non-loopback.
    """
    text = host.strip().strip("[]").lower()
    if text in LOOPBACK_NAMES or text.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


def split_host_header(value: str) -> Optional[Tuple[str, Optional[int]]]:
    """``(host, port)`` of a ``Host`` header value, or None when it is malformed.

    ``host`` is lower-case, without the brackets of an IPv6 literal; ``port`` is None
    when the header has none.
    """
    text = value.strip().lower()
    if not text or any(c.isspace() or c in "/\\@?#" for c in text):
        return None
    port_text: Optional[str] = None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        host, rest = text[1:end], text[end + 1:]
        if rest:
            if not rest.startswith(":"):
                return None
            port_text = rest[1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return None
    else:
        host, sep, port_text_found = text.partition(":")
        if sep:
            port_text = port_text_found
        if not host:
            return None
    port: Optional[int] = None
    if port_text is not None:
        if not (port_text.isascii() and port_text.isdigit()) or not 0 < int(port_text) < 65536:
            return None
        port = int(port_text)
    return host, port


class HostPolicy:
    """Decides whether a request's ``Host`` header names this server.

    Accepted: IP literals, ``localhost`` and ``*.localhost``, and the names in
    ``allowed`` (case-insensitive), with any port (a tunnel or port mapping may show the
    server under another port; a rebinding attack needs a name of its own, which is refused).
    """

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(name.strip().lower() for name in allowed if name.strip())

    def accepts(self, header: Optional[str]) -> bool:
        """True when ``header`` (the raw ``Host`` value, None if absent) is acceptable."""
        if header is None:
            return False
        parsed = split_host_header(header)
        if parsed is None:
            return False
        host = parsed[0]
        if host in self.allowed or host in LOOPBACK_NAMES or host.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return False
        return True

    def origin_matches(self, origin: Optional[str], host_header: Optional[str]) -> bool:
        """True when a request's ``Origin`` (if any) is this server as named by ``Host``.

        Browsers send ``Origin`` on cross-site POSTs; a page from elsewhere posting to the
        board gets a different origin and is refused (cross-site request forgery).
        """
        if origin is None:
            return True
        if host_header is None:
            return False
        return origin.strip().lower() == "http://" + host_header.strip().lower()
