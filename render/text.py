"""Fonts, clean display names and cached text sprites.

Fonts are the files shipped in :mod:`render.fonts` (no system font is ever used):
DejaVu Sans for text, and Noto Emoji as a fallback, chosen per user-perceived character
(grapheme cluster): a cluster DejaVu cannot draw, or one asking for emoji presentation
(a variation selector 16, a keycap, a skin tone, a flag, a joined sequence), is drawn
with Noto Emoji as one glyph, in the text's colour (issue 13, item 25). Player names are
any Unicode: control and formatting characters that could break a line are dropped, and
a name too wide for its box is cut at a cluster boundary (never inside an accent or an
emoji sequence) and ends with "…". Characters neither font has (CJK, for instance) are
drawn as one placeholder per run; nothing raises.
"""

from __future__ import annotations

import bisect
import struct
import unicodedata
from functools import lru_cache
from importlib import resources
from io import BytesIO
from typing import Final

from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "ELLIPSIS",
    "EMOJI_SCALE",
    "PLACEHOLDER",
    "clean_name",
    "clusters",
    "covered",
    "emoji_font",
    "fit_text",
    "font",
    "runs",
    "text_sprite",
    "text_width",
    "wrap_text",
]

ELLIPSIS: Final = "…"
PLACEHOLDER: Final = "□"
"""Drawn once for each run of characters neither shipped font has (CJK, for instance)."""
EMOJI_SCALE: Final = 1.0
"""Noto Emoji's size as a share of the text's: at the same size an emoji's outline is as
tall as a capital letter with its accent (smaller, its thin strokes fade beside bold)."""
_EMOJI_FILE: Final = "NotoEmoji-SemiBold.ttf"
_KEEP_FORMAT: Final = {"\u200d", "\u200c", "\ufe0f", "\ufe0e"}  # ZWJ, ZWNJ, variation selectors
_JOINERS: Final = {"\u200d", "\u200c", "\ufe0f", "\ufe0e"}
_ZWJ: Final = "\u200d"
_EMOJI_ASKED: Final = {"\ufe0f", "\u20e3", _ZWJ}  # emoji presentation, keycap, joiner
_PICTOGRAPHS: Final = 0x1F000  # from here on (flags, pictographs, emoticons): emoji first

RGBA = tuple[int, int, int, int]


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` pixels, loaded once per size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(BytesIO(_font_bytes(name)), size)


@lru_cache(maxsize=32)
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Emoji at ``size`` pixels (the em; see :data:`EMOJI_SCALE`), loaded once."""
    return ImageFont.truetype(BytesIO(_font_bytes(_EMOJI_FILE)), size)


@lru_cache(maxsize=4)
def _font_bytes(name: str) -> bytes:
    return resources.files("render.fonts").joinpath(name).read_bytes()


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


def _intersection(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[int, int]]:
    both: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if lo <= hi:
            both.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return both


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Disjoint code point ranges that both DejaVu faces (regular and bold) can draw."""
    regular, bold = (
        _merged(_cmap_ranges(_font_bytes(name)))
        for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
    )
    both = _intersection(regular, bold)
    return tuple(a for a, _ in both), tuple(b for _, b in both)


@lru_cache(maxsize=1)
def _emoji_coverage() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Code point ranges Noto Emoji maps."""
    ranges = _merged(_cmap_ranges(_font_bytes(_EMOJI_FILE)))
    return tuple(a for a, _ in ranges), tuple(b for _, b in ranges)


def _in(ranges: tuple[tuple[int, ...], tuple[int, ...]], ch: str) -> bool:
    starts, ends = ranges
    code = ord(ch)
    i = bisect.bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def covered(ch: str) -> bool:
    """True when both DejaVu faces have a glyph for ``ch``."""
    return _in(_coverage(), ch)


def _emoji_covered(ch: str) -> bool:
    return _in(_emoji_coverage(), ch)


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """``text`` split into user-perceived characters (extended grapheme clusters, as
    Unicode's UAX 29 forms them for names): a base with its accents, variation
    selectors, keycap, skin tone and tags; zero-width-joined emoji; flags as pairs of
    regional indicators."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        attach = bool(out) and (
            unicodedata.category(ch) in ("Mn", "Me", "Mc")
            or ch in _JOINERS
            or 0xFE00 <= code <= 0xFE0F  # variation selectors
            or 0x1F3FB <= code <= 0x1F3FF  # skin tone modifiers
            or 0xE0020 <= code <= 0xE007F  # tag characters (subdivision flags)
            or out[-1].endswith(_ZWJ)
            or (_regional(ch) and _regional(out[-1][-1]) and _odd_flag(out[-1]))
        )
        if attach:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _odd_flag(cluster: str) -> bool:
    """The cluster is one regional indicator waiting for its pair."""
    return sum(1 for c in cluster if _regional(c)) % 2 == 1


def _is_emoji(cluster: str) -> bool:
    """Noto Emoji draws ``cluster``: DejaVu lacks a character of it or it asks for emoji
    presentation, and Noto Emoji has every character of it."""
    if not all(_emoji_covered(c) or c in _JOINERS for c in cluster):
        return False
    return any(c in _EMOJI_ASKED or ord(c) >= _PICTOGRAPHS or not covered(c) for c in cluster)


def _plain(text: str) -> bool:
    """DejaVu draws all of ``text``: no cluster of it is an emoji."""
    return text.isascii() or all(
        covered(c) and c not in _EMOJI_ASKED and ord(c) < _PICTOGRAPHS for c in text
    )


def _drawable(cluster: str) -> bool:
    return all(covered(c) or c in _JOINERS for c in cluster) or _is_emoji(cluster)


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[bool, str], ...]:
    """``text`` as runs of one font each, in order: ``(is_emoji, run)``."""
    if _plain(text):
        return ((False, text),) if text else ()
    out: list[tuple[bool, str]] = []
    for cluster in clusters(text):
        emoji = _is_emoji(cluster)
        if out and out[-1][0] == emoji:
            out[-1] = (emoji, out[-1][1] + cluster)
        else:
            out.append((emoji, cluster))
    return tuple(out)


def _displayable(text: str) -> str:
    """``text`` with each run of clusters neither font can draw as one placeholder."""
    if _plain(text):
        return text
    out: list[str] = []
    for cluster in clusters(text):
        if _drawable(cluster):
            out.append(cluster)
        elif not out or out[-1] != PLACEHOLDER:
            out.append(PLACEHOLDER)
    return "".join(out)


def clean_name(name: str, fallback: str = "?") -> str:
    """``name`` ready to draw: NFC, no control/format characters, spaces collapsed.

    Zero-width joiners, variation selectors and tags are kept (emoji sequences); bidi
    overrides and other invisible format characters are dropped; each run of characters
    neither shipped font can draw (CJK, for instance) becomes one :data:`PLACEHOLDER`.
    An empty result gives ``fallback``.
    """
    if not isinstance(name, str):
        name = str(name)
    out = []
    for ch in unicodedata.normalize("NFC", name):
        cat = unicodedata.category(ch)
        if ch in _KEEP_FORMAT or 0xE0020 <= ord(ch) <= 0xE007F:
            out.append(ch)
        elif cat in ("Cc", "Zl", "Zp") or ch.isspace():
            out.append(" ")
        elif cat in ("Cf", "Cs", "Co", "Cn"):
            continue
        else:
            out.append(ch)
    cleaned = _displayable(" ".join("".join(out).split()))
    return cleaned or fallback


def _emoji_size(size: int) -> int:
    return max(1, round(size * EMOJI_SCALE))


def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance width of ``text`` in pixels (emoji in Noto Emoji)."""
    width = 0.0
    for emoji, run in runs(text):
        face = emoji_font(_emoji_size(size)) if emoji else font(size, bold)
        width += face.getlength(run)
    return width


def _cut(text: str, n: int) -> str:
    """The first ``n`` characters at most, backed off to a cluster boundary, so no
    accent, variation selector, skin tone, flag or joined emoji sequence is split."""
    n = min(n, len(text))
    if n == len(text):
        return text.rstrip()
    at = 0
    for cluster in clusters(text):
        if at + len(cluster) > n:
            break
        at += len(cluster)
    return text[:at].rstrip()


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

    The image's height is the font's line height, so sprites of one size align; emoji
    sit on the text's baseline. A name alone takes its direction from its first strong
    letter (Arabic and Hebrew read right to left); ``ltr`` forces a left-to-right
    sentence around embedded names.
    """
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    width = max(1, int(text_width(text, size, bold) + 2))
    image = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
    if not text:
        return image
    raqm = f.layout_engine == ImageFont.Layout.RAQM
    direction = "ltr" if ltr and raqm else None
    draw = ImageDraw.Draw(image)
    parts = runs(text)
    if len(parts) == 1 and not parts[0][0]:
        draw.text((0, 0), text, font=f, fill=color, direction=direction)
        return image
    if not ltr and _right_to_left(text):
        parts = parts[::-1]  # a right-to-left name: its runs read from the right
    x = 0.0
    for emoji, run in parts:
        if emoji:
            face = emoji_font(_emoji_size(size))
            draw.text((x, ascent), run, font=face, fill=color, anchor="ls")
        else:
            face = f
            draw.text((x, 0), run, font=face, fill=color, direction=direction)
        x += face.getlength(run)
    return image


def _right_to_left(text: str) -> bool:
    """The first strong letter of ``text`` reads right to left (Hebrew, Arabic)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
