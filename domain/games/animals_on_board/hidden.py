"""What of Animals on Board's events is hidden, and from whom: read by the commitments and the redaction alike."""

from __future__ import annotations

from domain.commitments import ACTOR, NOBODY, OWNER, Declaration, Hidden

HIDDEN: Declaration = {
    # A setup hand to its owner (its size is public); the tile kept from it to the keeper.
    "GameSetUp": (Hidden("hands.*", OWNER),),
    "TileKept": (Hidden("tile", ACTOR),),
    # The face-down tile in the centre to nobody; once taken, to its taker.
    "RoundStarted": (Hidden("face_down", NOBODY),),
    "GroupTaken": (Hidden("face_down", ACTOR),),
}
