"""Background work: the system's steps (scoring, dealing) and the bots' turns, as RQ jobs."""
