"""The slash commands: each becomes one :mod:`bot.core` command (or a read of the core)
and its reply; no rule, score or amount is decided here.

Every handler takes a :class:`Said` (the message, its author as a
:class:`~bot.core.PlayerRef`, the group, the words after the command), built once by
:func:`said` from PTB's update.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import Message, MessageEntity, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import ContextTypes

import bot.core as p
from bot.present.i18n import Translator, language_of
from bot.present.labels import (
    format_from_input,
    notifications_from_input,
    notifications_hint,
    report_reason_from_input,
    rules_text,
    tournament_from_input,
)
from bot.present.replies import (
    ModerationCommand,
    confirmation,
    link_in_private_text,
    moderation_desk_text,
    moderation_done,
    refused,
    report_usage,
)
from bot.present.screens import my_tables_text, tournament_status_text
from bot.present.standings import PREVIOUS_WORDS, ranking_from_input, season_from_input
from bot.telegram.commands import (
    MODERATION_ACTIONS,
    TOURNAMENT_ACTIONS,
    UNMUTE_WORDS,
    command_word,
    read_table_args,
)
from bot.telegram.drawing import Drawing
from bot.telegram.friends import Friends
from bot.telegram.keyboards import config_keyboard
from bot.telegram.links import JoinLink, decode_start
from bot.telegram.sender import send
from bot.telegram.shared import PLATFORM, Shared
from bot.telegram.standings import Lists
from bot.telegram.texts import help_text, season_text
from storage.ratings import season_period_of

__all__ = ["Commands", "Said", "said"]

log = logging.getLogger(__name__)

ECHO_LIMIT = 200
"""The most characters of a user's own words echoed back in an answer."""

Context = ContextTypes.DEFAULT_TYPE
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Said:
    """A command as the handlers see it."""

    message: Message
    user: User | None
    player: p.PlayerRef | None  # None when Telegram names no author (a channel post)
    chat: p.ChatRef | None  # None in a private chat
    args: list[str]
    language: str

    @property
    def by(self) -> p.PlayerRef:
        """The author (handlers that need one are declared with ``said(anyone=False)``)."""
        assert self.player is not None
        return self.player

    @property
    def author(self) -> User:
        assert self.user is not None
        return self.user

    @property
    def group(self) -> p.ChatRef:
        """The group (handlers that need one are declared with ``said(group=True)``)."""
        assert self.chat is not None
        return self.chat


def said(
    *, anyone: bool = False, group: bool = False, person: bool = True
) -> Callable[[Callable[[Commands, Said], Awaitable[None]]], Callable[[Commands], Handler]]:
    """Turn ``handler(self, said)`` into a PTB handler factory.

    ``anyone``: also run when Telegram names no author; ``group``: in a private chat,
    answer that the command works in groups only; ``person``: the command is about its
    author (a seat, a balance), so a message sent as a chat (an anonymous administrator
    writing as the group, a linked channel) is told to write as themselves.
    """

    def wrap(
        handler: Callable[[Commands, Said], Awaitable[None]],
    ) -> Callable[[Commands], Handler]:
        def bound(self: Commands) -> Handler:
            @functools.wraps(handler)
            async def run(update: Update, context: Context) -> None:
                message, user = update.effective_message, update.effective_user
                if message is None or (user is None and not anyone):
                    return
                player = self.s.player(user) if user is not None else None
                self.s.seen(user)
                language = language_of(user.language_code if user else None)
                if group and message.chat.type == ChatType.PRIVATE:
                    _ = self.s.t(language)
                    text = _("Use this command in a group where I am a member.")
                    self.s.spawn(self._reply_later(message, text))
                    return
                chat = self.s.chat_ref(message)
                if chat is not None:  # a group message speaks the group's language
                    language = (await self.s.manager.chat_rules(chat)).language
                if person and not anyone and message.sender_chat is not None:
                    # Telegram names @GroupAnonymousBot ("Group"): nobody to seat or pay.
                    _ = self.s.t(language)
                    text = _(
                        "You are writing as the group (an anonymous administrator), so I "
                        "cannot tell who you are. To play, write as yourself."
                    )
                    self.s.spawn(self._reply_later(message, text))
                    return
                await handler(
                    self, Said(message, user, player, chat, list(context.args or []), language)
                )
                self.s.remember(user)  # after the command: it may have made them a player

            return run

        return bound

    return wrap


class Commands:
    """The handlers of :data:`bot.telegram.commands.COMMANDS`, by key (:meth:`handler`)."""

    def __init__(self, shared: Shared, drawing: Drawing) -> None:
        self.s = shared
        self.drawing = drawing
        self.lists = Lists(shared, drawing.render)
        self.friend_commands = Friends(shared, self._by_username)

    def handler(self, key: str) -> Handler:
        """The PTB handler of the command ``key`` (``play``, ``table``, ...)."""
        factory: Callable[[Commands], Handler] = getattr(type(self), key)
        return factory(self)

    async def _reply_later(self, message: Message, text: str) -> None:
        await self.s.reply(message, text)

    async def _answer(self, said: Said, reply: p.Reply, text: str = "") -> None:
        """Show a command's reply: a refusal or ``text`` (the confirmation); private
        tiles privately."""
        if reply.refusal is not None:
            await self.s.reply(said.message, refused(reply.refusal, said.language))
        elif text:
            await self.s.reply(said.message, text)
        self.drawing.private_events(reply)

    async def _run(self, said: Said, command: p.Command, text: str = "") -> None:
        """Hand ``command`` to the core and show its reply (confirmed, unless ``text``)."""
        reply = await self.s.manager.handle(command)
        await self._answer(said, reply, text or confirmation(type(command), reply, said.language))

    async def _linked(self, said: Said) -> bool:
        """Whether the author can be written to privately; if not they get the deep link."""
        if await self.s.can_reach(said.author.id):
            return True
        chat = said.group
        thread = int(chat.thread_id) if chat.thread_id else None
        link = JoinLink(said.message.chat.id, thread)
        await self.s.send_link(said.message, said.author, link, said.language)
        return False

    # ------------------------------------------------------------------ seats
    @said(group=True)
    async def play(self, said: Said) -> None:
        """/jugar, /play [format]: sit at the open table with the fewest free seats (of
        that format: ``/jugar 1v1``, ``/jugar cubano``), or open one."""
        typed = " ".join(said.args)
        chosen = format_from_input(typed) if typed else ""
        if await self._linked(said):
            # words naming no format go to the core as typed: it refuses them with the list
            command = p.PlayNow(
                said.by, said.group, format=typed if chosen is None else chosen or None
            )
            await self._run(said, command)

    @said(group=True)
    async def table(self, said: Said) -> None:
        """/mesa, /table: open a table with a preset, options and chosen seats."""
        args = read_table_args(said.args)
        if args.errors:
            _ = self.s.t(said.language)
            await self.s.reply(
                said.message,
                _(
                    "I do not understand: {words}. Example: /mesa internacional meta=200 "
                    "derecha=robot enfrente=robot:maestro",
                    words=_echo(args.errors),
                ),
            )
            return
        seats: dict[str, p.PlayerRef | p.RobotSeat | None] = {
            position: p.RobotSeat(level or None) for position, level in args.seats.items()
        }
        for invited in _invited_users(said.message, said.author):
            position = next((x for x in ("across", "right", "left") if x not in seats), None)
            if position is None:
                break
            seats[position] = self.s.player(invited)
        if not await self._linked(said):
            return
        command = p.OpenTable(
            said.by,
            said.group,
            formats=True,
            preset=args.preset,
            overrides=args.overrides,
            right=seats.get("right"),
            across=seats.get("across"),
            left=seats.get("left"),
        )
        await self._run(said, command)

    @said()
    async def tables(self, said: Said) -> None:
        """/mesas, /tables: my tables (live and slow) and whose turn it is at each."""
        s = self.s
        found = []
        for table_id in s.manager.tables_of(said.by):
            state = s.manager.table_state(table_id)
            if state is not None:
                title = await s.title(s.chat_id(state.chat))
                found.append((state, title or "Telegram"))
        play = command_word("play", said.language)
        await s.reply(said.message, my_tables_text(found, said.by, said.language, play=play))

    @said(group=True)
    async def challenge(self, said: Said) -> None:
        """/reto, /challenge: challenge the author of the message answered (or a member
        named) to one against one; they accept or decline on the board."""
        invited = _invited_users(said.message, said.author)
        if not invited:
            _ = self.s.t(said.language)
            await self.s.reply(
                said.message,
                _("Answer a message of the player you challenge with /reto, or name them."),
            )
            return
        if await self._linked(said):
            await self._run(said, p.Challenge(said.by, said.group, self.s.player(invited[0])))

    @said(group=True)
    async def robots(self, said: Said) -> None:
        """/robots [level]: fill the free seats of my waiting table with robots now."""
        level = said.args[0].lower() if said.args else None
        reply = await self.s.manager.handle(p.FillWithRobots(said.by, said.group, level=level))
        await self._answer(said, reply)

    @said()
    async def leave(self, said: Said) -> None:
        """/levantarse, /leave (old: /salir): leave my table here (a robot takes the seat during a match)."""
        await self._run(said, p.Leave(said.by, said.chat))

    @said()
    async def tiles(self, said: Said) -> None:
        """/fichas, /tiles: my tiles again, privately."""
        reply = await self.s.manager.handle(p.ShowMyTiles(said.by, said.chat))
        text = ""
        if said.chat is not None:
            text = self.s.t(said.language)("Your tiles are in our private chat.")
        await self._answer(said, reply, text)

    @said()
    async def back(self, said: Said) -> None:
        """/volver, /back: take my seat back from the robot."""
        reply = await self.s.manager.handle(p.ComeBack(said.by, said.chat))
        await self._answer(said, reply)

    # ------------------------------------------------------------------ reads
    @said()
    async def balance(self, said: Said) -> None:
        """/saldo, /balance: my balance in virtual dollars."""
        balance = await self.s.manager.balance(said.by)
        _ = self.s.t(said.language)
        name = said.author.full_name
        await self.s.reply(
            said.message, _("{name}, your balance: ${balance}", name=name, balance=balance)
        )

    @said(anyone=True)
    async def top(self, said: Said) -> None:
        """/top [rating|temporada [anterior|AAAA-MM]|saldo|parejas] [1v1|individual|cubano]:
        a top list as a picture (the same rows in its caption), with switches for the list
        and, in a group, for everyone's players; a past season by its key or "anterior";
        a format's own rating and season lists."""
        ranking = p.Ranking.RATING
        chosen_format, args = _format_of(said.args)
        if args:
            chosen = ranking_from_input(args[0])
            if chosen is None:
                _ = self.s.t(said.language)
                await self.s.reply(
                    said.message,
                    _(
                        "I do not know that list: {word}. Try /top rating, /top temporada, "
                        "/top saldo or /top parejas.",
                        word=_echo(args[:1]),
                    ),
                )
                return
            ranking = chosen
        season = None
        if ranking is p.Ranking.SEASON and len(args) > 1:
            manager = self.s.manager
            played = await manager.seasons(said.chat)
            season = season_from_input(args[1], played, await manager.current_season(said.chat))
            if season is None:
                _ = self.s.t(said.language)
                if not played or args[1].strip().lower() in PREVIOUS_WORDS:
                    text = _("There is no earlier season here yet. /top season shows this one.")
                else:  # a season named that was not played: one that was, as an example
                    text = _(
                        "There is no season {word} here. Seasons played: {seasons}. Try /top "
                        "season {example}.",
                        word=_echo(args[1:2]),
                        seasons=", ".join(played[:6]),
                        example=played[0],
                    )
                await self.s.reply(said.message, text)
                return
        screen = await self.lists.top_screen(
            ranking,
            said.chat,
            everyone=False,
            asker=said.player,
            language=said.language,
            season=season,
            format=chosen_format,
        )
        sent = await self.lists.reply(said.message, screen)
        if sent is not None and said.user is not None:
            self.s.list_asked(sent.chat.id, sent.message_id, said.user.id)

    @said()
    async def analysis(self, said: Said) -> None:
        """/analisis, /analysis: the maestro's analysis of my last finished hand here
        (what each costly move cost and the better one), answered where I asked."""
        found = await self.s.manager.analyze(said.by, said.chat)
        if isinstance(found, p.Refusal):
            await self.s.reply(said.message, refused(found, said.language))
            return
        screen = await self.lists.analysis_screen(found, said.language)
        if isinstance(screen, str):
            await self.s.reply(said.message, screen)
        else:
            await self.lists.reply(said.message, screen)

    @said()
    async def profile(self, said: Said) -> None:
        """/perfil, /profile: my profile; as a reply, the replied-to author's; with a
        mention, that user's (an @username only if I have seen them)."""
        chosen_format, words = _format_of(said.args)  # /perfil 1v1: that format's ratings
        target, unknown = await self._profile_target(said, words)
        if unknown is not None:
            _ = self.s.t(said.language)
            await self.s.reply(
                said.message,
                _(
                    "I do not know {name} yet. Reply to one of their messages with /perfil "
                    "to see their profile.",
                    name=_echo([unknown]),
                ),
            )
            return
        screen = await self.lists.profile_screen(target, said.chat, said.language, chosen_format)
        await self.lists.reply(said.message, screen)

    async def _profile_target(
        self, said: Said, words: Sequence[str]
    ) -> tuple[p.PlayerRef, str | None]:
        """Whose profile ``/perfil`` asks for, or (the author, the name not known)."""
        message, me = said.message, said.by
        for entity in message.entities:
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                if entity.user.is_bot:
                    continue
                return self.s.player(entity.user), None
            elif entity.type == MessageEntity.MENTION:
                name = message.parse_entity(entity)
                known = await self._by_username(name)
                return (me, name) if known is None else (known, None)
        replied = message.reply_to_message
        if replied is not None and replied.from_user and not replied.from_user.is_bot:
            self.s.seen(replied.from_user)
            return self.s.player(replied.from_user), None
        if words:  # typed without a mention entity: an @username of a player is known
            word = words[0]
            known = await self._by_username(word) if word.startswith("@") else None
            return (me, " ".join(words)) if known is None else (known, None)
        return me, None

    async def _by_username(self, name: str) -> p.PlayerRef | None:
        """The user an @username names: seen in this process, else a player who wrote
        with it before (kept with their player, so it survives a restart)."""
        seen = self.s.usernames.get(name.lstrip("@").lower())
        if seen is not None:
            return self.s.player(seen)
        return await self.s.manager.player_by_username(PLATFORM, name)

    @said()
    async def notifications(self, said: Said) -> None:
        """/avisos [en cada turno|ninguno], /notifications [every turn|none]: whether my
        turn message notifies me (issue 27); without a choice, how it is now."""
        manager, _ = self.s.manager, self.s.t(said.language)
        if said.args:
            chosen = notifications_from_input(" ".join(said.args))
            if chosen is None:
                await self.s.reply(said.message, notifications_hint(said.language))
                return
            await manager.set_turn_notifications(said.by, chosen)
        now = await manager.turn_notifications(said.by)
        if now is p.Notifications.NONE:
            text = _("No notifications: your turn messages come silently, with your tiles.")
        else:
            text = _("Your turn message will notify you on each of your turns.")
        if not said.args:
            text += "\n" + notifications_hint(said.language)
        await self.s.reply(said.message, text)

    @said()
    async def friend(self, said: Said) -> None:
        """/amigo, /friend: a friend request, its answer, removing a friend, inviting one
        to my table (:mod:`bot.telegram.friends`)."""
        await self.friend_commands.friend(said)

    @said()
    async def friends(self, said: Said) -> None:
        """/amigos, /friends: my friends and where each plays now."""
        await self.friend_commands.friends(said)

    # ------------------------------------------------------------------ linking
    @said()
    async def link(self, said: Said) -> None:
        """/vincular, /link [code]: without a code (in the private chat: a code is the
        player's alone), a code to give on Discord; with one, accept the code Discord
        gave (docs/players.md)."""
        if said.args:
            await self._run(said, p.AcceptLinkCode(said.by, " ".join(said.args), said.chat))
        elif said.chat is not None:
            await self.s.reply(said.message, link_in_private_text(said.language))
        else:
            await self._run(said, p.GiveLinkCode(said.by))

    @said()
    async def unlink(self, said: Said) -> None:
        """/desvincular, /unlink: this Telegram account leaves the linked player and starts
        again at $0 (docs/players.md, "Unlinking")."""
        await self._run(said, p.Unlink(said.by, said.chat))

    @said(group=True)
    async def tournament(self, said: Said) -> None:
        """/torneo, /tournament: the group's tournament; ``unirme``, ``salir`` (players),
        ``crear <eliminatoria|suizo|arena> [formato] cuota=… inscripcion=… rondas=…
        minutos=… maximo=… nombre=…``, ``empezar``, ``cancelar`` (admins)."""
        s, chat = self.s, said.group
        _ = s.t(said.language)
        action = TOURNAMENT_ACTIONS.get(said.args[0].lower()) if said.args else None
        if action is None:
            create = command_word("tournament", said.language) + " " + _("create swiss 1v1 fee=10")
            view = s.manager.tournament_here(chat)
            await s.reply(said.message, tournament_status_text(view, said.language, create=create))
            return
        if action == "join":  # answering a partner's message, or naming them: play together
            named = _invited_users(said.message, said.author)
            partner = s.player(named[0]) if named else None
            await self._run(said, p.JoinTournament(said.by, chat, partner))
            return
        if action == "leave":
            await self._run(said, p.LeaveTournament(said.by, chat))
            return
        if not await s.is_admin(said.message, said.author):
            text = _("Only this group's administrators can open, start or cancel a tournament.")
            await s.reply(said.message, text)
            return
        if action == "start":
            await self._run(said, p.StartTournament(said.by, chat, is_admin=True))
            return
        if action == "cancel":
            await self._run(said, p.CancelTournament(said.by, chat, is_admin=True))
            return
        typed = tournament_from_input(said.args[1:])
        if typed.errors or typed.kind is None:
            example = _(
                "I do not understand: {words}. Example: {example}",
                words=_echo(list(typed.errors) or ["—"]),
                example=command_word("tournament", said.language)
                + " "
                + _("create swiss 1v1 fee=10"),
            )
            await s.reply(said.message, example)
            return
        create_command = p.CreateTournament(
            said.by,
            chat,
            p.TournamentKind(typed.kind),
            is_admin=True,
            preset=typed.preset,
            name=typed.name,
            partners=p.Partners(typed.partners),
            **typed.options,  # by the command's own names (bot.present.labels)
        )
        await self._run(said, create_command)

    # ------------------------------------------------------------------ moderation
    async def _target(self, said: Said, words: Sequence[str]) -> p.PlayerRef | None:
        """The player a moderation command names: a mention, an @username typed, or
        the author of the message answered; None when it names nobody known."""
        message = said.message
        for entity in message.entities:
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                return self.s.player(entity.user)
            if entity.type == MessageEntity.MENTION:
                return await self._by_username(message.parse_entity(entity))
        named = next((w for w in words if w.startswith("@")), None)
        if named is not None:
            return await self._by_username(named)
        replied = message.reply_to_message
        if replied is not None and replied.from_user and not replied.from_user.is_bot:
            return self.s.player(replied.from_user)
        return None

    async def _privately(self, said: Said, text: str) -> None:
        """Answer the author alone: a mute or a report is nobody else's business. In a
        group the command itself is deleted (where the bot may) and the answer goes to
        the private chat, or to the group when the author never started the bot."""
        s, message = self.s, said.message
        if said.chat is None:
            await s.reply(message, text)
            return
        try:
            await send(message.delete)
        except TelegramError:
            log.info("could not delete a moderation command in %s", message.chat.id)
        if await s.can_reach(said.author.id):
            await s.private_text(said.author.id, text)
        else:
            await s.reply(message, text, quote=False)

    async def _moderated(self, said: Said, command: ModerationCommand, *, alone: bool) -> None:
        reply = await self.s.manager.handle(command)
        language = said.by.language if alone else said.language
        if reply.refusal is not None:
            text = refused(reply.refusal, language)
        else:
            text = moderation_done(command, language)
        if alone:
            await self._privately(said, text)
        else:
            await self.s.reply(said.message, text)

    @said()
    async def mute(self, said: Said) -> None:
        """/silenciar, /mute: mute the author of the message answered (or a player
        named): their phrases no longer reach me on any table; ``quitar``: hear them
        again. Private (issue 33)."""
        words = list(said.args)
        undo = bool(words) and words[0].lower() in UNMUTE_WORDS
        target = await self._target(said, words[1:] if undo else words)
        if target is None:
            refusal = p.Refusal(to=said.by, reason=p.RefusalReason.UNKNOWN_PLAYER)
            await self._privately(said, refused(refusal, said.by.language))
            return
        await self._moderated(said, p.Mute(said.by, target, not undo, said.chat), alone=True)

    @said(group=True)
    async def report(self, said: Said) -> None:
        """/reportar, /report <motivo>: report the author of the message answered (or a
        player named) to the group's admins (issue 33)."""
        language = said.by.language
        words = [w for w in said.args if not w.startswith("@")]
        target = await self._target(said, said.args)
        if not words or target is None:
            named = len(words) < len(said.args) or bool(said.message.entities[1:])
            if words and named:  # a name given, but nobody known by it
                refusal = p.Refusal(to=said.by, reason=p.RefusalReason.UNKNOWN_PLAYER)
                await self._privately(said, refused(refusal, language))
            else:
                await self._privately(
                    said, report_usage(command_word("report", language), language)
                )
            return
        reason = report_reason_from_input(words[0]) or words[0]
        await self._moderated(said, p.ReportPlayer(said.by, said.group, target, reason), alone=True)

    @said(group=True, person=False)
    async def moderate(self, said: Said) -> None:
        """/moderar, /moderate: the group's open reports, flags, bans and log (admins,
        privately); ``descartar N``, ``vetar N|@jugador``, ``perdonar @jugador``."""
        s, chat = self.s, said.group
        if not await s.is_admin(said.message, said.author):
            _ = s.t(said.language)
            await s.reply(said.message, _("Only this group's administrators can moderate."))
            return
        action = MODERATION_ACTIONS.get(said.args[0].lower()) if said.args else None
        if action is None:
            desk = await s.manager.moderation_desk(chat)
            text = moderation_desk_text(desk, said.by.language, s.record_url)
            if await s.can_reach(said.author.id):
                await s.private_text(said.author.id, text)
            else:
                await s.reply(said.message, text)
            return
        rest = said.args[1:]
        number = int(rest[0]) if rest and rest[0].isdecimal() else None
        target = None if number is not None else await self._target(said, rest)
        command: ModerationCommand
        if action == "dismiss" and number is not None:
            command = p.DismissReport(said.by, chat, number, is_admin=True)
        elif action == "ban" and (number is not None or target is not None):
            command = p.BanPlayer(said.by, chat, target, is_admin=True, report_id=number)
        elif action == "unban" and target is not None:
            command = p.UnbanPlayer(said.by, chat, target, is_admin=True)
        else:
            refusal = p.Refusal(to=said.by, reason=p.RefusalReason.UNKNOWN_PLAYER)
            await s.reply(said.message, refused(refusal, said.language))
            return
        await self._moderated(said, command, alone=False)

    @said(anyone=True)
    async def rules(self, said: Said) -> None:
        """/reglas, /rules: this chat's rule set (in a private chat: the default rules)."""
        _ = self.s.t(said.language)
        where = said.chat or p.ChatRef(PLATFORM, str(said.message.chat.id))
        info = await self.s.manager.chat_rules(where)
        text = rules_text(info.rules, info.preset, info.overrides, said.language)
        if said.chat is not None and not info.set_by_admins:
            text += "\n" + _("The admins have not chosen rules: these are the defaults (/config).")
        await self.s.reply(said.message, text)

    @said(group=True, person=False)
    async def close(self, said: Said) -> None:
        """/cerrar [N], /close [N]: admins close a stuck table of this group now, the one
        in this topic or table N; every stake is refunded and the board says so."""
        s = self.s
        if not await s.is_admin(said.message, said.author):
            _ = s.t(said.language)
            await s.reply(said.message, _("Only this group's administrators can close a table."))
            return
        label = said.args[0].lstrip("#") if said.args else None
        await self._run(said, p.CloseTable(said.by, said.group, label=label, is_admin=True))

    @said(group=True, person=False)
    async def config(self, said: Said) -> None:
        """/config: admins choose the chat's preset and single options (menu or words).

        Only what the admin typed is sent: the core starts again from a preset, or merges
        the options over the chat's current rules (:mod:`bot.core.chat_rules`)."""
        s, chat = self.s, said.group
        _ = s.t(said.language)
        if not await s.is_admin(said.message, said.author):
            await s.reply(said.message, _("Only this group's administrators can use /config."))
            return
        if said.args:
            args = read_table_args(said.args, seats=False)
            if args.errors:
                example = _(
                    "I do not understand: {words}. Example: /config dominicano meta=150",
                    words=_echo(args.errors),
                )
                await s.reply(said.message, example)
                return
            if args.season is not None:
                await s.manager.set_season_period(chat, args.season, said.by)
                await s.reply(said.message, season_text(args.season, said.language, changed=True))
                if args.preset is None and not args.overrides and args.language is None:
                    return
            change = p.SetChatRules(
                said.by, chat, args.preset, args.overrides, is_admin=True, language=args.language
            )
            reply = await s.manager.handle(change)
            if reply.refusal is not None:
                await s.reply(said.message, refused(reply.refusal, said.language, args.typed))
            # Accepted: the group is told once, with the rule list (ChatRulesChanged).
            return
        info = await s.manager.chat_rules(chat)
        season = await s.manager.standings(p.Ranking.SEASON, chat, limit=1)
        await s.reply(
            said.message,
            _("Rules of this group (press to change):")
            + "\n"
            + rules_text(info.rules, info.preset, info.overrides, said.language)
            + "\n"
            + season_text(season_period_of(season.season or ""), said.language),
            config_keyboard(info.rules, info.preset, info.overrides, said.language),
        )

    @said()
    async def history(self, said: Said) -> None:
        """/historial, /history: the last match record (records.md) as a JSON document:
        this group's last match in a group, my last match in private."""
        _ = self.s.t(said.language)
        if said.chat is not None:
            records = await self.s.manager.history(chat=said.chat, limit=1)
        else:
            records = await self.s.manager.history(player=said.by, limit=1)
        if not records:
            await self.s.reply(said.message, _("No finished match yet."))
            return
        last = records[0]
        data = json.dumps(last.record, ensure_ascii=False, indent=2).encode()
        try:
            await send(
                lambda: said.message.reply_document(
                    data,
                    filename=f"partida-{last.match_id}.json",
                    caption=_("Match record {match} (JSON).", match=last.match_id),
                )
            )
        except TelegramError:
            self.s.stats.failures += 1
            log.warning("could not send the record", exc_info=True)

    @said(anyone=True)
    async def help(self, said: Said) -> None:
        """/ayuda, /help: how to play."""
        await self.s.reply(said.message, help_text(said.language, self.s.manager.times))

    async def unknown(self, update: Update, context: Context) -> None:
        """A command the bot does not have, in a private chat: say so, then the help."""
        message, user = update.effective_message, update.effective_user
        if message is None or not message.text:
            return
        self.s.seen(user)
        language = language_of(user.language_code if user else None)
        _ = self.s.t(language)
        word = message.text.split(maxsplit=1)[0][:ECHO_LIMIT]
        text = (
            _("I do not know {command}.", command=word)
            + "\n\n"
            + help_text(language, self.s.manager.times)
        )
        await self.s.reply(message, text)

    @said()
    async def start(self, said: Said) -> None:
        """/start [payload]: the private chat works now; a deep link finishes seating."""
        s, message = self.s, said.message
        _ = s.t(said.language)
        if said.chat is not None:
            await s.reply(message, help_text(said.language, self.s.manager.times))
            return
        s.reachable.add(said.author.id)
        if not said.args:
            hello = _("Hello! Your tiles will come here. Send /jugar in a group to sit at a table.")
            await s.reply(message, hello, quote=False)
            return
        link = decode_start(said.args[0])
        if link is None or not await s.is_member(link.chat_id, said.author.id):
            await s.reply(message, _("That link is not valid (any more)."), quote=False)
            return
        await self._seat_from_link(said, link, _)

    async def _seat_from_link(self, said: Said, link: JoinLink, _: Translator) -> None:
        chat = p.ChatRef(
            PLATFORM,
            str(link.chat_id),
            thread_id=str(link.thread_id) if link.thread_id else None,
            language=self.s.language,
        )
        command: p.Command
        if link.table_id is None:
            command = p.PlayNow(said.by, chat)
        else:
            command = p.SitAt(said.by, chat, link.table_id, link.seat)
        reply = await self.s.manager.handle(command)
        if reply.refusal is not None:
            await self._answer(said, reply)
            return
        group = await self.s.title(link.chat_id)
        seat = (reply.seat or 0) + 1
        if group:
            text = _(
                "You sit at table {label}, seat {seat}, in {group}. Your tiles will come here.",
                label=reply.label,
                seat=seat,
                group=group,
            )
        else:
            text = _(
                "You sit at table {label}, seat {seat}. Your tiles will come here.",
                label=reply.label,
                seat=seat,
            )
        await self._answer(said, reply, text)


def _echo(words: list[str]) -> str:
    """The words a command did not understand, as echoed back: at most
    :data:`ECHO_LIMIT` characters, so the answer stays within Telegram's 4,096."""
    text = ", ".join(words)
    if len(text) <= ECHO_LIMIT:
        return text
    return text[: ECHO_LIMIT - 1] + "…"


def _format_of(args: Sequence[str]) -> tuple[str, list[str]]:
    """The format a list or profile asks for (``/top 1v1``, ``/perfil cubano``: a format
    preset's name, ``""`` for today's game) and the other words."""
    chosen, rest = "", []
    for word in args:
        named = format_from_input(word)
        if named:  # "parejas" names the pairs list there, not a format
            chosen = named
        else:
            rest.append(word)
    return chosen, rest


def _invited_users(message: Message, user: User) -> list[User]:
    """People named in a /mesa: the author of the message replied to, then users
    mentioned by name (text mentions carry the user; @usernames cannot be resolved)."""
    out: list[User] = []
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None:
        out.append(replied.from_user)
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            out.append(entity.user)
    seen: set[int] = {user.id}
    unique = []
    for invited in out:
        if invited.is_bot or invited.id in seen:
            continue
        seen.add(invited.id)
        unique.append(invited)
    return unique
