"""The irregular forms of English verbs, as data: a question asks "what did he steal?", the page says
"he stole".

The light stemmer (passages.stem) joins "cried", "cries" and "crying"; a past tense that changes its
vowel ("took", "fell", "brought") stays apart from the form a question asks with ("take", "fall",
"bring"). Each line below is one verb's forms; a search word stands for all of its verb's forms.
Verbs whose forms are as often a common noun ("bear", "ground", "rose", "ring", "stick", "tear") are
left out: a question about the bear is not about what was born.
"""

from __future__ import annotations

from functools import cache

IRREGULAR_VERBS = """
    arise/arose/arisen awake/awoke/awoken become/became begin/began/begun bend/bent bind/bound bite/bitten
    bleed/bled blow/blew/blown break/broke/broken breed/bred bring/brought build/built buy/bought
    catch/caught choose/chose/chosen cling/clung come/came creep/crept deal/dealt dig/dug draw/drew/drawn
    drink/drank/drunk drive/drove/driven dwell/dwelt eat/ate/eaten fall/fell/fallen feed/fed feel/felt
    fight/fought find/found flee/fled fling/flung fly/flew/flown forbid/forbade/forbidden
    forget/forgot/forgotten forgive/forgave/forgiven freeze/froze/frozen get/got/gotten give/gave/given
    go/went/gone grow/grew/grown hang/hung hear/heard hide/hid/hidden hold/held keep/kept kneel/knelt
    know/knew/known lead/led leap/leapt leave/left lend/lent lie/lay/lain lose/lost make/made meet/met
    pay/paid ride/rode/ridden run/ran say/said see/saw/seen seek/sought sell/sold send/sent
    shake/shook/shaken shine/shone shoot/shot show/shown shrink/shrank/shrunk sing/sang/sung sink/sank/sunk
    sit/sat slay/slew/slain sleep/slept slide/slid smite/smote/smitten speak/spoke/spoken speed/sped
    spend/spent spin/spun spit/spat spring/sprang/sprung stand/stood steal/stole/stolen sting/stung
    stink/stank/stunk stride/strode/stridden strike/struck/stricken strive/strove/striven swear/swore/sworn
    sweep/swept swell/swollen swim/swam/swum swing/swung take/took/taken teach/taught tell/told
    think/thought throw/threw/thrown tread/trod/trodden understand/understood wake/woke/woken wear/wore/worn
    weave/wove/woven weep/wept win/won wring/wrung write/wrote/written
"""


@cache
def _verbs() -> dict[str, tuple[str, ...]]:
    """Each listed form -> the verb's other forms."""
    forms: dict[str, list[str]] = {}
    for verb in IRREGULAR_VERBS.split():
        words = verb.split("/")
        for word in words:
            forms.setdefault(word, []).extend(w for w in words if w != word and w not in forms[word])
    return {word: tuple(others) for word, others in forms.items()}


def other_forms(word: str) -> tuple[str, ...]:
    """The other forms of the irregular verb `word` is a form of ("stole" -> "steal", "stolen"); none
    for any other word."""
    return _verbs().get(word.lower(), ())
