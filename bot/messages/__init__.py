"""Messages: what a lobby, a table, a seat's private window, an ending, a replay, the rules and the
leaderboards look like: their words, embeds and buttons (`components`: DynamicItems whose custom_ids carry
ids only; a click asks the bot for its handler), built from the table service's updates and storage's
records, pictures drawn by bot.render. Pure: nothing here sends a request; bot.delivery and bot.commands
send what it builds."""
