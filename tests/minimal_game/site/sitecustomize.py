"""Put on PYTHONPATH by tests/__init__.py when TEST_MINIMAL_GAME is set, so that every Python subprocess a
test starts (`python -m games`, the bot in `python -m harness.run_bot`, the picture checks) registers the
minimal game too, as the test process did. Python imports this module at start-up (the `site` module)."""

import os

if os.environ.get("TEST_MINIMAL_GAME", "") not in ("", "0"):
    import games  # loads no compiled module: games.build can still choose the .py files

    _folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _folder not in games.__path__:
        games.__path__.append(_folder)
        games.forget()
