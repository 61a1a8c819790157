"""Rule tests: nothing but domain/ and projections/ (no Flask, no Redis)."""
