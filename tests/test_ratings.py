"""Ratings at game end (docs/ratings.md), on SQLite and PostgreSQL: openskill Plackett-Luce per server
and globally, ties, AI identities, abandoned games, retries, rerate equality, and the read side."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

import games
from storage import Database
from storage.ratings import AI_IDENTITIES, GLOBAL, identity, rank_by_scores, rate_game
from tests.storage.conftest import BACKENDS, create_pg_database, drop_pg_database

GUILD = 77
OTHER_GUILD = 78
MODEL = PlackettLuce()

Seat = tuple[int | None, str | None]  # (user_id, ai_level)


@pytest.fixture(params=BACKENDS)
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated empty database: SQLite, and PostgreSQL when TEST_POSTGRES_URL is set."""
    url = f"sqlite+aiosqlite:///{tmp_path}/ratings.sqlite3"
    if request.param == "postgres":
        url = await create_pg_database()
    database = await Database.open(url)
    try:
        yield database
    finally:
        await database.close()
        if request.param == "postgres":
            await drop_pg_database(url)


async def finished_game(
    db: Database,
    seats: list[Seat],
    ranks: Sequence[int | None],
    *,
    guild: int | None = GUILD,
    scores: list[float] | None = None,
    game_key: str = "eggs-empires",
    options: dict[str, Any] | None = None,
    status: str = "finished",
) -> int:
    humans = [u for u, _ in seats if u is not None]
    row = await db.create_game(
        guild_id=guild,
        channel_id=900 + len(humans),
        game_key=game_key,
        options=options or {},
        host_id=humans[0],
        seed=5,
        turn_seconds=None,
    )
    assert row.id is not None
    await db.set_seats(
        row.id, [{"seat": i, "user_id": u, "ai_level": a, "name": f"p{i}"} for i, (u, a) in enumerate(seats)]
    )
    await db.start_game(row.id, {"turn": 0}, None)
    scores = scores or [float(10 - (r or 0)) for r in ranks]
    await db.finish_game(
        row.id,
        status,
        [
            {
                "seat": i,
                "user_id": u,
                "ai_level": a,
                "rank": ranks[i],
                "score": scores[i],
                "breakdown": {"total": scores[i]},
            }
            for i, (u, a) in enumerate(seats)
        ],
    )
    return row.id


def expected(priors: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """openskill itself, called directly: the reference the stored numbers must equal."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=[float(r) for r in ranks])]


FRESH = (MODEL.mu, MODEL.sigma)


async def test_two_players_the_winner_gains_in_the_server_and_globally(db: Database) -> None:
    game_id = await finished_game(db, [(1, None), (2, None)], [2, 1])
    want = expected([FRESH, FRESH], [2, 1])
    for scope in (GUILD, GLOBAL):
        board = await db.ratings(scope, "eggs-empires")
        assert (board[1].mu, board[1].sigma) == want[0]
        assert (board[2].mu, board[2].sigma) == want[1]
        assert board[2].mu > MODEL.mu > board[1].mu
        assert (board[1].games, board[1].wins, board[2].games, board[2].wins) == (1, 0, 1, 1)
        assert board[2].ordinal == pytest.approx(board[2].mu - 3 * board[2].sigma)
        assert [r.user_id for r in await db.leaderboard(scope, "eggs-empires")] == [2, 1]
    history = await db.rating_history(GUILD, "eggs-empires", 2)
    assert [(h.game_id, h.rank, h.mu) for h in history] == [(game_id, 1, want[1][0])]
    assert await db.ratings(OTHER_GUILD, "eggs-empires") == {}

    # A second game starts from the stored ratings.
    await finished_game(db, [(1, None), (2, None)], [1, 2])
    again = expected(want, [1, 2])
    board = await db.ratings(GUILD, "eggs-empires")
    assert (board[1].mu, board[1].sigma, board[1].games, board[1].wins) == (*again[0], 2, 1)
    assert [round(h.mu, 9) for h in await db.rating_history(GUILD, "eggs-empires", 1)] == [
        round(want[0][0], 9),
        round(again[0][0], 9),
    ]


async def test_six_players_with_ties_share_their_place(db: Database) -> None:
    users = [10, 11, 12, 13, 14, 15]
    ranks = [1, 2, 2, 4, 4, 6]
    await finished_game(db, [(u, None) for u in users], ranks)
    want = expected([FRESH] * 6, ranks)
    board = await db.ratings(GUILD, "eggs-empires")
    assert [(board[u].mu, board[u].sigma) for u in users] == want
    assert board[11].mu == board[12].mu and board[13].mu == board[14].mu  # equal priors, shared place
    assert board[10].mu > board[11].mu > board[13].mu > board[15].mu
    assert [board[u].wins for u in users] == [1, 0, 0, 0, 0, 0]
    top = await db.leaderboard(GUILD, "eggs-empires", limit=3)
    assert [r.user_id for r in top] == [10, 11, 12]  # equal ordinals: by user id
    # Positions agree with the board's order, ties included (11 before 12, 13 before 14).
    board_order = [r.user_id for r in await db.leaderboard(GUILD, "eggs-empires", limit=10)]
    assert board_order == [10, 11, 12, 13, 14, 15]
    for position, user in enumerate(board_order, start=1):
        found = await db.standing(GUILD, "eggs-empires", user)
        assert found is not None and found[0] == position
        stats = await db.player_stats(user, GUILD, [GUILD, GLOBAL])
        assert [(p.rating.guild_id, p.position, p.size) for p in stats.ratings] == [
            (GLOBAL, position, 6),
            (GUILD, position, 6),
        ]  # by game key, then scope id


async def test_a_shared_first_place_is_a_win_for_each(db: Database) -> None:
    await finished_game(db, [(1, None), (2, None), (3, None)], [1, 1, 3])
    board = await db.ratings(GUILD, "eggs-empires")
    assert [board[u].wins for u in (1, 2, 3)] == [1, 1, 0]


async def test_ai_seats_are_rated_as_their_level(db: Database) -> None:
    seats: list[Seat] = [(1, None), (None, "heuristic"), (None, "random")]
    await finished_game(db, seats, [2, 1, 3])
    want = expected([FRESH] * 3, [2, 1, 3])
    board = await db.ratings(GUILD, "eggs-empires")
    assert set(board) == {1, AI_IDENTITIES["heuristic"], AI_IDENTITIES["random"]}
    assert (board[-1].mu, board[-1].sigma, board[-1].wins) == (*want[1], 1)
    assert (board[-2].mu, board[-2].sigma, board[-2].wins) == (*want[2], 0)
    # The board ranks people; the AI levels are listed apart, best first.
    assert [r.user_id for r in await db.leaderboard(GLOBAL, "eggs-empires")] == [1]
    assert [r.user_id for r in await db.ai_board(GLOBAL, "eggs-empires")] == [-1, -2]
    assert await db.board_size(GLOBAL, "eggs-empires") == 1


async def test_two_ais_of_one_level_count_one_game_with_the_mean_update(db: Database) -> None:
    seats: list[Seat] = [(1, None), (None, "heuristic"), (None, "heuristic")]
    await finished_game(db, seats, [2, 1, 3])
    want = expected([FRESH] * 3, [2, 1, 3])
    ai = (await db.ratings(GUILD, "eggs-empires"))[-1]
    assert ai.mu == pytest.approx((want[1][0] + want[2][0]) / 2)
    assert ai.sigma == pytest.approx((want[1][1] + want[2][1]) / 2)
    assert (ai.games, ai.wins) == (1, 1)
    history = await db.rating_history(GUILD, "eggs-empires", -1)
    assert [h.rank for h in history] == [1]  # its best seat


async def test_abandoned_games_are_not_rated(db: Database) -> None:
    game_id = await finished_game(db, [(1, None), (2, None)], [1, 2], status="abandoned")
    assert await db.ratings(GUILD, "eggs-empires") == {}
    assert await db.ratings(GLOBAL, "eggs-empires") == {}
    assert await db.rating_history(GUILD, "eggs-empires", 1) == []
    assert await db.user_results(1, GUILD) == []  # not a finished game either
    row = await db.get_game(game_id)
    assert row is not None and row.status == "abandoned" and row.finished_at is not None
    assert row.finished_seq is None


async def test_a_retried_finish_replaces_results_without_rating_twice(db: Database) -> None:
    game_id = await finished_game(db, [(1, None), (2, None)], [1, 2])
    before = await db.ratings(GUILD, "eggs-empires")
    await db.finish_game(
        game_id,
        "finished",
        [
            {"seat": 0, "user_id": 1, "ai_level": None, "rank": 1, "score": 9, "breakdown": {}},
            {"seat": 1, "user_id": 2, "ai_level": None, "rank": 2, "score": 8, "breakdown": {}},
        ],
    )
    assert await db.ratings(GUILD, "eggs-empires") == before
    assert len(await db.rating_history(GUILD, "eggs-empires", 1)) == 1
    with pytest.raises(ValueError, match="cannot become"):
        await db.finish_game(game_id, "abandoned", [])


async def test_missing_ranks_come_from_the_scores(db: Database) -> None:
    # Reggverse's outcome has scores and winners but no ranking.
    game_id = await finished_game(
        db, [(1, None), (2, None), (3, None)], [None, None, None], scores=[4, 7, 4], game_key="reggverse-riddles"
    )
    assert [r.rank for r in await db.results(game_id)] == [2, 1, 2]
    board = await db.ratings(GUILD, "reggverse-riddles")
    assert board[2].wins == 1 and board[1].mu == board[3].mu


async def test_a_game_outside_a_server_counts_only_globally(db: Database) -> None:
    await finished_game(db, [(1, None), (2, None)], [1, 2], guild=None)
    assert set(await db.ratings(GLOBAL, "eggs-empires")) == {1, 2}
    assert (await db.user_results(1))[0].link is None


async def test_servers_are_separate_boards_and_global_spans_them(db: Database) -> None:
    await finished_game(db, [(1, None), (2, None)], [1, 2], guild=GUILD)
    await finished_game(db, [(1, None), (3, None)], [2, 1], guild=OTHER_GUILD)
    assert set(await db.ratings(GUILD, "eggs-empires")) == {1, 2}
    assert set(await db.ratings(OTHER_GUILD, "eggs-empires")) == {1, 3}
    world = await db.ratings(GLOBAL, "eggs-empires")
    assert world[1].games == 2 and world[1].wins == 1
    # Globally user 1 entered the second game with its global rating, not its fresh one.
    first = expected([FRESH, FRESH], [1, 2])[0]
    assert (world[1].mu, world[1].sigma) == expected([first, FRESH], [2, 1])[0]
    assert (await db.ratings(OTHER_GUILD, "eggs-empires"))[1].mu == expected([FRESH, FRESH], [2, 1])[0][0]


async def test_leaderboard_pages_and_standing(db: Database) -> None:
    for loser in range(2, 14):  # user 1 beats twelve players; each of them is on the board once
        await finished_game(db, [(1, None), (loser, None)], [1, 2])
    assert await db.board_size(GUILD, "eggs-empires") == 13
    first = await db.leaderboard(GUILD, "eggs-empires", limit=5)
    second = await db.leaderboard(GUILD, "eggs-empires", limit=5, offset=5)
    ordinals = [r.ordinal for r in first + second]
    assert ordinals == sorted(ordinals, reverse=True)
    assert first[0].user_id == 1 and not {r.user_id for r in first} & {r.user_id for r in second}
    everyone = await db.leaderboard(GUILD, "eggs-empires", limit=100)
    for position, row in enumerate(everyone, start=1):
        found = await db.standing(GUILD, "eggs-empires", row.user_id)
        assert found is not None and found[0] == position and found[1].user_id == row.user_id
    assert await db.standing(GUILD, "eggs-empires", 999) is None


async def test_stats_reads_keep_variants_apart_and_list_newest_first(db: Database) -> None:
    standard = await finished_game(db, [(1, None), (2, None)], [1, 2], scores=[60, 50])
    await finished_game(db, [(1, None), (2, None)], [2, 1], scores=[40, 55])
    conpub = await finished_game(db, [(1, None), (2, None)], [1, 2], scores=[3, 1], options={"scoring": "conpub"})
    summary = {(s.game_key, s.variant): s for s in await db.score_summary(1, GUILD)}
    assert set(summary) == {("eggs-empires", None), ("eggs-empires", "conpub")}
    plain = summary[("eggs-empires", None)]
    assert (plain.games, plain.wins, plain.average, plain.best) == (2, 1, 50.0, 60.0)
    assert (summary[("eggs-empires", "conpub")].best, summary[("eggs-empires", "conpub")].games) == (3.0, 1)
    recent = await db.user_results(1, GUILD, limit=2)
    assert [g.game_id for g in recent] == [conpub, conpub - 1]
    assert recent[0].link == f"https://discord.com/channels/{GUILD}/{recent[0].channel_id}"
    players = await db.game_players([standard])
    assert [(p.user_id, p.rank, p.score, p.name) for p in players[standard]] == [(1, 1, 60.0, "p0"), (2, 2, 50.0, "p1")]
    assert await db.score_summary(1, OTHER_GUILD) == [] and await db.user_results(5) == []


async def test_stats_history_is_per_game_newest_bounded_and_oldest_first(db: Database) -> None:
    for i in range(5):
        await finished_game(db, [(1, None), (2, None)], [1 + i % 2, 2 - i % 2])
    await finished_game(db, [(1, None), (3, None)], [1, 2], game_key="eight-minute-empire")
    await finished_game(db, [(2, None), (3, None)], [1, 2], game_key="reggverse-riddles")  # not user 1's
    stats = await db.player_stats(1, GUILD, [GUILD, GLOBAL], history_limit=3)
    eggs = [h.ordinal for h in await db.rating_history(GUILD, "eggs-empires", 1)]
    assert len(eggs) == 5
    assert stats.history["eggs-empires"] == eggs[-3:]  # the newest three, oldest first
    assert stats.history["eight-minute-empire"] == [
        h.ordinal for h in await db.rating_history(GUILD, "eight-minute-empire", 1)
    ]
    assert set(stats.history) == {"eggs-empires", "eight-minute-empire"}
    assert {(p.rating.game_key, p.rating.guild_id) for p in stats.ratings} == {
        (key, scope) for key in ("eggs-empires", "eight-minute-empire") for scope in (GUILD, GLOBAL)
    }
    world = await db.player_stats(1, None, [GLOBAL], history_limit=50)
    assert world.history["eggs-empires"] == [h.ordinal for h in await db.rating_history(GLOBAL, "eggs-empires", 1)]


async def test_rerate_gives_exactly_the_same_numbers(db: Database) -> None:
    rng = random.Random(7)
    people = list(range(1, 16))
    for _ in range(40):
        n = rng.randint(2, 6)
        seats: list[Seat] = [(u, None) for u in rng.sample(people, n - 1)]
        seats.append(
            (None, rng.choice(["heuristic", "random"]))
            if rng.random() < 0.5
            else (rng.choice([p for p in people if p not in {u for u, _ in seats}]), None)
        )
        ranks = [rng.randint(1, n) for _ in range(n)]  # arbitrary ranks, ties included
        guild = rng.choice([GUILD, OTHER_GUILD, None])
        key = rng.choice(["eggs-empires", "eight-minute-empire"])
        status = "abandoned" if rng.random() < 0.1 else "finished"
        await finished_game(db, seats, ranks, guild=guild, game_key=key, status=status)

    async def snapshot() -> tuple[list[Any], list[Any]]:
        ratings = []
        for scope in (GUILD, OTHER_GUILD, GLOBAL):
            for key in ("eggs-empires", "eight-minute-empire"):
                ratings += [r.model_dump() for r in await db.leaderboard(scope, key, limit=1000)]
        history = []
        for r in ratings:
            rows = await db.rating_history(r["guild_id"], r["game_key"], r["user_id"], 1000)
            history += [h.model_dump() for h in rows]
        return ratings, history

    live = await snapshot()
    assert len(live[0]) > 30 and len(live[1]) > 100
    rated = await db.rerate()
    assert rated == len({h["game_id"] for h in live[1]})  # every finished game, no abandoned one
    assert await snapshot() == live  # every float, count and timestamp equal
    await db.save_ratings(
        [{"guild_id": GUILD, "game_key": "eggs-empires", "user_id": 1, "mu": 1.0, "sigma": 1.0, "games": 0, "wins": 0}]
    )  # damage, then recompute
    await db.rerate()
    assert await snapshot() == live


async def test_plays_are_counted_from_the_action_log(db: Database) -> None:
    game = games.get("eggs-empires")
    row = await db.create_game(
        guild_id=GUILD, channel_id=1, game_key="eggs-empires", options={}, host_id=1, seed=99, turn_seconds=None
    )
    assert row.id is not None
    await db.set_seats(row.id, [{"seat": i, "user_id": i + 1, "name": f"p{i}"} for i in range(3)])
    state = game.new(3, 99, game.resolve_options({}))
    version = await db.start_game(row.id, game.to_json(state), None)
    played = [0, 0, 0]
    while game.outcome(state) is None:
        for prompt in game.prompts(state):
            choice = game.ai("random", version).choose(game, state, prompt)
            played[prompt.seat] += prompt.kind == "play"
            game.apply(state, prompt.seat, choice)
            version = await db.commit_action(row.id, version, prompt.seat, choice, game.to_json(state))
    outcome = game.outcome(state)
    assert outcome is not None
    await db.finish_game(
        row.id,
        "finished",
        [
            {
                "seat": s,
                "user_id": s + 1,
                "ai_level": None,
                "rank": outcome["ranking"][s],
                "score": outcome["scores"][s],
                "breakdown": outcome["breakdown"][s],
            }
            for s in range(3)
        ],
    )
    results = await db.results(row.id)
    from games.eggs_empires.rules import ADVENTURERS, card_name

    names = {card_name(c) for c in ADVENTURERS}
    for seat, result in enumerate(results):
        assert result.plays is not None and set(result.plays) <= names
        assert sum(result.plays.values()) == played[seat] == 27  # one Adventurer a turn, 3 rounds of 9


def test_pure_helpers() -> None:
    assert rank_by_scores([5, 9, 5, 1]) == [2, 1, 2, 4]
    assert identity(5, None) == 5 and identity(None, "heuristic") == -1 and identity(None, None) is None
    made_up = identity(None, "grandmaster")
    assert made_up is not None and made_up == identity(None, "grandmaster") and made_up < -999
    assert rate_game({}, [(1, 1), (1, 2)]) == {}  # one identity alone is not a game to rate


def test_rating_chart_is_a_png_with_every_line_and_a_legend_that_fits() -> None:
    import io

    from PIL import Image

    from bot.render.kit.chart import COLOURS, HEIGHT, WIDTH, Series, rating_chart

    def drawn(series: list[Series], title: str) -> Image.Image:
        image = Image.open(io.BytesIO(rating_chart(series, title)))
        assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
        return image.convert("RGB")

    three = [
        Series(name, [float(i % 7) for i in range(50)])
        for name in ("Eggs and Empires", "Eight-Minute Empire", "Reggverse Riddles")
    ]
    image = drawn(three, "Rating after each game")  # the real title: with three long names, two rows
    colours = {image.getpixel((x, y)) for x in range(WIDTH) for y in range(HEIGHT)}
    assert set(COLOURS[:3]) <= colours  # each game's line is drawn
    # Three long names do not fit beside the title: the legend takes the second row, so the first
    # row right of the title holds no legend swatch.
    first_row = {image.getpixel((x, y)) for x in range(120, WIDTH) for y in range(0, 16)}
    assert not first_row & set(COLOURS[:3])
    one = drawn([Series("Eggs and Empires", [1.0])], "Rating")
    assert COLOURS[0] in {one.getpixel((x, y)) for x in range(300, WIDTH) for y in range(0, 16)}  # beside the title
