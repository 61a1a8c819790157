"""Pure game rules: no Flask, no Redis, no clock, no global randomness."""

# Before any other module of ours is imported: the rules compiled by mypyc, where built and
# wanted, are loaded in place of their source (`domain.compiled_rules`; MENAGERIE_PURE=1 turns them off).
from domain import compiled_rules

compiled_rules.install()
