"""Why a tournament command is refused; each is a 422 with its own code."""

from __future__ import annotations

from domain.errors import OptionsError, RuleError


class TournamentError(RuleError):
    """A well-formed tournament command that the tournament's state does not allow."""

    code = "tournament_error"


class InvalidTournament(OptionsError):
    """Settings no tournament can be created with (HTTP 422)."""

    code = "invalid_tournament"


class AlreadyRegistered(TournamentError):
    """The name is already registered in this tournament."""

    code = "already_registered"


class RegistrationClosed(TournamentError):
    """The tournament has started; nobody may register any more."""

    code = "registration_closed"


class TournamentFull(TournamentError):
    """Every place in the tournament is taken."""

    code = "tournament_full"


class TooFewPlayers(TournamentError):
    """Not enough players are registered to seat the first round."""

    code = "too_few_players"


class NotRegistering(TournamentError):
    """The tournament has already started (or finished)."""

    code = "already_started"


class NotActive(TournamentError):
    """The tournament is not being played (not started yet, or over)."""

    code = "tournament_not_active"


class GameNotInTournament(TournamentError):
    """The game is not linked to any table of this tournament's current round."""

    code = "game_not_in_tournament"


class ResultAlreadyRecorded(TournamentError):
    """The table's result is already on record."""

    code = "result_already_recorded"


class TableAlreadyLinked(TournamentError):
    """The table already has its game."""

    code = "table_already_linked"


class GameNotFinished(TournamentError):
    """The game has no result yet."""

    code = "game_not_finished"


class NotPlaying(TournamentError):
    """The entrant has already withdrawn or been disqualified."""

    code = "not_playing"


class NotAnnullable(TournamentError):
    """The table has no result that can be annulled (or replayed) now."""

    code = "not_annullable"


class InvitationRequired(TournamentError):
    """Registration is by invitation code, and the code given is missing or not the organiser's."""

    code = "invitation_required"


class NotPending(TournamentError):
    """The entrant is not waiting for the organiser's approval."""

    code = "not_pending"


class OrganiserAtTable(TournamentError):
    """The organiser sits at the table: only every entrant at it together may annul its result."""

    code = "organiser_at_table"
