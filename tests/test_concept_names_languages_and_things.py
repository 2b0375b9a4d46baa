"""X-Ray rules of the fourth round of issue 23, each on a small made-up book built through the real
concept map: a book in German (every noun capitalised), and the kinds and forms the book's own
evidence decides."""

from __future__ import annotations

from collections import Counter

from reader.app.knowledge.concept_map import build_concept_map
from reader.app.knowledge.noun_capitals import book_nouns
from reader.domain.knowledge import ExtractedConcept

GERMAN_FILLER = (
    "Es war ein stiller Tag, und nichts geschah in der kleinen Stadt. Der Regen fiel auf das Dach, "
    "und die Uhr schlug in dem leeren Zimmer. "
) * 4


def _concepts(*pages: str) -> dict[str, ExtractedConcept]:
    return {c.name: c for c in build_concept_map(list(pages))}


def _carrying(concepts: dict[str, ExtractedConcept], name: str) -> list[ExtractedConcept]:
    return [c for c in concepts.values() if name in {a.text for a in c.aliases}]


GERMAN_PAGE = (
    "Gregor sah die Tür an, und die Schwester stand in dem Zimmer. »Komm doch«, sagte Grete leise. "
    "Der Vater öffnete die Tür, aber Gregor blieb auf dem Bett. Die Mutter weinte, und der Vater "
    "sah die Mutter an. Dann rief Grete nach der Mutter, und Gregor hörte die Schwester. "
    "Still lag Gregors Zimmer; auf dem Tisch stand das Essen, und die Türe des Nebenzimmers war zu. "
)


def test_german_common_nouns_are_nobody_and_names_are_people() -> None:
    concepts = _concepts(*(GERMAN_PAGE + GERMAN_FILLER for _ in range(4)))
    people = {c.name for c in concepts.values() if c.kind == "person"}
    assert {"Gregor", "Grete"} <= people
    shown = {a.text for c in concepts.values() if c.kind in ("person", "place") for a in c.aliases}
    for noun in ("Tür", "Schwester", "Zimmer", "Vater", "Mutter", "Bett", "Tisch", "Essen", "Gregors Zimmer"):
        assert noun not in shown and f"the {noun}" not in shown
    (gregor,) = _carrying(concepts, "Gregor")
    assert "Gregors" not in {a.text for a in gregor.aliases}  # the genitive is the name itself


def test_the_noun_rule_holds_only_for_a_book_in_a_language_that_capitalises_nouns() -> None:
    english = "The Door was open and the Room was quiet, said Gregor to the Door. " * 20
    lower = Counter(w for w in english.split() if w.islower())
    assert book_nouns(english, lower) is None
    german = GERMAN_PAGE * 4
    nouns = book_nouns(german, Counter(w.strip(".,»«") for w in german.split() if w.islower()))
    assert nouns is not None
    assert {"Tür", "Zimmer", "Schwester", "Mutter"} <= nouns.nouns
    assert not {"Gregor", "Grete"} & nouns.nouns
    assert nouns.genitives == {"Gregors": "Gregor"}


FILLER = "The weather was mild and nothing else happened that day. " * 12


def test_a_hyphenated_place_whose_first_part_is_a_place_of_the_book_is_that_place() -> None:
    page = (
        "Ils arrivèrent à Yonville le soir. On dormait à Yonville, et la route de Yonville était "
        "longue. Le bourg nommé Yonville-l'Abbaye dormait. Il resta à Yonville-l'Abbaye. "
    )
    concepts = _concepts(page + FILLER, page + FILLER, page + FILLER)
    (town,) = _carrying(concepts, "Yonville")
    assert town.kind == "place"
    assert "Yonville-l'Abbaye" in {a.text for a in town.aliases}


def test_a_name_always_after_one_noun_and_of_is_part_of_a_things_name() -> None:
    page = (
        "Il but un verre d'eau de Seltz. Elle demanda de l'eau de Seltz, et Homais apporta l'eau "
        "de Seltz. Homais dit bonjour. "
    )
    concepts = _concepts(page + FILLER, page + FILLER)
    assert all(c.kind not in ("person", "place") for c in _carrying(concepts, "Seltz"))


def test_a_name_after_a_coach_word_is_a_vehicle_not_a_place() -> None:
    page = (
        "On attendait dans la cour. Elle monta dans l'Hirondelle. La vieille diligence l'Hirondelle "
        "arriva. Il resta dans l'Hirondelle, puis descendit de l'Hirondelle. "
    )
    concepts = _concepts(page + FILLER, page + FILLER)
    assert [c.kind for c in _carrying(concepts, "Hirondelle")] in ([], ["term"])


def test_a_rare_full_name_ending_in_the_short_name_is_that_person() -> None:
    scene = (
        "Heidi ran up the hill, and Heidi laughed. Clara waved at Heidi. Then Heidi sat down, and "
        "Heidi looked at Clara. Heidi smiled. "
    )
    formal = scene + '"What is the matter with you, Adelheid?" asked the lady. Heidi said nothing. '
    concepts = _concepts(*(scene + FILLER for _ in range(4)), formal + FILLER, formal + FILLER)
    (child,) = _carrying(concepts, "Heidi")
    assert "Adelheid" in {a.text for a in child.aliases}
    assert not _carrying(concepts, "Clara") or _carrying(concepts, "Clara") != [child]
