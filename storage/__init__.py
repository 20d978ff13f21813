"""Persistence: SQLModel tables and the async repository the table service uses."""
