"""Small typesetting helpers shared by the leaderboard and profile pictures."""

from __future__ import annotations

import unicodedata
from typing import Final

from render.text import clean_name, font

__all__ = ["LRM", "ltr_sentence", "sentence", "text_top"]

LRM: Final = "\u200e"
"""LEFT-TO-RIGHT MARK: an invisible strong left-to-right character."""


def text_top(center: int, size: int, bold: bool = False) -> int:
    """The top at which to draw text of ``size`` so its capitals are centred on
    ``center`` (a row's middle)."""
    f = font(size, bold)
    cap_top = int(f.getbbox("H")[1])
    baseline = f.getmetrics()[0]
    return center - (cap_top + baseline) // 2


def ltr_sentence(text: str) -> str:
    """``text`` (a left-to-right line, after :func:`render.text.clean_name`) with a
    :data:`LRM` before each number that follows right-to-left letters.

    Unicode's bidi algorithm reads digits after Arabic or Hebrew letters as part of the
    right-to-left run, so "محمد · 3-5" would show its record reversed, "5-3"; the mark
    keeps the number left to right, after the name.
    """
    if text.isascii():
        return text
    out: list[str] = []
    rtl = False
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            rtl = True
        elif kind == "L":
            rtl = False
        elif kind == "EN" and rtl:
            out.append(LRM)
            rtl = False
        out.append(ch)
    return "".join(out)


def sentence(text: str) -> str:
    """A caller's line ready to draw left to right: cleaned (see
    :func:`render.text.clean_name`; "" stays "") and :func:`ltr_sentence`."""
    return ltr_sentence(clean_name(text, ""))
