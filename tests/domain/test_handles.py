"""Handles: one handle however it is cased or composed, no look-alikes, no names the service keeps."""

from __future__ import annotations

import pytest

from domain.players import HandleConfusable, HandleReserved, InvalidHandle, check_handle, check_name, skeleton


@pytest.mark.parametrize("spelling", ["Ann", "ANN", "ann", "Ａｎｎ"])
def test_every_casing_and_width_of_a_handle_is_the_same_handle(spelling):
    assert check_handle(spelling).normal == "ann"


def test_a_handle_keeps_its_spelling_for_display():
    assert check_handle("AnnB").display == "AnnB"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("асе", "ace"),  # all Cyrillic
        ("ροκο", "poko"),  # all Greek
        ("rnike", "mike"),
        ("Ivan", "lvan"),
        ("b0b", "bob"),
        ("Zoë", "zoe"),
    ],
)
def test_look_alike_handles_have_one_skeleton(one, other):
    assert skeleton(one) == skeleton(other)


def test_handles_that_only_sound_alike_are_different():
    assert skeleton("anne") != skeleton("ann")


@pytest.mark.parametrize("handle", ["pаypal", "аnn"])  # a Cyrillic а among Latin letters
def test_a_handle_mixing_look_alike_scripts_is_refused(handle):
    with pytest.raises(HandleConfusable):
        check_handle(handle)


@pytest.mark.parametrize("handle", ["ab", "a" * 25, "an n", "ann_", "ann\u200b", "ann!", "-ann"])
def test_a_handle_is_three_to_twenty_four_letters_digits_or_joiners(handle):
    with pytest.raises(InvalidHandle):
        check_handle(handle)


@pytest.mark.parametrize("name", ["bot:heuristic", "BOT:random", "bоt:heuristic", "bot :x", "Bot：x", "player:p-1"])
def test_names_the_service_keeps_are_refused_in_any_spelling(name):
    with pytest.raises(HandleReserved):
        check_name(name)
    with pytest.raises(HandleReserved):
        check_handle(name)


@pytest.mark.parametrize("name", ["system", "Admin", "player", "BOT", "Erased", "erasеd"])
def test_the_bare_reserved_names_are_refused_as_handles_but_not_as_a_guests_label(name):
    with pytest.raises(HandleReserved):
        check_handle(name)
    check_name(name)


@pytest.mark.parametrize("name", ["ann", "Robot Rita", "bots of Mars", "anna: the first", "Player"])
def test_other_guest_names_are_fine(name):
    check_name(name)
