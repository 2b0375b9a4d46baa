"""Reading the model's answer about one chapter's names: strict JSON, and only names it was sent."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from reader.app.knowledge.refine_request import Candidate
from reader.domain.concept_refinement import REFINED_KINDS, name_key
from reader.domain.errors import ReaderError

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


class RefinementInvalid(ReaderError):
    """The model's answer is not the JSON object asked for; str(error) says how, in one line."""


def parse_refinement(
    raw: str, candidates: Sequence[Candidate]
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]:
    """The groups (two or more concepts each) and kinds of the answer, in the names as they were sent.

    A name the model was not sent is dropped: the model can never add a name.

    Raises:
        RefinementInvalid: the answer is not {"same": [[str, ...], ...], "kinds": {str: kind}}.
    """
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RefinementInvalid(f"not JSON ({error.msg} at character {error.pos})") from None
    if not isinstance(data, dict):
        raise RefinementInvalid("not a JSON object")
    if set(data) != {"same", "kinds"}:
        raise RefinementInvalid('the object must have exactly the keys "same" and "kinds"')
    same, kinds = data["same"], data["kinds"]
    if not isinstance(same, list) or not all(
        isinstance(group, list) and all(isinstance(name, str) for name in group) for group in same
    ):
        raise RefinementInvalid('"same" must be a list of lists of names')
    if not isinstance(kinds, dict) or not all(isinstance(kind, str) for kind in kinds.values()):
        raise RefinementInvalid('"kinds" must map names to kinds')
    wrong = sorted({kind for kind in kinds.values() if kind not in REFINED_KINDS})
    if wrong:
        raise RefinementInvalid(f'unknown kind "{wrong[0]}" (expected one of {", ".join(REFINED_KINDS)})')

    sent = {name_key(name): (name, index) for index, c in enumerate(candidates) for name in c.names}
    groups = []
    for group in same:
        known = [sent[name_key(name)] for name in group if name_key(name) in sent]
        concepts = {index for _, index in known}
        if len(concepts) >= 2:
            groups.append(tuple(dict.fromkeys(name for name, _ in known)))
    typed = tuple(
        (sent[name_key(name)][0], kind) for name, kind in kinds.items() if name_key(name) in sent
    )
    return tuple(groups), typed
