"""Commands: what a player or an admin can do, and what answers it. The slash commands, one cog per
concern (`cogs/`: /game, /leaderboard /stats /history, the timers' loop), and the handlers that answer
commands and button clicks (`handlers`: thin adapters over the table service that reply with bot.messages
and hand what others must see to bot.delivery)."""
