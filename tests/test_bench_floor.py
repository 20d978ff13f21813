"""`python -m bench floor`, short: the answering-only bot answers every click and makes the other
REST calls asked of it, and the figures come from what was measured."""

from __future__ import annotations

import pytest

from bench import floor


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
