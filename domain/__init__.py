"""Pure game rules: no Flask, no Redis, no clock, no global randomness."""
