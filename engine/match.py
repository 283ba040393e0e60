"""A match (partida): hands in sequence to the target score (rules.md, "Match", and
"Scoring in individual play").

:class:`Match` is immutable like :class:`~engine.hand.HandState`. Dealing a new hand
takes an injected :class:`random.Random` (:meth:`Match.new`, :meth:`Match.next_hand`) or
a scripted deal (:meth:`Match.start`, :meth:`Match.next_hand_with`).

The score is kept per side: two partnerships, or one entry per player in individual
play (:attr:`engine.rules.Rules.sides`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.hand import HandOutcome, HandState, deal_hand, first_hand, opening_of
from engine.moves import Move
from engine.rules import Rules
from engine.tiles import Tile

__all__ = ["Match"]


class Match:
    """An immutable match position.

    Attributes:
        rules: the rule set.
        hands: every hand so far, the current (possibly finished) one last.
        score: running totals by side including finished hands: ``(team 0, team 1)``
            in partnership play, one entry per seat in individual play.
    """

    __slots__ = ("hands", "rules", "score")

    rules: Rules
    hands: tuple[HandState, ...]
    score: tuple[int, int]

    def __init__(self, rules: Rules, hands: tuple[HandState, ...], score: tuple[int, ...]):
        self.rules = rules
        self.hands = hands
        self.score = score  # type: ignore[assignment]

    @classmethod
    def new(cls, rules: Rules, rng: random.Random) -> Match:
        """A match with its first hand dealt from ``rng`` (opener per ``first_starter``)."""
        first = first_hand(rules, rng)
        return cls.start(rules, first.deal, first.starter, boneyard=first.boneyard)

    @classmethod
    def start(
        cls,
        rules: Rules,
        deal: Sequence[Sequence[Tile]],
        starter: int,
        *,
        boneyard: Sequence[Tile] | None = None,
    ) -> Match:
        """A match whose first hand has this deal (and boneyard, in draw order) and opener.

        Under ``double_six`` the opener must hold the highest double dealt (6-6 in
        today's game; else the highest tile, rules.md "Opening with a boneyard") and
        opens with it.

        Raises:
            ValueError: a bad deal, or an opener that breaks ``double_six``.
        """
        opening = None
        if rules.first_starter == "double_six":
            if len(deal) != rules.players:
                raise ValueError(f"the deal has {len(deal)} hands, not {rules.players}")
            holder, opening = opening_of(rules, deal)
            if holder != starter:
                raise ValueError(
                    f"under double_six the holder of {opening} opens, not seat {starter}"
                )
        hand = HandState.start(rules, deal, starter, opening_tile=opening, boneyard=boneyard)
        return cls(rules, (hand,), (0,) * rules.sides)

    @property
    def hand(self) -> HandState:
        """The current hand (the last one; it may be over)."""
        return self.hands[-1]

    @property
    def hand_number(self) -> int:
        """The current hand, counted from 1."""
        return len(self.hands)

    @property
    def score_before_hand(self) -> tuple[int, int]:
        """The score before the current hand (what a robot request sends)."""
        outcome = self.hand.outcome
        if outcome is None or outcome.winner_team is None:
            return self.score
        s = list(self.score)
        s[outcome.winner_team] -= outcome.points
        return tuple(s)  # type: ignore[return-value]

    @property
    def is_over(self) -> bool:
        """True when a side has reached the target and leads every other side alone
        (rules.md, "Match"; a tie for the lead plays on)."""
        if not self.hand.is_over:
            return False
        score = self.score
        top = max(score)
        return top >= self.rules.target and score.count(top) == 1

    @property
    def winner_team(self) -> int | None:
        """The side that won the match (a team, or a seat in individual play), or None
        while it goes on."""
        if not self.is_over:
            return None
        return self.score.index(max(self.score))

    @property
    def winner_side(self) -> int | None:
        """Same as :attr:`winner_team` (a seat in individual play)."""
        return self.winner_team

    def apply(self, move: Move, seat: int | None = None) -> Match:
        """The match after ``move`` in the current hand; scores the hand when it ends.

        Raises:
            NotYourTurnError, IllegalMoveError: as :meth:`HandState.apply`.
        """
        hand = self.hand.apply(move, seat)
        score = self.score
        outcome = hand.outcome
        if outcome is not None and outcome.winner_team is not None:
            s = list(score)
            s[outcome.winner_team] += outcome.points
            score = tuple(s)  # type: ignore[assignment]
        return Match(self.rules, (*self.hands[:-1], hand), score)

    def next_starter(self) -> int:
        """The opener of the next hand (rules.md, ``next_starter`` and its edge cases).

        Raises:
            ValueError: the current hand is not over.
        """
        hand = self.hand
        outcome = hand.outcome
        if outcome is None:
            raise ValueError("the current hand is not over")
        if self.rules.next_starter == "winner" and outcome.winner_seat is not None:
            return outcome.winner_seat
        return (hand.starter + 1) % self.rules.players

    def next_hand(self, rng: random.Random) -> Match:
        """Deal the next hand from ``rng``.

        Raises:
            ValueError: the hand is not over, or the match is.
        """
        deal, boneyard = deal_hand(rng, self.rules)
        return self.next_hand_with(deal, boneyard=boneyard)

    def next_hand_with(
        self,
        deal: Sequence[Sequence[Tile]],
        starter: int | None = None,
        *,
        boneyard: Sequence[Tile] | None = None,
    ) -> Match:
        """Start the next hand with a given deal (and boneyard in draw order, and
        opener, which must match the rules).

        Raises:
            ValueError: the hand is not over, the match is, or ``starter`` is not the
                opener the rules give.
        """
        if self.is_over:
            raise ValueError("the match is over")
        expected = self.next_starter()
        if starter is not None and starter != expected:
            raise ValueError(f"the rules give seat {expected} the opening, not seat {starter}")
        hand = HandState.start(self.rules, deal, expected, boneyard=boneyard)
        return Match(self.rules, (*self.hands, hand), self.score)

    @property
    def outcomes(self) -> list[HandOutcome]:
        """The outcomes of the finished hands, in order."""
        return [h.outcome for h in self.hands if h.outcome is not None]
