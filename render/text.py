"""Fonts, clean display names and cached text sprites.

Fonts are the DejaVu Sans files shipped in :mod:`render.fonts` (no system font is
ever used). Player names are any Unicode: control and formatting characters that could
break a line are dropped, and a name too wide for its box is cut at a character
boundary (never inside an accent or an emoji sequence) and ends with "…". Characters
the font lacks (most emoji) are drawn as the font's placeholder box; nothing raises.
"""

from __future__ import annotations

import bisect
import struct
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Final

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "ELLIPSIS",
    "PLACEHOLDER",
    "clean_name",
    "covered",
    "fit_text",
    "font",
    "text_sprite",
    "text_width",
    "wrap_text",
]

ELLIPSIS: Final = "…"
PLACEHOLDER: Final = "□"
"""Drawn once for each run of characters the shipped font lacks (most emoji, CJK)."""
_KEEP_FORMAT: Final = {"\u200d", "\u200c", "\ufe0f", "\ufe0e"}  # ZWJ, ZWNJ, variation selectors
_JOINERS: Final = {"\u200d", "\u200c", "\ufe0f", "\ufe0e"}

RGBA = tuple[int, int, int, int]


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` pixels, loaded once per size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render.fonts").joinpath(name).read_bytes()
    from io import BytesIO

    return ImageFont.truetype(BytesIO(data), size)


def _cmap_ranges(data: bytes) -> list[tuple[int, int]]:
    """The code point ranges a TrueType font maps (its 'cmap' table, format 12 or 4)."""
    (num_tables,) = struct.unpack(">H", data[4:6])
    tables = {
        data[12 + 16 * i : 16 + 16 * i]: struct.unpack(">I", data[20 + 16 * i : 24 + 16 * i])[0]
        for i in range(num_tables)
    }
    cmap = tables[b"cmap"]
    (count,) = struct.unpack(">H", data[cmap + 2 : cmap + 4])
    subtables = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack(
            ">HHI", data[cmap + 4 + 8 * i : cmap + 12 + 8 * i]
        )
        subtables[(platform, encoding)] = cmap + offset
    ranges: list[tuple[int, int]] = []
    if (3, 10) in subtables:
        at = subtables[(3, 10)]
        (groups,) = struct.unpack(">I", data[at + 12 : at + 16])
        for g in range(groups):
            start, end, _ = struct.unpack(">III", data[at + 16 + 12 * g : at + 28 + 12 * g])
            ranges.append((start, end))
    else:
        at = subtables[(3, 1)]
        (seg_x2,) = struct.unpack(">H", data[at + 6 : at + 8])
        segs = seg_x2 // 2
        ends = struct.unpack(f">{segs}H", data[at + 14 : at + 14 + seg_x2])
        starts = struct.unpack(f">{segs}H", data[at + 16 + seg_x2 : at + 16 + 2 * seg_x2])
        ranges = [(a, b) for a, b in zip(starts, ends, strict=True) if a != 0xFFFF]
    return sorted(ranges)


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Disjoint code point ranges that both shipped faces (regular and bold) can draw."""
    regular, bold = (
        _merged(_cmap_ranges(resources.files("render.fonts").joinpath(name).read_bytes()))
        for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
    )
    both: list[tuple[int, int]] = []
    i = j = 0
    while i < len(regular) and j < len(bold):
        lo = max(regular[i][0], bold[j][0])
        hi = min(regular[i][1], bold[j][1])
        if lo <= hi:
            both.append((lo, hi))
        if regular[i][1] < bold[j][1]:
            i += 1
        else:
            j += 1
    return tuple(a for a, _ in both), tuple(b for _, b in both)


def covered(ch: str) -> bool:
    """True when both shipped font faces have a glyph for ``ch``."""
    starts, ends = _coverage()
    code = ord(ch)
    i = bisect.bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def _clusters(text: str) -> list[str]:
    """Split into user-perceived characters, roughly: a base with its accents, variation
    selectors, skin tones and zero-width-joined partners."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        attach = out and (
            unicodedata.combining(ch)
            or ch in _JOINERS
            or 0x1F3FB <= code <= 0x1F3FF  # skin tone modifiers
            or 0xE0020 <= code <= 0xE007F  # tag characters (flags)
            or out[-1].endswith("\u200d")
        )
        if attach:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _displayable(text: str) -> str:
    """``text`` with each run of characters the fonts lack drawn as one placeholder."""
    if all(covered(ch) for ch in text):
        return text
    out: list[str] = []
    for cluster in _clusters(text):
        if all(covered(ch) or ch in _JOINERS for ch in cluster):
            out.append(cluster)
        elif not out or out[-1] != PLACEHOLDER:
            out.append(PLACEHOLDER)
    return "".join(out)


def clean_name(name: str, fallback: str = "?") -> str:
    """``name`` ready to draw: NFC, no control/format characters, spaces collapsed.

    Zero-width joiners and variation selectors are kept (emoji sequences); bidi
    overrides and other invisible format characters are dropped; each run of characters
    the shipped fonts cannot draw (most emoji, CJK) becomes one :data:`PLACEHOLDER`. An
    empty result gives ``fallback``.
    """
    if not isinstance(name, str):
        name = str(name)
    out = []
    for ch in unicodedata.normalize("NFC", name):
        cat = unicodedata.category(ch)
        if ch in _KEEP_FORMAT:
            out.append(ch)
        elif cat in ("Cc", "Zl", "Zp") or ch.isspace():
            out.append(" ")
        elif cat in ("Cf", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(ch)
    cleaned = _displayable(" ".join("".join(out).split()))
    return cleaned or fallback


def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance width of ``text`` in pixels."""
    return float(font(size, bold).getlength(text))


def _cut(text: str, n: int) -> str:
    """The first ``n`` characters at most, backed off so no accent, variation selector
    or joined emoji sequence is split."""
    n = min(n, len(text))
    while 0 < n < len(text) and (
        unicodedata.combining(text[n]) or text[n] in _JOINERS or text[n - 1] == "\u200d"
    ):
        n -= 1
    return text[:n].rstrip()


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` shortened with "…" so it is at most ``max_width`` pixels wide."""
    if text_width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(_cut(text, mid) + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return _cut(text, lo) + ELLIPSIS


def _longest_prefix(text: str, size: int, bold: bool, max_width: int) -> int:
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(_cut(text, mid), size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def wrap_text(text: str, size: int, bold: bool, max_width: int, max_lines: int) -> list[str]:
    """Break ``text`` into at most ``max_lines`` lines of ``max_width`` pixels.

    Breaks at spaces where it can, else inside a word; the last line ends with "…"
    when text is left over.
    """
    lines: list[str] = []
    rest = text.strip()
    while rest and len(lines) < max_lines - 1:
        if text_width(rest, size, bold) <= max_width:
            break
        n = _longest_prefix(rest, size, bold, max_width)
        space = rest.rfind(" ", 0, n + 1)
        if space > 0:
            line, rest = rest[:space], rest[space + 1 :]
        else:
            line = _cut(rest, n) or rest[:1]
            rest = rest[len(line) :]
        lines.append(line.rstrip())
        rest = rest.lstrip()
    if rest:
        lines.append(fit_text(rest, size, bold, max_width))
    return lines


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, bold: bool, color: RGBA, ltr: bool = False) -> Image.Image:
    """``text`` drawn once in ``color`` on a transparent image, cached for reuse.

    The image's height is the font's line height, so sprites of one size align. A name
    alone takes its direction from its first strong letter (Arabic and Hebrew read
    right to left); ``ltr`` forces a left-to-right sentence around embedded names.
    """
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    width = max(1, int(f.getlength(text) + 2))
    image = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
    if text:
        direction = "ltr" if ltr and f.layout_engine == ImageFont.Layout.RAQM else None
        ImageDraw.Draw(image).text((0, 0), text, font=f, fill=color, direction=direction)
    return image
