"""The page-enrichment JSON schema, and a small strict validator for the subset of JSON Schema it uses.

A reply is valid only if it is exactly one JSON object (surrounding whitespace aside) matching the
schema: no code fences are stripped, no trailing text is ignored, no missing field is filled in.
"""

from __future__ import annotations

import json
from typing import Any

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

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


class EnrichmentInvalid(ValueError):
    """The model's reply is not one JSON object of the enrichment schema; str() says where and why."""


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    for name in ("object", "array", "string", "integer", "number"):
        if isinstance(value, _TYPES[name]):
            return name
    return type(value).__name__


def validate(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every way `value` breaks `schema` (type, enum, required, additionalProperties, properties, items,
    minLength, maxLength, minimum, maximum, maxItems), as "path: problem" lines; empty when it fits."""
    wanted = schema.get("type")
    if wanted is not None:
        is_bool = isinstance(value, bool)
        if not isinstance(value, _TYPES[wanted]) or (is_bool and wanted != "boolean"):
            return [f"{path}: expected {wanted}, got {_type_name(value)}"]
    problems: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(json.dumps(choice) for choice in schema["enum"])
        problems.append(f"{path}: {json.dumps(value)} is not one of {choices}")
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0):
            problems.append(f"{path}: must not be empty")
        if len(value) > schema.get("maxLength", len(value)):
            problems.append(f"{path}: longer than {schema['maxLength']} characters")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            problems.append(
                f"{path}: {value} is not between {schema.get('minimum')} and {schema.get('maximum')}"
            )
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            problems.append(f"{path}: more than {schema['maxItems']} items")
        items = schema.get("items")
        if items is not None:
            for index, item in enumerate(value):
                problems += validate(item, items, f"{path}[{index}]")
    if isinstance(value, dict):
        properties: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{path}: missing {json.dumps(key)}")
        if schema.get("additionalProperties") is False:
            for key in value:
                if key not in properties:
                    problems.append(f"{path}: unexpected key {json.dumps(key)}")
        for key, sub in properties.items():
            if key in value:
                problems += validate(value[key], sub, f"{path}.{key}")
    return problems


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
