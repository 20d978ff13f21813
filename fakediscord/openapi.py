"""Discord's own description of its HTTP API judges every request the fake receives (issue 33).

`discord_api/openapi.json` is Discord's OpenAPI 3.1 description of API v10 (discord/discord-api-spec,
MIT, `discord_api/LICENSE`), a copy of `../shared/discord-api/openapi.json` (a test keeps the two equal).
A request is found among its operations by method and path template (a literal segment such as `@me`
or `@original` wins over a `{parameter}`); its path parameters, query and JSON body (or a multipart
request's `payload_json`) are then validated with jsonschema against that operation's schemas.

What is refused is answered as Discord answers it: an unknown route 404, a known path with another
method 405, and a body, query or path parameter that fails its schema 400 "Invalid Form Body" (code
50035) with Discord's nested `errors` tree: `{"embeds": {"0": {"title": {"_errors": [{"code":
"BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}}`.

How the description is read:
- an `anyOf` marked `x-discord-union: oneOf` means one of its shapes, whole, not a mix of two (its
  README: "exactly one of the listed shapes"). Some such unions list shapes that share all their
  properties (a webhook's message: IncomingWebhookRequestPartial or IncomingWebhookUpdateRequestPartial),
  so a body can fit two of them; it is validated as anyOf over closed shapes (next point), which
  refuses a mix and accepts a body that fits both;
- an object's properties the description does not name are refused: stricter than Discord, which
  ignores them, because a property Discord ignores is one whose effect the bot never gets (a misspelt
  `alowed_mentions` pings everyone). The fake refuses it with the code `UNKNOWN_FIELD`, its own.
What Discord accepts and discord.py relies on beyond the description is listed once, in TOLERATED.

The limits the description does not encode (content 2,000 characters, 6,000 across embeds, unique
custom_ids...) are checked beside it by `fakediscord.contract`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import jsonschema_rs

SPEC = Path(__file__).with_name("discord_api") / "openapi.json"
URI = "https://discord.com/api/v10/openapi.json"
SNOWFLAKE = "SnowflakeType"

# What Discord accepts beyond its description, each with why (the only exceptions to the schemas).
TOLERATED: dict[str, Any] = {
    # discord.py writes some snowflakes as JSON integers (an attachment's id in an edit's `attachments`,
    # `recipient_id` when it opens a DM, option and role ids); Discord parses a snowflake from either.
    "snowflake_as_integer": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
    # Properties discord.py sends that the description leaves out of the object, and Discord ignores.
    "properties": {
        # discord.py's Message.edit / Webhook.edit_message build their payload with its send() code,
        # which always writes `tts`: Discord ignores it on an edit.
        "MessageEditRequestPartial": {"tts": {"type": ["boolean", "null"]}},
        "IncomingWebhookUpdateRequestPartial": {"tts": {"type": ["boolean", "null"]}},
        "IncomingWebhookUpdateForInteractionCallbackRequestPartial": {"tts": {"type": ["boolean", "null"]}},
        # discord.py writes every command's `nsfw` (age-restricted) flag, a field of Discord's documented
        # application command object that the description's request shape leaves out.
        "ApplicationCommandUpdateRequest": {"nsfw": {"type": ["boolean", "null"]}},
        "ApplicationCommandCreateRequest": {"nsfw": {"type": ["boolean", "null"]}},
        # discord.Embed.to_dict() carries the embed's `flags` (a received embed's, 0 on a new one);
        # Discord ignores them on a request.
        "RichEmbed": {"flags": {"type": ["integer", "null"]}},
    },
}

# Discord's error codes and messages inside an "Invalid Form Body" tree, by the JSON Schema keyword failed.
CODES = {
    "maxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "maxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "maxProperties": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "minLength": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "minItems": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "maximum": ("NUMBER_TYPE_MAX", "int value should be less than or equal to {limit}."),
    "minimum": ("NUMBER_TYPE_MIN", "int value should be greater than or equal to {limit}."),
    "required": ("BASE_TYPE_REQUIRED", "This field is required"),
    "enum": ("BASE_TYPE_CHOICES", "Value must be one of {options}."),
    "const": ("BASE_TYPE_CHOICES", "Value must be one of ({expected_value!r},)."),
    "pattern": ("STRING_TYPE_REGEX", "String value did not match validation regex."),
    "type": ("BASE_TYPE_BAD_TYPE", "Must be of type {types}."),
    "oneOf": ("UNION_TYPE_CHOICES", "Value matches none of the allowed shapes."),
    "oneOfMultipleValid": ("UNION_TYPE_CHOICES", "Value matches more than one of the allowed shapes."),
    "uniqueItems": ("BASE_TYPE_DUPLICATES", "Must not contain duplicates."),
    "additionalProperties": ("UNKNOWN_FIELD", "Discord ignores this property (the fake refuses it)."),
}


@dataclass(frozen=True)
class Refusal:
    """How Discord answers a request it refuses: the HTTP status and the JSON body."""

    status: int
    body: dict[str, Any]

    @property
    def code(self) -> int:
        return int(self.body.get("code", 0))

    def problems(self) -> list[str]:
        """The `errors` tree as lines, "embeds.0.title: Must be 256 or fewer in length. (BASE_TYPE_MAX_LENGTH)"."""
        if "errors" not in self.body:
            return [str(self.body.get("message"))]
        return [f"{where or '(body)'}: {e['message']} ({e['code']})" for where, e in flatten(self.body["errors"])]


def invalid_form_body(errors: dict[str, Any]) -> Refusal:
    return Refusal(400, {"code": 50035, "message": "Invalid Form Body", "errors": errors})


def flatten(tree: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, dict[str, str]]]:
    """(dotted path, error) for every `_errors` entry of a Discord error tree."""
    for key, value in tree.items():
        if key == "_errors":
            for error in value:
                yield prefix, error
        else:
            yield from flatten(value, f"{prefix}.{key}" if prefix else str(key))


def error_tree(located: list[tuple[list[str | int], str, str]]) -> dict[str, Any]:
    """Discord's nested tree from (path, code, message) triples."""
    tree: dict[str, Any] = {}
    for path, code, message in located:
        node = tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return tree


Located = tuple[list[str | int], str, str]  # where in the request (a path into it), Discord's code, message


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    segments: tuple[str | None, ...]  # a literal segment, or None for a {parameter}
    parameters: dict[str, tuple[str, dict[str, Any], jsonschema_rs.Validator]]  # name -> (path/query, schema, check)
    body: jsonschema_rs.Validator | None
    body_required: bool


class Description:
    """Discord's API description, ready to judge requests: `check(method, path, query, body)`."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _prepared(spec)
        self._registry = jsonschema_rs.Registry([(URI, self.spec)])
        self._operations: dict[tuple[str, int], list[Operation]] = {}
        self._paths: dict[int, list[tuple[str | None, ...]]] = {}
        for template, item in self.spec["paths"].items():
            segments = tuple(None if s.startswith("{") else s for s in template.strip("/").split("/"))
            self._paths.setdefault(len(segments), []).append(segments)
            for method in item:
                if method != "parameters":
                    self._operations.setdefault((method.upper(), len(segments)), []).append(
                        self._operation(method.upper(), template, segments)
                    )
        for found in self._operations.values():  # literal segments before parameters: `@me` over `{user_id}`
            found.sort(key=lambda op: sum(s is None for s in op.segments))

    def _validator(self, pointer: str) -> jsonschema_rs.Validator:
        return jsonschema_rs.Draft202012Validator(
            {"$ref": f"{URI}#{quote(pointer, safe='/~')}"}, registry=self._registry
        )

    def _operation(self, method: str, template: str, segments: tuple[str | None, ...]) -> Operation:
        item = self.spec["paths"][template]
        operation = item[method.lower()]
        at = "/paths/" + template.replace("~", "~0").replace("/", "~1")
        parameters = {}
        for where, declared in (("", item), (f"/{method.lower()}", operation)):  # the path's, then the operation's
            for i, parameter in enumerate(declared.get("parameters", [])):
                check = self._validator(f"{at}{where}/parameters/{i}/schema")
                parameters[parameter["name"]] = (parameter["in"], self._resolve(parameter["schema"]), check)
        request = operation.get("requestBody") or {}
        body = None
        if "application/json" in request.get("content", {}):
            body = self._validator(f"{at}/{method.lower()}/requestBody/content/application~1json/schema")
        return Operation(method, template, segments, parameters, body, bool(request.get("required")))

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in schema:
            return self._resolve(self.spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]])
        return schema

    def find(self, method: str, path: str) -> Operation | Refusal:
        """The operation a request is for, or Discord's 404 (no such route) / 405 (not with this method)."""
        parts = path.strip("/").split("/")
        for operation in self._operations.get((method, len(parts)), []):
            if all(s is None or s == p for s, p in zip(operation.segments, parts, strict=True)):
                return operation
        for known in self._paths.get(len(parts), []):
            if all(s is None or s == p for s, p in zip(known, parts, strict=True)):
                return Refusal(405, {"code": 0, "message": "405: Method Not Allowed"})
        return Refusal(404, {"code": 0, "message": "404: Not Found"})

    def check(self, method: str, path: str, query: dict[str, Any] | None = None, body: Any = None) -> Refusal | None:
        """None when Discord's description accepts the request; otherwise how Discord refuses it."""
        path = unquote(path)  # "%40original": "@original"
        operation = self.find(method, path)
        if isinstance(operation, Refusal):
            return operation
        located = list(self._parameter_errors(operation, path, query or {}))
        if body is None:
            if operation.body_required:
                located.append(([], "BASE_TYPE_REQUIRED", "This route needs a body."))
        elif operation.body is None:
            located.append(([], "BASE_TYPE_BAD_TYPE", "This route takes no body."))
        elif not operation.body.is_valid(body):  # the fast answer; the slow walk only for a refusal
            located.extend(_located(operation.body.iter_errors(body)))
        return invalid_form_body(error_tree(located)) if located else None

    def _parameter_errors(self, operation: Operation, path: str, query: dict[str, Any]) -> Iterator[Located]:
        names = re.findall(r"{(\w+)}", operation.template)
        values = [p for p, s in zip(path.strip("/").split("/"), operation.segments, strict=True) if s is None]
        given: list[tuple[str, str, Any]] = [("path", n, v) for n, v in zip(names, values, strict=True)]
        given += [("query", n, v) for n, v in query.items()]
        for where, name, raw in given:
            declared = operation.parameters.get(name)
            if declared is None or declared[0] != where:
                yield [name], "UNKNOWN_FIELD", f"{operation.template} takes no {where} parameter {name}."
                continue
            _, schema, check = declared
            for inner, code, message in _located(check.iter_errors(_coerced(raw, schema))):
                yield [name, *inner], code, message


def _coerced(raw: Any, schema: dict[str, Any]) -> Any:
    """A path or query value as the type its schema declares (they travel as text): Discord reads booleans
    from true/false/1/0 and integers from their digits."""
    raw = str(raw)  # discord.py gives some as numbers (wait=1), which aiohttp sends as their digits
    kinds = schema.get("type", "string")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "boolean" in kinds and raw.lower() in ("true", "false", "1", "0"):
        return raw.lower() in ("true", "1")
    if "integer" in kinds and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw


def _message(error: jsonschema_rs.ValidationError) -> tuple[str, str]:
    kind = error.kind.name
    code, text = CODES.get(kind, ("BASE_TYPE_INVALID", f"Invalid value ({kind})."))
    details = error.kind.as_dict() if kind not in ("oneOf", "anyOf") else {}
    if kind == "type":
        details["types"] = " or ".join(sorted(details["types"]))
    return code, text.format(**details)


def _located(errors: Any) -> Iterator[Located]:
    """Each error, followed down into the union branch that fits the value's shape: Discord names the
    innermost field (`components.0.components.1.label`), not the union around it."""
    for error in errors:
        path = list(error.instance_path)
        kind = error.kind.name
        if kind in ("oneOf", "anyOf"):
            fitting = [branch for branch in error.kind.context if not _wrong_shape(branch, path)]
            if len(fitting) == 1:
                yield from _located(fitting[0])
                continue
        details = error.kind.as_dict() if kind not in ("oneOf", "anyOf") else {}
        if kind == "required":
            yield [*path, details["property"]], *_message(error)
        elif kind == "additionalProperties":
            for name in details["unexpected"]:
                yield [*path, name], *_message(error)
        else:
            yield path, *_message(error)


def _wrong_shape(branch: list[Any], at: list[str | int]) -> bool:
    """A union's branch is for another shape when the value is not even of its type, or its `type`
    field (Discord's discriminator of components, callbacks and options) is not the branch's."""
    for error in branch:
        path = list(error.instance_path)
        if path == at and error.kind.name == "type":
            return True
        if path == [*at, "type"] and error.kind.name in ("enum", "const"):
            return True
    return False


def _prepared(spec: dict[str, Any]) -> dict[str, Any]:
    """The description as the fake reads it: objects closed to the properties they name, and TOLERATED
    applied."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    for name, extra in TOLERATED["properties"].items():
        schemas[name]["properties"].update(extra)
    snowflake = schemas[SNOWFLAKE]
    schemas[SNOWFLAKE] = {"anyOf": [snowflake, TOLERATED["snowflake_as_integer"]]}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node and "allOf" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(spec["paths"])
    visit(schemas)
    return spec


@cache
def description() -> Description:
    """Discord's description, read once per process (building it takes a moment; checking is fast)."""
    return Description(json.loads(SPEC.read_text()))
