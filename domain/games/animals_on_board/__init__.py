"""Animals on Board (zur Linde & Sentker, eggertspiele 2016) — RULES.md §2, id `animals-on-board`.

Tiles are named "<species>-<value>", e.g. "panda-3". The face-down tile in the
centre is named "hidden" in every view, legal action and public event; a
player may name it only so (its real name is refused as "not in the group").

Actions (JSON):
- `{"type": "keep", "tile": "panda-3"}` — setup: all seats choose at once, in
  secret; to_act is every seat that has not chosen yet.
- `{"type": "split", "group": g, "first": [names]}` — `g` indexes the centre's
  list of groups as shown in the view; `first` is any non-empty proper subset of
  the group, which becomes group g, the rest group g+1. Groups of up to 7 tiles
  have every split listed, mirror images once (the group's last tile always
  stays in the second group). A bigger group gets ONE template item:
  `{"type": "split", "group": g, "first": null, "tiles": [names],
  "choose": "first: any non-empty proper subset of tiles, ..."}`; a client
  replaces `first` with a subset of `tiles`, or posts it verbatim: `first: null`
  asks for a split drawn from the seed (uniform over the distinct splits).
  Extra keys (`tiles`, `choose`) are ignored.
- `{"type": "take", "group": g}` — listed only when the seat has a crate per tile.
- `{"type": "forfeit"}` — the only legal action when the seat can neither split
  nor pay for any group (the rulebook's forfeited turn, made explicit).

Events: GameSetUp, TileKept, SetupTilesRevealed, RoundStarted, GroupSplit,
GroupTaken, TurnForfeited, RoundEnded, ArksDeparted.

Modules: `tiles` (the tiles and an ark's departure), `state` (State and
evolve), `moves` (to_act, legal_actions, decide), `steps` (setup, system_due,
advance, result).

Rulings where RULES.md and the rulebook leave a case open:
- After each turn: if that was the final turn, the round ends; else if no
  player left in the round can split or pay for a group, the round ends (RULES
  ruling; covers an empty centre); else if exactly one player is left they
  get a final turn; else the next player clockwise who has not dropped out.
- If nobody dropped out in a round, the starting player flag stays put.
- A split that would bring a 6th crate leaves 4 (the player returns one).
- The ≥10 announcement is the `announced` flag of GroupTaken (public).
- Departure: every owned tile, hidden ones included, counts; exact pairs go;
  above 10 the engine keeps exactly 10 (if possible) with most points, then
  most species, never leaving exactly 2 of a species; a single keeps its
  highest printed tile.
- At departure every ark is shown: ArksDeparted is public.
- A game stopped at its event cap (`EVENT_CAPS`; `domain.game`) ranks the arks
  as if they departed then (`steps.standing`): prepared and scored as at the
  game's end, with the crates each player holds. The result shows every ark,
  as the end's ArksDeparted does.
"""

from __future__ import annotations

from domain.games.animals_on_board import moves, state, steps
from domain.games.animals_on_board.hidden import HIDDEN
from domain.games.animals_on_board.tiles import SPECIES
from domain.rules import Option

GAME_ID = "animals-on-board"
# The events a game may hold, by seats (`Rules.event_caps`): five times the longest game random or heuristic
# bots played (the longest of 500 games a table: 96, 104 and 121 events (2, 3, 4 seats); bench/game_lengths.py), rounded up to a thousand, at least 1000.
EVENT_CAPS = {2: 1000, 3: 1000, 4: 1000}


class AnimalsOnBoard:
    """Animals on Board for 2 to 4 players."""

    id = GAME_ID
    title = "Animals on Board"
    min_seats = 2
    max_seats = 4
    rules_version = "1"
    rules_versions = ("1",)
    event_caps = EVENT_CAPS
    options = (
        Option(
            "left_out",
            "list",
            [],
            "species left out (2 with 3 players, 4 with 2 players); empty: drawn from the seed",
            choices=SPECIES,
        ),
    )
    bots = ("random", "heuristic", "mcts")
    hidden = HIDDEN

    check_options = staticmethod(steps.check_options)
    setup = staticmethod(steps.setup)
    evolve = staticmethod(state.evolve)
    to_act = staticmethod(moves.to_act)
    legal_actions = staticmethod(moves.legal_actions)
    decide = staticmethod(moves.decide)
    actions = moves.ACTION_FORMS
    system_due = staticmethod(steps.system_due)
    advance = staticmethod(steps.advance)
    result = staticmethod(steps.result)
    standing = staticmethod(steps.standing)


RULES = AnimalsOnBoard()

__all__ = ["GAME_ID", "RULES", "AnimalsOnBoard"]
