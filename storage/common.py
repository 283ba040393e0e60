"""Rules both storages share, so that SQLite and PostgreSQL behave the same.

Account keys name the ledger's accounts: ``"house"``, ``"player:<id>"`` and
``"escrow:<match id>"``. Every money movement (opening, top-up, stake, forfeit,
settlement, refund) is planned here as a :class:`Plan`, a pure function of the escrow's
holders and the rule's figures, then written by each storage in one transaction; no
storage computes an amount of its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.rules import Rules, find_any_preset, preset_key
from storage.shapes import (
    LANGUAGES,
    NOTIFICATIONS,
    OPENING_BALANCE,
    Notifications,
    PlayerResult,
)

__all__ = [
    "HOUSE",
    "Plan",
    "canonical_chat_rules",
    "check_chat_language",
    "check_chat_move",
    "check_notifications",
    "check_platform_ids",
    "check_results",
    "display_name_or",
    "escrow_account",
    "plan_forfeit",
    "plan_opening",
    "plan_prizes",
    "plan_refund",
    "plan_settlement",
    "plan_stake",
    "plan_top_up",
    "player_account",
    "to_json",
]

HOUSE: Final = "house"
"""The house account's key; its balance is the money it has issued (negative)."""


def player_account(player_id: int) -> str:
    """The key of a player's account."""
    return f"player:{player_id}"


def escrow_account(match_id: str) -> str:
    """The key of a match's escrow account."""
    return f"escrow:{match_id}"


@dataclass(frozen=True)
class Plan:
    """A ledger transaction to write and the escrow changes that go with it.

    Every money rule of rules.md, "The house" is one ``plan_*`` function below; both
    storages write these plans and compute no amount of their own.

    Attributes:
        key: the transaction's idempotency key (``"settle:<match id>"``, ...).
        kind: the transaction kind (``"open"``, ``"top_up"``, ``"stake"``, ``"payout"``,
            ``"refund"``, ``"forfeit"``), as the wallet history shows it.
        match_id: the match it belongs to, if any.
        entries: (account key, dollars) pairs summing to zero; zero amounts left out.
        amounts: player id -> dollars the player receives (negative when paying); for a
            settlement or a refund, the method's result.
        statuses: player id -> new escrow holder status.
    """

    key: str
    kind: str
    match_id: str | None
    entries: list[tuple[str, int]]
    amounts: dict[int, int] = field(default_factory=dict)
    statuses: dict[int, str] = field(default_factory=dict)


def _nonzero(entries: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(account, amount) for account, amount in entries if amount]


def plan_opening(player_id: int) -> Plan:
    """A new player's account opens with :data:`OPENING_BALANCE` from the house."""
    return Plan(
        f"open:{player_id}",
        "open",
        None,
        [(HOUSE, -OPENING_BALANCE), (player_account(player_id), OPENING_BALANCE)],
        {player_id: OPENING_BALANCE},
    )


def plan_top_up(player_id: int, added: int, *, match_id: str | None, now: float) -> Plan:
    """The house adds ``added`` dollars (from :func:`storage.base.top_up_amount`).

    A top-up due at a stake is keyed by the match (once per match and player); a
    top-up asked for on its own is keyed by its time.
    """
    key = f"top_up:stake:{match_id}:{player_id}" if match_id else f"top_up:at:{player_id}:{now!r}"
    return Plan(
        key,
        "top_up",
        match_id,
        _nonzero([(HOUSE, -added), (player_account(player_id), added)]),
        {player_id: added},
    )


def plan_stake(match_id: str, stake: int, player_ids: Sequence[int]) -> Plan:
    """Every human pays ``stake`` into the match's escrow; robots are not passed."""
    entries = [(player_account(pid), -stake) for pid in player_ids]
    entries.append((escrow_account(match_id), stake * len(player_ids)))
    return Plan(
        f"stake:{match_id}",
        "stake",
        match_id,
        _nonzero(entries),
        {pid: -stake for pid in player_ids},
        {pid: "held" for pid in player_ids},
    )


def plan_forfeit(match_id: str, stake: int, player_id: int) -> Plan:
    """An abandoner's stake goes from the escrow to the house; they receive nothing."""
    return Plan(
        f"forfeit:{match_id}:{player_id}",
        "forfeit",
        match_id,
        _nonzero([(escrow_account(match_id), -stake), (HOUSE, stake)]),
        {},
        {player_id: "forfeited"},
    )


def plan_settlement(
    match_id: str,
    stake: int,
    holders: Mapping[int, str],
    winner_ids: Sequence[int],
    share: int = 2,
) -> Plan:
    """Pay ``share`` times the stake to each winner still holding a stake (rules.md,
    "The house": twice the stake with partners, the stake times the seats in individual
    play, "Money in the formats").

    The escrow is emptied: what it holds pays the winners first, the house pays the rest
    or takes what is left (losers' stakes). Winners are paid in seat order (the order of
    ``holders``); ids without a held stake (robots, forfeits, strangers) get nothing.
    """
    wanted = set(winner_ids)
    winners = [pid for pid, status in holders.items() if status == "held" and pid in wanted]
    held = sum(stake for status in holders.values() if status == "held")
    paid = share * stake * len(winners)
    entries = [(escrow_account(match_id), -held), (HOUSE, held - paid)]
    entries += [(player_account(pid), share * stake) for pid in winners]
    statuses = {pid: "lost" for pid, status in holders.items() if status == "held"}
    statuses.update({pid: "paid" for pid in winners})
    return Plan(
        f"settle:{match_id}",
        "payout",
        match_id,
        _nonzero(entries),
        {pid: share * stake for pid in winners},
        statuses,
    )


def plan_prizes(
    escrow_id: str, stake: int, holders: Mapping[int, str], prizes: Mapping[int, int]
) -> Plan:
    """Empty a tournament's escrow into its prizes (docs/tournaments.md, "Prize split").

    Every dollar the escrow holds goes to a player: the prizes sum to the held fees, so
    the house neither pays nor takes anything. Holders are paid in their order (the
    order of ``holders``); a held holder with no prize (or a prize of 0) has lost, a
    forfeited one keeps its status. The caller checks the prizes first
    (:meth:`storage.base.Storage.pay_prizes`).
    """
    held = sum(stake for status in holders.values() if status == "held")
    paid = {pid: prizes[pid] for pid in holders if prizes.get(pid, 0) > 0}
    entries = [(escrow_account(escrow_id), -held)]
    entries += [(player_account(pid), amount) for pid, amount in paid.items()]
    statuses = {pid: "lost" for pid, status in holders.items() if status == "held"}
    statuses.update({pid: "paid" for pid in paid})
    return Plan(f"settle:{escrow_id}", "payout", escrow_id, _nonzero(entries), paid, statuses)


def plan_refund(match_id: str, stake: int, holders: Mapping[int, str]) -> Plan:
    """Give each held stake back; forfeited stakes stay with the house."""
    held = [pid for pid, status in holders.items() if status == "held"]
    entries = [(escrow_account(match_id), -stake * len(held))]
    entries += [(player_account(pid), stake) for pid in held]
    return Plan(
        f"refund:{match_id}",
        "refund",
        match_id,
        _nonzero(entries),
        {pid: stake for pid in held},
        {pid: "refunded" for pid in held},
    )


def check_platform_ids(platform: str, platform_user_id: str) -> None:
    """Raise ValueError for an empty platform name or platform user id."""
    if not isinstance(platform, str) or not platform.strip():
        raise ValueError("platform must be a non-empty string")
    if not isinstance(platform_user_id, str) or not platform_user_id.strip():
        raise ValueError("platform_user_id must be a non-empty string")


def display_name_or(display_name: str, fallback: str) -> str:
    """The display name without surrounding spaces, or ``fallback`` when blank."""
    name = display_name.strip() if isinstance(display_name, str) else ""
    return name or fallback


def check_results(
    match_id: str, chat: str, results: Sequence[PlayerResult], sides: int = 2
) -> None:
    """Raise ValueError for a malformed :meth:`Storage.record_match` call; a result's
    ``team`` is a side of the match's format, ``0..sides-1`` (two partnerships, or one
    side per seat in individual play: ``Rules.sides``)."""
    if not isinstance(match_id, str) or not match_id:
        raise ValueError("match_id must be a non-empty string")
    if not isinstance(chat, str) or not chat:
        raise ValueError("chat must be a non-empty chat key")
    seen: set[int] = set()
    for r in results:
        if r.player_id in seen:
            raise ValueError(f"player {r.player_id} has two results")
        seen.add(r.player_id)
        if isinstance(r.team, bool) or not isinstance(r.team, int) or not 0 <= r.team < sides:
            raise ValueError(f"team must be a side 0..{sides - 1} (got {r.team!r})")
        for name in ("hands_won", "dominoes", "trancas_won", "capicuas"):
            value = getattr(r, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0 (got {value!r})")


def to_json(value: Any) -> str:
    """JSON text of a record, snapshot or overrides.

    Raises:
        TypeError: not JSON-serialisable (NaN and infinities included).
    """
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise TypeError(str(exc)) from None


def canonical_chat_rules(
    preset: str, overrides: Mapping[str, object]
) -> tuple[str, dict[str, Any]]:
    """Validate a chat's preset and overrides; the canonical preset name and values.

    Raises:
        engine.errors.RulesError: unknown preset, unknown option or bad value.
    """
    base = find_any_preset(preset)
    options = dict(overrides)
    build = Rules.build if base.is_classic else Rules.build_any
    rules = build(**{**base.model_dump(), **options})
    name = preset_key(preset)
    dumped = rules.model_dump()
    return name, {key: dumped[key] for key in options}


def check_chat_move(old: str, new: str) -> None:
    """Check the two chat keys of :meth:`storage.base.Storage.move_chat`.

    Raises:
        ValueError: a key is empty, or they are equal.
    """
    if not old or not new:
        raise ValueError("a chat key cannot be empty")
    if old == new:
        raise ValueError(f"chat {old!r} cannot move to itself")


def username_key(username: str | None) -> str | None:
    """A platform username as stored and looked up: without a leading ``@``, lower
    case; None for none (``"@Ana"`` -> ``"ana"``)."""
    key = (username or "").strip().lstrip("@").lower()
    return key or None


def check_notifications(notifications: str) -> Notifications:
    """``notifications`` as :class:`Notifications` when it is one of its values.

    Raises:
        ValueError: anything else.
    """
    if notifications not in NOTIFICATIONS:
        raise ValueError(
            f"notifications must be one of {', '.join(NOTIFICATIONS)} (got {notifications!r})"
        )
    return Notifications(notifications)


def check_chat_language(language: str) -> str:
    """``language`` if it is one of ``storage.base.LANGUAGES``.

    Raises:
        ValueError: any other value.
    """
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)} (got {language!r})")
    return language
