"""Errors raised by rummy_env. All are ``ValueError`` subclasses, so callers that only
know "bad input" can catch one type, and each message names what was wrong."""

from __future__ import annotations


class RummyError(ValueError):
    """Base class of every error this package raises on bad input."""


class IllegalActionError(RummyError):
    """An action that the rules do not allow in the current position (nothing was applied)."""


class RuleConfigError(RummyError):
    """A rule option or environment option with a bad name or value."""


class ScenarioError(RummyError):
    """A scenario (position given as plain data) that is malformed or inconsistent."""


class CardParseError(RummyError):
    """Card text that does not name a card."""
