"""Hypothesis strategies shared by the property tests: rule sets of every preset.

The option values come from :class:`engine.rules.Rules`' own field types (the values
rules.md lists), so a new value there is tested without touching the tests.
"""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin

from hypothesis import strategies as st

from engine.rules import OPTION_VALUES, TABLE_OPTIONS, Rules, find_preset

HAND_OPTIONS: tuple[str, ...] = tuple(n for n in OPTION_VALUES if n not in TABLE_OPTIONS)
"""The options that change how a hand is dealt, opened or scored (not timers, money)."""


def option_values(name: str) -> tuple[Any, ...]:
    """Every value ``Rules`` allows for option ``name`` (a ``Literal``, maybe ``| None``)."""

    def flat(tp: Any) -> tuple[Any, ...]:
        if get_origin(tp) is Literal:
            return get_args(tp)
        if tp is type(None):
            return (None,)
        if get_origin(tp) in (Union, types.UnionType):
            return tuple(v for arg in get_args(tp) for v in flat(arg))
        raise TypeError(f"option {name} is not a list of values: {tp!r}")

    return flat(Rules.model_fields[name].annotation)


def overrides() -> st.SearchStrategy[dict[str, Any]]:
    """Some of the hand options set to any of their values (the rest keep the preset's)."""
    return st.fixed_dictionaries(
        {}, optional={name: st.sampled_from(option_values(name)) for name in HAND_OPTIONS}
    )


def rules_of(preset: str, changes: dict[str, Any]) -> Rules:
    """The preset with ``changes`` applied."""
    return find_preset(preset, **changes)
