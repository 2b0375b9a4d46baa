"""Offline recap quality: do a chapter's chosen sentences tell what readers are asked about?

The extractive summary (reader/app/knowledge/extractive_summary.py) picks a chapter's most central
sentences, more of them for a longer chapter. With no reference summaries at hand, FairytaleQA serves as
a proxy: each story is a chapter, and education experts wrote questions on what matters in it with
their answers. A question counts as covered when most of its answer's content words (at least 60%,
stemmed lightly) are in one chosen sentence. Explicit questions only (their answers are in the text).
Printed per split (train: the tuning half; val: the checking half), with two baselines: the first
sentences of the chapter, and sentences spread evenly through it, the same number of each.

Measured (2026-11-26; 842 sentences for 232 train stories, 94 for 23 val stories):
    train: central 0.138, first sentences 0.114, spread 0.108
    val:   central 0.139, first sentences 0.133, spread 0.095
Variants tried on train and kept out (val in brackets): rarity over the whole anthology instead of the
chapter 0.116 (0.129); a centroid of its 20 or 50 strongest words 0.113-0.117 (0.110-0.114); a lead
bonus 0.147 (0.135); a bonus for capitalised names 0.143 (0.147); quoted speech weighed 1.0 or 0.3
instead of 0.6: 0.134-0.138 (0.138-0.139). None beats the plain centroid on both halves.

Usage (from the project root):

    python benchmarks/recap_quality.py                 # train and val
    python benchmarks/recap_quality.py --split val
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from story_books import Story, load_split  # noqa: E402

from reader.app.knowledge.extractive_summary import STOPWORDS, central_sentences, sentence_count  # noqa: E402
from reader.app.text.sentences import split_sentences  # noqa: E402

SHARED = Path(os.environ.get("READER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
_WORD = re.compile(r"[a-z]+")
COVERED = 0.6

Picker = Callable[[Sequence[tuple[int, str]], int], list[tuple[int, str]]]


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 2}


def first_sentences(pages: Sequence[tuple[int, str]], limit: int) -> list[tuple[int, str]]:
    return [(p, s) for p, t in pages for s in split_sentences(t)][:limit]


def spread_sentences(pages: Sequence[tuple[int, str]], limit: int) -> list[tuple[int, str]]:
    every = [(p, s) for p, t in pages for s in split_sentences(t)]
    if len(every) <= limit:
        return every
    return [every[round(i * (len(every) - 1) / max(1, limit - 1))] for i in range(limit)]


def coverage(stories: Sequence[Story], pick: Picker) -> tuple[int, int, int]:
    """(questions covered, explicit questions, sentences chosen)."""
    covered = asked = chosen_count = 0
    for story in stories:
        pages = list(enumerate(story.sections, 1))
        chars = sum(len(t) for t in story.sections)
        chosen = pick(pages, sentence_count(chars))
        chosen_count += len(chosen)
        stems = [_stems(s) for _, s in chosen]
        for question in story.questions:
            if not question.explicit:
                continue
            answer = _stems(question.answer)
            if not answer:
                continue
            asked += 1
            if any(len(answer & s) >= COVERED * len(answer) for s in stems):
                covered += 1
    return covered, asked, chosen_count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED / "bench" / "fairytaleqa")
    parser.add_argument("--split", choices=("train", "val", "both"), default="both")
    args = parser.parse_args(argv)
    splits = ("train", "val") if args.split == "both" else (args.split,)
    print(f"{'split':<6} {'picker':<10} {'stories':>7} {'sentences':>9} {'questions':>9} {'covered':>8}")
    for split in splits:
        stories = load_split(args.data, split)
        for name, pick in (("central", central_sentences), ("first", first_sentences), ("spread", spread_sentences)):
            covered, asked, chosen = coverage(stories, pick)
            print(f"{split:<6} {name:<10} {len(stories):>7} {chosen:>9} {asked:>9} {covered / max(1, asked):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
