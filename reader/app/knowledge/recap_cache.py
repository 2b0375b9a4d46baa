"""A whole recap kept as one JSON text in the summary cache, so a repeated recap is one lookup."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import Any

from reader.domain.knowledge import PartSummary, Recap, SectionSummary


def recap_to_json(recap: Recap) -> str:
    """The recap (without its notes) as JSON."""
    data = asdict(replace(recap, notes=(), cached=False))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def recap_from_json(text: str) -> Recap | None:
    """The recap `recap_to_json` wrote, marked cached; None when the text is not one."""
    try:
        data: dict[str, Any] = json.loads(text)
        sections = tuple(
            SectionSummary(**(s | {"parts": tuple(s["parts"]), "cached": True})) for s in data["sections"]
        )
        parts = tuple(PartSummary(**(p | {"cached": True})) for p in data["parts"])
        return Recap(
            data["up_to_page"],
            data["text"],
            sections,
            data["model"],
            (),
            cached=True,
            parts=parts,
            overview=data["overview"],
        )
    except (ValueError, KeyError, TypeError):
        return None
