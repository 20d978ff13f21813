"""Slash command names, descriptions, option names and choice names in Italian and French.

discord.py asks the translator for every locale when it builds the command payload it syncs; the
answer becomes name_localizations / description_localizations. Names (commands, groups, options)
are looked up with the msgctxt "command" (Discord wants them lowercase and without spaces), the rest
as plain messages. A choice whose name is built from a template (the timer) carries the msgid and
its parameters in the locale_str extras. No translation: None, so Discord shows the English.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.texts import i18n

NAME_CONTEXT = "command"
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = i18n.language(locale)
        if lang == i18n.DEFAULT:
            return None
        return translate(string.message, lang, context.location, string.extras)


def translate(
    message: str, lang: str, location: app_commands.TranslationContextLocation, extras: dict[str, Any]
) -> str | None:
    catalog = i18n.translations(lang)
    if location in NAME_LOCATIONS:
        result = catalog.pgettext(NAME_CONTEXT, message)
        return result if result != message else None
    msgid = extras.get("msgid")
    if isinstance(msgid, str):
        params = {k: v for k, v in extras.items() if k != "msgid"}
        return i18n.t(lang, msgid, **params)
    result = catalog.gettext(message)
    return result if result != message else None
