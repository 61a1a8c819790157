"""What of Zop Zoo's events is hidden, and from whom: read by the commitments and the redaction alike."""

from __future__ import annotations

from domain.commitments import NOBODY, Declaration, Hidden

HIDDEN: Declaration = {
    # Only the black deck's order is hidden, from everyone (its size is public).
    "RoundDealt": (Hidden("deck", NOBODY),),
    "BlackDeckRefilled": (Hidden("deck", NOBODY),),
}
