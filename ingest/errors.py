"""The one exception tree of sleuth, at the bottom layer so that every layer can extend it.

Every error sleuth raises on purpose is a ``SleuthError`` whose ``str()`` is one line naming what went wrong
(the file, URL, setting or service) and why. Front ends map the three branches once each: the command line to
exit codes, the HTTP API to statuses, the MCP server to tool errors. Anything else that escapes is a bug.

    SleuthError
    ├── InputError            what a user gave cannot be used: a file, a web page, a question, a template name
    │   ├── SourceError           one document that cannot be read (a batch reports it and goes on)
    │   │   └── PdfReadError, UnsupportedFormatError
    │   ├── FetchError            one web page that was not fetched (BlockedAddressError: an address refused)
    │   ├── DatasetError, EvalError, ResearchError
    │   ├── UnknownTemplateError  a template name that names no template
    │   └── RunNotFoundError      a run id that names no run
    ├── ConfigurationError    settings, templates, models or an index that cannot be used as configured
    │   ├── SettingsError, TemplateError, SetupError
    │   ├── ModelLoadError, ProvisionError, TokenizerNotFoundError
    │   └── StoreError            the index cannot be opened or used (ModelMismatchError: built by
    │                             other models)
    └── UnavailableError      a service that did not answer: SearXNG (SearchError), an index another process
                              holds (IndexBusyError: "in use by sleuth serve (pid N)", or "busy" while a
                              killed process's worker still holds its write-ahead log)

The command line exits with 2 for all three (usage, configuration, or a service it cannot do without) and
prints ``sleuth: usage error: ...``, ``sleuth: configuration error: ...`` or ``sleuth: unavailable: ...``;
the HTTP API answers 400 (404 for names that name nothing), 500 and 503.
"""

from __future__ import annotations

__all__ = ["ConfigurationError", "InputError", "SleuthError", "UnavailableError", "first_line"]


class SleuthError(Exception):
    """The root of every error sleuth raises on purpose; ``str()`` is one line."""


class InputError(SleuthError):
    """Something a user gave (a file, a URL, a question, a name) cannot be used."""


class ConfigurationError(SleuthError):
    """Settings, templates, models or an index cannot be used as configured."""


class UnavailableError(SleuthError):
    """A service sleuth needs did not answer (a search engine, an index another process holds)."""


def first_line(exc: BaseException) -> str:
    """An exception as one line: its message's first non-empty line, else its type's name."""
    lines = [line for line in str(exc).strip().splitlines() if line.strip()]
    return lines[0].strip() if lines else type(exc).__name__
