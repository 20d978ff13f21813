"""Write the pictures of one whole Reggverse Riddles game, shrunk to 400 px wide as a phone shows them,
into docs/pictures/reggverse-riddles/ (with an index, README.md), so that anyone can judge them
without running anything:

    python docs/pictures/make_reggverse_riddles.py

Three heuristic players (Ada, Bartholomew, Chloé) on the 4x4 map with action tiles and secret objectives,
six eggs of each type, from a fixed seed: the table's picture at the start of every turn and at the end,
and the picture in Ada's private message at the first prompt of each kind she gets (what it lets her
choose marked: squares ringed and the others faded, rule rows or players highlighted, tiles outlined)
and at the end.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.render.kit.phone import as_on_phone  # noqa: E402
from bot.render.reggverse.parts import _palette  # noqa: E402
from bot.render.reggverse.picture import render_board, with_prompt  # noqa: E402

OUT = ROOT / "docs" / "pictures" / "reggverse-riddles"
NAMES = ["Ada", "Bartholomew", "Chloé"]
PHONE_WIDTH = 400
SEED = 21
OPTIONS = {"action_tiles": True, "objectives": True, "tokens": 6}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    game = games.get("reggverse-riddles")
    state = game.new(len(NAMES), SEED, dict(OPTIONS))
    seats = [game.ai("heuristic", SEED * 10 + s) for s in range(len(NAMES))]
    index = ["# One game of Reggverse Riddles, as a phone shows it", "", __doc__ or "", ""]

    def save(name: str, png: bytes, caption: str) -> None:
        (OUT / name).write_bytes(as_on_phone(png, _palette(), PHONE_WIDTH))
        index.extend([f"**{caption}**", "", f"![{caption}]({name})", ""])

    turns_shown: set[int] = set()
    kinds_shown: set[str] = set()
    while prompts := game.prompts(state):
        prompt = prompts[0]
        view = game.view(state, None)
        if view["turn"] not in turns_shown:
            turns_shown.add(view["turn"])
            save(f"t{view['turn']:02d}-table.png", render_board(view, NAMES), f"The table, turn {view['turn']}")
        if prompt.seat == 0 and prompt.kind not in kinds_shown:
            kinds_shown.add(prompt.kind)
            own = with_prompt(game.view(state, 0), prompt)
            save(
                f"t{view['turn']:02d}-ada-{prompt.kind}.png",
                render_board(own, NAMES),
                f"Turn {view['turn']}: Ada's own picture, deciding ({prompt.kind})",
            )
        game.apply(state, prompt.seat, seats[prompt.seat].choose(game, state, prompt))
    save("zz-end-table.png", render_board(game.view(state, None), NAMES), "The table at the end")
    save("zz-end-ada.png", render_board(game.view(state, 0), NAMES), "Ada's own picture at the end")
    (OUT / "README.md").write_text("\n".join(index))
    print(f"{len(list(OUT.glob('*.png')))} pictures in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
