"""A scanned page as the PDF line model: OCR lines become ``pdf_layout.Line`` cells on a ``Page``.

Recognised text then goes through the same structure recovery as a text layer (``pdf_structure``): running
headers, columns, headings from outline or size, paragraphs, lists, tables. What the text layer says by font
names, a scan says by its pixels, so the font of an OCR line names what the image shows: ``ocr-bold`` for
strokes markedly thicker than the page's body text, ``ocr`` otherwise. A line is cut into cells where its
words stand more than an em apart (table columns), as text layers cut lines into cells.

Rules drawn across a table (booktabs' top, middle and bottom rules, a grid's borders) are found in the pixels
too (long thin runs of ink) and become the line model's ``Rule``s, so that ruled tables are found as in a
text layer.

Scans are rarely straight; a page tilted by a degree or two is turned upright first (``deskew``), so that a
line's box is as tall as its type and rows of a table share a baseline.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from sleuth.ingest.convert.ocr import OcrEngine, OcrLine, stroke_ratio
from sleuth.ingest.convert.pdf_layout import Line, Page, Rule

if TYPE_CHECKING:
    from PIL.Image import Image

#: Gap between words, in ems, beyond which they are separate cells (a table's columns stand 1.2 em and more
#: apart in typeset tables; a justified line's widest spaces stay under about 0.6 em).
CELL_GAP = 1.0
#: Stroke width over size, relative to the page's body lines, from which a line reads as bold.
BOLD_RATIO = 1.35
#: Share of the descent below the baseline in a type's body (ascender to descender).
_DESCENT = 0.22
#: A rule: a run of ink at least this share of the page's width, at most ``_RULE_THICK`` of its height thick.
_RULE_MIN = 0.08
_RULE_THICK = 0.004
#: Largest tilt corrected, in degrees, and the search's final step.
_MAX_SKEW = 5.0
_SKEW_STEP = 0.1


def grey(image: Image) -> Image:
    """8-bit grey, whatever the image's mode (palette, RGBA with a transparent background, 1-bit)."""
    from PIL import Image as PilImage  # noqa: PLC0415

    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        background = PilImage.new("RGBA", image.size, (255, 255, 255, 255))
        background.alpha_composite(image.convert("RGBA"))
        image = background
    return image.convert("L")


def skew_angle(image: Image) -> float:
    """The tilt of the text lines in degrees (counter-clockwise positive), found as the rotation that makes
    the rows' ink profile sharpest: lines of text make alternating dark and light bands when straight."""
    import numpy as np  # noqa: PLC0415
    from PIL import Image as PilImage  # noqa: PLC0415

    scale = max(1, round(image.width / 1000))
    small = image.reduce(scale) if scale > 1 else image
    ink = PilImage.fromarray(((np.asarray(small) < 128) * 255).astype(np.uint8))

    def sharpness(angle: float) -> float:
        profile = np.asarray(ink.rotate(angle, resample=PilImage.Resampling.BILINEAR), dtype=np.float64)
        rows = profile.sum(axis=1)
        return float(np.sum(np.diff(rows) ** 2))

    best = 0.0
    for step in (1.0, 0.25, _SKEW_STEP):
        span = _MAX_SKEW if step == 1.0 else step * 4
        candidates = np.arange(best - span, best + span + step / 2, step)
        best = float(max(candidates, key=sharpness))
    return round(best, 2)


def deskew(image: Image) -> tuple[Image, float]:
    """The grey image turned upright, and the angle it was turned by."""
    from PIL import Image as PilImage  # noqa: PLC0415

    angle = skew_angle(image)
    if abs(angle) < _SKEW_STEP:
        return image, 0.0
    turned = image.rotate(angle, resample=PilImage.Resampling.BICUBIC, fillcolor=255)
    return turned, angle


def read_page(
    image: Image,
    number: int,
    engine: OcrEngine,
    timeout: float,
    points_per_pixel: float | None = None,
) -> Page:
    """OCR one page image into a ``Page`` (points, origin bottom left). ``points_per_pixel`` is known for a
    PDF page (its size); for an image it is chosen so that the body text reads 10 pt, which is what the
    structure recovery's distances are tuned for."""
    import numpy as np  # noqa: PLC0415

    upright, _ = deskew(grey(image))
    lines = [line for line in engine.read(upright, timeout) if line.size > 0]
    if points_per_pixel is None:
        sizes = [line.size for line in lines for _ in line.words]
        points_per_pixel = 10.0 / statistics.median(sizes) if sizes else 72.0 / 300
    width, height = upright.width * points_per_pixel, upright.height * points_per_pixel
    page = Page(number, width, height)
    dark = np.asarray(upright) < 128
    ratios = [stroke_ratio(dark, line) for line in lines]
    body = statistics.median(
        [r for r, ln in zip(ratios, lines, strict=True) if len(ln.words) >= 4] or ratios or [0]
    )
    for line, ratio in zip(lines, ratios, strict=True):
        font = "ocr-bold" if body and ratio >= BOLD_RATIO * body else "ocr"
        page.lines += _cells(line, font, number, height, points_per_pixel)
    page.rules = [
        Rule(x0 * points_per_pixel, x1 * points_per_pixel, height - y * points_per_pixel)
        for x0, x1, y in rules(dark)
    ]
    return page


def rules(dark: object) -> list[tuple[float, float, float]]:
    """Horizontal rules of a page as (x0, x1, y) in pixels: runs of ink longer than a word could be, on a few
    adjacent pixel rows at most (a heavier band is a filled box or a photograph, not a rule)."""
    import numpy as np  # noqa: PLC0415

    pixels = np.asarray(dark)
    height, width = pixels.shape
    shortest = max(10, int(_RULE_MIN * width))
    found: list[tuple[int, int, int]] = []  # (row, x0, x1)
    for row in np.flatnonzero(pixels.sum(axis=1) >= shortest):
        edges = np.diff(np.concatenate(([0], pixels[row].astype(np.int8), [0])))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        for x0, x1 in zip(starts, ends, strict=True):
            if x1 - x0 >= shortest:
                found.append((int(row), int(x0), int(x1)))
    bands: list[list[tuple[int, int, int]]] = []  # runs on adjacent rows, starting within a few pixels
    for run in sorted(found):
        band = next((b for b in bands if run[0] - b[-1][0] == 1 and abs(run[1] - b[-1][1]) <= 8), None)
        if band is None:
            bands.append([run])
        else:
            band.append(run)
    out: list[tuple[float, float, float]] = []
    for band in bands:
        if len(band) <= max(2, _RULE_THICK * height):
            out.append((min(r[1] for r in band), max(r[2] for r in band), (band[0][0] + band[-1][0]) / 2))
    return out


def _cells(line: OcrLine, font: str, number: int, height: float, scale: float) -> list[Line]:
    """The line's words as cells (split where they stand more than ``CELL_GAP`` ems apart), in points."""
    bottom = height - (line.baseline + _DESCENT * line.size) * scale
    top = bottom + line.size * scale
    groups: list[list[int]] = [[0]]
    for k in range(1, len(line.words)):
        gap = line.words[k].x0 - line.words[k - 1].x1
        if gap > CELL_GAP * line.size:
            groups.append([])
        groups[-1].append(k)
    cells = []
    for group in groups:
        words = [line.words[k] for k in group]
        text = " ".join(w.text for w in words)
        cells.append(Line(text, words[0].x0 * scale, bottom, words[-1].x1 * scale, top, font, number))
    return cells
