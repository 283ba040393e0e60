"""The core wired together, once (issue 28; cosmicpython's ``bootstrap.py`` is the model).

:func:`bootstrap` builds the shared state and every part on it, installs what each
deadline does, and gives the message bus its handlers: one table of command type to
handler, one of chore type to handler. :class:`~bot.core.bus.TableManager` (what
``domino run``, ``domino play``, the benches and the front ends' tests drive) is built on
it, and the tests of one part at a time (``tests/core_parts.py``) use it directly, so
there is one wiring to read and to change.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

from bot.core.analysis import Analyst
from bot.core.chat_rules import ChatRules
from bot.core.chats import ChatLife
from bot.core.clock import Clock, SystemClock
from bot.core.commands import (
    AcceptLinkCode,
    AnnounceSeasonFinals,
    AnswerFriend,
    AskFriend,
    BanPlayer,
    CancelTournament,
    Challenge,
    ChatUnreachable,
    CloseTable,
    ComeBack,
    CreateTournament,
    DeclineChallenge,
    DismissReport,
    Emote,
    FillWithRobots,
    FriendPress,
    GiveLinkCode,
    InviteFriend,
    InvitePartner,
    JoinTournament,
    Leave,
    LeaveTournament,
    MoveChat,
    Mute,
    NoteUsername,
    OpenRobotTable,
    OpenTable,
    PlayMove,
    PlayNow,
    PressButton,
    Rematch,
    RemoveFriend,
    ReportPlayer,
    SetChatRules,
    SetFrontEndNote,
    SetReportChannel,
    SetSeasonPeriod,
    SetTurnNotifications,
    ShowMyTiles,
    SitAt,
    StartTournament,
    UnbanPlayer,
    Unlink,
)
from bot.core.friends import FriendService
from bot.core.leases import Leases
from bot.core.links import Linking
from bot.core.lobby import Lobby
from bot.core.messagebus import MessageBus
from bot.core.moderation import Moderation
from bot.core.notes import Notes
from bot.core.ownership import LeaseTimes, OwnerId, new_owner_id
from bot.core.resume import Resume
from bot.core.session import Session
from bot.core.settlement import Settlement
from bot.core.standings import StandingsBook
from bot.core.state import Core, HouseTimes
from bot.core.timers import Pacer, Timers
from bot.core.tournaments.service import TournamentService
from bot.core.views import Views
from bot.core.vocabulary import DeadlineKind
from engine.robots import LEVELS, Robot, make_robot
from engine.rules import find_preset, preset_key
from storage.base import FencedOut, Storage

__all__ = ["Wiring", "bootstrap"]


@dataclass(frozen=True, eq=False)
class Wiring:
    """The core's parts, wired: the shared state, the timers and leases, the parts that
    hold the rules, the message bus (every write) and the views (every read)."""

    core: Core
    pacer: Pacer
    timers: Timers
    leases: Leases
    settlement: Settlement
    session: Session
    rules: ChatRules
    standings: StandingsBook
    analyst: Analyst
    lobby: Lobby
    resume: Resume
    chats: ChatLife
    notes: Notes
    bus: MessageBus
    views: Views
    tournaments: TournamentService
    friends: FriendService
    moderation: Moderation
    linking: Linking


def bootstrap(
    storage: Storage,
    *,
    clock: Clock | None = None,
    seed: int | str | None = None,
    times: HouseTimes | None = None,
    robot_factory: Callable[[str], Robot] = make_robot,
    time_slice: float = 0.005,
    default_preset: str = "venezolano",
    owner: OwnerId | None = None,
    lease_times: LeaseTimes | None = None,
    analysis_executor: Executor | None = None,
) -> Wiring:
    """Wire the core on ``storage``.

    Args:
        storage: the storage port (players, wallet, records, snapshots, leases).
        clock: time (``bot.core.clock``); the system clock by default.
        seed: seeds table ids and table seeds (None: unpredictable). Same seed, same clock
            and same commands give the same tables, deals and robot moves.
        times: the house's timings and robot level (:class:`~bot.core.state.HouseTimes`).
        robot_factory: builds a robot for a level (``engine.robots.make_robot``).
        time_slice: seconds of timer work (robot moves) per event-loop iteration before
            the rest waits for the next one, so the loop stays responsive.
        default_preset: the rules of a chat whose admins never chose (rules.md, "Presets").
        owner: this process's claim id (:mod:`bot.core.ownership`); a fresh one by default.
        lease_times: the leases' heartbeat, takeover and standby seconds (5, 20 and 5 by
            default).
        analysis_executor: where "¿Qué debí jugar?" searches run (default: one worker
            process, started on first use; tests pass a thread pool).

    Raises:
        ValueError: an unknown robot level or preset.
    """
    times = times or HouseTimes()
    if times.robot_level not in LEVELS:
        raise ValueError(f"unknown robot level {times.robot_level!r} (levels: {', '.join(LEVELS)})")
    clock = clock or SystemClock()
    # table ids must differ across restarts; table seeds (deals, robots) follow ``seed``
    ids = random.Random(
        f"{seed}:{clock.now()}" if seed is not None else random.SystemRandom().random()
    )
    core = Core(
        storage=storage,
        clock=clock,
        times=times,
        default_preset=preset_key(default_preset),
        default_rules=find_preset(default_preset),
        robot_factory=robot_factory,
        ids=ids,
        seeds=random.Random(seed) if seed is not None else ids,
    )
    pacer = Pacer(time_slice)
    leases: Leases | None = None

    def fenced_out(exc: FencedOut) -> None:  # a write was refused: another process holds it
        assert leases is not None
        leases.fenced_out(exc)

    timers = Timers(clock, pacer, on_fenced_out=fenced_out)
    rules = ChatRules(core)
    standings = StandingsBook(core)
    bus = MessageBus(core, rules, fenced_out)

    async def season_finals() -> int:  # with each heartbeat: the chats of this process
        return await bus.run(AnnounceSeasonFinals())

    leases = Leases(
        core, timers, owner or new_owner_id(), lease_times or LeaseTimes(), on_beat=season_finals
    )
    core.outbox.may_send = leases.held
    settlement = Settlement(core, timers)
    analyst = Analyst(core, analysis_executor)
    moderation = Moderation(core, analyst)
    session = Session(core, timers, settlement, moderation)
    lobby = Lobby(core, timers, session, settlement, rules)
    timers.install(
        {
            DeadlineKind.FILL: lobby.fill_on_time,
            DeadlineKind.START: session.start_match,
            DeadlineKind.NEXT_HAND: session.next_hand,
            DeadlineKind.TURN: session.turn_timed_out,
            DeadlineKind.FORCED: session.forced_move,
            DeadlineKind.ROBOT: session.auto_move,
        },
        away=session.away_expired,
        remind=session.remind,
    )
    chats = ChatLife(core, settlement)
    notes = Notes(core)
    tournaments = TournamentService(core, lobby)
    bus.on(CreateTournament, tournaments.create)
    bus.on(JoinTournament, tournaments.join)
    bus.on(LeaveTournament, tournaments.leave)
    bus.on(StartTournament, tournaments.start_now)
    bus.on(CancelTournament, tournaments.cancel)
    friends = FriendService(core, lobby)
    bus.on(AskFriend, friends.ask)
    bus.on(AnswerFriend, friends.answer)
    bus.on(RemoveFriend, friends.remove)
    bus.on(InviteFriend, friends.invite, lobby=True)
    bus.on(FriendPress, friends.press, lobby=True)
    bus.on(Mute, moderation.mute)
    bus.on(ReportPlayer, moderation.report)
    bus.on(DismissReport, moderation.dismiss)
    bus.on(BanPlayer, moderation.ban)
    bus.on(UnbanPlayer, moderation.unban)
    bus.on(SetReportChannel, moderation.set_channel)
    bus.on(PlayNow, lobby.play_now, lobby=True)
    bus.on(OpenTable, lobby.open_table, lobby=True)
    bus.on(SitAt, lobby.sit_at, lobby=True)
    bus.on(Rematch, lobby.rematch, lobby=True)
    bus.on(Leave, lobby.leave, lobby=True)
    bus.on(InvitePartner, lobby.invite)
    bus.on(Challenge, lobby.challenge, lobby=True)
    bus.on(DeclineChallenge, lobby.decline, lobby=True)
    bus.on(FillWithRobots, lobby.fill_now)
    bus.on(PlayMove, session.play_move)
    bus.on(ComeBack, session.come_back)
    bus.on(Emote, session.emote)
    bus.on(ShowMyTiles, session.show_tiles)
    bus.on(SetChatRules, rules.set)
    bus.on(CloseTable, lobby.close_table, lobby=True)
    bus.on(PressButton, bus.press)
    linking = Linking(core, random.Random(seed) if seed is not None else None)
    bus.on(GiveLinkCode, linking.give_code, lobby=True)
    bus.on(AcceptLinkCode, linking.accept_code, lobby=True)
    bus.on(Unlink, linking.unlink, lobby=True)
    bus.on_chore(SetFrontEndNote, notes.set_front_end_note)
    bus.on_chore(SetTurnNotifications, notes.set_turn_notifications)
    bus.on_chore(NoteUsername, notes.note_username)
    bus.on_chore(SetSeasonPeriod, standings.set_period)
    bus.on_chore(MoveChat, chats.move)
    bus.on_chore(ChatUnreachable, chats.unreachable)
    bus.on_chore(AnnounceSeasonFinals, standings.announce_finals)
    bus.on_chore(OpenRobotTable, lobby.open_robot_table)
    return Wiring(
        core=core,
        pacer=pacer,
        timers=timers,
        leases=leases,
        settlement=settlement,
        session=session,
        rules=rules,
        standings=standings,
        analyst=analyst,
        lobby=lobby,
        resume=Resume(core, timers, session),
        chats=chats,
        notes=notes,
        bus=bus,
        views=Views(core, rules, standings, analyst),
        tournaments=tournaments,
        friends=friends,
        moderation=moderation,
        linking=linking,
    )
