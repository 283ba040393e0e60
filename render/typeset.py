"""Small typesetting helpers shared by the leaderboard and profile pictures."""

from __future__ import annotations

import unicodedata
from typing import Final

from render.text import ELLIPSIS, clean_name, fit_text, font, text_width

__all__ = ["LRM", "RLM", "SEPARATOR", "fit_keeping_tail", "ltr_sentence", "sentence", "text_top"]

SEPARATOR: Final = " · "
"""How the callers join a name and its figures ("Luis · 7-2")."""
LRM: Final = "\u200e"
"""LEFT-TO-RIGHT MARK: an invisible strong left-to-right character."""
RLM: Final = "\u200f"
"""RIGHT-TO-LEFT MARK: an invisible strong right-to-left character."""


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


def fit_keeping_tail(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` shortened to ``max_width`` pixels, cutting before its last
    :data:`SEPARATOR` when it has one, so "Maximiliano Alejandro · 1-4" becomes
    "Maximiliano Al… · 1-4" and keeps its figures; else cut at the end."""
    if text_width(text, size, bold) <= max_width or SEPARATOR not in text:
        return fit_text(text, size, bold, max_width)
    head, tail = text.rsplit(SEPARATOR, 1)
    tail = SEPARATOR + tail
    room = max_width - int(text_width(tail, size, bold)) - 1
    if room < text_width("M" + ELLIPSIS, size, bold):
        return fit_text(text, size, bold, max_width)
    head = fit_text(head, size, bold, room)
    if _ends_right_to_left(head):
        head += RLM  # the "…" ends the right-to-left name: drawn at its left
    return head + tail


def _ends_right_to_left(text: str) -> bool:
    """The last strong letter of ``text`` reads right to left (Hebrew, Arabic)."""
    for ch in reversed(text):
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
