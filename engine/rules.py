"""Rule sets: every option of rules.md ("The options", "Formats"), validated, and the
presets.

``Rules`` is a frozen pydantic model. Build one with :func:`find_preset` (a preset by
name, optionally with overrides) or :meth:`Rules.from_spec` (the ``rules`` value of a
match record: a preset name, or an object of options, optionally with ``"preset"``).

The format options (``tile_set``, ``players``, ``partnership``, ``boneyard``,
``hand_size``; :data:`FORMAT_OPTION_VALUES`) default to today's game, the partnership
double-six format, and a rule set writes them (:meth:`Rules.model_dump`) only where they
differ from those defaults, so every stored rule set and record keeps its exact text.
The tables offer the four :data:`PRESETS` and :meth:`Rules.build` takes only their
options; the format presets (:data:`FORMAT_PRESETS`) are found by
:func:`find_any_preset` and the format options taken by :meth:`Rules.build_any` until
the tables play them (rules.md, "Formats").
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from engine.errors import RulesError
from engine.tiles import TileSet

__all__ = [
    "EVERY_PRESET_NAME",
    "FORMAT_OPTION_VALUES",
    "FORMAT_PRESETS",
    "FORMAT_PRESET_NAMES",
    "MAX_TURN_SECONDS",
    "OPTION_VALUES",
    "PRESETS",
    "PRESET_NAMES",
    "SLOW_PACE_SECONDS",
    "SLOW_TURN_SECONDS",
    "TABLE_OPTIONS",
    "Boneyard",
    "OptionValue",
    "Rules",
    "TileSet",
    "find_any_preset",
    "find_preset",
    "preset_key",
]

MAX_TURN_SECONDS: Final = 24 * 3600
"""The longest turn (seconds): a day, on a slow table (rules.md, "Slow tables")."""

SLOW_TURN_SECONDS: Final = 3600
"""From this many seconds a turn, a table is slow (rules.md, "Slow tables")."""

SLOW_PACE_SECONDS: Final = 12 * 3600
"""The turn of a table opened slow without a time of its own (``/mesa lenta``)."""

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
    "turn_seconds": "10..120, 3600..86400",
    "forced_move_seconds": "none, 0..10",
    "stake": "0..1000",
}
"""Each option's allowed values as rules.md writes them (for error messages and menus)."""

FORMAT_OPTION_VALUES: Final[dict[str, str]] = {
    "tile_set": "double_six, double_nine",
    "players": "2, 3, 4",
    "partnership": "true, false",
    "boneyard": "pass, draw",
    "hand_size": "none, 1..21",
}
"""The format options' allowed values (rules.md, "Formats"). Kept apart from
:data:`OPTION_VALUES`, which the tables' menus list, until the tables play the formats."""

_FORMAT_DEFAULTS: Final[dict[str, object]] = {
    "tile_set": TileSet.DOUBLE_SIX,
    "players": 4,
    "partnership": True,
    "boneyard": "pass",
    "hand_size": None,
}


_DOUBLE_SIX: Final = TileSet.DOUBLE_SIX


class Boneyard(StrEnum):
    """What a player with no tile that fits does (rules.md, "Formats", ``boneyard``)."""

    PASS = "pass"
    DRAW = "draw"


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
        tile_set: double-six or double-nine (rules.md, "Formats").
        players: seats at the table, 2..4.
        partnership: two partnerships (needs 4 players), else individual play.
        boneyard: ``pass`` or ``draw`` (robar) while the boneyard holds tiles.
        hand_size: tiles dealt to each player; None: derived (:attr:`hand_tiles`).
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
    tile_set: TileSet = TileSet.DOUBLE_SIX
    players: Literal[2, 3, 4] = 4
    partnership: bool = True
    boneyard: Boneyard = Boneyard.PASS
    hand_size: int | None = None

    @field_validator("redeal_doubles", "forced_move_seconds", "hand_size", mode="before")
    @classmethod
    def _none_word(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().lower() == "none":
            return None
        return value

    @field_validator("turn_seconds")
    @classmethod
    def _turn_range(cls, value: int) -> int:
        # seconds at a live table, an hour to a day at a slow one (rules.md, "Slow tables")
        if not (10 <= value <= 120 or SLOW_TURN_SECONDS <= value <= MAX_TURN_SECONDS):
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

    @field_validator("hand_size")
    @classmethod
    def _hand_size_range(cls, value: int | None) -> int | None:
        if value is not None and not 1 <= value <= 21:
            raise ValueError("out of range")
        return value

    @field_validator("partnership", mode="before")
    @classmethod
    def _partnership_word(cls, value: Any) -> Any:
        if isinstance(value, str):
            word = value.strip().lower()
            if word in ("true", "yes", "si", "sí"):
                return True
            if word in ("false", "no"):
                return False
        if not isinstance(value, bool):
            raise ValueError("not a boolean")
        return value

    @model_validator(mode="after")
    def _format_together(self) -> Rules:
        """The format options checked together (rules.md, "Formats")."""
        if self.partnership and self.players != 4:
            raise _FormatError(
                "partnership", f"partnership play needs 4 players, not {self.players}"
            )
        tiles = len(self.tile_set.tiles)
        if self.hand_tiles * self.players > tiles:
            raise _FormatError(
                "hand_size",
                f"{self.players} players x {self.hand_tiles} tiles is more than the"
                f" {tiles} tiles of {self.tile_set.value}",
            )
        return self

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        """Today's options as ever; a format option only where it differs from today's
        game (so stored rule sets and records keep their exact text)."""
        data = handler(self)
        for name, default in _FORMAT_DEFAULTS.items():
            if name in data and data[name] == default:
                del data[name]
            elif name in data and isinstance(data[name], StrEnum):
                data[name] = data[name].value
        return data

    # -- the format, derived -----------------------------------------------------------

    @property
    def hand_tiles(self) -> int:
        """Tiles dealt to each player: ``hand_size``, else 7 (double-six) or 10
        (double-nine) (rules.md, "Formats")."""
        if self.hand_size is not None:
            return self.hand_size
        return 7 if self.tile_set is TileSet.DOUBLE_SIX else 10

    @property
    def sides(self) -> int:
        """How many sides score: 2 partnerships, or one per player in individual play."""
        return 2 if self.partnership else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: its partnership (``seat % 2``), or the seat itself."""
        return seat & 1 if self.partnership else seat

    @property
    def is_classic(self) -> bool:
        """True for today's game: partnership double-six, 4 players dealt 7 tiles each
        (no boneyard). The fast path (:mod:`engine.fast`) plays only this format."""
        size = self.hand_size
        return (
            self.partnership
            and self.tile_set is _DOUBLE_SIX
            and self.players == 4
            and (size is None or size == 7)
        )

    @property
    def format_name(self) -> str:
        """A short name of the format, e.g. ``"double_six partnership"`` or
        ``"double_nine individual 2 draw"`` (for messages)."""
        if self.partnership:
            return f"{self.tile_set.value} partnership"
        return f"{self.tile_set.value} individual {self.players} {self.boneyard.value}"

    @property
    def is_slow(self) -> bool:
        """A slow table, for playing at a distance: an hour or more a turn (rules.md,
        "Slow tables"; :data:`SLOW_TURN_SECONDS`)."""
        return self.turn_seconds >= SLOW_TURN_SECONDS

    @property
    def format_key(self) -> str:
        """Which format this is, as lists and tables tell formats apart: ``""`` for
        today's game whatever its preset (:attr:`is_classic`), else :attr:`format_name`
        with ``" hand N"`` when a hand size other than the set's own is dealt
        (``"double_six individual 2 draw"``; rules.md, "Formats")."""
        if self.is_classic:
            return ""
        name = self.format_name
        size = self.hand_size
        if size is not None and size != self.model_copy(update={"hand_size": None}).hand_tiles:
            name += f" hand {size}"
        return name

    @classmethod
    def build(cls, **options: Any) -> Rules:
        """Validate the table options of rules.md ("The options") into a rule set.

        The format options are unknown here: the tables, their menus and a chat's rules
        offer only today's game until they play the formats (:meth:`build_any` takes
        them).

        Raises:
            RulesError: an unknown option, or a value outside rules.md's table; the
                message names the option and its allowed values.
        """
        return cls._build(options, formats=False)

    @classmethod
    def build_any(cls, **options: Any) -> Rules:
        """Like :meth:`build`, with the format options too (rules.md, "Formats"),
        validated together.

        Raises:
            RulesError: an unknown option, a bad value, or format options that do not go
                together (the message says why and names the option).
        """
        return cls._build(options, formats=True)

    @classmethod
    def _build(cls, options: dict[str, Any], *, formats: bool) -> Rules:
        for name in options:
            if name not in OPTION_VALUES and not (formats and name in FORMAT_OPTION_VALUES):
                raise RulesError(
                    f"unknown option '{name}' (options: {', '.join(OPTION_VALUES)})",
                    option=name,
                    allowed=", ".join(OPTION_VALUES),
                )
        for name, value in options.items():
            # bool is an int in Python; a JSON true must not pass as 1.
            if name != "partnership" and isinstance(value, (bool, float)):
                raise _bad_value(name, value)
        try:
            return cls(**options)
        except ValidationError as exc:
            first = exc.errors()[0]
            cause = first.get("ctx", {}).get("error")
            if isinstance(cause, _FormatError):
                allowed = FORMAT_OPTION_VALUES[cause.option]
                raise RulesError(str(cause), option=cause.option, allowed=allowed) from None
            name = str(first["loc"][0]) if first["loc"] else "?"
            raise _bad_value(name, options.get(name)) from None

    @classmethod
    def from_spec(cls, spec: object) -> Rules:
        """The ``rules`` value of a record or a robot request (records.md).

        ``spec`` is a table preset's name, or a mapping of options (format options
        included), optionally holding ``"preset"`` plus the options it overrides
        (without it, missing options come from ``venezolano``). The format presets'
        names are not read here yet (records of the formats are not written yet).

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
            base = find_preset(preset)
            return cls.build_any(**{**base.model_dump(), **options}) if options else base
        raise RulesError("rules must be a preset name or an object of options", option="rules")

    def overrides_from(self, base: Rules) -> dict[str, Any]:
        """The options where this rule set differs from ``base`` (values as dumped)."""
        mine, theirs = self.model_dump(), base.model_dump()
        out = {k: v for k, v in mine.items() if theirs.get(k, _FORMAT_DEFAULTS.get(k)) != v}
        for name, default in _FORMAT_DEFAULTS.items():
            if name in theirs and name not in mine:
                out[name] = default.value if isinstance(default, StrEnum) else default
        return out

    def to_spec(self) -> str | dict[str, Any]:
        """The shortest records.md ``rules`` value naming this rule set: a table preset,
        with the options that differ (a format's options among them, e.g. ``{"preset":
        "venezolano", "tile_set": "double_nine", ...}``: how records and robot requests
        name a format, whose preset names are not a records.md ``rules`` value)."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        best = min(PRESETS, key=lambda n: len(self.overrides_from(PRESETS[n])))
        return {"preset": best, **self.overrides_from(PRESETS[best])}

    @property
    def preset_name(self) -> str | None:
        """The name of the preset (a table or a format preset) equal to this rule set, if any."""
        for name, preset in (*PRESETS.items(), *FORMAT_PRESETS.items()):
            if preset == self:
                return name
        return None


class _FormatError(ValueError):
    """Format options that do not go together (carried through pydantic's error)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


def _bad_value(name: str, value: object) -> RulesError:
    allowed = OPTION_VALUES.get(name) or FORMAT_OPTION_VALUES.get(name, "?")
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

FORMAT_PRESETS: Final[dict[str, Rules]] = {
    "uno-contra-uno": Rules(players=2, partnership=False, boneyard=Boneyard.DRAW),
    "individual": Rules(players=4, partnership=False, boneyard=Boneyard.PASS),
    "cubano": Rules(tile_set=TileSet.DOUBLE_NINE, next_starter="winner"),
}
"""The format presets of rules.md ("Formats", "Format presets"), found by
:func:`find_any_preset`; the tables offer only :data:`PRESETS` until they play them."""

FORMAT_PRESET_NAMES: Final[tuple[str, ...]] = tuple(FORMAT_PRESETS)

EVERY_PRESET_NAME: Final[tuple[str, ...]] = (*PRESET_NAMES, *FORMAT_PRESET_NAMES)
"""Every preset a table or a chat may name (:func:`find_any_preset`): the four presets,
then the format presets."""


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


def find_any_preset(name: str, **overrides: Any) -> Rules:
    """A table preset (:func:`find_preset`) or a format preset (``uno-contra-uno``,
    ``individual``, ``cubano``), with optional overrides, the format options too.

    Raises:
        RulesError: the preset is unknown, or an override is invalid.
    """
    key = preset_key(name) if isinstance(name, str) else ""
    base = PRESETS.get(key) or FORMAT_PRESETS.get(key)
    if base is None:
        raise RulesError(
            f"unknown preset '{name}' (presets: {', '.join(EVERY_PRESET_NAME)})",
            option="preset",
            allowed=", ".join(EVERY_PRESET_NAME),
        )
    if not overrides:
        return base
    return Rules.build_any(**{**base.model_dump(), **overrides})
