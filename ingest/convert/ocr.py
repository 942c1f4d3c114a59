"""Optical character recognition of a page image: lines of words with boxes, a font size and a bold guess.

Tesseract (Debian's ``tesseract-ocr``, called through pytesseract) is the engine: on scanned pages of the
development PDFs it read text with a lower character error rate than RapidOCR's PP-OCR models and faster on
this CPU (``benchmarks/ocr.py``, docs/BENCHMARKS.md). Its hOCR output gives, per line, the words' boxes, the
baseline and ``x_size``, a font size estimate that keeps the ratios of the type sizes (a 12 pt heading over
10 pt text reads 1.2 times as large), which is what the PDF structure recovery needs to tell headings from
body text. The engine is a protocol (``OcrEngine``): the benchmark runs RapidOCR through the same seam.

Boldness is not something either engine reports; it is measured on the image: the mean length of the ink
runs across a line's glyphs (its stroke width) relative to its size (``stroke_ratio``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL.Image import Image

# One OCR thread per conversion worker: the pool already runs one worker per core.
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

_BBOX = re.compile(r"bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_BASELINE = re.compile(r"baseline (-?[\d.]+) (-?[\d.]+)")
_X_SIZE = re.compile(r"x_size ([\d.]+)")
_LINE_CLASSES = ("ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat")


class OcrError(Exception):
    """OCR could not run (the engine is missing or failed); the message is the reason."""


class OcrTimeoutError(OcrError):
    """The engine did not finish within the time it was given."""


@dataclass(frozen=True, slots=True)
class OcrWord:
    """A recognised word; pixel coordinates, origin at the image's top left."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class OcrLine:
    words: tuple[OcrWord, ...]
    #: Font size estimate in pixels (about the body of the type: ascender to descender).
    size: float
    #: The baseline's height in pixels (from the top), at the line's left end.
    baseline: float


class OcrEngine(Protocol):
    @property
    def name(self) -> str:
        """The engine and its version, recorded with the conversion."""
        ...

    def read(self, image: Image, timeout: float) -> list[OcrLine]:
        """The text lines of ``image`` (8-bit grey), top to bottom; ``OcrTimeoutError`` past ``timeout``."""
        ...


class Tesseract:
    """Tesseract 4+ (LSTM) through pytesseract, English by default, automatic page segmentation."""

    def __init__(self, languages: str = "eng") -> None:
        self.languages = languages

    @property
    def name(self) -> str:
        return f"tesseract {_tesseract_version()}"

    def read(self, image: Image, timeout: float) -> list[OcrLine]:
        import pytesseract  # noqa: PLC0415 - only in conversion workers

        _tesseract_version()  # a clear error when the program is missing
        try:
            hocr = pytesseract.image_to_pdf_or_hocr(
                image, lang=self.languages, extension="hocr", config="--psm 3", timeout=max(0.1, timeout)
            )
        except RuntimeError as exc:  # pytesseract's timeout
            if "timeout" in str(exc).lower():
                raise OcrTimeoutError(f"OCR took longer than {timeout:.0f}s") from exc
            raise OcrError(f"tesseract failed ({exc})") from exc
        except pytesseract.TesseractError as exc:
            raise OcrError(f"tesseract failed ({exc.message or exc.status})") from exc
        return parse_hocr(hocr)


@cache
def _tesseract_version() -> str:
    import pytesseract  # noqa: PLC0415

    try:
        return str(pytesseract.get_tesseract_version())
    except pytesseract.TesseractNotFoundError as exc:
        raise OcrError("OCR needs the tesseract program (Debian: apt-get install tesseract-ocr)") from exc


def parse_hocr(hocr: bytes) -> list[OcrLine]:
    """The lines of a Tesseract hOCR page."""
    from lxml import html  # noqa: PLC0415 - lxml ships with Docling

    if not hocr.strip():
        return []
    root = html.fromstring(hocr)
    lines: list[OcrLine] = []
    for element in root.iter("span"):
        if element.get("class") not in _LINE_CLASSES:
            continue
        title = element.get("title", "")
        box, size = _BBOX.search(title), _X_SIZE.search(title)
        if box is None or size is None:
            continue
        words = []
        for word in element.iter("span"):
            text = " ".join(word.text_content().split())
            found = _BBOX.search(word.get("title", ""))
            if word.get("class") == "ocrx_word" and text and found is not None:
                words.append(OcrWord(text, *(float(v) for v in found.groups())))
        if not words:
            continue
        y1 = float(box.group(4))
        base = _BASELINE.search(title)
        baseline = y1 + (float(base.group(2)) if base else 0.0)
        lines.append(OcrLine(tuple(words), float(size.group(1)), baseline))
    return lines


def stroke_ratio(dark: object, line: OcrLine) -> float:
    """Mean horizontal ink run over the line's words, divided by its size: bold type reads about 1.5 times
    the body's ratio, a larger size of the same weight about the same. ``dark`` is the page as a boolean
    numpy array (True = ink)."""
    import numpy as np  # noqa: PLC0415

    pixels = np.asarray(dark)
    ink = runs = 0
    for word in line.words:
        box = pixels[int(word.y0) : int(word.y1), int(word.x0) : int(word.x1)]
        ink += int(box.sum())
        runs += int(np.count_nonzero(np.diff(box.astype(np.int8), axis=1) == 1))
    return (ink / runs) / line.size if runs and line.size > 0 else 0.0
