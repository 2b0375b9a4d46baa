"""The offline summary: a section's most central sentences (centroid TF-IDF), in reading order, cited."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from reader.app.text.sentences import split_sentences

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours out over own same she should so some
    such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours said says say one two three like back well still yet upon shall may might must also even ever
    much many away again only own quite rather""".split()
)

_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]+")
MIN_WORDS = 6
MAX_WORDS = 50
REDUNDANT = 0.5
"""Cosine similarity above which a sentence repeats one already chosen."""


CHARS_PER_SENTENCE = 3_000
"""A chapter's summary gets one sentence for about this much of its text (a page and a half)."""
MAX_SENTENCES = 8


def sentence_count(chars: int) -> int:
    """How many sentences summarise a section of `chars` characters: in proportion to its length."""
    return max(1, min(MAX_SENTENCES, round(chars / CHARS_PER_SENTENCE)))


def _vector(words: Sequence[str], idf: dict[str, float]) -> dict[str, float]:
    counts = Counter(words)
    return {w: c * idf.get(w, 0.0) for w, c in counts.items()}


def _norm(vector: dict[str, float]) -> float:
    return math.sqrt(sum(v * v for v in vector.values()))


def _cosine(a: dict[str, float], b: dict[str, float], norm_a: float, norm_b: float) -> float:
    if len(a) > len(b):
        a, b = b, a
    dot = sum(v * b.get(k, 0.0) for k, v in a.items())
    return dot / (norm_a * norm_b) if norm_a and norm_b else 0.0


def central_sentences(pages: Sequence[tuple[int, str]], limit: int) -> list[tuple[int, str]]:
    """Up to `limit` (page, sentence) pairs nearest the centroid of the text, in reading order.

    Sentences of quoted speech count for less, very short or long ones are skipped, and a sentence
    too like one already chosen is passed over.
    """
    sentences: list[tuple[int, str, list[str]]] = []
    for page, text in pages:
        for sentence in split_sentences(text):
            words = [w.lower() for w in _WORD.findall(sentence)]
            content = [w for w in words if w not in STOPWORDS]
            if MIN_WORDS <= len(words) <= MAX_WORDS and len(content) >= 3:
                sentences.append((page, sentence, content))
    if not sentences:
        return []
    frequency: Counter[str] = Counter()
    for _, _, content in sentences:
        frequency.update(set(content))
    total = len(sentences)
    idf = {w: math.log(1 + total / df) for w, df in frequency.items()}
    vectors = [_vector(content, idf) for _, _, content in sentences]
    norms = [_norm(vector) for vector in vectors]
    centroid: dict[str, float] = {}
    for vector in vectors:
        for word, weight in vector.items():
            centroid[word] = centroid.get(word, 0.0) + weight
    centroid_norm = _norm(centroid)
    scored = []
    for index, ((_, sentence, _), vector) in enumerate(zip(sentences, vectors, strict=True)):
        score = _cosine(vector, centroid, norms[index], centroid_norm)
        if sentence[:1] in "\"“‘'":
            score *= 0.6
        scored.append((score, index))
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    chosen: list[int] = []
    for _, index in scored:
        if len(chosen) >= limit:
            break
        if any(
            _cosine(vectors[index], vectors[other], norms[index], norms[other]) > REDUNDANT for other in chosen
        ):
            continue
        chosen.append(index)
    return [(sentences[i][0], sentences[i][1]) for i in sorted(chosen)]
