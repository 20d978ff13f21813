"""The fake Discord refuses what Discord refuses (fakediscord.contract): bodies over the documented limits."""

from __future__ import annotations

from fakediscord.contract import problems


def button(custom_id: str | None, label: str = "ok", **rest: object) -> dict[str, object]:
    found: dict[str, object] = {"type": 2, "style": 1, "label": label, **rest}
    if custom_id is not None:
        found["custom_id"] = custom_id
    return found


def test_messages_within_discords_limits_pass_and_each_limit_is_enforced() -> None:
    good = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 4096, "fields": [{"name": "n", "value": "v"}]}],
        "components": [{"type": 1, "components": [button(f"b{i}") for i in range(5)]}],
    }
    assert problems(good) == []
    assert problems({"content": "x" * 2001})
    assert problems({"embeds": [{"description": "d" * 4097}]})
    assert problems({"embeds": [{"description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1024}] * 2}]})
    assert problems({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    assert problems({"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]})
    assert problems({"components": [{"type": 1, "components": [button("b")]}] * 6})
    assert problems({"components": [{"type": 1, "components": [button("same"), button("same")]}]})
    assert problems({"components": [{"type": 1, "components": [button("b", label="l" * 81)]}]})
    assert problems({"components": [{"type": 1, "components": [button(None, style=5)]}]}), "a link needs a url"
    assert not problems({"components": [{"type": 1, "components": [button(None, style=5, url="https://x")]}]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}] * 26}
    assert problems({"components": [{"type": 1, "components": [select]}]})
    assert problems({"components": [{"type": 1, "components": [dict(select, options=[]), button("b")]}]})
