"""RQ jobs and bots."""
