"""The standings CSV: no name a player types runs as a formula in the organiser's spreadsheet."""

from __future__ import annotations

import pytest

from projections.tournament import spreadsheet_cell


@pytest.mark.parametrize(
    "name",
    [
        "=HYPERLINK(1)",
        "+1",
        "-1",
        "@SUM(A1)",
        " =1+1",
        "   -2",
        "\u00a0=1",  # a no-break space first
        "\u3000@SUM(A1)",  # an ideographic space first
        "\uff1dHYPERLINK(1)",  # full-width =
        "\uff0b1",  # full-width +
        "\uff0d1",  # full-width -
        "\uff20SUM(A1)",  # full-width @
        " \uff1d1",
        "\t=1",
        "\r=1",
        "\tann",
        "\rann",
    ],
)
def test_a_name_a_spreadsheet_could_run_is_quoted(name: str) -> None:
    assert spreadsheet_cell(name) == "'" + name


@pytest.mark.parametrize("name", ["ann", "Ann-Marie", "a=b", "x+1", "mail@example.org", " ann", "\uff21nn", ""])
def test_a_plain_name_is_left_as_typed(name: str) -> None:
    assert spreadsheet_cell(name) == name
