"""Typed errors of the engine, all under :class:`ValueError`.

An adapter tells them apart to phrase a refusal: a move that cannot be read
(:class:`InvalidMoveError`), a move that is not legal now (:class:`IllegalMoveError`,
with a machine-readable ``reason``), a seat moving out of turn
(:class:`NotYourTurnError`), bad rule options (:class:`RulesError`) and a bad match
record (:class:`RecordError`, with the hand and move it names).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "DominoError",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidMoveError",
    "NotYourTurnError",
    "RecordError",
    "RulesError",
]


class DominoError(ValueError):
    """Base of every engine error."""


class InvalidMoveError(DominoError):
    """A move (or tile) written in a way that cannot be read.

    Attributes:
        text: the offending text.
    """

    def __init__(self, message: str, *, text: str = "") -> None:
        super().__init__(message)
        self.text = text


class IllegalReason(StrEnum):
    """Why a well-formed move is not allowed now (rules.md, "The fixed core"; the two
    draw reasons: "Formats", "The deal and the boneyard")."""

    NOT_HELD = "not_held"
    DOES_NOT_FIT = "does_not_fit"
    SIDE_MISSING = "side_missing"
    SIDE_DOES_NOT_FIT = "side_does_not_fit"
    MUST_PLAY = "must_play"
    HAND_OVER = "hand_over"
    MUST_OPEN_WITH = "must_open_with"
    MUST_DRAW = "must_draw"
    CANNOT_DRAW = "cannot_draw"


class IllegalMoveError(DominoError):
    """A well-formed move that the rules do not allow now.

    Attributes:
        reason: an :class:`IllegalReason`.
        seat: the seat that tried the move.
        move: the move's text (records.md notation).
        detail: extra data for phrasing (e.g. ``{"ends": (6, 4)}``).
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        seat: int | None = None,
        move: str = "",
        detail: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = IllegalReason(reason)
        self.seat = seat
        self.move = move
        self.detail = detail or {}


class NotYourTurnError(DominoError):
    """A seat tried to move when another seat is to move.

    Attributes:
        seat: the seat that tried.
        turn: the seat whose turn it is.
    """

    def __init__(self, seat: int, turn: int) -> None:
        super().__init__(f"it is seat {turn}'s turn, not seat {seat}'s")
        self.seat = seat
        self.turn = turn


class RulesError(DominoError):
    """A rule option outside rules.md's table, or an unknown option or preset.

    Attributes:
        option: the option's name (or ``"preset"``).
        allowed: a human-readable list of the allowed values.
    """

    def __init__(self, message: str, *, option: str = "", allowed: str = "") -> None:
        super().__init__(message)
        self.option = option
        self.allowed = allowed


class RecordError(DominoError):
    """An invalid match record (records.md).

    ``str(error)`` is the one line ``domino replay`` prints, e.g.
    ``hand 1, move 5: seat 0 does not hold 4-1``.

    Attributes:
        hand: the hand, counted from 1, or None for a problem outside any hand.
        move: the move, counted from 1 over the entries of ``moves``, or None.
        reason: the reason without the location prefix.
    """

    def __init__(self, reason: str, *, hand: int | None = None, move: int | None = None) -> None:
        if hand is None:
            where = "record"
        elif move is None:
            where = f"hand {hand}"
        else:
            where = f"hand {hand}, move {move}"
        super().__init__(f"{where}: {reason}")
        self.hand = hand
        self.move = move
        self.reason = reason
