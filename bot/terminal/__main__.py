"""`python -m bot.terminal`: a game against AI seats in a terminal, told in the Discord table's own words."""

import sys

from bot.terminal import main

sys.exit(main())
