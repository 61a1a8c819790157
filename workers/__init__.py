"""The bots: what each kind of bot plays, from what its seat may see (the step jobs ask them; see `service.application.games`)."""
