"""Routing a question for models without tool calling: about the book (search first) or not (answer).

With a model, the model is asked for `{route, confidence, suggested_queries}` as JSON and the answer
is validated. AMBIGUOUS, or an answer that is not valid, is settled by the concept map: a question
naming a person, place or term the reader has met is about the book.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

from reader.app.text.background_words import BACKGROUND
from reader.domain.knowledge import ConceptEntry

BOOK = "BOOK"
NOT_BOOK = "NOT_BOOK"
AMBIGUOUS = "AMBIGUOUS"
ROUTES = (BOOK, NOT_BOOK, AMBIGUOUS)

MAX_QUERIES = 3
FUZZY_HIT = 90
"""rapidfuzz ratio from which a word of the question names a concept (typos: "Thorn", "Halloren")."""

ROUTER_PROMPT = """You route a reader's question about the book "{title}" (the reader is on p. {label}).
Decide whether answering it needs passages from the book:
- BOOK: it is about the book: its people, places, events, objects, words or chapters.
- NOT_BOOK: it does not need the book (general knowledge, a definition, small talk, a request unrelated to it).
- AMBIGUOUS: you cannot tell.
Reply with one JSON object and nothing else:
{{"route": "BOOK" | "NOT_BOOK" | "AMBIGUOUS", "confidence": a number from 0 to 1, \
"suggested_queries": [up to 3 short search queries (names, places, objects) for finding the passages; [] for NOT_BOOK]}}
Resolve pronouns from the conversation. Do not answer the question."""

_BOOK_CUES = frozenset(
    """book chapter chapters page pages story plot character characters author novel scene narrator
    happen happened happens happening ending beginning read reading recap summary summarise summarize
    protagonist villain who whom whose""".split()
)
_GENERAL = re.compile(
    r"\b(translate|translation|define|definition|meaning of|what does .{1,40} mean|how do you spell|"
    r"weather|recipe|capital of|convert|calculate|joke|poem|python|javascript|code|hello|hi there|thanks|"
    r"thank you|how are you)\b|\d+\s*[-+*/x]\s*\d+",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


@dataclass(frozen=True)
class RouteDecision:
    """Where a question goes, why, and what to search for when it is about the book."""

    route: str
    """BOOK or NOT_BOOK (AMBIGUOUS is always settled)."""
    confidence: float
    suggested_queries: tuple[str, ...] = ()
    source: str = "concept map"
    """"model" when the model's answer decided it, else "concept map"."""
    hits: tuple[str, ...] = ()
    """Names of concepts the question mentions."""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        """One line for verbose output, e.g. 'BOOK (model, 0.90): "Silas Crane boat"'."""
        queries = ", ".join(f'"{q}"' for q in self.suggested_queries)
        text = f"{self.route} ({self.source}, {self.confidence:.2f})" + (f": {queries}" if queries else "")
        return text + "".join(f"; {note}" for note in self.notes)


class RouteAnswerError(ValueError):
    """The model's routing answer is not the JSON object asked for."""


def parse_route(text: str) -> tuple[str, float, tuple[str, ...]]:
    """The (route, confidence, suggested_queries) of the model's answer.

    Raises:
        RouteAnswerError: with what is wrong, when the answer is not a valid routing object.
    """
    body = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1)
    try:
        value: Any = json.loads(body)
    except json.JSONDecodeError as error:
        raise RouteAnswerError(f"not valid JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise RouteAnswerError(f"a JSON {type(value).__name__}, not an object")
    route = value.get("route")
    if not isinstance(route, str) or route.strip().upper() not in ROUTES:
        raise RouteAnswerError(f"route {route!r} is not one of {', '.join(ROUTES)}")
    confidence = value.get("confidence", 0.5)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        raise RouteAnswerError(f"confidence {confidence!r} is not a number from 0 to 1")
    queries = value.get("suggested_queries", [])
    if not isinstance(queries, list) or not all(isinstance(q, str) for q in queries):
        raise RouteAnswerError("suggested_queries is not a list of strings")
    cleaned = tuple(q.strip()[:200] for q in queries if q.strip())[:MAX_QUERIES]
    return route.strip().upper(), float(confidence), cleaned


NAME_TITLES = frozenset("mr mrs ms miss dr doctor sir lady lord rev reverend captain the of".split())
"""Words of a name that do not name anyone by themselves."""


def name_forms(name: str) -> tuple[str, set[str]]:
    """A concept name as the question's words would spell it ("Mr. Thorne" -> "mr thorne"), and the
    words of a person's name that name them alone ("Gideon Thorne" -> {"gideon", "thorne"})."""
    words = [w.lower() for w in _WORD.findall(name)]
    if words and words[0] == "the":
        words = words[1:]
    parts = {w for w in words if len(w) >= 4 and w not in NAME_TITLES and w not in BACKGROUND}
    return " ".join(words), parts if len(words) > 1 else set()


def concept_hits(question: str, entries: Sequence[ConceptEntry]) -> list[ConceptEntry]:
    """The concepts (met so far) that the question names, exactly or with a small typo.

    A person is named by their whole name, an alias, or one distinctive word of either ("Thorne" for
    "Gideon Thorne"); punctuation in names is ignored ("mr thorne" is "Mr. Thorne").
    """
    words = [w.lower().removesuffix("'s").removesuffix("’s") for w in _WORD.findall(question)]
    phrases = {" ".join(words[i : i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)}
    long_words = [w for w in words if len(w) >= 4]
    hits: list[ConceptEntry] = []
    for entry in entries:
        for name in (entry.name, *entry.aliases):
            known, parts = name_forms(name)
            singles = ({known} if known and " " not in known else set()) | (
                parts if entry.kind == "person" else set()
            )
            if known in phrases or any(
                len(single) >= 4 and fuzz.ratio(single, word) >= FUZZY_HIT
                for single in singles
                for word in long_words
            ):
                hits.append(entry)
                break
    return hits


def concept_route(question: str, entries: Sequence[ConceptEntry], title: str = "") -> RouteDecision:
    """The decision without a model: concept-map hits or book words mean BOOK; clearly general means NOT_BOOK."""
    hits = concept_hits(question, entries)
    names = tuple(e.name for e in hits)
    if hits:
        return RouteDecision(BOOK, 0.9, (question,), hits=names)
    words = {w.lower() for w in _WORD.findall(question)}
    title_words = {w.lower() for w in _WORD.findall(title) if len(w) > 3}
    if words & (_BOOK_CUES | title_words):
        return RouteDecision(BOOK, 0.7, (question,))
    if _GENERAL.search(question):
        return RouteDecision(NOT_BOOK, 0.7)
    return RouteDecision(BOOK, 0.5, (question,), notes=("unclear: searching the book to be safe",))


def decide(
    question: str, model_answer: str | None, entries: Sequence[ConceptEntry], title: str = ""
) -> RouteDecision:
    """The route from the model's answer (None: no model answer), settled by the concept map when needed."""
    if model_answer is None:
        return concept_route(question, entries, title)
    try:
        route, confidence, queries = parse_route(model_answer)
    except RouteAnswerError as error:
        fallback = concept_route(question, entries, title)
        note = f"the model's routing answer was {error}; decided by the concept map"
        return RouteDecision(
            fallback.route,
            fallback.confidence,
            fallback.suggested_queries,
            "concept map",
            fallback.hits,
            (note, *fallback.notes),
        )
    hits = tuple(e.name for e in concept_hits(question, entries))
    if route == AMBIGUOUS:
        if hits:
            return RouteDecision(
                BOOK,
                confidence,
                queries or (question,),
                "concept map",
                hits,
                ("the model was unsure; the question names " + ", ".join(hits),),
            )
        fallback = concept_route(question, entries, title)
        return RouteDecision(
            fallback.route,
            fallback.confidence,
            queries or fallback.suggested_queries if fallback.route == BOOK else (),
            "concept map",
            hits,
            ("the model was unsure and the question names nothing met in the book", *fallback.notes),
        )
    if route == BOOK:
        return RouteDecision(BOOK, confidence, queries or (question,), "model", hits)
    return RouteDecision(NOT_BOOK, confidence, (), "model", hits)
