"""Fonts shipped with the renderer: DejaVu Sans and DejaVu Sans Bold 2.37.

They cover Latin with every accent, Greek, Cyrillic, Hebrew, Arabic and many symbols,
so the pictures never depend on the system's fonts. License (Bitstream Vera, free to
redistribute unmodified): ``LICENSE-DejaVu.txt`` beside this file.
"""
