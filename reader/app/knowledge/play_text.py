"""Plays and verse: what a book's layout says about its names, read before names are looked for.

A play opens its speeches with a speaker label, a name in capitals at a paragraph's start ("ROMEO.
Nay", "HIGGINS [to Pickering] Let's", or a paragraph of its own: "- Du Croisy -"); a label used
again and again is a person, named as the label spells it in title case (ROMEO = Romeo). Its stage
directions put cue words before names ("Enter Sampson", "[_Exit Romeo._]", "Entre Gorgibus"): the
cue words are written in lower case here (the text keeps its length), so that they are never part
of a name and the name after them stands mid-sentence. A bracketed direction ends a clause ("LIZA
[rising] Garn!"): the word after it starts a sentence. In verse printed with its lines joined into
one paragraph, each line's first word keeps its capital mid-sentence ("the wind, who wooes Even now
the frozen bosom"): when the book joins verse lines often, such a capital on a grammar word or on a
word the book mostly writes in lower case is written in lower case too.

Once names are found: a play's other names for a speaker ("Henry Higgins" of HIGGINS) are that
speaker's (`join_to_speakers`), and a one-word name that is no speaker's is no one when the book
only ever says it as an address or an interjection ("Governor,", "Garn!"), names it only outside
speeches (a group of extras: "with Attendants") or, in verse, only where a line starts (`no_one`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from reader.app.knowledge.book_mentions import BookNames, Name
from reader.app.knowledge.name_forms import Cluster, T, gender_of

STAGE_CUES: dict[str, frozenset[str]] = {
    "en": frozenset(
        "Enter Enters Exit Exeunt Re-enter Re-Enter Reenter Manet Manent Aside Flourish Dies".split()
    ),
    "fr": frozenset("Entre Entrent Sort Sortent Seul Seule Ensemble Rentre Rentrent".split()),
    "de": frozenset("Tritt Treten Ab Abgang".split()),
}
"""Stage-direction words that come before a name in a play, per language; never a name's part."""

HEADING_WORDS = frozenset(
    "act acte scene scène scena akt auftritt szene prologue prolog epilogue épilogue chorus chœur "
    "persons personnages dramatis finis fin end the".split()
)
"""Words that open a heading in capitals ("ACT I", "SCENE II.", "SCÈNE PREMIÈRE.") or a role ("THE
FLOWER GIRL"), not a speaker's name."""

VERSE_GRAMMAR = frozenset(
    """a an and as at but by for from if in into nor of on or so than that the then thence there
    these this those thou thy thee though through till to unto upon what when whence where whereon
    which while whither who whom whose why with within without yet ye you your our my mine his her
    its their not no nay all each every more most such some is are was were be been am art hath
    have has had do doth did shall will would should could may might must can let how o oh""".split()
)
"""Grammar words: a capital on one mid-sentence in verse is a line's start, never a name."""

ROLE_LOWER = 3
"""Lower-case uses of a label's last word from which the label is a role ("SERVANT"), no one's name."""
SAMPLE_PAGES = 10
SAMPLE_CHARS = 2000
"""Pages, spread over the book, and characters of each on which it is first judged a play or verse."""
SAMPLE_LABELS = 5
"""Speaker labels in that sample from which the whole book is read for them."""
SPEECH_PARAGRAPHS = 4
"""Paragraphs back to a label on its own line ("- Gorgibus -") within which a paragraph is its speech."""
MIN_LABELS = 2
"""Uses from which a speaker label names a person."""
PLAY_LABELS = 20
"""Labelled speeches from which a book is a play."""
VERSE_JOINS_PER_1000 = 8.0
"""Capitalised grammar words mid-sentence per 1,000 words from which a book joins verse lines."""

_CAPS_WORD = r"[A-ZÀ-Þ][A-ZÀ-Þ'’\-]+\.?"
_LABEL = re.compile(
    rf"(?m)^[ \t]*({_CAPS_WORD}(?:[ \t]+{_CAPS_WORD}){{0,3}})(?:\.[ \t]+(?=\S)|[ \t]*(?=[\[(]))"
)
"""A name in capitals opening a paragraph's speech: "ROMEO. Nay", "MRS. PEARCE [returning] This"."""
_DASHED_LABEL = re.compile(
    r"(?m)^[ \t]*[-–—][ \t]*([A-ZÀ-Þ][\w'’\-]*(?:[ \t]+[\w'’\-]+){0,3})[ \t]*[-–—][ \t]*$"
)
"""A paragraph that is only a name between dashes: "- Du Croisy -"."""
_DIRECTION_END = re.compile(r"\](?=[ \t]+[A-ZÀ-Þ])")
_MID_CAPITAL = re.compile(r"(?<=[a-zà-ÿ,;:] )[A-ZÀ-Þ][a-zà-ÿ'’]+\b")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class PlayText:
    """A book's page texts as names are looked for in them, and the people its speaker labels name."""

    texts: list[str]
    speakers: dict[str, int]
    """Each label's name in title case ("Romeo", "Mrs. Pearce") and how many speeches it opens."""
    verse: bool = False
    """The book joins verse lines into paragraphs."""


def read_play(texts: Sequence[str], lower: Counter[str]) -> PlayText | None:
    """The page texts with stage cues, directions and verse capitals made plain, and the speakers;
    None for a book that is neither a play nor verse (nothing to change).

    Whether it is either is judged on a sample first (`SAMPLE_PAGES` pages spread over the book,
    `SAMPLE_CHARS` of each): a novel costs a few regex passes over that sample only."""
    step = max(1, len(texts) // SAMPLE_PAGES)
    sample = "\n\n".join(text[:SAMPLE_CHARS] for text in texts[::step])
    labelled = len(_LABEL.findall(sample)) + len(_DASHED_LABEL.findall(sample))
    verse = _joins_verse(sample)
    if labelled < SAMPLE_LABELS and not verse:
        return None
    joined = "\n\n".join(texts)
    speakers = _speakers(joined, lower)
    is_play = sum(speakers.values()) >= PLAY_LABELS
    if not is_play:
        speakers = {}
    if not is_play and not verse:
        return None
    cues = _cue_pattern() if is_play else None
    line_starts = _line_start_words(joined, lower, speakers) if verse else frozenset()
    plain = [_plain(text, cues, is_play, line_starts) for text in texts]
    return PlayText(plain, speakers, verse)


def _line_start_words(text: str, lower: Counter[str], speakers: Collection[str]) -> frozenset[str]:
    """The capitalised words that, mid-sentence in verse, start a line: grammar words and words the
    book mostly writes in lower case, never a speaker's name."""
    capitals = Counter(m.group() for m in _MID_CAPITAL.finditer(text))
    keep = {word for name in speakers for word in name.split()}
    return frozenset(
        word
        for word, count in capitals.items()
        if word not in keep and (word.lower() in VERSE_GRAMMAR or lower[word.lower()] > count)
    )


def _cue_pattern() -> re.Pattern[str]:
    """Every language's stage cues as whole words ("Exit", not "Exiting")."""
    words = sorted(frozenset().union(*STAGE_CUES.values()))
    return re.compile(r"(?<![\w'’\-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w'’\-])")


def _lower_case(match: re.Match[str]) -> str:
    return match.group().lower()


def _speakers(text: str, lower: Counter[str]) -> dict[str, int]:
    """Names of the labels that open speeches, with their counts (labels used under `MIN_LABELS`
    times, headings and roles the book writes in lower case left out)."""
    labels = Counter(m.group(1) for m in _LABEL.finditer(text))
    dashed = Counter(m.group(1) for m in _DASHED_LABEL.finditer(text))
    speakers: Counter[str] = Counter()
    for found, is_dashed in ((labels, False), (dashed, True)):
        for label, count in found.items():
            name = _label_name_of(label, is_dashed, lower)
            if name:
                speakers[name] += count
    return {name: count for name, count in speakers.items() if count >= MIN_LABELS}


def _label_name_of(label: str, dashed: bool, lower: Counter[str]) -> str | None:
    """The name a label gives; a label on its own line keeps its spelling ("Du Croisy")."""
    words = label.split()
    name = _label_name(words, lower)
    return " ".join(words) if name is not None and dashed else name


def _label_name(words: Sequence[str], lower: Counter[str]) -> str | None:
    """The name a label gives ("LADY CAPULET": "Lady Capulet"), or None for a heading ("SCENE I."),
    a possessive ("CAPULET'S COUSIN") or a role the book writes in lower case ("SERVANT", "THE
    FLOWER GIRL")."""
    if words[0].rstrip(".").lower() in HEADING_WORDS:
        return None  # "SCENE II.", "THE FLOWER GIRL": a heading or a role
    if any(w.upper().endswith(("'S", "’S")) or len(w.rstrip(".")) < 2 for w in words):
        return None
    head = _WORD.findall(words[-1].lower())
    if not head or lower[head[-1]] >= ROLE_LOWER:
        return None  # "SERVANT", "FIRST MUSICIAN": the book writes the word in lower case
    words = [*words[:-1], words[-1].rstrip(".")]
    return " ".join(w[:1] + w[1:].lower() if w.isupper() else w for w in words)


def _joins_verse(text: str) -> bool:
    """Whether the book prints verse with its lines joined: many grammar words in capitals mid-sentence."""
    joins = sum(1 for m in _MID_CAPITAL.finditer(text) if m.group().lower() in VERSE_GRAMMAR)
    words = text.count(" ") + 1
    return joins * 1000 >= VERSE_JOINS_PER_1000 * words


def _plain(
    text: str,
    cues: re.Pattern[str] | None,
    play: bool,
    line_starts: Collection[str],
) -> str:
    """One page's text with stage cues in lower case, a direction's closing bracket as a stop, and
    verse lines' capitals in lower case (same length as `text`)."""
    if cues is not None:
        text = cues.sub(_lower_case, text)
    if play:
        text = _DIRECTION_END.sub(".", text)
    if line_starts:
        text = _MID_CAPITAL.sub(lambda m: m.group().lower() if m.group() in line_starts else m.group(), text)
    return text


def speaker_mentions(
    text: str, speakers: Collection[str], lower: Counter[str]
) -> dict[str, list[tuple[int, int]]]:
    """Where in `text` each speaker's labels are (start, end of the label's name), in reading order."""
    found: dict[str, list[tuple[int, int]]] = {}
    for pattern, dashed in ((_LABEL, False), (_DASHED_LABEL, True)):
        names: dict[str, str | None] = {}
        for match in pattern.finditer(text):
            label = match.group(1)
            if label not in names:
                names[label] = _label_name_of(label, dashed, lower)
            name = names[label]
            if name is not None and name in speakers:
                found.setdefault(name, []).append((match.start(1), match.start(1) + len(name)))
    for spans in found.values():
        spans.sort()
    return found


ADDRESS_AFTER = frozenset(",!?.;:—–")
"""Marks right after an address or an interjection ("Governor,", "Garn!")."""
SPOKEN_ONLY_EXCEPTIONS = 0.1
"""The share of an address's mentions that may be used otherwise."""
ADDRESS_LEADS = frozenset("by oh o ah ay yes no well".split())
"""Words an interjection or an address may follow ("by George", "oh, Governor")."""


def spoken_only(text: str, mentions: Sequence[tuple[int, int, bool]]) -> bool:
    """Whether a name is only ever an address or an interjection: each mention is followed by a
    mark ("Governor,", "Garn!") and comes after a comma, a sentence's start or an interjection's
    word ("by George"), never after a word it would be the object of ("for Rosaline"); one in ten
    may be otherwise ("Governors both?")."""
    other = 0
    for start, end, _ in mentions:
        before = text[max(0, start - 20) : start].rstrip()
        if text[end - 1] not in ADDRESS_AFTER and text[end : end + 1] not in ADDRESS_AFTER:
            other += 1
        elif before and (before[-1].isalnum() or before[-1] in "'’"):
            words = _WORD.findall(before)
            other += not words or words[-1].lower() not in ADDRESS_LEADS
    return other <= SPOKEN_ONLY_EXCEPTIONS * len(mentions)


def no_one(play: PlayText, text: str, name: str, mentions: Sequence[tuple[int, int, bool]]) -> bool:
    """Whether a one-word name of a play or a poem that is no speaker names no one: only ever an
    address or an interjection (`spoken_only`), a group the play names only outside its speeches
    (`group_outside_speeches`), or a word only ever at a verse line's start (`line_starts_only`)."""
    if name in play.speakers:
        return False
    if play.speakers and (spoken_only(text, mentions) or group_outside_speeches(text, name, mentions)):
        return True
    return play.verse and line_starts_only(text, mentions)


def group_outside_speeches(text: str, name: str, mentions: Sequence[tuple[int, int, bool]]) -> bool:
    """Whether a plural ("Attendants", "Maskers") is named only in stage directions and the cast
    list, never in a speech: a group of extras, no one."""
    if not name.endswith("s") or name.endswith(("'s", "’s")):
        return False
    return not any(_in_speech(text, start) for start, _, _ in mentions)


def _in_speech(text: str, at: int) -> bool:
    """Whether `at` is in a speech: outside brackets, in a paragraph that opens with a speaker label
    or that follows one of its own ("- Gorgibus -") within `SPEECH_PARAGRAPHS` paragraphs."""
    paragraph = text.rfind("\n", 0, at) + 1
    if text.rfind("[", paragraph, at) > text.rfind("]", paragraph, at):
        return False
    if _LABEL.match(text, paragraph):
        return True
    for _ in range(SPEECH_PARAGRAPHS):
        end = text.rfind("\n", 0, max(0, paragraph - 1))
        while end > 0 and text[end - 1] in "\n \t":
            end -= 1
        if end <= 0:
            return False
        paragraph = text.rfind("\n", 0, end) + 1
        if _DASHED_LABEL.match(text, paragraph):
            return True
    return False


def line_starts_only(text: str, mentions: Sequence[tuple[int, int, bool]]) -> bool:
    """Whether a capitalised word only ever stands where a verse line may start: after a mark (",",
    ";", a stop) and before a word in lower case ("eyes; Examine other beauties"), never after a
    word nor before a mark or a possessive, as a name would ("to Mantua", "Cupid's")."""
    for start, end, _ in mentions:
        if not _LOWER_NEXT.match(text, end):
            return False
        before = text[max(0, start - 3) : start].rstrip(" ")
        if before and (before[-1].isalnum() or before[-1] in "'’"):
            return False
    return True


_LOWER_NEXT = re.compile(r" [a-zà-ÿ]")


def join_to_speakers(clusters: list[Cluster[T]], speakers: Collection[str]) -> list[Cluster[T]]:
    """A play's other names for a one-word speaker: a name ending in that speaker's name and
    holding no other speaker's ("Henry Higgins", "Mr. Higgins", "Alfred Doolittle" of HIGGINS and
    DOOLITTLE) is that speaker's, unless a woman's title says it is a wife or a daughter ("Mrs.
    Higgins", "Miss Doolittle")."""
    words = {name for name in speakers if " " not in name}
    home: dict[str, Cluster[T]] = {}
    for cluster in clusters:
        for key in cluster.keys:
            if key in words:
                home[key] = cluster
    for cluster in clusters:
        if cluster.family or not cluster.core or any(key in speakers for key in cluster.keys):
            continue
        speaker = home.get(cluster.core[-1])
        if speaker is None or speaker is cluster or gender_of(cluster.titles) == "f":
            continue
        if len(cluster.core) == 1 and not cluster.titles:
            continue  # the speaker's own name, kept apart by the name rules
        if any(word in words for word in cluster.core[:-1]):
            continue  # "Romeo Montague": another speaker's
        speaker.absorb(cluster)
    _join_speaker_styles(clusters, home)
    return [cluster for cluster in clusters if cluster.keys]


def _join_speaker_styles(clusters: list[Cluster[T]], home: dict[str, Cluster[T]]) -> None:
    """A word the play writes before one speaker's name only ("County Paris") names that speaker
    alone too ("the County"): his style, as a title is."""
    styles: dict[str, list[Cluster[T]]] = {}
    for word, speaker in home.items():
        for key in speaker.keys:
            parts = key.split()
            if len(parts) == 2 and parts[1] == word and parts[0] not in home:
                styles.setdefault(parts[0], []).append(speaker)
    for cluster in clusters:
        if len(cluster.core) != 1 or cluster.family or cluster.titles or any(k in home for k in cluster.keys):
            continue
        owners = styles.get(cluster.core[0], [])
        if len(owners) == 1 and owners[0] is not cluster:
            owners[0].absorb(cluster)


def add_speakers(book: BookNames, speakers: Mapping[str, int], lower: Counter[str]) -> None:
    """A play's speaker labels as mentions of the names they give ("ROMEO." of "Romeo"); two
    labels are two people."""
    for key, spans in speaker_mentions(book.text, speakers, lower).items():
        name = book.names.get(key)
        if name is None:
            name = book.names[key] = Name(key, tuple(key.split()))
        name.mentions.extend((start, end, False) for start, end in spans)
        name.mentions.sort()
    for pair in combinations(sorted(speakers), 2):  # two labels, two people ("CAPULET", "LADY CAPULET")
        book.apart.add(frozenset(pair))
