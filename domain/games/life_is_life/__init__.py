"""Life is Life (RULES.md §1): trade rows for majorities, knock, survive the phases.

Events: GameSetUp, PhaseDealt (hands, rows, set-aside cards), RowTraded, Knocked,
SuddenDeathDeclared, then the system step PhaseScored (normal end only),
LivesLost, PlayerEliminated (one per player out) and the next PhaseDealt.

Modules: `cards` (the deck and a phase's arithmetic), `state` (State and
evolve), `moves` (to_act, legal_actions, decide), `steps` (setup, system_due,
advance, result).

Rulings where RULES.md and the rulebook leave a case open:

- Sudden death is checked on the whole hand after each trade of the trading
  player, also once someone has knocked (a trade in the last round declares
  it too, and the phase ends at once), even when the combination came with
  the deal; it is declared automatically (the rulebook says the player must
  announce it). A knock or a pass is no trade, so it never declares. Holding two combinations at once
  declares both; the effect is the same.
- A sudden death reveals only the combination; the other cards stay hidden.
  A normal scoring reveals every remaining hand (the rulebook lays them face up).
- Lives never go below 0; the advanced variant's extra life has no cap.
- In the last round a knock is a pass and is always allowed, also to a player
  who has not traded in this phase. The knocker gets no further turn.
- Someone always survives a phase (the highest total or the declarer loses
  nothing), so the game always ends with exactly one player in.
- Places: the winner 1; the others by the phase they went out in, later is
  better; players out in the same phase share a place (1, 2, 3, 3, 5).
- Cards in hands, rows and events are sorted species names (alphabetical).
- The state keeps a public memory, `known`: the cards each player took from the
  tableau and has not laid down since (a lower bound, since a laid card may
  have been one of those taken). Everyone saw those trades, so every view
  shows it; it spares human players and bots the bookkeeping.
- Nothing ends a phase in which nobody knocks, and a card laid down may be
  taken straight back (the rulebook forbids only laying down the very cards
  of the row taken), so players may trade for ever: the event cap
  (`EVENT_CAPS`; `domain.game`) ends such a game. It ranks as the result does,
  with the players still in by their lives (more lives, better place; equal
  lives share), above everyone out (`steps.standing`); the phase in play is
  not scored.
"""

from __future__ import annotations

from domain.games.life_is_life import moves, state, steps
from domain.games.life_is_life.hidden import HIDDEN
from domain.games.life_is_life.moves import KnockError, TradeError
from domain.rules import Option

GAME_ID = "life-is-life"
# The events a game may hold, by seats (`Rules.event_caps`): five times the longest game random or heuristic
# bots played (the longest of 100 games a table: 1084, 1429 and 1184 events (3 to 5 seats, random bots); bench/game_lengths.py), rounded up to a thousand, at least 1000.
EVENT_CAPS = {3: 6000, 4: 8000, 5: 6000}


class LifeIsLife:
    """Life is Life (Lorenz Kutschke, NSV 2016) for 3 to 5 players."""

    id = GAME_ID
    title = "Life is Life"
    min_seats = 3
    max_seats = 5
    rules_version = "1"
    rules_versions = ("1",)
    event_caps = EVENT_CAPS
    options = (
        Option(
            "advanced",
            "bool",
            False,
            "Advanced variant: only all 5 rabbits or all 5 pigs end a phase by sudden death, "
            "and the declaring player gains 1 life (no cap).",
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


RULES = LifeIsLife()

__all__ = ["GAME_ID", "RULES", "KnockError", "LifeIsLife", "TradeError"]
