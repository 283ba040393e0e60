"""The Telegram front end's own sentences (help) and its catalog."""

from __future__ import annotations

from bot.core import HouseTimes
from bot.telegram.texts import help_text


def test_the_help_differs_by_language() -> None:
    assert help_text("es", HouseTimes()) != help_text("en", HouseTimes())


def test_every_sentence_of_the_adapter_is_in_both_catalogs_with_its_placeholders() -> None:
    import ast
    import re
    from pathlib import Path

    import bot.present
    import bot.telegram
    from bot.present.i18n import _catalog

    def sentences(paths: list[Path]) -> set[str]:
        found: set[str] = set()
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and (
                        (isinstance(node.func, ast.Name) and node.func.id in ("_", "N_"))
                        or isinstance(node.func, ast.Call)
                    )
                ):
                    found.add(node.args[0].value)
        return found

    # The adapter's sentences: its chrome (``telegram`` catalog) and the shared screens
    # and labels it shows from the present layer (``core`` catalog).
    own = sentences(list(Path(bot.telegram.__file__).parent.glob("*.py")))
    present = Path(bot.present.__file__).parent
    shared = sentences([present / "labels.py", present / "screens.py"])
    assert len(own | shared) > 80
    for domain, msgids in (("telegram", own), ("core", shared)):
        spanish, english = _catalog("es", domain), _catalog("en", domain)
        for msgid in msgids:
            assert msgid in spanish and msgid in english, msgid
            places = set(re.findall(r"\{(\w+)\}", msgid))
            assert set(re.findall(r"\{(\w+)\}", spanish[msgid])) == places, msgid
