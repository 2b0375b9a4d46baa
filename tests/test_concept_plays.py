"""Plays and verse: made-up scenes built through the real concept map, one rule each (issue 23).

Speaker labels name people, stage cues are never part of a name, verse lines' capitals are no
names, and words only ever said as an address or an interjection are no one.
"""

from __future__ import annotations

from reader.app.knowledge.concept_map import build_concept_map
from reader.domain.knowledge import ExtractedConcept


def _concepts(pages: list[str]) -> list[ExtractedConcept]:
    return build_concept_map(pages)


def _people(concepts: list[ExtractedConcept]) -> dict[str, ExtractedConcept]:
    """People by each of their names."""
    return {alias.text: c for c in concepts if c.kind == "person" for alias in c.aliases}


def _shown(concepts: list[ExtractedConcept]) -> set[str]:
    """Every name of a person or a place."""
    return {alias.text for c in concepts if c.kind in ("person", "place") for alias in c.aliases}


SCENE = [
    "SCENE I. A public place.",
    "Enter Sampson and Gregory.",
    "SAMPSON. I will bite my thumb at them, which is a disgrace to them.",
    "GREGORY. Draw thy tool; here comes of the house of the enemy.",
    "SAMPSON. My naked weapon is out: quarrel, I will back thee.",
    "GREGORY. How? Turn thy back and run?",
    "Enter Capulet.",
    "CAPULET. What noise is this? Give me my long sword, ho!",
    "Enter Lady Capulet.",
    "LADY CAPULET. A crutch, a crutch! Why call you for a sword?",
    "CAPULET. My sword, I say! Old Montague is come, and flourishes his blade.",
    "LADY CAPULET. Thou shalt not stir one foot to seek a foe.",
    "[_Exit Sampson._]",
    "GREGORY. I will follow him, and bid him come back to supper.",
    "[_Exit Gregory._]",
    "CAPULET. Go, bid them all come in, and let the music play.",
    "LADY CAPULET. I will, and fetch the keys from the old cupboard.",
    "[_Exit Lady Capulet._]",
    "CAPULET. Where is my lady now? Exeunt all but me.",
    "Exeunt Capulet.",
]


def _play(lines: list[str], repeat: int = 3, per_page: int = 12) -> list[str]:
    paragraphs = lines * repeat
    return ["\n\n".join(paragraphs[i : i + per_page]) for i in range(0, len(paragraphs), per_page)]


def test_a_speaker_label_in_capitals_is_a_person_named_in_title_case() -> None:
    people = _people(_concepts(_play(SCENE)))
    # Gregory is named only by his labels and the stage directions, never in a speech
    assert {"Sampson", "Gregory", "Capulet", "Lady Capulet"} <= set(people)
    assert people["Gregory"].kind == "person"


def test_two_speaker_labels_are_two_people_though_their_names_share_a_word() -> None:
    people = _people(_concepts(_play(SCENE)))
    assert people["Capulet"] is not people["Lady Capulet"]


def test_stage_cues_are_never_part_of_a_name() -> None:
    shown = _shown(_concepts(_play(SCENE)))
    assert not {name for name in shown if name.split()[0] in ("Enter", "Exit", "Exeunt")}, shown


def test_french_stage_cues_and_labels_between_dashes() -> None:
    scene = [
        "SCÈNE PREMIÈRE. - La Grange, Du Croisy.",
        "- Du Croisy -",
        "Seigneur la Grange, que dites-vous de notre visite ?",
        "- La Grange -",
        "Je vous avoue que j'en suis tout scandalisé, et je retourne à Paris.",
        "Entre Gorgibus.",
        "- Gorgibus -",
        "Quoi ? vous voilà encore ici, et que faites-vous donc ?",
        "- Du Croisy -",
        "Nous attendons, monsieur, car hors de Paris il n'y a point de salut.",
        "Sort Gorgibus.",
    ]
    concepts = _concepts(_play(scene, repeat=8))
    people = _people(concepts)
    assert {"Du Croisy", "La Grange", "Gorgibus"} <= set(people)
    assert "Paris" in _shown(concepts)  # named in speeches under their labels: no group of extras
    assert not {name for name in _shown(concepts) if name.split()[0] in ("Entre", "Sort")}


def test_words_only_said_as_an_address_or_an_interjection_are_no_one() -> None:
    scene = [
        "DOOLITTLE [at the door] Morning, Governor. I come about a very serious matter.",
        "HIGGINS. Garn! You come to get money out of me, by George.",
        "DOOLITTLE [protesting] No, Governor. I want my daughter back, that's all.",
        "HIGGINS [to Pickering] He wants her back. By George, he is a clever rogue.",
        "DOOLITTLE. I'll tell you, Governor, if you'll only let me get a word in.",
        "HIGGINS [rising] Garn! Take her, then. She was sent here by Rosaline.",
        "PICKERING. And who is Rosaline? Rosaline lives in the next street, I think.",
    ]
    concepts = _concepts(_play(scene, repeat=4))
    shown = _shown(concepts)
    assert not {"Governor", "Garn", "George", "By George"} & shown, shown
    assert _people(concepts)["Rosaline"].kind == "person"  # named as someone's object: someone


def test_a_word_after_a_stage_direction_in_brackets_starts_a_sentence() -> None:
    scene = [
        "HIGGINS [to Pickering] Listen to her, and tell me what you hear.",
        "PICKERING. I hear a very common girl, and a very loud one.",
        "LIZA [rising] Listen here: I am a good girl, I am.",
        "PICKERING [kindly] Listen, my dear: nobody wants to hurt you.",
    ]
    assert "Listen" not in _shown(_concepts(_play(scene, repeat=6)))


VERSE = [
    "ROMEO. Peace, peace, Mercutio, peace, Thou talk'st of nothing.",
    "MERCUTIO. True, I talk of dreams, Which are the children of an idle brain, Begot of nothing but"
    " vain fantasy, Which is as thin of substance as the air, And more inconstant than the wind, who"
    " wooes Even now the frozen bosom of the north.",
    "ROMEO. Whither goest thou, Mercutio? Misshapen chaos of well-seeming forms, Whither dost thou"
    " lead, And where is Juliet? The night is dark, That plats the manes of horses in the night.",
    "MERCUTIO. Go, Romeo, to Juliet, And tell her That the night is long, Whither she will, misshapen"
    " or fair, That is the question: begot or born, To Juliet go, and To her father too.",
]


def test_a_capital_where_a_verse_line_starts_is_no_name() -> None:
    concepts = _concepts(_play(VERSE, repeat=3, per_page=4))
    shown = _shown(concepts)
    assert {"Romeo", "Mercutio", "Juliet"} <= shown
    wrong = {
        name for name in shown if name.split()[0] in ("Whither", "Misshapen", "Begot", "That", "To", "Even")
    }
    assert not wrong, wrong


def test_a_group_named_only_in_stage_directions_is_no_one() -> None:
    scene = [
        "Enter Prince Escalus, with Attendants.",
        "PRINCE. Rebellious subjects, enemies to peace, throw your weapons down.",
        "CAPULET. My lord, the Montagues began it, and they fled.",
        "PRINCE. Once more, on pain of death, all men depart.",
        "[Exeunt Prince and Attendants.]",
        "Enter Capulet, with Maskers and Servants.",
        "CAPULET. Welcome, gentlemen! Come, musicians, play, and make room for the dance.",
        "[Exeunt Capulet and Maskers.]",
    ]
    concepts = _concepts(_play(scene, repeat=8))
    assert not {"Attendants", "Maskers", "Servants"} & _shown(concepts)
    assert {"Prince Escalus", "Capulet"} & set(_people(concepts))


def test_a_rare_word_only_where_a_verse_line_starts_is_no_name() -> None:
    verse = [
        *VERSE,
        "BENVOLIO. Be ruled by me, forget to think of her, By giving liberty unto thine eyes; Examine"
        " other beauties, and compare her face With some that I shall show.",
        "ROMEO. O brawling love, O loving hate, O heavy lightness, serious vanity, Misshapen chaos of"
        " well-seeming forms, Feather of lead, bright smoke, cold fire, sick health.",
        "BENVOLIO. Go thither, and with unattainted eye Compare her face with some that I shall show,"
        " And I will make thee think thy swan a crow; Examine every married lineament.",
        "ROMEO. I will go along, to Mantua and to Verona; for Mantua is far, and Verona near, shape"
        " and love, Misshapen in the conduct of them both.",
    ]
    concepts = _concepts(_play(verse, repeat=3, per_page=4))
    shown = _shown(concepts)
    assert not {"Examine", "Misshapen"} & shown, shown
    assert {"Mantua", "Verona", "Romeo"} <= shown


def test_a_full_or_titled_name_ending_in_a_speakers_name_is_that_speakers() -> None:
    scene = [
        "HIGGINS. Good morning, mother. I have brought a girl to tea.",
        "MRS. HIGGINS. My dear Henry, you must not. What girl is it?",
        "PICKERING. Mr. Higgins means the flower girl, of course.",
        "MRS. HIGGINS. Then Professor Higgins may take her away again.",
        "DOOLITTLE. Henry Higgins took my daughter, and Miss Doolittle is now a lady.",
        "HIGGINS [to Pickering] Mr. Higgins is the name on the bell, and Henry Higgins is mine.",
        "PICKERING. Miss Doolittle will be here soon, I believe.",
    ]
    people = _people(_concepts(_play(scene, repeat=5)))
    higgins = people["Higgins"]
    assert people["Henry Higgins"] is higgins and people["Mr. Higgins"] is higgins
    assert people["Mrs. Higgins"] is not higgins


def test_a_word_written_before_one_speakers_name_alone_names_that_speaker() -> None:
    scene = [
        "CAPULET. The County Paris comes to woo my daughter, and she shall have him.",
        "PARIS. My lord, I come to ask her hand, if she will give it.",
        "NURSE. The County is a man of wax, madam, a flower, a very flower.",
        "PARIS. I thank you, nurse. Is she within, and will she see me now?",
        "CAPULET. Go, tell the County that she will come, and make haste.",
        "NURSE. The County waits below, and the County is very sad.",
    ]
    people = _people(_concepts(_play(scene, repeat=5)))
    assert people["the County"] is people["Paris"]


def test_a_novel_with_a_word_in_capitals_is_no_play() -> None:
    sentences = [
        "Mr. Thorne read the sign, which said ENTER in red letters, and he went in.",
        "The clerk looked at Mr. Thorne and said nothing at all.",
        "Then Mr. Thorne said that the Exit was on the left of the hall.",
        "The Exit was locked, and the clerk laughed at Mr. Thorne.",
    ] * 3
    pages = [" ".join(sentences[i : i + 4]) for i in range(0, len(sentences), 4)]
    people = _people(_concepts(pages))
    assert "Mr. Thorne" in people
    assert "Enter" not in people and "ENTER" not in people
