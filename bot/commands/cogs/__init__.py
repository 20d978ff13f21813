"""Cogs: one per concern (the /game commands; the timer task)."""
