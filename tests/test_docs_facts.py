"""Facts the guides state that the code decides: each guide says what the code does."""

from __future__ import annotations

from pathlib import Path

from domain.game import MCTS_ITERATIONS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_bots_guide_gives_the_mcts_budgets_range_the_rules_allow():
    low, high = MCTS_ITERATIONS
    assert f'`"options": {{"mcts_iterations": 50}}` ({low} to {high})' in (DOCS / "bots.md").read_text()


def test_the_integrators_guide_says_a_token_of_the_wrong_kind_is_401_and_another_tournaments_is_403():
    rows = {
        line.split("|")[1].strip(): line
        for line in (DOCS / "integrators.md").read_text().splitlines()
        if line.startswith("| 4")
    }
    assert "a tournament's token on a game route" in rows["401"]
    assert "a tournament token of another tournament" in rows["403"] and "tournament's token" not in rows["403"]
