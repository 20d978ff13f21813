"""The message catalogs: bot.pot (extracted from the code) and <lang>/LC_MESSAGES/bot.po.

`python -m bot.texts.locales` re-extracts the template and merges it into every language's catalog (new
messages arrive with an empty translation, which shows in English until someone fills it in; the
catalog test fails meanwhile). Glossaries of game terms: glossary.<lang>.json.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

ROOT = Path(__file__).resolve().parents[3]  # the project
SOURCES = ("bot", "table")  # the packages whose marked messages make the catalogs
KEYWORDS = {"N_": None, "NP_": ((1, "c"), 2), "NN_": (1, 2)}
METHOD_MAP = [("**/locales/**", "ignore"), ("**.py", "python")]


def extract() -> Catalog:
    """Every marked message of bot/ and table/, with where it is used."""
    catalog = Catalog(project="table-bot", domain="bot", charset="utf-8")
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / source),
            method_map=METHOD_MAP,
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        ):
            catalog.add(message, locations=[(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog
