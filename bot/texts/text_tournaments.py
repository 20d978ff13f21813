"""The sentences of tournaments (/tournament, the sign-up message, rounds, standings and the podium), as English
msgids for the catalogs, like bot.texts.text. The tournament service's own refusals are in
table.tournaments.messages."""

from __future__ import annotations

from bot.texts.i18n import N_, NN_, NP_

# --- the command ------------------------------------------------------------------------------------------
CMD = NP_("command", "tournament")
CMD_HELP = N_("Run a tournament of a game in this channel, its tables opened by themselves round after round")
CMD_NEW, CMD_NEW_HELP = NP_("command", "new"), N_("Open a tournament's sign-up in this channel")
CMD_JOIN, CMD_JOIN_HELP = NP_("command", "join"), N_("Enter the tournament here")
CMD_LEAVE, CMD_LEAVE_HELP = NP_("command", "leave"), N_("Leave the tournament here before it starts")
CMD_START, CMD_START_HELP = NP_("command", "start"), N_("Start the tournament here (host or Manage Server)")
CMD_STATUS, CMD_STATUS_HELP = NP_("command", "status"), N_("Show the tournament here: its round and its tables")
CMD_STANDINGS, CMD_STANDINGS_HELP = NP_("command", "standings"), N_("Show the standings of the tournament here")
CMD_WITHDRAW = NP_("command", "withdraw")
CMD_WITHDRAW_HELP = N_("Withdraw from the tournament here (a game of yours in play goes on with an AI)")
CMD_DROP, CMD_DROP_HELP = NP_("command", "drop"), N_("Drop a player from the tournament here (host or Manage Server)")
CMD_CANCEL, CMD_CANCEL_HELP = NP_("command", "cancel"), N_("Cancel the tournament here (host or Manage Server)")

OPT_GAME, OPT_GAME_HELP = NP_("command", "game"), N_("Which game")
OPT_FORMAT, OPT_FORMAT_HELP = NP_("command", "format"), N_("Swiss, knockout or round robin")
OPT_TABLE, OPT_TABLE_HELP = NP_("command", "players"), N_("Players per table (default: the game's smallest table)")
OPT_ROUNDS, OPT_ROUNDS_HELP = NP_("command", "rounds"), N_("Swiss rounds (default: by the number of entrants)")
OPT_VARIANTS, OPT_VARIANTS_HELP = NP_("command", "variants"), N_("Variants as name=value, as in /game new")
OPT_TIMER, OPT_TIMER_HELP = NP_("command", "timer"), N_("Seconds per decision before the AI decides (0: off)")
OPT_NO_SHOW, OPT_NO_SHOW_HELP = NP_("command", "no-show"), N_("What happens to a player who does not show")
OPT_DROP_AFTER = NP_("command", "drop-after")
OPT_DROP_AFTER_HELP = N_("Missed rounds before a no-show is dropped (with that rule)")
OPT_ROUND_HOURS, OPT_ROUND_HOURS_HELP = NP_("command", "round-hours"), N_("Hours a round may last (0: no limit)")
OPT_DEADLINE, OPT_DEADLINE_HELP = NP_("command", "deadline"), N_("What happens to a game still played at a round's end")
OPT_CAP, OPT_CAP_HELP = NP_("command", "cap"), N_("The most entrants (default: no cap)")
OPT_STARTS_IN, OPT_STARTS_IN_HELP = (
    NP_("command", "starts-in"),
    N_("Minutes before it starts by itself (default: the host starts it)"),
)
OPT_TOURNAMENT, OPT_TOURNAMENT_HELP = NP_("command", "tournament"), N_("Which tournament, when several are here")
OPT_PLAYER, OPT_PLAYER_HELP = NP_("command", "player"), N_("Who")

# (lowercase "round robin": a capitalised "Round" is a game's own term in the glossaries, Eggs and Empires' rounds)
FORMATS = {"swiss": N_("Swiss"), "knockout": N_("Knockout"), "round-robin": N_("round robin")}
NO_SHOW_RULES = {"ai": N_("an AI plays their seat"), "drop": N_("dropped after missed rounds")}
DEADLINE_RULES = {"finish-with-ai": N_("finished by AIs"), "rank-by-score": N_("ranked by the score")}

# --- the sign-up message and its updates -------------------------------------------------------------------
TITLE = N_("{title} tournament #{id}")
SUMMARY = N_("**{format}** · tables of {size} · {rounds} · turn timer: {timer}")
ROUNDS_BY_ENTRANTS = N_("rounds by the number of entrants")
ROUNDS = NN_("{count} round", "{count} rounds")
RULES_LINE = N_("No-show: {no_show}. Game still played at a round's end: {deadline}.")
ROUND_LIMIT = NN_("A round lasts at most {count} hour.", "A round lasts at most {count} hours.")
HOSTED_BY = N_("Host: {host}")
STARTS = N_("Starts {when}, or when the host starts it.")
ENTRANTS = N_("Entrants ({count})")
ENTRANTS_CAPPED = N_("Entrants ({count}/{cap})")
NOBODY_YET = N_("Nobody yet: press Join.")
AND_MORE = NN_("…and {count} more", "…and {count} more")
SIGNUP_OPEN = N_("Sign-up is open.")
RUNNING = N_("Round {round} is being played: {where}.")
FINISHED = N_("Finished. Champion: {champion}.")
CANCELLED = N_("This tournament was cancelled.")
WITHDRAWN = N_("withdrawn")
DROPPED = N_("dropped")

# --- in the tournament's thread ----------------------------------------------------------------------------
THREAD_NAME = N_("{title} tournament #{id}")
ROUND_OPENED = N_("**Round {round} of {rounds}**: the tables are open. Your game is in its own thread and your DMs.")
ROUND_OPENED_OPEN = N_("**Round {round}**: the tables are open. Your game is in its own thread and your DMs.")
TABLE_LINE = N_("Table {table}: {players} → {where}")
TABLE_RESOLVED = N_("Table {table}: {players} (no game needed)")
BYES = N_("Bye (counts as a win): {names}")
DEADLINE = N_("The round ends {when}.")
ROUND_FINISHED = N_("**Round {round}** is over.")
TABLE_RESULT = N_("Table {table}: {ranking}")
DID_NOT_SHOW = N_("{name} (did not show)")  # in a table's result: a no-show, whose seat the AI played
STANDINGS_AFTER = N_("Standings after round {round}")
STANDINGS_FINAL = N_("Final standings")
STANDINGS_NONE = N_("No round has been played yet.")
STANDING_LINE = N_("{rank}. {name}: {points} · Buchholz {buchholz}")
STANDING_LINE_GONE = N_("{rank}. {name}: {points} · Buchholz {buchholz} ({status})")
POINTS = NN_("{count} point", "{count} points")
POINTS_HEADER = N_("Points")
BUCHHOLZ_HEADER = N_("Buchholz")
PODIUM = N_("{champion} wins {title} tournament #{id}!")  # (after a trophy, bot.messages.tournaments.TROPHY)
PODIUM_PLACES = N_("Second: {second}. Third: {third}.")
PODIUM_SECOND = N_("Second: {second}.")
STARTED = N_("The tournament started: {where}.")
WITHDREW = N_("You withdrew from the tournament. A game of yours in play goes on with an AI in your seat.")
WAS_DROPPED = N_("{name} was dropped from the tournament.")
JOINED = N_("You entered the tournament.")
LEFT = N_("You left the tournament.")
NONE_HERE = N_("There is no tournament here. Open one with /tournament new.")
SEVERAL_HERE = N_("There are several tournaments here: say which with the tournament option.")
