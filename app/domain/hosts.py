"""Which hosts are this computer itself (loopback): where plain http:// is allowed and where the
demo provider may listen. One rule for the provider clients and the demo provider alike."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


def is_loopback_host(host: str | None) -> bool:
    """``host`` names this computer: ``localhost`` or a loopback address (IPv4 or IPv6)."""
    if not host:
        return False
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint_for(base_url: str) -> str:
    """``global``, ``cn`` or ``local`` from a base URL (unknown https hosts count as global)."""
    host = (urlsplit(base_url).hostname or "").lower()
    if is_loopback_host(host):
        return "local"
    if host == "minimaxi.com" or host.endswith(".minimaxi.com") or "minimaxi" in host:
        return "cn"
    return "global"


__all__ = ["LOOPBACK_NAMES", "endpoint_for", "is_loopback_host"]
