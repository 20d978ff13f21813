"""Every sentence of `/leaderboard`, `/stats` and `/history`, as English msgids for the catalogs.

Use them through `bot.texts.i18n.t(lang, text_stats.X, **params)` (plural pairs through `tn`), like bot.texts.text.
"""

from __future__ import annotations

from bot.texts.i18n import N_, NN_, NP_

# --- commands (names and descriptions; the translator localises them when they are synced) ---------
CMD_LEADERBOARD = NP_("command", "leaderboard")
CMD_LEADERBOARD_HELP = N_("The best players of a game, by conservative rating")
CMD_STATS = NP_("command", "stats")
CMD_STATS_HELP = N_("Ratings, games, wins, scores and favourite plays of a player")
CMD_HISTORY = NP_("command", "history")
CMD_HISTORY_HELP = N_("A player's recent games with links to their threads")
OPT_GAME = NP_("command", "game")
OPT_GAME_HELP = N_("Which game")
OPT_SCOPE = NP_("command", "scope")
OPT_SCOPE_HELP = N_("This server's ladder or the global one")
OPT_PUBLIC = NP_("command", "public")
OPT_PUBLIC_HELP = N_("Post it for the whole channel (default: only you see it)")
OPT_USER = NP_("command", "user")
OPT_USER_HELP = N_("Whose (default: you)")
SCOPE_SERVER = N_("This server")
SCOPE_GLOBAL = N_("Global")

# --- /leaderboard ------------------------------------------------------------------------------------
BOARD_TITLE = N_("{title}: leaderboard ({scope})")
BOARD_EMPTY = N_("Nobody has finished a rated game of {title} here yet.")
BOARD_ROW = N_("**{position}.** {who}: **{rating}** · {games} · {wins} ({rate})")
BOARD_YOU = N_("You: {row}")
BOARD_AI = N_("AI opponents")
BOARD_AI_ROW = N_("{who}: **{rating}**")
BOARD_YOU_UNRATED = N_("You have no rating here yet: finish a game to get one.")
BOARD_FOOTER = N_("Page {page} of {pages} · rating = mu - 3 sigma (openskill)")
GAMES = NN_("{count} game", "{count} games")
WINS = NN_("{count} win", "{count} wins")
AI_PLAYER = N_("AI ({level})")

# --- /stats ------------------------------------------------------------------------------------------
STATS_TITLE = N_("Stats: {name} ({scope})")
NO_GAMES_YOU = N_("You have not finished a game here yet.")
NO_GAMES_USER = N_("{name} has not finished a game here yet.")
STATS_RATING = N_("Rating **{rating}** ({trend}) · #{position} of {players}")
STATS_TREND = NN_("{change} over the last game", "{change} over the last {count} games")
STATS_RATING_GLOBAL = N_("Global rating {rating}")
STATS_GAMES = N_("{games} · {wins} ({rate})")
STATS_SCORES = N_("Average score {average} · best {best}")
STATS_SCORES_VARIANT = N_("{variant}: average {average} · best {best}")
STATS_FAVOURITES = N_("Favourite plays: {plays}")
STATS_PLAY = N_("{name} ×{count}")
STATS_LAST = N_("Last results")
STATS_CHART = N_("Rating after each game")
RESULT_ROW = N_("{date} · {title}: #{rank} of {players}, {score} · {link}")
VARIANTS = {
    "conpub": N_("Con/Pub (Egg Tokens)"),
    "full": N_("Full Game (three games summed)"),
}
# Plays named by prompt kind (Reggverse Riddles); other games' plays are card names from the engine.
PLAY_NAMES = {
    "move": N_("movement side"),
    "rule": N_("rule side"),
    "rule_egg": N_("rule side"),
    "teleport": N_("Teleport"),
    "switch": N_("Switch"),
    "swap": N_("Swap"),
    "steal_from": N_("Steal"),
    "shift_from": N_("Shift"),
    "trade_give": N_("Trade"),
    "to_pile_from": N_("Back to the pile"),
}

# --- /history ----------------------------------------------------------------------------------------
HISTORY_TITLE = N_("Recent games: {name}")
HISTORY_ROW = N_("{date} · **{title}** · {players} · {link}")
HISTORY_PLAYER = N_("{name} {score}")
THREAD_LINK = N_("[thread]({url})")
NO_LINK = N_("(direct messages)")
