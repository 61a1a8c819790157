"""What of Life is Life's events is hidden, and from whom: read by the commitments and the redaction alike."""

from __future__ import annotations

from domain.commitments import NOBODY, OWNER, Declaration, Hidden

HIDDEN: Declaration = {
    # A hand to its owner; the set-aside cards to nobody (their counts are public).
    "PhaseDealt": (Hidden("hands.*", OWNER), Hidden("set_aside", NOBODY)),
}
