"""What each seat and the public may see of a table (design.md, rule 2: views hide
information). Pure functions of a :class:`~bot.core.table.Table`: no labels, no text."""

from __future__ import annotations

import math
from dataclasses import replace

from bot.core.buttons import encode_press
from bot.core.commands import PlayerRef
from bot.core.events import MatchEnded, MoveChoice, SeatInfo, Seats, TableChanged, YourTiles
from bot.core.table import Table
from bot.core.vocabulary import Phase
from engine.views import PublicView, public_view, seat_view

__all__ = [
    "ROBOT_NAMES",
    "ended_board",
    "public",
    "seat_infos",
    "table_changed",
    "your_tiles",
]

ROBOT_NAMES = ("Robot Tuerca", "Robot Chispa", "Robot Turbo", "Robot Bit")
"""A robot's name by seat: distinct at a table, so "dominó de Robot Chispa" says which
robot. Proper names, the same in every language; the level is shown apart (the seat's
robot tag), so the name fits a seat panel."""


def seat_infos(table: Table) -> Seats:
    """The table's seats (2, 3 or 4: ``rules.players``) as everyone may see them."""
    infos = []
    for index, s in enumerate(table.seats):
        if s.player is not None:
            infos.append(
                SeatInfo(
                    seat=index,
                    name=s.player.display_name,
                    player=s.player,
                    player_id=s.player_id,
                    is_robot=s.away,
                    robot_level=table.robot_level if s.away else None,
                    away=s.away,
                    back_by=s.back_by,
                )
            )
        elif s.robot_level is not None:
            infos.append(
                SeatInfo(
                    seat=index, name=ROBOT_NAMES[index], is_robot=True, robot_level=s.robot_level
                )
            )
        else:
            infos.append(SeatInfo(seat=index, reserved_for=s.reserved_for))
    return tuple(infos)


def public(table: Table) -> PublicView:
    """The public view of the table's match, built once per position."""
    match = table.match
    assert match is not None
    cached = table.view_cache
    if cached is not None and cached[0] is match:
        return cached[1]
    view = public_view(match)
    table.view_cache = (match, view)
    return view


def table_changed(table: Table, now: float) -> TableChanged:
    """The table's public state at ``now`` (epoch seconds)."""
    match = table.match
    deadline = table.deadline
    return TableChanged(
        table_id=table.id,
        chat=table.chat,
        label=table.label,
        phase=table.phase,
        rules=table.rules,
        seats=seat_infos(table),
        view=public(table) if match is not None else None,
        hand_number=table.hand_number,
        move_number=table.move_number,
        deadline=deadline,
        seconds_left=max(0, math.ceil(deadline - now)) if deadline is not None else None,
        turn=match.hand.turn if match is not None and not match.hand.is_over else None,
        challenge=table.challenge and table.phase is Phase.WAITING,
        tournament=table.tournament is not None,
        private=table.tournament is not None and bool(table.tournament.get("private")),
    )


def your_tiles(
    table: Table, seat: int, *, to: PlayerRef | None = None, after_draw: bool = False
) -> YourTiles:
    """Seat ``seat``'s private view and legal moves (none while a robot plays for it),
    for the human there (or ``to``); ``after_draw``: sent right after the seat drew, so
    it names the tile drawn (``YourTiles.drawn``, private to the seat)."""
    match = table.match
    assert match is not None
    state = table.seats[seat]
    player = to or state.player
    assert player is not None
    view = seat_view(match, seat)
    hand, number = table.hand_number, table.move_number
    moves = view.legal_moves() if state.present else []
    choices = tuple(
        MoveChoice(move=m, code=m.code(), payload=encode_press(table.id, hand, number, m.code()))
        for m in moves
    )
    mine = view.is_my_turn and state.present
    return YourTiles(
        table_id=table.id,
        chat=table.chat,
        to=player,
        seat=seat,
        view=view,
        moves=choices,
        hand_number=hand,
        move_number=number,
        is_your_turn=mine,
        deadline=table.deadline if mine else None,
        seats=seat_infos(table),
        label=table.label,
        drawn=match.hand.drawn_tiles(seat)[-1] if after_draw else None,
    )


def ended_board(latest: TableChanged, final: MatchEnded | None) -> TableChanged:
    """The board as a finished (or closed) table shows it: ``latest``'s table in the
    ENDED phase, with no turn or timer, at the match's final position when ``final``
    (its end) is given; no TableChanged follows the last move, so only the match's end
    carries the winning tile."""
    return replace(
        latest,
        phase=Phase.ENDED,
        seats=final.seats if final is not None else latest.seats,
        view=final.view if final is not None else latest.view,
        turn=None,
        deadline=None,
        seconds_left=None,
    )
