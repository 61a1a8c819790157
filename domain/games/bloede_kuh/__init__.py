"""Blöde Kuh (Florian Racky, 2018), 3–6 players: shed your hand cards, pass the
Nobody-wants-it cards on, collect the fewest points over three rounds.

Events: CardsDealt, CardDiscarded, PairDiscarded, Passed, ChoiceAwaited,
DrawPileRefilled, CardTaken, HorseCardChosen, HorseCardsPassed, TurnEnded,
RoundScored. Piles keep their top card last.

Modules: `cards` (species, hands as counts, points), `state` (State and
evolve), `moves` (to_act, legal_actions, decide), `steps` (setup, system_due,
advance, result).

Rulings where RULES.md §3 and the rulebook leave a case open:
- Who acts is a set: the turn's player; after a pig, only the left neighbour
  (it takes the top card of the draw or the discard pile); after a horse, every
  seat holding cards, each choosing in secret and in any order. The pass
  resolves in the batch of the last choice, everyone giving to the left.
- "The player whose turn it was" is the seat that discarded (or passed); a
  pig's take and a horse pass belong to that turn. The round ends when the turn
  is over and that player's hand is empty: a pig as the last card is still
  answered by the left neighbour, then the round ends; a cow as the last card
  draws a card, so the round goes on; a horse as the last card passes nothing
  and the round ends. A horse pass never empties a hand, since every seat that
  gives also receives; hands are counted once the pass has resolved.
- The draw pile is refilled from the whole discard pile (a recorded shuffle)
  as soon as it becomes empty: right after the take that emptied it, in the
  same batch, before anyone acts again (RULES.md §3, rules version 2). With
  both piles empty the refill waits for the next discard and comes right after
  it, before the card's action: a cow discarded then draws itself back, a pig's
  left neighbour can only draw it. With both piles empty a take is skipped,
  and a pass is posted without "from". Games created under rules version 1
  keep its lazy refill: the draw pile was refilled only when a card had to be
  drawn from it, so meanwhile the known top discard could be taken (the
  version is recorded in GameCreated and in every CardsDealt).
- A pair moves this round's NWI card of its species to the left neighbour of
  its holder, even when that is the pair's player; if nobody holds it, to the
  left neighbour of the pair's player.
- A seat with no cards left never takes a minus card.
- Scoring is part of the action that ends a round (RoundScored); the next deal
  is a system step (`advance`), dealt by the player who ended the last round.
- Places: 1 + the number of seats with a strictly lower total.
- A game stopped at its event cap (`EVENT_CAPS`; `domain.game`) ranks by the
  totals as they stand (`steps.standing`): the minus and NWI cards in front of
  each player. The round in play scores no hand cards, as it has not ended.
"""

from __future__ import annotations

from domain.games.bloede_kuh import moves, state, steps
from domain.games.bloede_kuh.hidden import HIDDEN
from domain.games.bloede_kuh.state import MAX_SEATS, RULES_VERSIONS
from domain.rules import Option

GAME_ID = "bloede-kuh"
# The events a game may hold, by seats (`Rules.event_caps`): five times the longest game random or heuristic
# bots played (the longest of 500 games a table: 1203, 1411, 1514 and 1760 events (3 to 6 seats, random bots); bench/game_lengths.py), rounded up to a thousand, at least 1000.
EVENT_CAPS = {3: 7000, 4: 8000, 5: 8000, 6: 9000}


class BloedeKuh:
    """The rules of Blöde Kuh."""

    id = GAME_ID
    title = "Blöde Kuh"
    min_seats = 3
    max_seats = MAX_SEATS
    rules_version = RULES_VERSIONS[-1]
    rules_versions = RULES_VERSIONS
    event_caps = EVENT_CAPS
    options: tuple[Option, ...] = ()
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


RULES = BloedeKuh()

__all__ = ["GAME_ID", "RULES", "BloedeKuh"]
