"""Canonical URLs: one spelling per page, so that the same page found twice is fetched and cited once."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING_PREFIXES = ("utm_", "pk_", "mtm_")
_TRACKING = {"gclid", "fbclid", "msclkid", "dclid", "yclid", "mc_cid", "mc_eid", "_ga", "igshid", "ref_src"}


def canonical_url(url: str) -> str:
    """Lower-case scheme and host, default port and fragment dropped, tracking parameters removed, the
    remaining query keys sorted; the path is kept as it is (paths are case-sensitive)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is not None and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k.lower() not in _TRACKING and not k.lower().startswith(_TRACKING_PREFIXES)
    ]
    return urlunsplit((scheme, host, parts.path or "/", urlencode(sorted(query)), ""))


def domain_of(url: str) -> str:
    """The host without a leading ``www.``: what per-domain caps and allow/deny lists compare."""
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def domain_matches(domain: str, patterns: list[str] | tuple[str, ...]) -> bool:
    """``example.org`` matches itself and its subdomains."""
    return any(domain == p or domain.endswith("." + p) for p in (p.lower().lstrip(".") for p in patterns))
