"""The registry of games: id -> rules object."""

from __future__ import annotations

from domain.rules import Rules

RULES: dict[str, Rules] = {}
_loaded = False


def register(rules: Rules) -> Rules:
    """Add a game to the registry (each game module calls this once)."""
    RULES[rules.id] = rules
    return rules


def load_all() -> dict[str, Rules]:
    """Import every game module (once) so that each registers itself."""
    import importlib
    import pkgutil

    global _loaded
    if _loaded:
        return RULES
    _loaded = True
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")
    return RULES
