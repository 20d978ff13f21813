"""`python -m bench floor`, short: the answering-only bot answers every click and makes the other
REST calls asked of it, and the figures come from what was measured; `--same-work` replays a recorded
load run request for request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import _same_work, floor, load


async def test_the_floor_bot_answers_clicks_and_sends_what_is_asked() -> None:
    figures = await floor.measure(clickers=4, duration=1.5, posts=1.0)
    assert figures["clicks"] >= 20, figures
    # One edit per click (those still on their way when the window closed may be missing).
    assert 0.8 <= figures["other_calls_per_click"] <= 1.05, figures
    assert figures["bot_cpu_ms_per_click"] > 0 and figures["bench_cpu_ms_per_click"] > 0
    assert figures["first_response_p50_ms"] <= figures["first_response_p99_ms"]
    # The ceiling comes from the unrounded CPU figures; the two reported ones are each rounded to 0.001 ms, so
    # their sum is off by at most 0.001 ms. The ceiling must lie within what that sum's range allows (it grows
    # with the machine's speed: a fixed tolerance in clicks/s failed on a fast, quiet machine), plus its own
    # rounding to 0.1.
    cpu_ms = figures["bot_cpu_ms_per_click"] + figures["bench_cpu_ms_per_click"]
    lowest = figures["cores"] * 1000 / (cpu_ms + 0.001)
    highest = figures["cores"] * 1000 / max(cpu_ms - 0.001, 1e-9)
    assert lowest - 0.05 <= figures["ceiling_clicks_per_second"] <= highest + 0.05, figures


def test_nonsense_arguments_are_refused() -> None:
    with pytest.raises(SystemExit) as refused:
        floor.main(["--clickers", "0"])
    assert refused.value.code == 2  # argparse's usage error, not a clean exit


@pytest.mark.xdist_group("load")  # a bot process of its own, then the floor's: beside the load tests, not with them
async def test_a_recorded_load_run_is_replayed_request_for_request(tmp_path: Path) -> None:
    """`bench load --record` then `bench floor --same-work`: the floor sends every recorded request (method,
    path, body and files' bytes), none else, and so the same number per route; timing is not asserted."""
    run = tmp_path / "run"
    figures = await load.run(
        2,
        database_url=None,
        think=0.05,
        seed=3,
        memory_games=0,
        directory=tmp_path,
        only="eggs-empires",
        max_seats=3,
        duration=3.0,
        warm_up=False,
        limits=load.rate_limits(per_channel=True, global_limit=True),
        record=run,
    )
    assert figures["errors"] == 0, figures["first_errors"]
    meta, clicks, requests = _same_work.load_run(run)
    assert meta["decisions"] == figures["decisions"] > 0 and len(clicks) == figures["clicks"] > 0
    routes = {f"{r['method']} {_same_work.route_of(r['path'])[0]}" for r in requests}
    assert "POST /interactions/{webhook_id}/{webhook_token}/callback" in routes, routes
    assert any(r["files"] for r in requests), "pictures were sent, and their bytes kept"
    assert all((run / "blobs" / digest).exists() for r in requests for _name, digest in r["files"])

    replayed = await _same_work.measure(run, within=120)
    assert replayed["requests_replayed"] == len(requests), replayed
    assert replayed["requests_not_replayed"] == 0 and replayed["requests_not_recorded"] == 0, replayed
    assert all(recorded == sent for recorded, sent in replayed["requests_by_route"].values()), replayed
    assert replayed["floor_cpu_seconds"] > 0 and replayed["clicks_undelivered"] == 0
    assert sum(replayed["refused_replayed"].values()) == replayed["refused_recorded"], replayed

    # A replay that drifts is caught: one body changed in the recording is one request recorded and not
    # replayed, and one replayed and not recorded.
    edited = next(
        r for r in requests if r["body"] and r["method"] == "POST" and "content" in (r["body"].get("data") or {})
    )
    edited["body"]["data"]["content"] += " (changed)"
    with open(run / "requests.jsonl", "w", encoding="utf-8") as out:  # noqa: ASYNC230 - between two runs
        out.writelines(json.dumps(r) + "\n" for r in requests)
    drifted = await _same_work.measure(run, within=120)
    assert drifted["requests_not_replayed"] == 1 and drifted["requests_not_recorded"] == 1, drifted


def test_paths_become_discord_py_routes() -> None:
    assert _same_work.route_of("/channels/12/messages/34") == (
        "/channels/{channel_id}/messages/{message_id}",
        {"channel_id": "12", "message_id": "34"},
    )
    assert _same_work.route_of("/webhooks/9/token-5/messages/%40original") == (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        {"webhook_id": "9", "webhook_token": "token-5", "message_id": "@original"},
    )


def test_a_messages_requests_keep_their_recorded_order() -> None:
    requests = [
        {"path": "/webhooks/1/t/messages/@original", "token": "t"},
        {"path": "/channels/5/messages/7", "token": None},
        {"path": "/webhooks/1/u/messages/@original", "token": "u"},
        {"path": "/channels/5/messages/7", "token": None},
        {"path": "/webhooks/1/t/messages/@original", "token": "t"},
        {"path": "/interactions/2/t/callback", "token": "t"},
        {"path": "/webhooks/1/t/messages/@original", "token": "t"},
        {"path": "/webhooks/1/t", "token": "t"},
    ]
    assert _same_work.preceding(requests) == [[], [], [], [1], [0], [], [4, 5], [5]]
