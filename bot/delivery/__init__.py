"""Delivery: getting each update of a game to the people who must see it, once, in order, within Discord's
limits. The notifier (`notify`: the table in its thread, its log lines, reminders; queues that keep only
the newest of what only the newest matters), each player's private window (`private`: their DM prompt or
ephemeral hand, told as they chose in `preferences`), what is pending and what was delivered (`pending`,
`delivered`), reaching a player through their latest click's token (`reach`), the pictures Discord
already holds (`attachments`), and a game's thread from opening to archive (`thread_life`)."""
