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
#: Instance metadata services (AWS, GCP, Azure, OpenStack; AWS ECS tasks; AWS over IPv6; Alibaba; Oracle).
_METADATA = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192")
)
#: IANA's special-purpose blocks that are not globally reachable, named, most specific first. ``ipaddress``
#: knows most of them, but its tables changed between patch releases (CVE-2024-4032: 3.11.7, this project's
#: floor, calls 192.0.0.0/24 global); the guard must not depend on which Python runs it.
_SPECIAL: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = tuple(
    (ipaddress.ip_network(net), name)
    for net, name in (
        ("0.0.0.0/32", "unspecified"), ("0.0.0.0/8", "reserved ('this network')"),
        ("127.0.0.0/8", "loopback"),
        ("10.0.0.0/8", "private"), ("172.16.0.0/12", "private"), ("192.168.0.0/16", "private"),
        ("100.64.0.0/10", "shared (carrier-grade NAT)"), ("169.254.0.0/16", "link-local"),
        ("192.0.0.0/24", "reserved (IETF protocol)"), ("192.0.2.0/24", "reserved (documentation)"),
        ("198.51.100.0/24", "reserved (documentation)"), ("203.0.113.0/24", "reserved (documentation)"),
        ("192.88.99.0/24", "reserved (6to4 relay)"), ("198.18.0.0/15", "reserved (benchmarking)"),
        ("224.0.0.0/4", "multicast"), ("255.255.255.255/32", "broadcast"), ("240.0.0.0/4", "reserved"),
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("fe80::/10", "link-local"),
        ("fec0::/10", "reserved (site-local)"), ("fc00::/7", "private"), ("ff00::/8", "multicast"),
        ("64:ff9b:1::/48", "reserved (local NAT64)"), ("100::/64", "reserved (discard)"),
        ("2001:db8::/32", "reserved (documentation)"), ("3fff::/20", "reserved (documentation)"),
        ("2001::/23", "reserved (IETF protocol)"), ("5f00::/16", "reserved (segment routing)"),
        ("::/8", "reserved"),
    )
)  # fmt: skip
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
#: What SLEUTH_WEB_ALLOW_PRIVATE=1 says in every refusal it does not lift.
_SWITCH = "SLEUTH_WEB_ALLOW_PRIVATE=1 allows loopback only"


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


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries and is delivered to (IPv4-mapped, 6to4, NAT64), or None."""
    if isinstance(address, ipaddress.IPv4Address):
        return None
    if address.ipv4_mapped is not None or address.sixtofour is not None:
        return address.ipv4_mapped or address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def why_blocked(address: IPAddress) -> str | None:
    """Why a fetch may not connect to ``address`` (loopback, private, ...), or None when it is public."""
    embedded = embedded_ipv4(address)
    if embedded is not None:
        reason = why_blocked(embedded)
        return f"{reason} (as {address})" if reason else None
    if isinstance(address, ipaddress.IPv6Address) and address.teredo is not None:
        return "a Teredo tunnel address"
    if address in _METADATA:
        return "a cloud metadata address"
    named = next((name for network, name in _SPECIAL if address in network), None)
    if named:
        return f"a {named} address"
    checks = (  # what ipaddress knows beyond the table above
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
        ("not globally routable", not address.is_global),
    )
    return next((f"a {name} address" for name, hit in checks if hit), None)


def is_loopback(address: IPAddress) -> bool:
    """This machine: 127.0.0.0/8, ::1 or IPv4-mapped 127.x (never 6to4 or NAT64, which leave the machine)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def refusal(address: IPAddress, *, allow_private: bool = False) -> str | None:
    """Why a fetch may not connect to ``address`` under the setting, with what the setting would change; None
    when it may. ``allow_private`` (SLEUTH_WEB_ALLOW_PRIVATE=1) exists to test against pages on this machine:
    it opens loopback and nothing else, so that no page, and no redirect, reaches the metadata service,
    link-local, multicast, private or reserved addresses, whatever the settings."""
    reason = why_blocked(address)
    if reason is None:
        return None
    if f"(as {address})" not in reason:
        reason = f"{reason} ({address})"
    if is_loopback(address):
        return None if allow_private else f"{reason}; set SLEUTH_WEB_ALLOW_PRIVATE=1 to fetch it"
    return f"{reason}; never fetched ({_SWITCH})"


@dataclass(frozen=True, slots=True)
class Target:
    """A host and the one address a connection to it will use."""

    host: str
    address: str
    port: int


def resolve(host: str, port: int, *, allow_private: bool = False) -> Target:
    """Resolve ``host`` once; refuse it when any of its addresses may not be fetched: anything but a public
    address, or loopback when ``allow_private``. Blocking (``getaddrinfo``): call it off the event loop."""
    literal = literal_address(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError, ValueError) as exc:  # unknown, an invalid IDNA label, a NUL
            why = (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
            raise BlockedAddressError(f"{host}: cannot be resolved ({why})") from exc
        addresses = [literal_address(str(info[4][0])) or ipaddress.ip_address(info[4][0]) for info in infos]
    if not addresses:
        raise BlockedAddressError(f"{host}: resolves to no address")
    for address in addresses:
        reason = refusal(address, allow_private=allow_private)
        if reason:
            verb = "is" if literal is not None else "resolves to"
            raise BlockedAddressError(f"{host} {verb} {reason}")
    return Target(host, str(addresses[0]), port)
