"""Message catalogs (gettext .po files handled with Babel) and locale-aware formatting.

Every sentence the bot shows is an English msgid marked in the code with `N_` (or `NP_` with a
context, `NN_` for singular/plural pairs) and looked up at run time with `t`, `tp` or `tn` in the
reader's language. The catalogs are bot/texts/locales/<lang>/LC_MESSAGES/bot.po, read at start-up with
`babel.messages.pofile.read_po` and compiled in memory, so no build step is needed;
`python -m bot.texts.locales` re-extracts bot/texts/locales/bot.pot from the code and merges it into them.

Languages: "en" (the msgids themselves), "it", "fr". Any other Discord locale falls back to English.
"""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from table.errors import TableError
from table.messages import REFUSED_BY_RULES

log = logging.getLogger(__name__)

LANGUAGES = ("en", "it", "fr")
DEFAULT = "en"
DOMAIN = "bot"
LOCALES = Path(__file__).resolve().parent / "locales"


# --- markers: they return their argument, and tell the extractor what to collect ------------------
def N_(message: str) -> str:
    return message


def NP_(context: str, message: str) -> str:
    del context
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    return singular, plural


# --- languages -------------------------------------------------------------------------------------
def language(locale: Any) -> str:
    """ "it", "fr" or "en" for a Discord locale ("it", "fr", "en-US", a discord.Locale) or None."""
    if locale is None:
        return DEFAULT
    value = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    base = value.split("-", 1)[0]
    return base if base in LANGUAGES else DEFAULT


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    if lang == DEFAULT or lang not in LANGUAGES:
        return gettext.NullTranslations()
    path = po_path(lang)
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
    except OSError:
        log.error("no catalog for %s at %s: falling back to English", lang, path)
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, so they show in English
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def _format(translated: str, fallback: str, params: dict[str, Any]) -> str:
    if not params:
        return translated
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        log.error("bad placeholders in a translation of %r", fallback)
        return fallback.format(**params)


def t(lang: str, message: str, /, **params: Any) -> str:
    """`message` (an English msgid) in `lang`, with its {placeholders} filled."""
    return _format(translations(lang).gettext(message), message, params)


def tp(lang: str, context: str, message: str, /, **params: Any) -> str:
    """Like `t`, for a msgid with a msgctxt (the same English word used in two roles)."""
    return _format(translations(lang).pgettext(context, message), message, params)


def tn(lang: str, forms: tuple[str, str], count: int, /, **params: Any) -> str:
    """The plural form for `count` (an `NN_` pair); {count} is filled with the count."""
    singular, plural = forms
    chosen = translations(lang).ngettext(singular, plural, count)
    english = singular if count == 1 else plural
    return _format(chosen, english, {"count": number(lang, count), **params})


# Pictures are drawn by image functions that take only a view (often in a worker thread): the
# language of the picture being drawn travels in a context variable instead of a parameter.
_picture_lang: ContextVar[str] = ContextVar("picture_lang", default=DEFAULT)


@contextmanager
def picture_language(lang: str) -> Iterator[None]:
    token = _picture_lang.set(lang)
    try:
        yield
    finally:
        _picture_lang.reset(token)


def picture_lang() -> str:
    """The language of the picture being drawn (for plurals, numbers and lists in pictures)."""
    return _picture_lang.get()


def pt(message: str, /, **params: Any) -> str:
    """Text drawn into a picture, in the language of the picture being drawn."""
    return t(_picture_lang.get(), message, **params)


def ptp(context: str, message: str, /, **params: Any) -> str:
    """Like `pt`, for a msgid with a msgctxt."""
    return tp(_picture_lang.get(), context, message, **params)


def refusal(lang: str, error: TableError) -> str:
    """A table service refusal in `lang`: its msgid translated and filled in. A message written by a game
    engine or an option parser (English only) comes inside a translated sentence in other languages."""
    if error.from_rules:
        if lang == DEFAULT:
            return error.english()
        return t(lang, REFUSED_BY_RULES, reason=error.english())
    if isinstance(error.message, tuple):
        params = dict(error.params)
        return tn(lang, error.message, int(params.pop("count")), **params)
    return t(lang, error.message, **error.params)


def translated(lang: str, message: str) -> str | None:
    """The catalog's translation of `message`, or None when the catalog has none (for fallbacks)."""
    if lang == DEFAULT:
        return message
    result = translations(lang).gettext(message)
    return result if result != message else None


# --- numbers, dates and lists ----------------------------------------------------------------------
def number(lang: str, value: float) -> str:
    if type(value) is int:  # counts, coins, scores: the same few integers over and over
        return _integer(lang, value)
    return format_decimal(value, locale=lang)


@lru_cache(maxsize=4096)  # Babel takes ~0.25 ms per number: most of a table's text was spent here
def _integer(lang: str, value: int) -> str:
    return format_decimal(value, locale=lang)


def listing(lang: str, items: Iterable[str]) -> str:
    """ "A, B and C" / "A, B e C" / "A, B et C"."""
    values = tuple(str(i) for i in items)
    return _listing(lang, values) if values else "-"


@lru_cache(maxsize=4096)  # the same few names are listed at every update of a game ("waiting for ...")
def _listing(lang: str, values: tuple[str, ...]) -> str:
    return format_list(list(values), locale=lang)


# A label and its value, and items one after the other, where code puts them together: French puts a
# no-break space before ":" and a narrow one before ";" (bot.texts.locales.typography), so neither is written
# in code.
LABELLED = N_("{label}: {value}")


def labelled(lang: str, label: str, value: str) -> str:
    """ "Ada: +5" / "Ada\u00a0: +5"."""
    return t(lang, LABELLED, label=label, value=value)


def in_turn(lang: str, items: Iterable[str]) -> str:
    """Items separated by semicolons, as `lang` spaces them ("a; b" / "a\u202f; b")."""
    return ("\u202f; " if lang == "fr" else "; ").join(items)


def day(lang: str, value: date) -> str:
    return format_date(value, format="medium", locale=lang)


def moment(lang: str, value: datetime) -> str:
    return format_datetime(value, format="medium", locale=lang)
