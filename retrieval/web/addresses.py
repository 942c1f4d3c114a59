"""Which addresses a fetch may connect to: a pure classification, then resolution that keeps the address.

The guard against server-side request forgery works on IP addresses, never on names: a host is resolved
once, every address it resolves to must be public, and the connection goes to the address that was checked
(``Target.address``), so a second lookup cannot answer differently. Legacy spellings that the C library
still parses (``2130706433``, ``0177.0.0.1``, ``0x7f.1``) are read the way a connection would read them.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

from sleuth.ingest.errors import InputError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}


class BlockedAddressError(InputError):
    """The URL's host is, or resolves to, an address a fetch must not reach; the message says which."""


def literal_address(host: str) -> IPAddress | None:
    """The address a host spelled as an IP literal stands for (any spelling ``inet_aton`` accepts), or None
    for a name."""
    text = host.strip("[]")
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if "%" in text:  # scoped IPv6 (fe80::1%eth0)
        try:
            return ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(text))
    except (OSError, ValueError):
        return None


def why_blocked(address: IPAddress) -> str | None:
    """Why a fetch may not connect to ``address`` (loopback, private, ...), or None when it is public."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            reason = why_blocked(mapped)
            return f"{reason} (as {address})" if reason else None
        if address.teredo is not None:
            return "a Teredo tunnel address"
    if address in _METADATA:
        return "a cloud metadata address"
    checks = (  # the most specific name first (0.0.0.0 is also "private" to ipaddress)
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
        ("not globally routable", not address.is_global),
    )
    return next((f"a {name} address" for name, hit in checks if hit), None)


@dataclass(frozen=True, slots=True)
class Target:
    """A host and the one address a connection to it will use."""

    host: str
    address: str
    port: int


def resolve(host: str, port: int, *, allow_private: bool = False) -> Target:
    """Resolve ``host`` once; refuse it when any of its addresses is not public (unless ``allow_private``)."""
    literal = literal_address(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise BlockedAddressError(f"{host}: cannot be resolved ({exc.strerror})") from exc
        addresses = [literal_address(str(info[4][0])) or ipaddress.ip_address(info[4][0]) for info in infos]
    if not addresses:
        raise BlockedAddressError(f"{host}: resolves to no address")
    if not allow_private:
        for address in addresses:
            reason = why_blocked(address)
            if reason:
                verb = "is" if literal is not None else "resolves to"
                raise BlockedAddressError(
                    f"{host} {verb} {reason} ({address}); set SLEUTH_WEB_ALLOW_PRIVATE=1 to fetch it"
                )
    return Target(host, str(addresses[0]), port)
