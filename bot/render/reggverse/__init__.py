"""Reggverse Riddles at the table: the embeds' text, prompts, choices, log lines, and the pictures.

Everything is read from the engine's data (views, events, prompt kinds and info, choice data; their
shapes are in `games.reggverse.shapes`) and phrased through the catalogs in the reader's language
(`bot.render.reggverse.words`); players are named by their display names (ctx.names, and `names` in
pictures). The engine's English (choice labels, prompt texts, rule texts) is never read: it is for the
terminal and the logs. The pictures are drawn in `bot.render.reggverse.picture`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.kit.generic import EMBED_DESCRIPTION_LIMIT, GuidePage, Renderer, TableContext, clip
from bot.render.reggverse import picture as picture
from bot.render.reggverse import words as w
from bot.render.reggverse.parts import DISTINCT_COLOURS as DISTINCT_COLOURS  # the phone test reads it here
from bot.render.reggverse.words import Words
from bot.texts import i18n
from bot.texts.i18n import N_
from games.core import Choice, Prompt

# --- the embed's text ------------------------------------------------------------------------------------
TURN = N_("Turn {turn}: {name} to play")
OVER = N_("Game over")
YOU_LOOK_FROM = {
    "south": N_("You look at the map from the south edge"),
    "north": N_("You look at the map from the north edge"),
    "west": N_("You look at the map from the west edge"),
    "east": N_("You look at the map from the east edge"),
}
ROW = N_("{eggs} ({count} in the pile): {rules}")
NO_RULES = N_("no rules, hidden nowhere")
PILE_OUT = N_("{eggs}: pile out")
PAWNS = N_("Pawns: {where}")
PAWN_ON = N_("{name} on {square}")
LYING = N_("Eggs on tiles: {eggs}")
LYING_ON = N_("{square}: {eggs}")
NONE = N_("none")
COLLECTED = N_("Collected: {scores}")
LOCK_HELD = {
    "move": N_("Nobody moves until {name}'s next turn"),
    "rules": N_("Nobody changes rules until {name}'s next turn"),
    "actions": N_("Nobody plays actions until {name}'s next turn"),
}
YOUR_TILES = N_("Your tiles:")
HAND_TILE = N_("Tile {number}: move {moves} | {rule}")
HAND_ACTION = N_("Tile {number}: action: {action}")
SECRET = N_("Secret objective: {objective}")
NEIGHBOURS = N_("On your left: {left}; on your right: {right}")
OBJECTIVES_AT_END = N_("Objectives: {objectives}")
OBJECTIVE_OF = N_("{name}: {objective}")


def summary_text(view: Mapping[str, Any], ctx: TableContext) -> str:
    """The state of the game in lines: whose turn, the rule rows, the pawns, the eggs lying on tiles, the
    scores, locks, and in a seat's view its tiles and secret objective."""
    words = Words(ctx.lang, ctx.names)
    t = words.t
    board = view["board"]
    order = view["eggs"]
    seat = view.get("seat")
    names = picture.square_names(board["shape"])
    lines = [
        t(OVER)
        if view.get("finished")
        else t(TURN, turn=words.number(view["turn"]), name=words.player(view["current"]))
    ]
    if seat is not None:
        lines.append(t(YOU_LOOK_FROM[view["side"]]))
    for egg in order:
        row = board["rows"].get(egg)
        if row is None:
            lines.append(t(PILE_OUT, eggs=words.egg_type(egg)))
            continue
        rules = i18n.in_turn(ctx.lang, (words.rule(r) for r in row)) or t(NO_RULES)
        lines.append(t(ROW, eggs=words.egg_type(egg), count=words.number(view["piles"][egg]), rules=rules))
    where = [
        t(PAWN_ON, name=words.player(s), square=words.square(names[c], board["types"][c], board["eggs"][c], order))
        for s, c in enumerate(board["pawns"])
    ]
    lines.append(t(PAWNS, where=i18n.in_turn(ctx.lang, where)))
    lying = [
        t(LYING_ON, square=names[c], eggs=words.contents(e, order))
        for c, e in enumerate(board["eggs"])
        if any(e.values())
    ]
    lines.append(t(LYING, eggs=i18n.in_turn(ctx.lang, lying) if lying else t(NONE)))
    scores = ", ".join(t(w.SCORE, name=words.player(s), score=words.number(n)) for s, n in enumerate(view["scores"]))
    lines.append(t(COLLECTED, scores=scores))
    for lock, holder in (view.get("locks") or {}).items():
        if lock in LOCK_HELD:
            lines.append(t(LOCK_HELD[lock], name=words.player(holder)))
    hand = view.get("hand")
    if hand:
        lines.append(t(YOUR_TILES))
        for tile in hand:
            if tile["kind"] == "action":
                lines.append("  " + t(HAND_ACTION, number=tile["id"], action=words.action(tile["action"])))
            else:
                moves = ", ".join(words.direction(m) for m in tile["moves"])
                lines.append("  " + t(HAND_TILE, number=tile["id"], moves=moves, rule=words.rule(tile["rule"])))
    objective = view.get("objective")
    if objective:
        lines.append(t(SECRET, objective=words.objective(objective)))
        if seat is not None and objective.get("kind") in ("beat_left", "fewest", "most_of", "fewest_of", "guess"):
            left, right = view["neighbours"][seat]
            lines.append(t(NEIGHBOURS, left=words.player(left), right=words.player(right)))
    ends = view.get("secret_objectives")
    if ends:
        shown = [t(OBJECTIVE_OF, name=words.player(s), objective=words.objective(o)) for s, o in enumerate(ends) if o]
        lines.append(t(OBJECTIVES_AT_END, objectives=i18n.in_turn(ctx.lang, shown)))
    return "\n".join(lines)


# --- prompts and choices ----------------------------------------------------------------------------------
def prompt_question(prompt: Prompt, words: Words) -> str:
    kind, info = prompt.kind, prompt.info
    if kind in w.PROMPTS:
        return words.t(w.PROMPTS[kind])
    if kind == "rule":
        return words.t(w.RULE_GOES, rule=words.rule(info["rule"]))
    if kind == "rule_egg":
        return words.t(w.RULE_EGG, rule=words.rule(info["rule"]))
    if kind == "rule_spot":
        return words.t(w.RULE_SPOT, row=words.row(info["egg"]))
    if kind == "collect_from":
        return words.t(w.COLLECT_FROM, egg=words.egg(info["egg"]))
    if kind == "switch_with":
        return words.t(w.SWITCH_WITH, row=words.row(info["egg"]))
    if kind == "to_pile_from":
        return words.tn(w.TO_PILE_FROM, info["left"], left=words.number(info["left"]))
    if kind == "shift_egg":
        return words.tn(w.SHIFT_EGG, info["left"], left=words.number(info["left"]))
    if kind == "spawn_to":
        return words.tn(w.SPAWN_TO, info["left"], left=words.number(info["left"]), egg=words.egg(info["egg"]))
    if kind == "guess":
        return words.t(w.GUESS[info["which"]], name=words.player(info["target"]))
    return kind


def choice_text(prompt_kind: str, data: Mapping[str, Any], words: Words) -> str:
    """A choice from its data (the shapes of `games.reggverse.shapes`), phrased for its prompt kind."""
    what = data.get("what")
    if what == "tile":
        return words.tile(data["tile"])
    if what == "square":
        return words.square(data["name"], data["type"], data["eggs"], ())
    if what == "drop":
        egg = words.egg(data["egg"])
        if data["source"] == "pile":
            return words.t(w.DROP_FROM_PILE, egg=egg)
        if data["source"] == "mine":
            return words.t(w.DROP_FROM_MINE, egg=egg)
        return words.t(w.DROP_FROM_SQUARE, egg=egg, square=words.square(data["name"], data["type"], data["eggs"], ()))
    if what == "source":
        if data["source"] == "pile":
            return words.t(w.FROM_PILE)
        if data["source"] == "mine":
            return words.t(w.FROM_MINE)
        return words.t(w.FROM_SQUARE, square=words.square(data["name"], data["type"], data["eggs"], ()))
    if what == "egg":
        egg = data["egg"]
        if prompt_kind == "trade_give":
            return words.t(w.GIVE, eggs=words.eggs_counted(egg, 3))
        if "pile" in data:
            return words.tn(w.EGG_IN_PILE, data["pile"], egg=words.egg(egg))
        return words.t(w.EGG, egg=words.egg(egg))
    if what == "placement":
        eggs = words.egg_type(data["egg"])
        if data["covered"] is None:
            return words.t(w.NEXT_TO, eggs=eggs)
        return words.t(w.ON_TOP, eggs=eggs, rule=words.rule(data["covered"]))
    if what == "seat":
        return words.tn(w.PLAYER_EGGS, data["eggs"], name=words.player(data["seat"]))
    if what == "done":
        return words.t(w.DONE)
    if what == "objective":
        return words.objective(data["objective"])
    return "?"


# --- the log ----------------------------------------------------------------------------------------------
QUIET = frozenset({"drew", "drew_tiles", "reshuffled", "guessed"})


def event_text(event: Mapping[str, Any], words: Words) -> str | None:
    """One log line for a public event, or None for events not worth one."""
    kind = event["type"]
    if kind in QUIET:
        return None
    t = words.t
    who = words.player(event.get("seat"))
    an_egg = words.an_egg(event["egg"]) if "egg" in event else ""
    if kind == "played":
        tile = event["tile"]
        if tile["kind"] == "action":
            return t(w.PLAYED_ACTION, who=who, action=words.action(tile["action"]))
        return t(w.PLAYED, who=who, tile=tile["id"], rule=words.rule(tile["rule"]))
    if kind == "moved":
        return t(w.TELEPORTED if event.get("teleport") else w.MOVED, who=who, square=event["square"])
    if kind == "stayed":
        return t(w.STAYED, who=who, square=event["square"])
    if kind == "move_locked":
        return t(w.MOVE_LOCKED, who=who)
    if kind == "no_drop":
        return t(w.NO_DROP, who=who)
    if kind == "dropped":
        source = event["source"]
        if source in ("pile", "mine"):
            return t(w.DROPPED[source], who=who, an_egg=an_egg, square=event["square"])
        return t(w.DROPPED["square"], who=who, an_egg=an_egg, square=event["square"], source=event["source_square"])
    if kind == "rule_placed":
        message = w.RULE_NEXT if event["covered"] is None else w.RULE_ON_TOP
        return t(message, who=who, rule=words.rule(event["rule"]), row=words.row(event["egg"]))
    if kind == "rule_discarded":
        return t(w.RULE_DISCARDED, who=who)
    if kind == "rule_locked":
        return t(w.RULE_LOCKED, who=who)
    if kind == "collected":
        items = [
            t(w.AN_EGG_FROM, an_egg=words.an_egg(e), square=square) if square else words.an_egg(e)
            for e, square in zip(event["eggs"], event["source_squares"], strict=True)
        ]
        return t(w.COLLECTED, who=who, eggs=words.listing(items))
    if kind == "pile_out":
        return t(w.PILE_OUT, pile=words.pile(event["egg"]))
    if kind == "row_cleared":
        return t(w.ROW_CLEARED, row=words.row(event["egg"]))
    if kind == "no_tile":
        return t(w.NO_TILE, who=who)
    if kind == "locked":
        return t(w.LOCKED[event["lock"]], who=who)
    if kind == "lock_ended":
        return t(w.LOCK_ENDED[event["lock"]])
    if kind == "double_turn":
        return t(w.DOUBLE_TURN, who=who)
    if kind == "hand_discarded":
        return words.tn(w.HAND_DISCARDED, event["count"], who=who)
    if kind == "no_effect":
        return t(w.NO_EFFECT, who=who)
    if kind == "rules_cleared":
        return t(w.RULES_CLEARED, who=who, row=words.row(event["egg"]))
    if kind == "to_pile":
        return t(w.TO_PILE, who=who, an_egg=an_egg, square=event["square"])
    if kind == "rules_switched":
        first, second = event["eggs"]
        return t(w.RULES_SWITCHED, who=who, row=words.row(first), other_row=words.row(second))
    if kind == "stole":
        return t(w.STOLE, who=who, an_egg=an_egg, other=words.player(event["from"]))
    if kind == "egg_moved":
        return t(w.EGG_MOVED, who=who, an_egg=an_egg, source=event["from_square"], square=event["square"])
    if kind == "egg_placed":
        return t(w.EGG_PLACED, who=who, an_egg=an_egg, square=event["square"])
    if kind == "traded":
        given = words.eggs_counted(event["gave"], 3)
        return t(w.TRADED[bool(event["returned"])], who=who, eggs=given, an_egg=words.an_egg(event["got"]))
    if kind == "tiles_swapped":
        first, second = event["squares"]
        return t(w.TILES_SWAPPED, who=who, square=first, other=second)
    if kind == "guessing":
        return t(w.GUESSING, names=words.listing([words.player(s) for s in event["seats"]]))
    if kind == "game_over":
        scores = [t(w.SCORE, name=words.player(s), score=words.number(v)) for s, v in enumerate(event["scores"])]
        return t(w.GAME_OVER, scores=", ".join(scores))
    return None


class ReggverseRenderer(Renderer):
    """Compact embed text, prompts, choices and log lines from data; the pictures of
    `bot.render.reggverse.picture` (a seat's picture also marks its prompt's targets)."""

    def scores(self, view: dict[str, Any]) -> Sequence[float] | None:
        found = view.get("scores")
        return list(found) if isinstance(found, list) else None

    def describe_public(self, view: dict[str, Any], ctx: TableContext) -> str:
        return clip(summary_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def describe_private(self, view: dict[str, Any], ctx: TableContext, seat: int) -> str:
        return clip(summary_text(view, ctx), EMBED_DESCRIPTION_LIMIT)

    def event_line(self, event: dict[str, Any], ctx: TableContext) -> str:
        return event_text(event, Words(ctx.lang, ctx.names)) or ""

    def prompt_text(self, prompt: Prompt, ctx: TableContext) -> str:
        return prompt_question(prompt, Words(ctx.lang, ctx.names))

    def choice_label(self, prompt: Prompt, choice: Choice, ctx: TableContext) -> str:
        return choice_text(prompt.kind, choice.data, Words(ctx.lang, ctx.names))

    def draw(self, view: dict[str, Any], names: tuple[str, ...]) -> bytes | None:
        return picture.render_board(view, names)

    def seat_image(
        self, view: dict[str, Any], prompt: Prompt | None, lang: str = i18n.DEFAULT, names: Sequence[str] = ()
    ) -> bytes | None:
        """Always: a seat's picture is its own side of the board with its hand and secret objective,
        worth having while the others play too; with a prompt, its targets are marked."""
        return self.image(picture.with_prompt(view, prompt), lang, names)

    def seat_pictured(self, prompt: Prompt | None) -> bool:
        return self.pictured()


RENDERER = ReggverseRenderer("reggverse-riddles", image=picture.render_board)
render_board = picture.render_board  # the public table's picture from a view (benchmarks, tests)


# --- the game's guide (`/game rules`) and what its variants do, in the catalogs ----------------
RENDERER.guide = (
    GuidePage(
        N_("Overview"),
        N_(
            "Move your pawn across the map tiles, drop eggs and add rules that tell where each egg type is "
            "hidden. The game ends when every egg pile has run out: whoever scored the most eggs wins."
        ),
    ),
    GuidePage(
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
    GuidePage(
        N_("Collecting eggs"),
        N_(
            "At the end of your turn, for each egg type whose rules match your tile, collect one egg of that "
            "type (from its pile or a tile), unless an egg of that type lies on your tile. Rules may never match "
            "no tile or every tile. When a pile runs out, its rules are removed. Then draw back up to four tiles."
        ),
    ),
    GuidePage(
        N_("Expansions"),
        N_(
            "Action Tiles: tiles with one unique action instead of a movement and a rule, carried out when "
            "played.\n"
            "Secret Objectives: everybody gets one secret objective that changes what scores them more or "
            "fewer points."
        ),
    ),
)
RENDERER.option_texts = {
    "shape": N_("4×4 grid, 5×4 grid, cross: 5×5 without its corners, or ring: the border of 5×5"),
    "egg_types": N_("how many egg types, each with its pile"),
    "tokens": N_("egg tokens per type"),
    "action_tiles": N_("Action Tiles expansion: 20 action tiles in the deck"),
    "objectives": N_("Secret Objectives expansion: one secret objective each"),
}
# The variants' friendly names in the lobby and the guide (bot.messages.guide), by option name and value.
RENDERER.option_names = {
    "shape": N_("Map shape"),
    "egg_types": N_("Egg types"),
    "tokens": N_("Egg tokens per type"),
    "action_tiles": N_("Action Tiles"),
    "objectives": N_("Secret Objectives"),
}
RENDERER.value_names = {
    "shape": {"4x4": N_("4×4 grid"), "5x4": N_("5×4 grid"), "cross": N_("cross"), "ring": N_("ring")},
}
# The result message (bot.messages.endings): the scoring categories of the outcome's breakdown; tied players share.
RENDERER.score_categories = {"eggs": N_("Eggs"), "objective_points": N_("Secret Objective")}
