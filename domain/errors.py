"""Typed domain errors; the service maps each base to one HTTP status."""

from typing import ClassVar


class DomainError(Exception):
    """Base of every error the domain raises."""

    # A class variable, each subclass its own: compiled (`domain.compiled_rules`), an attribute set in the class
    # body without ClassVar would be an instance's, which the exception's construction never sets.
    code: ClassVar[str] = "domain_error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class RuleError(DomainError):
    """A well-formed command that the rules do not allow (HTTP 422)."""

    code = "illegal_action"


class NotYourTurn(RuleError):
    """The seat is not among those who may act now."""

    code = "not_your_turn"


class GameOver(RuleError):
    """The game has ended; nothing more can be done in it."""

    code = "game_over"


class OptionsError(DomainError):
    """Game options or seat counts that no game can be created with (HTTP 422: the request was well-formed)."""

    code = "invalid_options"
