"""Fonts shipped with the renderer: DejaVu Sans and DejaVu Sans Bold 2.37, Noto Emoji.

DejaVu covers Latin with every accent, Greek, Cyrillic, Hebrew, Arabic and many symbols,
so the pictures never depend on the system's fonts. License (Bitstream Vera, free to
redistribute unmodified): ``LICENSE-DejaVu.txt`` beside this file.

Noto Emoji (``NotoEmoji-SemiBold.ttf``, the monochrome outline emoji font, weight 600)
draws the emoji DejaVu lacks (flags, skin tones and joined sequences as one glyph each),
in the colour of the text around it. License (SIL Open Font License 1.1) and how the
file was made: ``LICENSE-NotoEmoji.txt`` beside this file.
"""
