"""Each language's typography, applied to every translation when the catalogs are merged (`python -m
bot.texts.locales`), so nobody has to type the spaces by hand.

French puts a no-break space before ":" (U+00A0) and inside « » (U+00A0), a narrow one (U+202F) before
";", "!" and "?" (the Imprimerie nationale's rules), so that Discord never wraps a line between a word
and its punctuation; Italian and French quote with « » rather than straight quotes. Slash command
names (msgctxt "command") are left alone: Discord allows no spaces in them.
"""

from __future__ import annotations

import re

NARROW_NBSP = "\u202f"
NBSP = "\u00a0"
# A mark after a word and before a space, the end or closing punctuation: not "https://", "<t:1:R>",
# "{value:.1f}" nor "12:30".
_SPACE_BEFORE_PUNCTUATION = re.compile(r"(?<=[^\s!?])[ \u00a0\u202f]*([:;!?])(?=\s|$|[!?)*_»\"'\u2019])")
_STRAIGHT_QUOTES = re.compile(r'"([^"\n]+)"')
_GUILLEMETS_INSIDE = re.compile(r"«[ \u00a0\u202f]*(.*?)[ \u00a0\u202f]*»", re.DOTALL)


def typeset(lang: str, text: str) -> str:
    """`text` (a translation into `lang`) with that language's quotes and spaces."""
    if lang not in ("fr", "it") or not text:
        return text
    text = _STRAIGHT_QUOTES.sub(r"«\1»", text)
    if lang == "fr":
        text = _GUILLEMETS_INSIDE.sub(rf"«{NBSP}\1{NBSP}»", text)
        text = _SPACE_BEFORE_PUNCTUATION.sub(lambda mark: (NBSP if mark[1] == ":" else NARROW_NBSP) + mark[1], text)
    return text
