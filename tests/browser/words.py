"""The words the page shows in each of its languages, as the browser tests read them (no test here)."""

from __future__ import annotations

import re
from typing import Any

# Words only the English interface shows (lobby, table, log, results, rules): none may show in another language.
ENGLISH = [
    "Confirm",
    "Clear",
    "Your hand",
    "What happened",
    "Last move",
    "How to play",
    "Waiting for",
    "Leaderboards",
    "Result",
    "wins",
    "Round",
    "Draw pile",
    "Discard pile",
    "Knock",
    "Row ",
]
# A translation key shown as such ("lil.row", "zz.kind.minus") means a missing entry.
RAW_KEY = re.compile(
    r"\b(?:page|seat|log|result|status|table|clock|move|invite|lobby|join|form|option|cup|board|"
    r"replay|error|rules|card|hand|animal|lil|bk|aob|zz|org|guide)\.[a-z]"
)

# The browser's language list (what it asks for) for each of the page's languages.
BROWSER_LANG = {"en": "en-US", "fr": "fr-FR", "de": "de-DE"}

LANGUAGES: dict[str, dict[str, Any]] = {
    "en": {
        "confirm": "Confirm",
        "last_move": "Last move:",
        "hand": "Your hand",
        "rules": "How to play",
        "wins": ("wins", "share"),
        "cards": None,  # the names the games' own modules give: not listed again here
    },
    "fr": {
        "confirm": "Valider",
        "last_move": "Dernier coup :",
        "hand": "Votre main",
        "rules": "Comment jouer",
        "wins": ("gagne", "partagent"),
        # The French rulebook's names (Life is Life) and the expected ones (Blöde Kuh).
        "cards": {
            "Girafe",
            "Ours",
            "Taupe",
            "Chèvre",
            "Mouton",
            "Chien",
            "Lapin",
            "Cochon",
            "Chat",
            "Souris",
            "Cheval",
            "Vache",
        },
    },
    "de": {
        "confirm": "Bestätigen",
        "last_move": "Letzter Zug:",
        "hand": "Deine Hand",
        "rules": "So wird gespielt",
        "wins": ("gewinnt", "teilen sich"),
        "cards": {
            "Schaf",
            "Schwein",
            "Pferd",
            "Kuh",
            "Giraffe",
            "Bär",
            "Maulwurf",
            "Ziege",
            "Hund",
            "Hase",
            "Katze",
            "Maus",
        },
    },
}
# The games whose card names the lists above hold (Life is Life's and Blöde Kuh's animals).
NAMED_CARDS = ("life-is-life", "bloede-kuh")
