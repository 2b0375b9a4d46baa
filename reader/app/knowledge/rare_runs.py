"""Rare runs of capitalised words that are established names side by side or after a common word
("London Lydia", "Eventually Peter"), counted as those names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from reader.app.knowledge.book_mentions import Name, core_tokens
from reader.app.knowledge.name_finder import bare, is_title


def fold_rare_runs(names: dict[str, Name], lower: Counter[str], threshold: int) -> Counter[tuple[str, str]]:
    """Rare runs that are an established name after a common word ("Eventually Peter", "Whereat
    Mrs. Rachel") or two established names side by side ("London Lydia", "Danglars Monte Cristo") count
    as those names instead; never one ending in a surname of the book's full names ("Natalie Rostóva":
    a full name) unless its last words are a whole established name of several words ("Monte Cristo").

    Returns how often each pair of established names was so found side by side ("Napoleon
    Bonaparte": perhaps one person's two names, see `group_names`)."""
    pairs: Counter[tuple[str, str]] = Counter()
    established = {key for key, name in names.items() if len(name.mentions) >= threshold}
    surnames = {
        bare(name.tokens[-1])
        for key, name in names.items()
        if key in established and len(core_tokens(name.tokens)) > 1
    }
    """Last words of the book's established full names ("Rostóva" of "Natásha Rostóva")."""
    for key in [k for k, name in names.items() if len(name.tokens) > 1 and k not in established]:
        tokens = names[key].tokens
        if is_title(tokens[0]):
            continue  # "Mr. William Bell": the title is part of the name
        parts = _two_names(tokens, established)  # "To Danglars Monte Cristo also wrote"
        if parts:
            name = names.pop(key)
            for part in parts:
                names[part].mentions.extend(name.mentions)
                names[part].mentions.sort()
            continue  # not one person's two names: a first name is never a name of several words
        if bare(tokens[-1]) in surnames:
            continue  # "Natalie Rostóva": a first name and a surname the book uses, a full name
        for cut in range(1, len(tokens)):
            head, tail = " ".join(tokens[:cut]), " ".join(tokens[cut:])
            if tail not in established:
                continue
            if head in established:
                parts = [head, tail]
                break
            if all(bare(t) not in established for t in tokens[:cut]):
                parts = [tail]
                break
        if parts:
            name = names.pop(key)
            for part in parts:
                names[part].mentions.extend(name.mentions)
                names[part].mentions.sort()
            if len(parts) == 2:
                pairs[(parts[0], parts[1])] += len(name.mentions)
    return pairs


def _two_names(tokens: tuple[str, ...], established: Collection[str]) -> list[str]:
    """An established name followed by an established name of several name words ("Monte Cristo";
    not "de Villefort"), as two names."""
    for cut in range(1, len(tokens) - 1):
        head, tail = " ".join(tokens[:cut]), " ".join(tokens[cut:])
        if head in established and tail in established and len(core_tokens(tokens[cut:])) > 1:
            return [head, tail]
    return []
