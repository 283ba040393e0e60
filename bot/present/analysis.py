"""'¿Qué debí jugar?' as players read it (issue 15): the costliest decisions of their
hand in a sentence each, the hand's accuracy, and the board at the costliest moment."""

from __future__ import annotations

from typing import Final

from bot.core.analysis import AnalysisReply
from bot.core.events import SeatInfo
from bot.present.facts import table_facts
from bot.present.i18n import N_, Translator, language_of, translator
from engine.moves import Move, Side
from engine.robots.analysis import CLOSE_ENOUGH, Decision
from engine.views import PublicView
from render.facts import TableFacts

__all__ = [
    "ANALYSING",
    "SHOWN",
    "analysis_button",
    "analysis_picture",
    "analysis_text",
    "move_phrase",
]

SHOWN = 3
"""Decisions an analysis names (the costliest)."""


ANALYSING: Final = N_("Analysing your last hand…")
"""What a player is told while the maestro searches their last hand."""


def analysis_button(language: str) -> str:
    """The label of the button under a hand's result that asks for the analysis."""
    return translator(language_of(language))("What should I have played?")


def move_phrase(move: Move, language: str) -> str:
    """``"5-2 por la izquierda"``, ``"5-2"`` (one way only), ``"paso"`` or ``"roba del
    pozo"``."""
    _ = translator(language_of(language))
    if move.is_draw:
        return _("draws from the boneyard")
    if move.tile is None:
        return _("pass")
    if move.side is Side.LEFT:
        return _("{tile} on the left", tile=str(move.tile))
    if move.side is Side.RIGHT:
        return _("{tile} on the right", tile=str(move.tile))
    return str(move.tile)


def _points(_: Translator, value: float) -> str:
    n = max(1, round(value))
    return _.ngettext("~{n} point", "~{n} points", n)


def _line(_: Translator, decision: Decision, language: str) -> str:
    return _(
        "Move {number}: {played} cost {points}; better {best}.",
        number=decision.number,
        played=move_phrase(decision.played, language),
        points=_points(_, decision.cost),
        best=move_phrase(decision.best.move, language),
    )


def analysis_text(reply: AnalysisReply, language: str) -> str:
    """The analysis as a message: accuracy, then the costliest decisions (at most
    :data:`SHOWN`), each with the move played, what it cost and the better move."""
    lang = language_of(language)
    _ = translator(lang)
    analysis = reply.analysis
    decisions = analysis.decisions
    if not decisions:
        return _("Hand {hand}: you had no real choice to make.", hand=analysis.hand)
    good = sum(1 for d in decisions if d.cost <= CLOSE_ENOUGH)
    accuracy = round(100 * good / len(decisions))
    lines = [
        _(
            "Hand {hand}: accuracy {accuracy} % ({good} of {total} choices as the maestro).",
            hand=analysis.hand,
            accuracy=accuracy,
            good=good,
            total=len(decisions),
        )
    ]
    costly = [d for d in decisions if d.cost > CLOSE_ENOUGH][:SHOWN]
    if not costly:
        lines.append(_("No move cost you more than a point. Well played!"))
    lines += [_line(_, d, lang) for d in costly]
    return "\n".join(lines)


def analysis_picture(reply: AnalysisReply, language: str) -> tuple[PublicView, TableFacts] | None:
    """The line at the costliest decision (for ``render.board_png``), or None when the
    hand had no costly decision."""
    costly = [d for d in reply.analysis.decisions if d.cost > CLOSE_ENOUGH]
    if not costly:
        return None
    view = costly[0].view
    public = PublicView(
        rules=view.rules,
        hand_number=view.hand_number,
        starter=view.starter,
        opening_tile=view.opening_tile,
        line=view.line,
        ends=view.ends,
        turn=view.turn,
        tile_counts=view.tile_counts,
        history=view.history,
        score=view.score,
        outcome=view.outcome,
        match_score=view.match_score,
        boneyard_count=view.boneyard_count,
        drawable=view.drawable,
    )
    seats: tuple[SeatInfo, ...] = reply.seats
    return public, table_facts(seats, reply.label, language_of(language), view=public)
