"""What an answer looks like, as data: for each kind of question, words a page that answers it tends to use.

"Why did he refuse?" is answered by a page that says "because" or "so that"; "How did she feel?" by
one that says "wept" or "glad". The re-ranker (page_ranker) counts these cue words in a page's best
window, one feature a kind of question, and learns from the tuning half how much each counts.
"""

from __future__ import annotations

import re

QUESTION_KINDS: dict[str, re.Pattern[str]] = {
    "why": re.compile(r"\bwhy\b|\bwhat (?:made|caused|led)\b|\breason\b", re.IGNORECASE),
    "feel": re.compile(
        r"\b(?:feel|feels|felt|feeling|feelings|emotion|emotions|mood|react|reacted|reaction)\b",
        re.IGNORECASE,
    ),
    "when": re.compile(r"\bwhen\b|\bwhat time\b|\bhow long\b", re.IGNORECASE),
    "where": re.compile(r"\bwhere\b", re.IGNORECASE),
    "number": re.compile(r"\bhow (?:many|much|old|far)\b", re.IGNORECASE),
}
"""How a question of each kind is asked."""

CUE_WORDS: dict[str, frozenset[str]] = {
    "why": frozenset(
        """because since so therefore thus reason cause order wanted wished hoped meant intended
        afraid fear lest purpose sake""".split()
    ),
    "feel": frozenset(
        """happy glad joy joyful joyous delighted delight pleased pleasure merry cheerful content
        sad sorrow sorrowful grief grieved grieve wept weep weeping cried cry crying tears tear sob
        sobbed mourn mourned miserable unhappy despair distress distressed lonely
        angry anger furious rage wrath cross vexed annoyed indignant enraged
        afraid fear feared frightened terrified terror scared worried anxious alarmed horror horrified
        nervous dread trembled trembling shook
        surprised astonished amazed wonder wondered puzzled curious
        ashamed shame embarrassed proud pride jealous envy envious grateful thankful relieved
        disappointed hope hopeful excited love loved hate hated laughed laugh smiled smile
        heart comfort comforted upset troubled""".split()
    ),
    "when": frozenset(
        """when after before then once until till while soon morning evening night day days
        noon midnight dawn sunrise sunset year years month months week weeks hour hours time
        spring summer autumn winter christmas today tomorrow yesterday later last first""".split()
    ),
    "where": frozenset(
        """in into at inside under near beside behind beyond across through home house castle
        palace forest wood woods sea lake river mountain hill village town city garden field
        room cave tower church well road country land kingdom island""".split()
    ),
    "number": frozenset(
        """one two three four five six seven eight nine ten eleven twelve twenty thirty forty
        fifty hundred hundreds thousand thousands dozen many few several half""".split()
    ),
}
"""Words a page answering each kind of question tends to use (matched by their light stem)."""
