"""A user's query as search terms: words only (no FTS5 operators), common words dropped."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+", re.UNICODE)

MAX_QUERY_CHARS = 2000
"""Only the start of a longer query is searched (a pasted page still works, and stays fast)."""

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not of off on once only or other our ours ourselves out over own
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves s t d ll m re ve""".split()
)


def query_terms(query: str) -> list[str]:
    """The query's distinct words, lowercased, in order; common words go unless nothing else is left."""
    words = [w.lower() for w in _WORD.findall(query[:MAX_QUERY_CHARS]) if w.strip("_")]
    distinct = list(dict.fromkeys(words))
    content = [w for w in distinct if w not in STOPWORDS]
    return content or distinct


def replace_word(query: str, word: str, replacement: str) -> str:
    """The query with the first whole-word, case-insensitive occurrence of `word` replaced."""
    pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    return pattern.sub(lambda _: replacement, query, count=1)
