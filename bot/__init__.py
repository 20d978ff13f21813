"""The Discord side: cogs, views, renderers and the table service that drives the games."""
