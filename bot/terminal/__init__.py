"""A game in the terminal, told as the Discord table tells it (issue 21.10).

    python -m bot.terminal GAME --players N [--seat 1] [--ai heuristic] [--seed S] [--option NAME=VALUE]

Players are named (you, and the AI seats by their AI names), what happens is said in the log's own
English sentences (the game's renderer, as in the thread), questions and choices read as in your DM,
choices are answered by their number in the list only (a card's own number is part of its label, never
the answer), and only what changed is printed again. The engine-only `python -m games play` stays for
engines without the bot (it cannot use the bot's texts: games/ imports nothing above it).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.messages import endings
from bot.render import renderer_for
from bot.render.kit.generic import TableContext
from bot.texts import i18n, text
from games.core import Game, IllegalAction, Prompt

LANG = "en"
YOU = "You"


def embed_text(embed: discord.Embed) -> str:
    """An embed as plain lines (its description and fields; the title names the reader), without
    Discord's markdown."""
    parts = [embed.description or ""]
    for f in embed.fields:
        name = "" if f.name in (None, "\u200b") else f"{f.name}: "
        parts.append(f"{name}{f.value or ''}")
    return re.sub(r"\*\*|```|-# ", "", "\n".join(p for p in parts if p)).strip()


def parse_answer(answer: str, prompt: Prompt) -> list[str] | None:
    """The choice ids a typed answer picks: `pick` different numbers from the list (1-based), or None."""
    tokens = answer.replace(",", " ").split()
    if len(tokens) != prompt.pick or not all(t.isdigit() for t in tokens):
        return None
    numbers = [int(t) for t in tokens]
    if len(set(numbers)) != len(numbers) or not all(1 <= n <= len(prompt.choices) for n in numbers):
        return None
    return [prompt.choices[n - 1].id for n in numbers]


def play(
    game: Game[Any],
    players: int,
    seat: int,
    level: str,
    seed: int,
    options: dict[str, Any],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """One human seat against AI seats, showing only what that seat may know."""
    renderer = renderer_for(game.key)
    names: list[str] = []
    for s in range(players):
        number = sum(1 for other in range(s) if other != seat) + 1
        names.append(YOU if s == seat else i18n.t(LANG, text.AI_NAME, n=number, level=level))
    ctx = TableContext(game.title, 0, names, [], None, LANG)
    state = game.new(players, seed, options)
    ais = {s: game.ai(level, seed * 31 + s) for s in range(players) if s != seat}
    write(f"{game.title}: you play against {i18n.listing(LANG, [n for n in names if n != YOU])}.")
    told: list[dict[str, Any]] = []  # events not yet said
    shown: set[str] = set()  # the lines of your view printed last time

    def say() -> None:
        line = renderer.log_line([e for e in told if "to" not in e or e["to"] == seat], ctx)
        told.clear()
        if line:
            write(re.sub(r"\*\*|`", "", line))

    while True:
        prompts = game.prompts(state)
        if not prompts:
            break
        mine = next((p for p in prompts if p.seat == seat), None)
        for prompt in prompts:
            if prompt.seat != seat:
                told.extend(game.apply(state, prompt.seat, ais[prompt.seat].choose(game, state, prompt)))
        if mine is None:
            continue
        say()
        # Your view and the question, as in your DM; of the view, only the lines that changed.
        lines = embed_text(renderer.seat(game.view(state, seat), mine, ctx, seat)).splitlines()
        changed = [line for line in lines if line not in shown]
        if changed:
            write("\n" + "\n".join(changed))
        shown = set(lines)
        for n, choice in enumerate(mine.choices, 1):
            write(f"  {n}. {renderer.choice_label(mine, choice, ctx)}")
        while True:
            try:
                picked = parse_answer(read("> "), mine)
            except EOFError:
                write("\nBye.")
                return 1
            if picked is None:
                write(f"Answer with {mine.pick} different number(s) from 1 to {len(mine.choices)}.")
                continue
            try:
                told.extend(game.apply(state, seat, picked))
            except IllegalAction as exc:
                write(f"Not allowed: {exc}")
                continue
            break
    say()
    outcome = game.outcome(state) or {}
    write("\nGame over.")
    for placed in endings.placings(outcome, players):
        detail = endings.breakdown_text(game.key, placed.breakdown, LANG)
        score = endings.number_text(placed.score, LANG)
        write(f"{placed.rank}. {names[placed.seat]}: {score}" + (f" ({detail})" if detail else ""))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from games.__main__ import add_game_arguments, checked_game

    parser = argparse.ArgumentParser(prog="python -m bot.terminal", description=(__doc__ or "").split("\n\n")[0])
    add_game_arguments(parser, playing=True)
    args = parser.parse_args(argv)
    checked = checked_game(args, playing=True)
    if checked is None:
        return 2
    game, options = checked
    return play(game, args.players, args.seat - 1, args.ai, args.seed, options)
