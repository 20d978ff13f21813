"""Transport: how the bot's requests reach Discord and what Discord answers. Pacing under its rate limits
(`pacing`: buckets, priorities, the global limit), answering an interaction within its three seconds
(`answer`), Discord's ordinary refusals and passing failures (`refusals`), and the permissions a game
needs in a channel, with the invite link that grants them (`permissions`). Knows Discord, no game."""
