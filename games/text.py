"""Plain-text rendering of views and events for the terminal tools."""

from __future__ import annotations

from typing import Any


def format_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)


def format_view(view: dict[str, Any], indent: str = "") -> str:
    """One line per top-level key; nested lists of dicts get one line per item."""
    lines: list[str] = []
    for key, value in view.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f"{indent}{key}:")
            lines.extend(f"{indent}  - {format_value(v)}" for v in value)
        elif isinstance(value, dict) and value and len(format_value(value)) > 80:
            lines.append(f"{indent}{key}:")
            lines.append(format_view(value, indent + "  "))
        else:
            lines.append(f"{indent}{key}: {format_value(value)}")
    return "\n".join(lines)


def format_event(event: dict[str, Any]) -> str:
    rest = {k: v for k, v in event.items() if k != "type"}
    return f"{event.get('type', '?')}: {format_value(rest)}" if rest else str(event.get("type", "?"))
