"""Rules summaries for `/game rules` and the lobby's variant descriptions, in the catalogs.

Each game has a few pages of summary; the last page lists the variants the lobby can switch on,
from the engine's options (descriptions translated here by game and option name; an option this
module does not know shows the engine's English description).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

import games
from bot import i18n, text
from bot.i18n import N_, NP_
from bot.render.generic import COLOUR, clip
from games.core import Option


@dataclass(frozen=True)
class Page:
    title: str
    body: str


RULES: dict[str, list[Page]] = {
    "eggs-empires": [
        Page(
            N_("Overview"),
            N_(
                "Each player has an Empire deck of ten Adventurers numbered 1 to 10. Every turn everybody "
                "secretly plays one Adventurer from a hand of three; then, from the highest Adventurer down, "
                "each player takes one Egg from the middle. Eggs are worth victory points (VP); Exploding Eggs "
                "are worth negative VP. The game lasts three rounds of nine turns: the most VP wins."
            ),
        ),
        Page(
            N_("A turn"),
            N_(
                "1. Everybody secretly chooses an Adventurer.\n"
                "2. All of them are revealed at once.\n"
                "3. Collect Eggs: the highest Adventurer chooses first, then the next highest. Everybody must "
                "take an Egg if able, and never more than one. Ties go in player order from the holder of the "
                "Tie-Breaker Marker.\n"
                "4. Unclaimed Eggs are discarded and new Eggs are revealed (2 with 2-4 players, 3 with 5, 4 with 6).\n"
                "5. Turn End abilities are resolved, then everybody draws back up to three cards.\n"
                "At the start of each round you may once discard your starting hand and draw a new one."
            ),
        ),
        Page(
            N_("The Adventurers"),
            N_(
                "(1) Bard: no ability.\n"
                "(2) Scout (Turn End): looks at the top Egg and places it face down for the next turn.\n"
                "(3) Shepherd (Collect Eggs): always collects before the Blacksmith.\n"
                "(4) Courier (Turn End): may give the Egg it collected to another player.\n"
                "(5) Merchant (Turn End): if it collected no Egg, it is worth 6 VP at round end.\n"
                "(6) Priest (Turn End): if it collected an Egg, you may discard any one of your collected Eggs.\n"
                "(7) Mage (Collect Eggs): never takes a face-up Exploding Egg; may decline a face-down Egg.\n"
                "(8) Blacksmith (Turn End): if it collected no Egg, it is worth -4 VP at round end.\n"
                "(9) Dark Priestess (Collect Eggs): if more than one is played, none of them collects.\n"
                "(10) Hero: no ability."
            ),
        ),
        Page(
            N_("Scoring and two players"),
            N_(
                "At the end of a round, add up your Eggs, +6 VP per Merchant and -4 VP per Blacksmith in your "
                "scoring pile. The Tie-Breaker Marker goes to the player with the lowest total. After three "
                "rounds the highest total wins; tied players share the victory.\n"
                "Two players: each has two decks and four cards in hand, plays two different Adventurers every "
                "turn and may collect two Eggs."
            ),
        ),
    ],
    "eight-minute-empire": [
        Page(
            N_("Overview"),
            N_(
                "Build an empire on a map of regions and continents. On your turn take one card from the row "
                "of six, pay its cost in coins (0, 1, 1, 2, 2 and 3 from left to right) and carry out its action "
                "at once. The game ends when everybody owns a set number of cards: 13 with 2 players, 10 with 3, "
                "8 with 4."
            ),
        ),
        Page(
            N_("Setup and bidding"),
            N_(
                "Everybody starts with 4 armies on the starting region and 14 coins (2 players), 11 (3) or 9 (4). "
                "With 2 players, ten neutral armies are placed first, one at a time. Then everybody secretly bids "
                "coins to play first; only the winner pays."
            ),
        ),
        Page(
            N_("Actions"),
            N_(
                "Place armies: on the starting region or where you have a city.\n"
                "Move armies: each move takes one army to a neighbouring region; crossing water costs 3 moves "
                "(less with Flying).\n"
                "Build a city: where you have an army.\n"
                "Destroy an army: another player's army in a region where you have one.\n"
                '"Or": choose one action; "and": both, in order. You may always skip the action.'
            ),
        ),
        Page(
            N_("Abilities and scoring"),
            N_(
                "A card's ability lasts all game: +1 Move, +1 Army, Flying, Elixir, Gain Coins and victory point "
                "bonuses.\n"
                "Scoring: 1 VP per region you control (most armies; cities count as armies), 1 VP per continent "
                "you control (most regions), the VP of your abilities, and 2 VP for the most elixirs (1 each when "
                "tied). Ties: most coins, then most armies, then most controlled regions."
            ),
        ),
    ],
    "reggverse-riddles": [
        Page(
            N_("Overview"),
            N_(
                "Move your pawn across the map tiles, drop eggs and add rules that tell where each egg type is "
                "hidden. The game ends when every egg pile has run out: whoever scored the most eggs wins."
            ),
        ),
        Page(
            N_("Your turn"),
            N_(
                "Play one tile from your hand of four.\n"
                "Movement (top side): move your pawn to one of the green spots, seen from your side of the table; "
                "never off the map, never onto another pawn's tile. Then take any one egg (from a tile, a pile or "
                "your own scored eggs) and drop it on your tile.\n"
                "Rule (bottom side): place the tile next to or on top of a rule of one egg type; each egg type has "
                "at most 3 unique rules."
            ),
        ),
        Page(
            N_("Collecting eggs"),
            N_(
                "At the end of your turn, for each egg type whose rules match your tile, collect one egg of that "
                "type (from its pile or a tile), unless an egg of that type lies on your tile. Rules may never match "
                "no tile or every tile. When a pile runs out, its rules are removed. Then draw back up to four tiles."
            ),
        ),
        Page(
            N_("Expansions"),
            N_(
                "Action Tiles: tiles with one unique action instead of a movement and a rule, carried out when "
                "played.\n"
                "Secret Objectives: everybody gets one secret objective that changes what scores them more or "
                "fewer points."
            ),
        ),
    ],
}

OPTIONS: dict[tuple[str, str], str] = {
    ("eggs-empires", "tiebreaker"): N_(
        "Tie-Breaker Marker passes left after any turn with a tie (tie) or clockwise after every round (round)"
    ),
    ("eggs-empires", "scoring"): N_(
        "standard: most VP after 3 rounds; conpub: round winners take Egg Tokens, first to 3 (2 with 5-6)"
    ),
    ("eight-minute-empire", "full_game"): N_("play three games and sum the victory points"),
    ("eight-minute-empire", "explore"): N_("six explore tokens: the first city on one gains it"),
    ("eight-minute-empire", "citadels"): N_("three citadel regions worth 1 extra VP to control"),
    ("eight-minute-empire", "layout"): N_("2-3 players: three boards as an L or in a row (4 use 2x2)"),
    ("eight-minute-empire", "bid_tie"): N_(
        "tied bids: a die roll (the rules' alternate tie breaker) or the earliest seat"
    ),
    ("reggverse-riddles", "shape"): N_(
        "map shape: 4x4 grid, 5x4 grid, cross (5x5 without corners) or ring (the border of 5x5)"
    ),
    ("reggverse-riddles", "egg_types"): N_("how many egg types (piles)"),
    ("reggverse-riddles", "tokens"): N_("egg tokens per type"),
    ("reggverse-riddles", "action_tiles"): N_("Action Tiles expansion: 20 action tiles in the deck"),
    ("reggverse-riddles", "objectives"): N_("Secret Objectives expansion: one secret objective each"),
}

VALUES = {True: NP_("option-value", "on"), False: NP_("option-value", "off")}


def option_description(game_key: str, option: Option, lang: str) -> str:
    message = OPTIONS.get((game_key, option.name))
    return i18n.t(lang, message) if message else option.description


def option_value(value: Any, lang: str) -> str:
    if isinstance(value, bool):
        return i18n.tp(lang, "option-value", VALUES[value])
    return str(value)


def pages(game_key: str, lang: str) -> list[Page]:
    """The summary pages in `lang`, then the variants page."""
    engine = games.get(game_key)
    shown = [Page(i18n.t(lang, p.title), i18n.t(lang, p.body)) for p in RULES.get(game_key, [])]
    if engine.options:
        lines = [
            i18n.t(
                lang,
                text.RULES_VARIANT_LINE,
                name=o.name,
                values=i18n.listing(lang, [option_value(v, lang) for v in o.values]),
                default=option_value(o.default, lang),
                description=option_description(game_key, o, lang),
            )
            for o in engine.options
        ]
        shown.append(Page(i18n.t(lang, text.RULES_VARIANTS), "\n".join(lines)))
    else:
        shown.append(Page(i18n.t(lang, text.RULES_VARIANTS), i18n.t(lang, text.RULES_NO_VARIANTS)))
    return shown


def page_message(game_key: str, page: int, lang: str) -> tuple[discord.Embed, discord.ui.View]:
    """One page as an embed, with Previous/Next buttons that carry the page they lead to."""
    from bot.views import RulesButton

    engine = games.get(game_key)
    shown = pages(game_key, lang)
    page = max(0, min(page, len(shown) - 1))
    current = shown[page]
    players = i18n.t(lang, text.RULES_PLAYERS, low=engine.min_players, high=engine.max_players)
    embed = discord.Embed(
        title=clip(f"{engine.title}: {current.title}", 256), colour=COLOUR, description=clip(current.body, 4000)
    )
    embed.set_footer(text=f"{players} · {i18n.t(lang, text.RULES_PAGE, page=page + 1, pages=len(shown))}")
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(game_key, max(0, page - 1), label=i18n.t(lang, text.BUTTON_PREVIOUS), disabled=page == 0))
    view.add_item(
        RulesButton(game_key, page + 1, label=i18n.t(lang, text.BUTTON_NEXT), disabled=page == len(shown) - 1)
    )
    return embed, view
