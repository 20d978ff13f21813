"""Texts: every sentence the bot says, and in which language.

`text` (and `text_stats` for the ratings commands) hold the English msgids marked for the catalogs;
`i18n` says them in a language (`t`, `tn`, numbers and dates through Babel); `locales/` holds the
Italian and French catalogs and the glossaries of game terms (`python -m bot.texts.locales` re-extracts);
`languages` picks the reader's language (their Discord client, the server's setting or locale);
`translator` gives Discord the slash commands' names and descriptions in each language.
A French sentence to mend: `locales/fr/LC_MESSAGES/bot.po`.
"""
