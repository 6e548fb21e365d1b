"""A place on the table prints as contract 2's `where` text and reads back from it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.errors import NotationError
from companion.rules.place import OFFLINE, Place
from companion.rules.position import FLAG_COUNT

places = st.builds(Place, st.integers(0, FLAG_COUNT), st.sampled_from(("north", "south")))


@given(places)
def test_text_round_trips(place: Place) -> None:
    assert Place.parse(str(place)) == place
    assert place.offline == (place.flag == OFFLINE)


@given(st.text(max_size=20))
def test_any_text_is_a_place_or_a_notation_error(text: str) -> None:
    try:
        place = Place.parse(text)
    except NotationError:
        return
    assert str(place) == text


def test_the_contract_texts() -> None:
    assert str(Place(4, "south")) == "flag 4 south"
    assert str(Place(OFFLINE, "north")) == "offline north"
    assert Place.parse("flag 9 north") == Place(9, "north")


@pytest.mark.parametrize("text", ["flag 0 north", "flag 10 south", "flag 04 south", "offline",
                                  "flag 3 east", "table", "flag -1 north", "offline north 2"])
def test_malformed_places_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match="not a place"):
        Place.parse(text)


@pytest.mark.parametrize("flag,side", [(10, "north"), (-1, "south"), (3, "east")])
def test_impossible_places_cannot_be_built(flag: int, side: str) -> None:
    with pytest.raises(NotationError):
        Place(flag, side)  # type: ignore[arg-type]
