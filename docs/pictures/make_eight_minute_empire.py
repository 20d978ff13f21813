"""Write the pictures of one whole Eight-Minute Empire game, shrunk to 400 px wide as a phone shows them,
into docs/pictures/eight-minute-empire/ (with an index, README.md), so that anyone can judge them
without running anything:

    python docs/pictures/make_eight_minute_empire.py

Three heuristic players (Ann, Bob, Cy) on the L layout with explore tokens and citadels, from a fixed
seed: the table's map at the start and after every turn, and for the first three turns with a map
decision, the picture in the private message of the player deciding (the regions they may choose
ringed, the rest faded).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.render.eight_minute_empire import map_part, render_map, seat_part  # noqa: E402
from bot.render.eight_minute_empire.picture import _palette  # noqa: E402
from bot.render.kit.phone import as_on_phone  # noqa: E402
from games.eight_minute_empire import GAME  # noqa: E402

OUT = ROOT / "docs" / "pictures" / "eight-minute-empire"
NAMES = ["Ann", "Bob", "Cy"]
PHONE_WIDTH = 400
SEED = 21


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    state = GAME.new(3, SEED, {"explore": True, "citadels": True})
    seats = [GAME.ai("heuristic", SEED * 10 + s) for s in range(3)]
    index = ["# One game of Eight-Minute Empire, as a phone shows it", "", __doc__ or "", ""]

    def save(name: str, png: bytes, caption: str) -> None:
        (OUT / name).write_bytes(as_on_phone(png, _palette().palette, PHONE_WIDTH))
        index.extend([f"**{caption}**", "", f"![{caption}]({name})", ""])

    save("00-table.png", render_map(map_part(GAME.view(state, None)), NAMES), "The table at the start")
    turn, seat_shown, seats_pictured = 0, False, 0
    while prompts := GAME.prompts(state):
        for prompt in prompts:
            if (
                turn
                and seats_pictured < len(NAMES)
                and not seat_shown
                and any(c.data.get("what") in ("region", "move", "army") for c in prompt.choices)
            ):
                who = NAMES[prompt.seat]
                part = seat_part(GAME.view(state, prompt.seat), prompt)
                save(f"{turn:02d}-{who.lower()}.png", render_map(part, NAMES), f"Turn {turn}: {who}'s own picture")
                seat_shown, seats_pictured = True, seats_pictured + 1
            events = GAME.apply(state, prompt.seat, seats[prompt.seat].choose(GAME, state, prompt))
            if any(e["type"] in ("turn", "game_end") for e in events):
                turn += 1
                seat_shown = False
                caption = "The end of the game" if GAME.outcome(state) else f"The table after turn {turn}"
                save(f"{turn:02d}-table.png", render_map(map_part(GAME.view(state, None)), NAMES), caption)
    (OUT / "README.md").write_text("\n".join(index))
    print(f"{len(list(OUT.glob('*.png')))} pictures in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
