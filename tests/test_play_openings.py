"""Opening names (protocol.play.openings): names where a published list gives them, the
ballot numbers of the built-in tables."""
from __future__ import annotations

from protocol.play.openings import opening_name


def test_english_names_and_acf_ballot() -> None:
    assert opening_name("english", ["9-13", "22-18", "11-16", "24-19"]) == \
        "Edinburgh Single · ACF ballot 9"
    assert opening_name("english", ["12-16"]) == "Dundee"


def test_russian_opening_is_its_idf_label_and_a_set_up_game_has_none() -> None:
    assert opening_name("russian", ["22-18", "11-16", "18-14"]).startswith("IDF opening ")
    assert opening_name("english", ["9-13"], from_start=False) is None
    assert opening_name("international", ["32-28"]) is None
