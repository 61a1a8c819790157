"""The ids the service gives games and tournaments: one form each, checked wherever an id comes in.

A game's id is 16 lowercase hexadecimal digits (`service.application.games`
draws them), a tournament's is `t-` and 16 more (`service.application.tournaments`).
Nothing else names a game or a tournament: not a route, an imported export, a
command line or an archive file. An id of this form holds no `/`, `.` or brace,
so it is safe in a file name, a Redis key's hash tag and an RQ job id.
"""

from __future__ import annotations

import re

GAME_ID_FORM = "16 lowercase hexadecimal digits"
TOURNAMENT_ID_FORM = "t- and 16 lowercase hexadecimal digits"

_GAME_ID = re.compile(r"[0-9a-f]{16}")
_TOURNAMENT_ID = re.compile(r"t-[0-9a-f]{16}")


def is_game_id(value: object) -> bool:
    """Tell whether `value` is a game id of the service's own form."""
    return isinstance(value, str) and _GAME_ID.fullmatch(value) is not None


def is_tournament_id(value: object) -> bool:
    """Tell whether `value` is a tournament id of the service's own form."""
    return isinstance(value, str) and _TOURNAMENT_ID.fullmatch(value) is not None
