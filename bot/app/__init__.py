"""The application: the bot object that wires every room together (`client`: TableBot, its cogs, buttons,
notifier, picture and AI workers, the table service), its slash-command tree and how a command's failure
is answered (`tree`), the worker processes where expert AI seats think (`thinking`), and what an operator
reads of it (`metrics`: Prometheus figures and /healthz). The top room of bot/: nothing imports it."""
