"""X-Ray rules of the second round of issue 23, each on a small made-up book built through the real
concept map: a place named by the first word of its longer name, a title after a hyphen, a list of
titles that is nobody, a wife's title beside her husband's bare surname, and books not in English
(typed dashes, guillemets, accented lower-case words, French prepositions and speech verbs)."""

from __future__ import annotations

from reader.app.knowledge.concept_map import build_concept_map
from reader.app.knowledge.key_terms import BookWords
from reader.app.knowledge.name_finder import sentence_start_by_prefix, starts_sentence
from reader.domain.knowledge import ExtractedConcept

FILLER = "The weather was mild and nothing else happened that day. " * 12
"""A page's worth of text that names no one: it sets pages apart."""


def _concepts(*pages: str) -> dict[str, ExtractedConcept]:
    return {c.name: c for c in build_concept_map(list(pages))}


def _carrying(concepts: dict[str, ExtractedConcept], name: str) -> list[ExtractedConcept]:
    return [c for c in concepts.values() if name in {a.text for a in c.aliases}]


def test_a_place_word_used_in_its_longer_names_pages_is_that_place() -> None:
    battle = [
        "The guns fired at the Shevardino Redoubt all morning. The troops held at Shevardino.",
        "Nobody left the Shevardino Redoubt that night. The wounded came back from Shevardino.",
        "The French took the Shevardino Redoubt at dawn. The road to Shevardino was full of carts.",
    ]
    concepts = _concepts(*battle, FILLER, FILLER)
    (redoubt,) = _carrying(concepts, "the Shevardino Redoubt")
    assert "Shevardino" in {a.text for a in redoubt.aliases}
    assert redoubt.kind == "place"


def test_a_place_word_used_apart_from_its_longer_name_or_beginning_two_stays_its_own() -> None:
    mire = ["The pony sank in Grimpen Mire. Nobody crossed Grimpen Mire. The fog lay on Grimpen Mire."]
    village = ["He walked to Grimpen for the post. The doctor lived in Grimpen. They met at Grimpen."]
    concepts = _concepts(*mire, *[FILLER * 4] * 4, *village)  # some twenty pages apart
    assert _carrying(concepts, "Grimpen Mire") != _carrying(concepts, "Grimpen")

    town = [
        "We came down Putney Hill to Putney. The houses of Putney were empty.",
        "From Putney Hill we saw Putney Bridge. We slept in Putney. Putney Bridge was down.",
        "At the top of Putney Hill we rested near Putney.",
    ]
    concepts = _concepts(*town, FILLER)
    assert _carrying(concepts, "Putney Hill") != _carrying(concepts, "Putney")


def test_the_title_after_a_hyphen_names_its_bearer() -> None:
    pages = [
        f"Heidi ran up to Alm-Uncle and Alm-Uncle smiled. Everyone in the village feared Alm-Uncle. {FILLER}",
        f"The Uncle said nothing. Later the Uncle cut bread, and the Uncle gave her milk. {FILLER}",
    ]
    concepts = _concepts(*pages)
    (uncle,) = _carrying(concepts, "Alm-Uncle")
    assert "the Uncle" in {a.text for a in uncle.aliases}


def test_a_name_all_of_whose_mentions_are_in_one_list_is_nobody() -> None:
    pages = [
        "Her works were: Aus dem Leben; Aus den Bergen; Aus Nah und Fern; Aus unserem Lande. " + FILLER,
        "Heidi ran up the hill and Heidi laughed. Peter came after Heidi with the goats. " + FILLER,
        "Heidi and Peter sat on the grass, and Peter told Heidi about the goats. " + FILLER,
    ]
    concepts = _concepts(*pages)
    assert not _carrying(concepts, "Aus")
    assert _carrying(concepts, "Heidi")


def test_a_bare_surname_used_far_more_than_the_one_madame_is_not_her() -> None:
    sentences = [
        "Homais ouvrit la boutique. Homais parlait. Homais avait raison.",
        "Homais regardait la rue. Madame Homais arriva avec les enfants.",
        "Homais riait. Homais partit. Homais revint. Homais mangea.",
        "Homais lisait le journal. Madame Homais dormait.",
    ]
    concepts = _concepts(*sentences)
    assert _carrying(concepts, "Homais") != _carrying(concepts, "Madame Homais")


def test_a_typed_dash_and_guillemets_begin_a_sentence() -> None:
    text = "Il entra.\n-- C'était lui."
    at = text.index("C'était")
    assert starts_sentence(text, at)
    assert sentence_start_by_prefix(text[at - 2 : at]) is None  # "- " alone cannot tell
    assert sentence_start_by_prefix(text[at - 3 : at]) is True
    quoted = "Il dit: «Non.» C'était fini."
    assert starts_sentence(quoted, quoted.index("«") + 1)
    assert starts_sentence(quoted, quoted.index("C'était"))
    assert not starts_sentence("a-b Mary", len("a-b "))


def test_accented_lower_case_words_count_as_lower_case() -> None:
    words = BookWords.of(["c'était la félicité, et l'été était beau"])
    assert words.lower["c'était"] == 1
    assert words.lower["félicité"] == 1


def test_french_prepositions_make_places_and_speech_verbs_people() -> None:
    pages = [
        "Elle partit à Rouen le lundi. -- Oui, dit Félicité. Ils revinrent de Rouen le soir. " + FILLER,
        "On arriva à Yonville. -- Non, dit Félicité. La diligence allait vers Yonville. " + FILLER,
        "Les gens de Yonville dormaient. -- Bien, répondit Félicité. Il resta à Rouen. " + FILLER,
        "Elle quitta Rouen. Félicité pleurait, car la félicité était loin. Félicité rit. " + FILLER,
    ]
    concepts = _concepts(*pages)
    assert [c.kind for c in _carrying(concepts, "Rouen")] == ["place"]
    assert [c.kind for c in _carrying(concepts, "Yonville")] == ["place"]
    assert [c.kind for c in _carrying(concepts, "Félicité")] == ["person"]
    assert not _carrying(concepts, "C'était")


def test_a_bank_by_the_river_is_a_place() -> None:
    pages = [
        "They rowed home along River Bank. The Rat was happy at River Bank. " + FILLER,
        "Think of River Bank and supper, said the Mole. Life at River Bank was good. " + FILLER,
    ]
    concepts = _concepts(*pages)
    assert [c.kind for c in _carrying(concepts, "River Bank")] == ["place"]


def test_a_book_not_in_english_gets_no_key_terms_but_its_people() -> None:
    page = (
        "Le soir, Félicité pleurait dans la cuisine. Le médecin regardait la lanterne, et la lanterne brillait. "
        "Homais parlait de la pharmacie; la pharmacie était pleine de bocaux et de lanternes. "
    ) * 6
    concepts = build_concept_map([page] * 6)
    assert not [c for c in concepts if c.kind == "term"]
    assert [c.kind for c in concepts if c.name == "Félicité"] == ["person"]  # "Félicité pleurait": acts
    english = build_concept_map(["The doctor looked at the lantern, and the lantern was bright. " * 12] * 6)
    assert "lantern" in {c.name for c in english if c.kind == "term"}


def test_a_clipped_first_name_joins_the_full_name_it_begins_in_its_scenes() -> None:
    scene = (
        "Tinker Bell flew round the room, and Tinker Bell rang her bells. Peter laughed at Tink, "
        "and Tink sulked on the shelf. Then Tink came down. "
    )
    concepts = _concepts(scene + FILLER, scene + FILLER, FILLER, FILLER)
    (fairy,) = _carrying(concepts, "Tinker Bell")
    assert "Tink" in {a.text for a in fairy.aliases}


def test_nelly_is_ellen_when_the_surname_is_shared() -> None:
    sentences = (
        "The housekeeper was Ellen Dean, and Ellen Dean told the story. Everyone called her Nelly Dean. "
        "Later Nelly Dean sat by the fire, and Ellen Dean went on. "
    )
    concepts = _concepts(sentences + FILLER, sentences + FILLER)
    assert _carrying(concepts, "Ellen Dean") == _carrying(concepts, "Nelly Dean")


def test_a_name_after_an_article_of_another_language_is_a_the_name() -> None:
    page = (
        "Le soir, on parlait de la guerre. Tout le monde admirait l'Empereur, et personne ne voyait "
        "l'Empereur. Le soldat regardait l'Empereur de loin. Félicité pleurait dans la cuisine. "
    ) * 3
    concepts = _concepts(page + FILLER, page + FILLER)
    assert [c.kind for c in _carrying(concepts, "Empereur")] == ["term"]  # "the Emperor", never acting
