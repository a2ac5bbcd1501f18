"""Discord's published OpenAPI spec as the emulator's contract for every request body.

The hand-written rules in `validation*.py` knew only what someone remembered; twice the
bot shipped a body real Discord refuses. Here every body the bot sends is checked against
the request schema of its operation in Discord's own spec (tests/data/discord-openapi,
origin in its ORIGIN.md) with jsonschema (OpenAPI 3.1 = JSON Schema 2020-12), and a
refusal comes back in Discord's shape: 400, code 50035, the nested `errors` tree.

Loaded once per process (the suite starts many emulators) and one compiled validator per
operation. Differences from the spec that Discord itself has (ORIGIN.md):
- snowflakes: discord.py sends some ids as JSON integers and Discord accepts them, so
  `SnowflakeType` is loaded as "a digit string or a non-negative 64-bit integer";
- unknown fields are no error: only `InnerErrors`, a response schema, says
  `additionalProperties: false`, and no request schema does;
- limits the spec does not carry, or states looser than Discord applies to bots (content
  2000, components v2, the emoji set...), stay hand-written in `validation*.py`.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from .form_errors import FormErrors
from .models import JSON

SPEC_FILE = Path(__file__).resolve().parents[2] / "data" / "discord-openapi" / "openapi.json"
BASE_URI = "urn:discord-openapi"
SNOWFLAKE_FORMAT = "snowflake"
HTTP_METHODS = ("get", "put", "post", "patch", "delete")
UNIONS = ("anyOf", "oneOf")
DISCRIMINATOR = "type"

Finding = tuple[tuple[str | int, ...], str, str]
"""(path in the body, Discord's error code, its message)."""


def template_key(template: str) -> str:
    """A path template with its parameter names dropped: `/channels/{}/messages`."""
    return re.sub(r"\{[^}]+\}", "{}", template)


@dataclass(frozen=True)
class Operation:
    """One operation of the spec and the JSON schema of its request body (if any)."""

    method: str
    path: str
    operation_id: str
    body_schema: JSON | None


@dataclass
class DiscordSpec:
    """The loaded spec: operations by (method, template) and their compiled validators."""

    document: JSON
    operations: dict[tuple[str, str], Operation] = field(init=False)
    _registry: Registry[Any] = field(init=False)
    _compiler: _Compiler = field(init=False)
    _validators: dict[tuple[str, str], Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._registry = Registry().with_resource(
            BASE_URI, DRAFT202012.create_resource(self.document)
        )
        self._compiler = _Compiler(self.document["components"]["schemas"])
        self.operations = {}
        for path, item in self.document["paths"].items():
            for method in HTTP_METHODS:
                op = item.get(method)
                if op is None:
                    continue
                content = (op.get("requestBody") or {}).get("content") or {}
                schema = (content.get("application/json") or {}).get("schema")
                self.operations[(method.upper(), template_key(path))] = Operation(
                    method.upper(), path, op.get("operationId", ""), schema
                )

    def operation(self, method: str, template: str) -> Operation | None:
        """The spec's operation for an emulator route, None when the spec has none."""
        return self.operations.get((method.upper(), template_key(template)))

    def validator(self, op: Operation) -> Any:
        """The compiled validator of an operation's body (built once, then cached)."""
        if op.body_schema is None:
            return None
        key = (op.method, op.path)
        found = self._validators.get(key)
        if found is None:
            schema = self._compiler.node(op.body_schema)
            found = SpecValidator(schema, registry=self._registry)
            self._validators[key] = found
        return found

    def findings(self, method: str, template: str, body: Any) -> list[Finding]:
        """What Discord would refuse in `body` sent to this route ([] when it conforms).

        KeyError when the spec has no such operation: a route the emulator serves must
        be one Discord has (the emulator's tests list them all).
        """
        op = self.operation(method, template)
        if op is None:
            raise KeyError(f"no operation {method} {template} in Discord's spec")
        validator = self.validator(op)
        if validator is None or validator.is_valid(body):
            return []
        return _choices_first(
            unique(f for error in validator.iter_errors(body) for f in describe(error))
        )

    def check(self, method: str, template: str, body: Any) -> None:
        """Raise Discord's 400 50035 when `body` breaks the operation's schema."""
        found = self.findings(method, template, body)
        if found:
            errs = FormErrors()
            for path, code, message in found:
                errs.add(list(path), code, message)
            errs.raise_if_any()


@functools.cache
def discord_spec() -> DiscordSpec:
    """The spec, read and adapted once per process."""
    document = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    return DiscordSpec(adapt(document))


def adapt(document: JSON) -> JSON:
    """Absolute `$ref`s (any sub-schema can root a validator) and integer snowflakes."""
    schemas = document["components"]["schemas"]
    pattern = schemas["SnowflakeType"]["pattern"]
    schemas["SnowflakeType"] = {
        # discord.py sends some ids as JSON integers; Discord takes them (ORIGIN.md).
        "type": ["string", "integer"],
        "pattern": pattern,
        "minimum": 0,
        "maximum": (1 << 64) - 1,
        "format": SNOWFLAKE_FORMAT,
    }
    _absolute_refs(document)
    return document


def _absolute_refs(node: Any) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            node["$ref"] = BASE_URI + ref
        for value in node.values():
            _absolute_refs(value)
    elif isinstance(node, list):
        for value in node:
            _absolute_refs(value)


def unique(findings: Iterable[Finding]) -> list[Finding]:
    """Drop repeats (one `required` error per missing name names them all)."""
    return list(dict.fromkeys(findings))


def _choices_first(findings: list[Finding]) -> list[Finding]:
    """A field with a set of values answers "must be one of", whatever type was sent."""
    choice_paths = {path for path, code, _ in findings if code == "BASE_TYPE_CHOICES"}
    return [f for f in findings if f[0] not in choice_paths or f[1] not in TYPE_FINDING_CODES]


# ----- compiling schemas for speed (same verdicts, fewer steps) --------------------------

SCHEMA_REF = BASE_URI + "#/components/schemas/"
TAGGED = "x-emulator-tagged-union"
"""Keyword of a union whose branches differ by their `type` value: only that one is tried."""


class _Compiler:
    """Inline `$ref`s and turn unions into cheaper equivalents, once per schema.

    A typical message body took ~4 ms through the spec as written (every union tries all
    its branches, every `type` field checks a 20-way union of constants). The compiled
    schema gives the same verdicts: a union of constants is an `enum`; a union of objects
    told apart by their `type` value tries only the branch with that value; a `$ref` is
    the schema it names (left as a `$ref` where the schemas nest into themselves).
    """

    def __init__(self, schemas: JSON) -> None:
        self.schemas = schemas
        self.done: dict[str, JSON] = {}
        self.active: set[str] = set()

    def node(self, schema: Any) -> Any:
        if isinstance(schema, list):
            return [self.node(s) for s in schema]
        if not isinstance(schema, dict):
            return schema
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMA_REF):
            target = self._named(ref.removeprefix(SCHEMA_REF))
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            return target if not rest else {**self._plain(rest), "allOf": [target]}
        return self._plain(schema)

    def _named(self, name: str) -> JSON:
        if name in self.done:
            return self.done[name]
        if name in self.active:
            return {"$ref": SCHEMA_REF + name}
        self.active.add(name)
        compiled: JSON = self.node(self.schemas[name])
        self.active.discard(name)
        self.done[name] = compiled
        return compiled

    def _plain(self, schema: JSON) -> JSON:
        out: JSON = {}
        for key, value in schema.items():
            if key in ("properties", "patternProperties", "$defs"):
                out[key] = {k: self.node(v) for k, v in value.items()}
            elif key in ("const", "enum", "required", "type", "x-discord-union"):
                out[key] = value
            else:
                out[key] = self.node(value)
        for kind in UNIONS:
            if kind in out:
                _simplify_union(out, kind)
        return out


def _simplify_union(schema: JSON, kind: str) -> None:
    branches: list[Any] = schema[kind]
    if all(isinstance(b, dict) and "const" in b for b in branches):
        values = [b["const"] for b in branches]
        if len({json.dumps(v) for v in values}) == len(values):
            del schema[kind]
            schema["enum"] = values
        return
    mapping: dict[int | str, JSON] = {}
    for branch in branches:
        tags = _tags(branch)
        if not tags or any(t in mapping for t in tags):
            return
        mapping.update(dict.fromkeys(tags, branch))
    del schema[kind]
    schema[TAGGED] = mapping


def _tags(branch: Any) -> list[int | str]:
    """The `type` values a branch accepts, when it requires `type` and lists them."""
    if not isinstance(branch, dict) or DISCRIMINATOR not in branch.get("required", ()):
        return []
    tag = (branch.get("properties") or {}).get(DISCRIMINATOR)
    if not isinstance(tag, dict):
        return []
    values = [tag["const"]] if "const" in tag else list(tag.get("enum") or [])
    return [v for v in values if type(v) in (int, str)]


def _tagged_union(
    validator: Any, mapping: dict[int | str, JSON], instance: Any, schema: JSON
) -> Iterator[ValidationError]:
    """jsonschema keyword: validate against the one branch named by `type`."""
    if not validator.is_type(instance, "object"):
        yield ValidationError("not an object")
        return
    tag = instance.get(DISCRIMINATOR)
    branch = mapping.get(tag) if type(tag) in (int, str) else None
    if branch is None:
        yield ValidationError(f"no branch for type {tag!r}")
        return
    yield from validator.descend(instance, branch)


SpecValidator = validators.extend(Draft202012Validator, {TAGGED: _tagged_union})


# ----- jsonschema errors -> Discord's codes ------------------------------------------------


def describe(error: ValidationError) -> Iterator[Finding]:
    """Discord's findings for one jsonschema error, descending into unions."""
    if error.validator in UNIONS and error.context:
        yield from _describe_union(error)
        return
    yield from _leaf(error)


def _path(error: ValidationError, *more: str | int) -> tuple[str | int, ...]:
    return (*error.absolute_path, *more)


def _describe_union(error: ValidationError) -> Iterator[Finding]:
    """The branch the body meant (its `type` matches) rather than the union itself."""
    branches: dict[int, list[ValidationError]] = defaultdict(list)
    for sub in error.context or ():
        branches[int(sub.relative_schema_path[0])].append(sub)
    alive = [errs for errs in branches.values() if not _ruled_out(errs)]
    if not alive:
        yield _no_branch(error, branches)
        return
    # Of the branches of the right shape, the one the body comes closest to.
    described = [unique(f for sub in errs for f in describe(sub)) for errs in alive]
    yield from min(described, key=len)


def _ruled_out(errors: list[ValidationError]) -> bool:
    """A branch of another shape: wrong JSON type, or another `type` discriminator."""
    for sub in errors:
        where = list(sub.relative_path)
        if not where and sub.validator == "type":
            return True
        if where == [DISCRIMINATOR] and sub.validator in ("type", "const", "enum"):
            return True
    return False


def _no_branch(error: ValidationError, branches: dict[int, list[ValidationError]]) -> Finding:
    """Every branch is of another shape: say which types or values would do."""
    subs = [sub for errs in branches.values() for sub in errs]
    tags = [s for s in subs if list(s.relative_path) == [DISCRIMINATOR]]
    if tags and isinstance(error.instance, dict):
        values = sorted({v for s in tags for v in _allowed(s)}, key=str)
        return (
            _path(error, DISCRIMINATOR),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {_choices(values)}.',
        )
    own = [s for s in subs if not list(s.relative_path)]
    if own and all(s.validator in ("const", "enum") for s in own):
        values = [v for s in own for v in _allowed(s)]
        return (_path(error), "BASE_TYPE_CHOICES", f"Value must be one of {_choices(values)}.")
    kinds: list[str] = []
    formats: set[str] = set()
    for sub in own:
        if sub.validator == "type":
            value = sub.validator_value
            kinds.extend([value] if isinstance(value, str) else value)
            formats.add(str(sub.schema.get("format")))
    return _type_finding(_path(error), error.instance, kinds, formats)


def _allowed(error: ValidationError) -> list[Any]:
    if error.validator == "const":
        return [error.validator_value]
    if error.validator == "enum":
        return list(error.validator_value)
    return []


def _choices(values: Iterable[Any]) -> str:
    return "(" + ", ".join(json.dumps(v) for v in values) + ")"


TYPE_CODES: dict[str, tuple[str, str]] = {
    "integer": ("NUMBER_TYPE_COERCE", 'Value "{value}" is not int.'),
    "number": ("NUMBER_TYPE_COERCE", 'Value "{value}" is not a valid number.'),
    "string": ("STRING_TYPE_CONVERT", "Could not interpret value as string."),
    "boolean": ("BOOLEAN_TYPE_CONVERT", "Must be either true or false."),
    "array": ("LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"),
    "object": ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"),
}


TYPE_FINDING_CODES = frozenset(
    {"BASE_TYPE_REQUIRED", "BASE_TYPE_BAD_TYPE"} | {code for code, _ in TYPE_CODES.values()}
)


def _type_finding(
    path: tuple[str | int, ...], instance: Any, kinds: list[str], formats: set[str]
) -> Finding:
    if instance is None:
        return (path, "BASE_TYPE_REQUIRED", "This field is required")
    if SNOWFLAKE_FORMAT in formats:
        return (path, "NUMBER_TYPE_COERCE", f'Value "{instance}" is not snowflake.')
    wanted = [k for k in kinds if k != "null"] or ["object"]
    code, message = TYPE_CODES.get(wanted[0], ("BASE_TYPE_BAD_TYPE", "Bad type"))
    return (path, code, message.format(value=instance))


def _leaf(error: ValidationError) -> Iterator[Finding]:
    kind, value, schema, instance = error.validator, error.validator_value, error.schema, None
    instance = error.instance
    path = _path(error)
    if kind == "required":
        for name in value:
            if isinstance(instance, dict) and name not in instance:
                yield (_path(error, name), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if kind == "type":
        kinds = [value] if isinstance(value, str) else list(value)
        yield _type_finding(path, instance, kinds, {str(schema.get("format"))})
        return
    if kind in ("maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"):
        number = "int" if isinstance(instance, int) else "float"
        if kind.endswith("aximum"):
            yield (
                path,
                "NUMBER_TYPE_MAX",
                f"{number} value should be less than or equal to {value}.",
            )
        else:
            yield (
                path,
                "NUMBER_TYPE_MIN",
                f"{number} value should be greater than or equal to {value}.",
            )
        return
    if kind in ("maxLength", "minLength", "maxItems", "minItems", "maxProperties"):
        yield _length(path, instance, schema)
        return
    if kind in ("enum", "const"):
        yield (path, "BASE_TYPE_CHOICES", f"Value must be one of {_choices(_allowed(error))}.")
        return
    if kind == "pattern":
        if schema.get("format") == SNOWFLAKE_FORMAT:
            yield (path, "NUMBER_TYPE_COERCE", f'Value "{instance}" is not snowflake.')
        else:
            yield (path, "STRING_TYPE_REGEX", "String value did not match validation regex.")
        return
    if kind == "uniqueItems":
        # Unconfirmed code.
        yield (path, "LIST_ITEM_VALUE_DUPLICATE", "Duplicate values are not allowed.")
        return
    if kind == TAGGED:
        yield _untagged(path, instance, value)
        return
    if kind in UNIONS:
        # Valid under more than one branch of a oneOf: the spec's union overlaps here.
        yield (path, "UNION_TYPE_CHOICES", f"Value matches more than one {kind} branch.")
        return
    # Unconfirmed code: a keyword the spec does not use today.
    yield (path, "BASE_TYPE_INVALID", error.message)


def _untagged(path: tuple[str | int, ...], instance: Any, mapping: JSON) -> Finding:
    if not isinstance(instance, dict):
        return _type_finding(path, instance, ["object"], set())
    if DISCRIMINATOR not in instance:
        return ((*path, DISCRIMINATOR), "BASE_TYPE_REQUIRED", "This field is required")
    values = sorted(mapping, key=str)
    return (
        (*path, DISCRIMINATOR),
        "UNION_TYPE_CHOICES",
        f'Value of field "type" must be one of {_choices(values)}.',
    )


def _length(path: tuple[str | int, ...], instance: Any, schema: JSON) -> Finding:
    """Discord's wording: "between" when the field has both bounds, else at most/at least."""
    if isinstance(instance, dict):
        high = schema.get("maxProperties")
        return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
    if isinstance(instance, str):
        low, high = schema.get("minLength"), schema.get("maxLength")
    else:
        low, high = schema.get("minItems"), schema.get("maxItems")
    if low and high is not None:
        return (path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    if high is not None and len(instance) > high:
        return (path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
    return (path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")
