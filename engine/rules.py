"""Rule sets: every option of rules.md ("The options"), validated, and the four presets.

``Rules`` is a frozen pydantic model. Build one with :func:`find_preset` (a preset by
name, optionally with overrides) or :meth:`Rules.from_spec` (the ``rules`` value of a
match record: a preset name, or an object of options, optionally with ``"preset"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from engine.errors import RulesError

__all__ = [
    "OPTION_VALUES",
    "PRESETS",
    "PRESET_NAMES",
    "TABLE_OPTIONS",
    "OptionValue",
    "Rules",
    "find_preset",
    "preset_key",
]

OptionValue = int | str | None
"""An option's value as a command carries it (validated by :meth:`Rules.build`)."""

Counting = Literal["opponents", "all"]
FirstStarter = Literal["double_six", "random", "draw"]
NextStarter = Literal["rotate", "winner"]
BlockedWinner = Literal["team", "individual"]

OPTION_VALUES: Final[dict[str, str]] = {
    "target": "50, 100, 150, 200, 300, 500",
    "counting": "opponents, all",
    "first_starter": "double_six, random, draw",
    "next_starter": "rotate, winner",
    "blocked_winner": "team, individual",
    "redeal_doubles": "none, 4, 5",
    "capicua_bonus": "0, 10, 20, 25, 30",
    "turn_seconds": "10..120",
    "forced_move_seconds": "none, 0..10",
    "stake": "0..1000",
}
"""Each option's allowed values as rules.md writes them (for error messages and menus)."""

TABLE_OPTIONS: Final[frozenset[str]] = frozenset({"turn_seconds", "forced_move_seconds", "stake"})
"""Options of the table (timers, money) that do not change how a hand is scored."""


class Rules(BaseModel):
    """A rule set (rules.md, "The options"). Frozen and hashable.

    Attributes:
        target: points needed to win the match.
        counting: ``opponents`` (the losers' pips) or ``all`` (all four hands' pips).
        first_starter: who opens the first hand.
        next_starter: who opens later hands.
        blocked_winner: how a tranca is decided.
        redeal_doubles: redeal when a seat is dealt at least this many doubles (None: never).
        capicua_bonus: points added to a capicúa domino.
        turn_seconds: seconds a player has to move.
        forced_move_seconds: delay before a single legal move is played for the player
            (None: never).
        stake: dollars each human pays at match start.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: Literal[50, 100, 150, 200, 300, 500] = 100
    counting: Counting = "opponents"
    first_starter: FirstStarter = "double_six"
    next_starter: NextStarter = "rotate"
    blocked_winner: BlockedWinner = "team"
    redeal_doubles: Literal[4, 5] | None = None
    capicua_bonus: Literal[0, 10, 20, 25, 30] = 0
    turn_seconds: int = 45
    forced_move_seconds: int | None = None
    stake: int = 10

    @field_validator("redeal_doubles", "forced_move_seconds", mode="before")
    @classmethod
    def _none_word(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() == "none":
            return None
        return value

    @field_validator("turn_seconds")
    @classmethod
    def _turn_range(cls, value: int) -> int:
        if not 10 <= value <= 120:
            raise ValueError("out of range")
        return value

    @field_validator("forced_move_seconds")
    @classmethod
    def _forced_range(cls, value: int | None) -> int | None:
        if value is not None and not 0 <= value <= 10:
            raise ValueError("out of range")
        return value

    @field_validator("stake")
    @classmethod
    def _stake_range(cls, value: int) -> int:
        if not 0 <= value <= 1000:
            raise ValueError("out of range")
        return value

    @classmethod
    def build(cls, **options: Any) -> Rules:
        """Validate options into a rule set.

        Raises:
            RulesError: an unknown option, or a value outside rules.md's table; the
                message names the option and its allowed values.
        """
        for name in options:
            if name not in OPTION_VALUES:
                raise RulesError(
                    f"unknown option '{name}' (options: {', '.join(OPTION_VALUES)})",
                    option=name,
                    allowed=", ".join(OPTION_VALUES),
                )
        for name, value in options.items():
            # bool is an int in Python; a JSON true must not pass as 1.
            if isinstance(value, (bool, float)):
                raise _bad_value(name, value)
        try:
            return cls(**options)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = str(first["loc"][0]) if first["loc"] else "?"
            raise _bad_value(name, options.get(name)) from None

    @classmethod
    def from_spec(cls, spec: object) -> Rules:
        """The ``rules`` value of a record or a robot request (records.md).

        ``spec`` is a preset name, or a mapping of options, optionally holding
        ``"preset"`` plus the options it overrides (without it, missing options come
        from ``venezolano``).

        Raises:
            RulesError: unknown preset, unknown option or a bad value.
        """
        if isinstance(spec, str):
            return find_preset(spec)
        if isinstance(spec, Mapping):
            options = dict(spec)
            preset = options.pop("preset", "venezolano")
            if not isinstance(preset, str):
                raise RulesError(
                    f"preset must be a name ({', '.join(PRESET_NAMES)})",
                    option="preset",
                    allowed=", ".join(PRESET_NAMES),
                )
            return find_preset(preset, **options)
        raise RulesError("rules must be a preset name or an object of options", option="rules")

    def overrides_from(self, base: Rules) -> dict[str, Any]:
        """The options where this rule set differs from ``base``."""
        mine, theirs = self.model_dump(), base.model_dump()
        return {k: v for k, v in mine.items() if theirs[k] != v}

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest records.md ``rules`` value naming this rule set."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        best = min(PRESETS, key=lambda n: len(self.overrides_from(PRESETS[n])))
        return {"preset": best, **self.overrides_from(PRESETS[best])}

    @property
    def preset_name(self) -> str | None:
        """The name of the preset equal to this rule set, if any."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None


def _bad_value(name: str, value: object) -> RulesError:
    allowed = OPTION_VALUES.get(name, "?")
    return RulesError(
        f"option '{name}' must be one of {allowed} (got {value!r})", option=name, allowed=allowed
    )


PRESETS: Final[dict[str, Rules]] = {
    "venezolano": Rules(),
    "internacional": Rules(
        target=200, first_starter="random", next_starter="winner", blocked_winner="individual"
    ),
    "espanol": Rules(
        target=300, counting="all", first_starter="draw", redeal_doubles=4, forced_move_seconds=3
    ),
    "dominicano": Rules(
        target=200, first_starter="double_six", next_starter="winner", capicua_bonus=25
    ),
}
"""The four presets of rules.md ("Presets"); ``venezolano`` is the default."""

PRESET_NAMES: Final[tuple[str, ...]] = tuple(PRESETS)


def preset_key(name: str) -> str:
    """A preset name as :data:`PRESETS` keys it (``"Español"`` -> ``"espanol"``); an
    unknown name comes back normalised the same way."""
    return name.strip().lower().replace("ñ", "n")


def find_preset(name: str, **overrides: Any) -> Rules:
    """A preset by name (``"español"`` is accepted for ``espanol``), with optional overrides.

    Raises:
        RulesError: the preset is unknown, or an override is invalid.
    """
    key = preset_key(name) if isinstance(name, str) else ""
    if key not in PRESETS:
        raise RulesError(
            f"unknown preset '{name}' (presets: {', '.join(PRESET_NAMES)})",
            option="preset",
            allowed=", ".join(PRESET_NAMES),
        )
    if not overrides:
        return PRESETS[key]
    return Rules.build(**{**PRESETS[key].model_dump(), **overrides})
