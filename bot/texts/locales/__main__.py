"""`python -m bot.texts.locales`: write bot/texts/locales/bot.pot from the code and merge it into each bot.po, with
each language's typography (bot.texts.locales.typography)."""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po

from bot.texts.i18n import LANGUAGES, LOCALES, po_path
from bot.texts.locales import extract
from bot.texts.locales.typography import typeset


def _translated(string: object) -> bool:
    if isinstance(string, str):
        return bool(string)
    return isinstance(string, tuple | list) and all(string)


def _typeset(lang: str, string: str | tuple[str, ...] | list[str] | None) -> str | tuple[str, ...] | list[str] | None:
    if isinstance(string, str):
        return typeset(lang, string)
    if isinstance(string, tuple):
        return tuple(typeset(lang, s) for s in string)
    if isinstance(string, list):
        return [typeset(lang, s) for s in string]
    return string


def main() -> int:
    template = extract()
    with (LOCALES / "bot.pot").open("wb") as handle:
        write_po(handle, template, width=100, omit_header=False)
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain="bot")
        else:
            from babel.messages.catalog import Catalog

            catalog = Catalog(locale=lang, domain="bot", project="table-bot", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        for message in catalog:
            if message.id and message.context != "command":
                message.string = _typeset(lang, message.string)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, ignore_obsolete=True)
        missing = sum(1 for m in catalog if m.id and not _translated(m.string))
        print(f"{path.relative_to(LOCALES.parent.parent)}: {len(catalog)} messages, {missing} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
