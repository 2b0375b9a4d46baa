"""The page-enrichment JSON schema, checked with jsonschema, its problems said in one line each.

A reply is valid only if it is exactly one JSON object (surrounding whitespace aside) matching the
schema: no code fences are stripped, no trailing text is ignored, no missing field is filled in.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from reader.domain.enrichment import Enrichment, Visual

VISUAL_TYPES = ("figure", "diagram", "chart", "table", "map", "photo", "illustration", "equation", "other")
RELEVANCE = ("essential", "supporting", "decorative")

ENRICHMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["summary", "sections", "visuals", "visual_importance", "full_text"],
    "properties": {
        "summary": {"type": "string", "minLength": 1, "maxLength": 2000},
        "sections": {"type": "array", "maxItems": 30, "items": {"type": "string", "maxLength": 300}},
        "visuals": {
            "type": "array",
            "maxItems": 30,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["type", "description", "relevance"],
                "properties": {
                    "type": {"type": "string", "enum": list(VISUAL_TYPES)},
                    "description": {"type": "string", "minLength": 1, "maxLength": 1000},
                    "relevance": {"type": "string", "enum": list(RELEVANCE)},
                },
            },
        },
        "visual_importance": {"type": "integer", "minimum": 1, "maximum": 5},
        "full_text": {"type": "string", "maxLength": 30000},
    },
}


class EnrichmentInvalid(ValueError):
    """The model's reply is not one JSON object of the enrichment schema; str() says where and why."""


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    for name, kinds in (("object", dict), ("array", list), ("string", str), ("integer", int)):
        if isinstance(value, kinds):
            return name
    return "number" if isinstance(value, float) else type(value).__name__


def _required(_: Any, required: list[str], instance: Any, __: Any) -> Iterator[ValidationError]:
    if isinstance(instance, dict):
        for key in required:
            if key not in instance:
                yield ValidationError(f"missing {json.dumps(key)}")


def _no_other_keys(
    checker: Any, allowed: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if allowed is False and isinstance(instance, dict):
        for key in instance:
            if key not in schema.get("properties", {}):
                yield ValidationError(f"unexpected key {json.dumps(key)}")
    elif allowed is not False:
        yield from Draft202012Validator.VALIDATORS["additionalProperties"](checker, allowed, instance, schema)


def _min_length(_: Any, least: int, instance: Any, __: Any) -> Iterator[ValidationError]:
    if isinstance(instance, str) and len(instance.strip()) < least:  # blank counts as empty
        yield ValidationError("must not be empty")


_Validator = validators.extend(
    Draft202012Validator,
    {"required": _required, "additionalProperties": _no_other_keys, "minLength": _min_length},
    # an integer is an int: neither 3.0 (JSON Schema's integer) nor true
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    ),
)


def _path(error: ValidationError) -> str:
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)


def _problem(error: ValidationError) -> str:
    """jsonschema's error in reader's words."""
    value, wanted, schema = error.instance, error.validator_value, error.schema
    if error.validator == "type":
        return f"expected {wanted}, got {_type_name(value)}"
    if error.validator == "enum":
        return f"{json.dumps(value)} is not one of {', '.join(json.dumps(choice) for choice in wanted)}"
    if error.validator == "maxLength":
        return f"longer than {wanted} characters"
    if error.validator in ("minimum", "maximum"):
        return f"{value} is not between {schema.get('minimum')} and {schema.get('maximum')}"
    if error.validator == "maxItems":
        return f"more than {wanted} items"
    return error.message  # required, additionalProperties and minLength already say it our way


def _required_first(schema: Any) -> Any:
    """`schema` with each object's "required" first, so missing keys are reported before unexpected ones."""
    if isinstance(schema, list):
        return [_required_first(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    items = sorted(schema.items(), key=lambda item: item[0] != "required")
    return {key: _required_first(sub) for key, sub in items}


def validate(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every way `value` breaks `schema` (jsonschema, Draft 2020-12), as "path: problem" lines; empty
    when it fits. Blank strings fail minLength and an integer must be a JSON integer without a
    fraction; everything else is standard JSON Schema."""
    errors = list(_Validator(_required_first(schema)).iter_errors(value))
    mistyped = {tuple(error.absolute_path) for error in errors if error.validator == "type"}
    # a value of the wrong type has that one problem (jsonschema would also check its enum)
    errors = [e for e in errors if e.validator == "type" or tuple(e.absolute_path) not in mistyped]
    return [f"{path}{_path(error)[1:]}: {_problem(error)}" for error in errors]


def parse_enrichment(raw: str) -> Enrichment:
    """The enrichment in a model's reply.

    Raises:
        EnrichmentInvalid: the reply is not a single JSON object, or it does not fit the schema.
    """
    text = raw.strip()
    if not text:
        raise EnrichmentInvalid("the reply is empty")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise EnrichmentInvalid(
            f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ) from None
    problems = validate(value, ENRICHMENT_SCHEMA)
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise EnrichmentInvalid(f"does not fit the schema: {shown}")
    return Enrichment(
        summary=value["summary"].strip(),
        sections=tuple(s.strip() for s in value["sections"] if s.strip()),
        visuals=tuple(Visual(v["type"], v["description"].strip(), v["relevance"]) for v in value["visuals"]),
        visual_importance=value["visual_importance"],
        full_text=value["full_text"].strip(),
    )
