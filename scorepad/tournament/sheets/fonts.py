"""The wall sheets' typeface: DejaVu Sans, shipped in ``assets/fonts`` and embedded in every PDF.

reportlab's standard fonts (Helvetica) are not embedded, so a viewer
substitutes its own and a name outside Latin-1 prints as boxes; a
registered TrueType font is embedded (subset) and covers most alphabets.
The font's licence is ``assets/fonts/DejaVu-LICENSE.txt``.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from scorepad.resources import assets_dir

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"


def fonts_dir() -> Path:
    """The folder of the shipped fonts. Raises ``RuntimeError`` for a broken installation."""
    return assets_dir() / "fonts"


def register() -> tuple[str, str]:
    """Register the regular and bold faces with reportlab (once); returns their names.

    Raises ``RuntimeError`` when the font files are missing (a broken installation).
    """
    if REGULAR not in pdfmetrics.getRegisteredFontNames():
        folder = fonts_dir()
        for name in (REGULAR, BOLD):
            path = folder / f"{name}.ttf"
            if not path.is_file():
                raise RuntimeError(f"the wall sheets' font is missing from the installation ({path})")
            pdfmetrics.registerFont(TTFont(name, str(path)))
        # <b> inside a paragraph picks the bold face.
        addMapping(REGULAR, 0, 0, REGULAR)
        addMapping(REGULAR, 1, 0, BOLD)
        addMapping(REGULAR, 0, 1, REGULAR)
        addMapping(REGULAR, 1, 1, BOLD)
    return REGULAR, BOLD


def drawable(text: str) -> str:
    """``text`` with every character the font has no glyph for written as its code ("[U+674E]").

    DejaVu Sans has no Chinese, Japanese or Korean: such a name would print
    as nothing, and a player could not find it; its codes at least show
    that a name is there and which.
    """
    register()
    font = pdfmetrics.getFont(REGULAR)
    assert isinstance(font, TTFont)  # registered above as one
    glyphs = font.face.charToGlyph
    return "".join(c if ord(c) in glyphs or c in " \n" else f"[U+{ord(c):04X}]" for c in text)
