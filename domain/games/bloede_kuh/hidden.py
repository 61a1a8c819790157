"""What of Blöde Kuh's events is hidden, and from whom: read by the commitments and the redaction alike."""

from __future__ import annotations

from domain.commitments import NOBODY, OWNER, OWNER_AND_NEXT, SEAT, Declaration, Hidden

HIDDEN: Declaration = {
    # A hand to its owner; the draw pile's order to nobody (sizes are public).
    "CardsDealt": (Hidden("hands.*", OWNER), Hidden("draw", NOBODY)),
    "DrawPileRefilled": (Hidden("draw", NOBODY),),
    # A card drawn blind to its taker; a card taken from the discard pile was on show.
    "CardTaken": (Hidden("card", SEAT, when=("from", "draw")),),
    # A horse choice to its chooser; once passed, each card to its giver and its receiver.
    "HorseCardChosen": (Hidden("card", SEAT),),
    "HorseCardsPassed": (Hidden("cards.*", OWNER_AND_NEXT),),
}
