"""Slash commands and button presses: Discord input to table manager commands.

``/domino`` is one command group (``jugar``, ``mesa``, ``robots``, ``salir``, ``fichas``,
``saldo``, ``top``, ``reglas``, ``historial``, ``ayuda``) usable in servers; changing the
server's rules is ``/domino-config``, a separate top-level command because Discord applies
``default_member_permissions`` (here Manage Server) to a whole top-level command, never
to one subcommand of a group. The permission is checked again when it runs.

Every handler answers (or defers) the interaction first, before any storage, manager or
drawing work, so Discord's 3 seconds are never at risk; refusals are ephemeral and change
nothing. No rule, score or money is decided here: the manager decides and phrases.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core import (
    ChatRef,
    Command,
    FillWithRobots,
    ForgedPress,
    Leave,
    OpenTable,
    PlayerRef,
    PlayNow,
    PressButton,
    Reply,
    RobotSeat,
    SetChatRules,
    ShowMyTiles,
    TableManager,
    YourTiles,
    decode_press,
)
from bot.core.clock import Clock
from bot.discord.buttons import tiles_view
from bot.discord.i18n import (
    chat_language,
    command_name,
    player_language,
    text,
    texts,
)
from bot.discord.port import DM_CLOSED, DiscordPort
from bot.present.i18n import refusal_text
from bot.present.texts import confirmation, refused, seated_text
from engine.robots import LEVELS
from engine.rules import OPTION_VALUES, PRESET_NAMES, Rules, find_preset
from storage.base import Storage

__all__ = ["PLATFORM", "DominoCommands"]

log = logging.getLogger(__name__)

PLATFORM = "discord"


_SEATING_KINDS = {"sit", "again"}


def _choices(values: tuple[str, ...] | list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in values]


def _preset_choices() -> list[app_commands.Choice[str]]:
    return _choices(PRESET_NAMES)


LEVEL_NAMES = {
    "novato": "Beginner",
    "aprendiz": "Apprentice",
    "jugador": "Player",
    "experto": "Expert",
    "maestro": "Master",
}
"""Robot levels (``engine.robots.LEVELS``) and their names in the ``discord`` catalog."""


def _level_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(LEVEL_NAMES.get(level, level)), value=level)
        for level in LEVELS
    ]


def _int_choices(option: str) -> list[app_commands.Choice[int]]:
    return [
        app_commands.Choice(name=v.strip(), value=int(v)) for v in OPTION_VALUES[option].split(",")
    ]


def _word_choices(option: str, labels: dict[str, str]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=text(labels.get(v.strip(), v.strip())), value=v.strip())
        for v in OPTION_VALUES[option].split(",")
    ]


OPTION_LABELS = {
    "opponents": "the opponents' pips",
    "all": "all four hands' pips",
    "double_six": "the double six",
    "random": "a random seat",
    "draw": "the highest draw",
    "rotate": "the next seat",
    "winner": "the winner",
    "team": "the partnership with fewer pips",
    "individual": "the seat with fewest pips",
    "none": "never",
}


def rules_lines(rules: Rules, language: str) -> list[str]:
    """The rule set as short lines for ``/domino reglas`` (rules.md, "The options")."""
    _ = texts(language)

    def word(value: object) -> str:
        if value is None:
            return _(OPTION_LABELS["none"])
        return _(OPTION_LABELS[str(value)]) if str(value) in OPTION_LABELS else str(value)

    forced = rules.forced_move_seconds
    return [
        _("Preset: {name}", name=rules.preset_name or _("custom rules")),
        _("Target: {points} points", points=rules.target),
        _("Points counted: {how}", how=word(rules.counting)),
        _("First hand opened by: {who}", who=word(rules.first_starter)),
        _("Later hands opened by: {who}", who=word(rules.next_starter)),
        _("A blocked game goes to: {who}", who=word(rules.blocked_winner)),
        _("Redeal with doubles: {count}", count=word(rules.redeal_doubles)),
        _("Capicúa bonus: {points}", points=rules.capicua_bonus),
        _("Turn: {seconds} s", seconds=rules.turn_seconds),
        _(
            "Forced move after: {seconds}",
            seconds=word(forced) if forced is None else f"{forced} s",
        ),
        _("Stake: ${stake}", stake=rules.stake),
    ]


class DominoCommands:
    """The ``/domino`` commands and every button press, for one bot.

    Args:
        client: the bot (its ``tree`` receives the commands).
        manager: the table manager.
        storage: balances, rankings, records and rules (read-only here).
        port: the Discord port (DM state, tiles messages, board adoption).
        clock: the manager's clock (``now()`` for storage calls).
    """

    def __init__(
        self,
        client: discord.Client,
        manager: TableManager,
        storage: Storage,
        port: DiscordPort,
        clock: Clock,
    ) -> None:
        self.client = client
        self.manager = manager
        self.storage = storage
        self.port = port
        self.clock = clock

    # ------------------------------------------------------------------ refs
    @staticmethod
    def player(interaction: discord.Interaction[Any]) -> PlayerRef:
        user = interaction.user
        return PlayerRef(PLATFORM, str(user.id), user.display_name, player_language(interaction))

    @staticmethod
    def chat(interaction: discord.Interaction[Any]) -> ChatRef | None:
        if interaction.guild_id is None:
            return None
        channel_id = interaction.channel_id
        return ChatRef(
            PLATFORM,
            str(interaction.guild_id),
            channel_id=str(channel_id) if channel_id is not None else None,
            language=chat_language(interaction),
        )

    # ------------------------------------------------------------------ commands
    def app_commands(self) -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
        """The ``/domino`` group and ``/domino-config`` (add them to the bot's tree)."""
        group = app_commands.Group(
            name=command_name("domino", "domino"),
            description=text("Partnership dominoes: play, tables, balance and rules"),
            guild_only=True,
        )
        me = self

        @group.command(name=command_name("jugar", "play"), description=text("Sit at a table now"))
        async def jugar(interaction: discord.Interaction[Any]) -> None:
            await me.seat_command(interaction, lambda p, c: PlayNow(p, c))

        @group.command(
            name=command_name("mesa", "table"),
            description=text("Open a table: rules and who sits where"),
        )
        @app_commands.rename(
            preset=command_name("preset", "preset"),
            across=command_name("enfrente", "across"),
            right=command_name("derecha", "right"),
            left=command_name("izquierda", "left"),
            robots=command_name("robots", "robots"),
            level=command_name("nivel", "level"),
            turn=command_name("turno", "turn"),
        )
        @app_commands.describe(
            preset=text("Rule preset (default: this server's rules)"),
            across=text("Your partner, across from you"),
            right=text("The opponent on your right"),
            left=text("The opponent on your left"),
            robots=text("Robots in the seats nobody was chosen for"),
            level=text("The robots' level"),
            turn=text("Seconds per turn"),
        )
        @app_commands.choices(
            preset=_preset_choices(),
            robots=[
                app_commands.Choice(name=text("opponents"), value="opponents"),
                app_commands.Choice(name=text("every free seat"), value="all"),
            ],
            level=_level_choices(),
        )
        async def mesa(
            interaction: discord.Interaction[Any],
            preset: str | None = None,
            across: discord.Member | None = None,
            right: discord.Member | None = None,
            left: discord.Member | None = None,
            robots: str | None = None,
            level: str | None = None,
            turn: app_commands.Range[int, 10, 120] | None = None,
        ) -> None:
            lang = player_language(interaction)

            def seat(member: discord.Member | None, opponent: bool) -> PlayerRef | RobotSeat | None:
                if member is not None:
                    return PlayerRef(PLATFORM, str(member.id), member.display_name, lang)
                if robots == "all" or (robots == "opponents" and opponent):
                    return RobotSeat(level)
                return None

            overrides = {"turn_seconds": turn} if turn is not None else {}
            invited = [m for m in (across, right, left) if m is not None]
            await me.seat_command(
                interaction,
                lambda p, c: OpenTable(
                    p,
                    c,
                    preset=preset,
                    overrides=overrides,
                    right=seat(right, True),
                    across=seat(across, False),
                    left=seat(left, True),
                ),
                invited=invited,
            )

        @group.command(
            name=command_name("robots", "robots"),
            description=text("Fill the free seats of your table with robots now"),
        )
        @app_commands.rename(level=command_name("nivel", "level"))
        @app_commands.describe(level=text("The robots' level"))
        @app_commands.choices(level=_level_choices())
        async def robots_command(
            interaction: discord.Interaction[Any], level: str | None = None
        ) -> None:
            await me.simple_command(interaction, lambda p, c: FillWithRobots(p, c, level=level))

        @group.command(name=command_name("salir", "leave"), description=text("Leave your table"))
        async def salir(interaction: discord.Interaction[Any]) -> None:
            await me.simple_command(interaction, lambda p, c: Leave(p, c))

        @group.command(
            name=command_name("fichas", "tiles"),
            description=text("Show your tiles again, here, only to you"),
        )
        async def fichas(interaction: discord.Interaction[Any]) -> None:
            await me.tiles_command(interaction, lambda p, c: ShowMyTiles(p, c))

        @group.command(
            name=command_name("saldo", "balance"), description=text("Your balance and statistics")
        )
        async def saldo(interaction: discord.Interaction[Any]) -> None:
            await me.balance_command(interaction)

        @group.command(
            name=command_name("top", "top"), description=text("This server's best players")
        )
        @app_commands.rename(by=command_name("por", "by"))
        @app_commands.describe(by=text("Rank by balance or by rating"))
        @app_commands.choices(
            by=[
                app_commands.Choice(name=text("balance"), value="balance"),
                app_commands.Choice(name=text("rating"), value="rating"),
            ]
        )
        async def top(interaction: discord.Interaction[Any], by: str = "balance") -> None:
            await me.top_command(interaction, by)

        @group.command(
            name=command_name("reglas", "rules"), description=text("This server's rules")
        )
        async def reglas(interaction: discord.Interaction[Any]) -> None:
            await me.rules_command(interaction)

        @group.command(
            name=command_name("historial", "history"),
            description=text("Your last match record, as a JSON file"),
        )
        async def historial(interaction: discord.Interaction[Any]) -> None:
            await me.history_command(interaction)

        @group.command(
            name=command_name("ayuda", "help"), description=text("How to play with this bot")
        )
        async def ayuda(interaction: discord.Interaction[Any]) -> None:
            await me.help_command(interaction)

        config: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=command_name("domino-config", "domino-config"),
            description=text("Choose this server's rules (Manage Server)"),
            callback=_config_callback(me),  # type: ignore[arg-type]
        )
        config.guild_only = True
        config.default_permissions = discord.Permissions(manage_guild=True)
        return [group, config]

    # ------------------------------------------------------------------ helpers
    async def _ask(self, command: Command) -> Reply:
        return await self.manager.handle(command)

    async def refuse(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        """Tell the actor, ephemerally, why nothing happened."""
        refusal = reply.refusal
        assert refusal is not None
        message = refused(refusal, player_language(interaction))
        await self._answer(interaction, message)

    async def _answer(
        self, interaction: discord.Interaction[Any], content: str, **kwargs: Any
    ) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)

    async def _defer_ephemeral(self, interaction: discord.Interaction[Any]) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    def _in_guild(self, interaction: discord.Interaction[Any]) -> tuple[PlayerRef, ChatRef] | None:
        chat = self.chat(interaction)
        return None if chat is None else (self.player(interaction), chat)

    # ------------------------------------------------------------------ handlers
    async def seat_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[PlayerRef, ChatRef], Command],
        *,
        invited: Sequence[discord.abc.User] = (),
    ) -> None:
        """``jugar`` / ``mesa``: seat the member, then check they can receive DMs; members
        invited to the table's other seats are told in the channel (a mention)."""
        await self._defer_ephemeral(interaction)
        refs = self._in_guild(interaction)
        if refs is None:
            await self._answer(
                interaction, texts(player_language(interaction))("Use this in a server.")
            )
            return
        reply = await self._ask(build(*refs))
        await self._after_seating(interaction, reply)
        if reply.ok and invited and interaction.channel is not None:
            state = self.manager.table_state(reply.table_id or "")
            _ = texts(chat_language(interaction))
            await interaction.channel.send(  # type: ignore[union-attr]
                _(
                    "{name} invites {members} to table {label}: press your seat on the board.",
                    name=interaction.user.display_name,
                    members=", ".join(m.mention for m in invited),
                    label=state.label if state is not None else reply.table_id,
                ),
                allowed_mentions=discord.AllowedMentions(users=list(invited)),
            )

    async def _after_seating(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        _ = texts(player_language(interaction))
        table_id = reply.table_id or ""
        state = self.manager.table_state(table_id) if table_id else None
        label = state.label if state is not None else self.port.label_of(table_id)
        lines = [seated_text(reply, player_language(interaction))]
        view: discord.ui.View | None = None
        if await self.can_dm(interaction, label):
            lines.append(_("Your tiles will come by direct message."))
        else:
            lines.append(
                _(
                    "I cannot send you direct messages (they are closed for this server). "
                    "Use the button below, or the board's “My tiles”, to see your tiles here."
                )
            )
            if table_id:
                view = tiles_view(table_id, player_language(interaction))
        await self._answer(interaction, "\n".join(lines), **({"view": view} if view else {}))

    async def can_dm(self, interaction: discord.Interaction[Any], label: str) -> bool:
        """Whether the member accepts DMs from the bot (a short DM is the test)."""
        user_id = str(interaction.user.id)
        _ = texts(player_language(interaction))
        chat = self.chat(interaction)
        place = self.port.place_name(chat) if chat is not None else ""
        try:
            await interaction.user.send(
                _(
                    "You sit at table {label} ({place}). Your tiles will come here.",
                    label=label,
                    place=place,
                )
            )
        except discord.Forbidden as exc:
            # 50007 is the usual answer (DMs closed); any refusal means the same here.
            if exc.code != DM_CLOSED:
                log.info("DM to %s refused with code %s", user_id, exc.code)
            self.port.dms_closed.add(user_id)
            return False
        self.port.dms_closed.discard(user_id)
        return True

    async def simple_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[PlayerRef, ChatRef], Command],
    ) -> None:
        """A command whose answer is a short ephemeral sentence (robots, leave)."""
        await self._defer_ephemeral(interaction)
        refs = self._in_guild(interaction)
        if refs is None:
            await self._answer(
                interaction, texts(player_language(interaction))("Use this in a server.")
            )
            return
        command = build(*refs)
        reply = await self._ask(command)
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        lang = player_language(interaction)
        await self._answer(
            interaction, confirmation(type(command), reply, lang) or texts(lang)("Done.")
        )

    async def tiles_command(
        self,
        interaction: discord.Interaction[Any],
        build: Callable[[PlayerRef, ChatRef | None], Command],
    ) -> None:
        """``fichas`` and the "my tiles" button: the tiles and move buttons, ephemerally."""
        await self._defer_ephemeral(interaction)
        reply = await self._ask(build(self.player(interaction), self.chat(interaction)))
        await self._show_tiles_reply(interaction, reply)

    async def _show_tiles_reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        tiles = next((e for e in reply.events if isinstance(e, YourTiles)), None)
        if tiles is None:
            await self._answer(interaction, texts(player_language(interaction))("Done."))
            return
        content, file, view = await self.port.tiles_message(tiles)
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
        self.port.remember_ephemeral(tiles.table_id, tiles.to.user_id, interaction)

    async def balance_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer_ephemeral(interaction)
        _ = texts(player_language(interaction))
        player = self.player(interaction)
        balance = await self.manager.balance(player)
        stats = await self.storage.player_stats(await self.manager.player_id(player))
        lines = [_("Your balance: ${balance}", balance=balance)]
        if stats.matches_played:
            lines.append(
                _(
                    "Matches: {matches} · won: {won} · hands won: {hands} · dominoes: {dominoes} · capicúas: {capicuas}",
                    matches=stats.matches_played,
                    won=stats.matches_won,
                    hands=stats.hands_won,
                    dominoes=stats.dominoes,
                    capicuas=stats.capicuas,
                )
            )
        await self._answer(interaction, "\n".join(lines))

    async def top_command(self, interaction: discord.Interaction[Any], by: str) -> None:
        # A ranking is for everyone in the channel: a public answer.
        await interaction.response.defer(thinking=True)
        _ = texts(chat_language(interaction))
        rows = await self.manager.top(
            self.chat(interaction), by="rating" if by == "rating" else "balance"
        )
        title = (
            _("Best rating in this server")
            if by == "rating"
            else _("Richest players in this server")
        )
        if not rows:
            await interaction.followup.send(_("Nobody has played here yet."))
            return
        lines = [
            f"{n}. {row.display_name} — "
            + (f"{round(float(row.value))}" if by == "rating" else f"${row.value}")
            + " · "
            + _("{matches} matches", matches=row.matches)
            for n, row in enumerate(rows, 1)
        ]
        embed = discord.Embed(
            title=title, description="\n".join(lines), colour=discord.Colour.gold()
        )
        await interaction.followup.send(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )

    async def rules_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer_ephemeral(interaction)
        lang = player_language(interaction)
        chat = self.chat(interaction)
        rules = (
            (await self.manager.chat_rules(chat)).rules
            if chat is not None
            else find_preset(PRESET_NAMES[0])
        )
        embed = discord.Embed(
            title=texts(lang)("This server's rules"),
            description="\n".join(rules_lines(rules, lang)),
            colour=discord.Colour.dark_green(),
        )
        await interaction.followup.send(embed=embed, ephemeral=True)

    async def history_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer_ephemeral(interaction)
        _ = texts(player_language(interaction))
        records = await self.manager.history(
            player=self.player(interaction), chat=self.chat(interaction), limit=1
        )
        if not records:
            await self._answer(interaction, _("You have no finished match here yet."))
            return
        record = records[0]
        data = json.dumps(record.record, ensure_ascii=False, indent=1).encode()
        await interaction.followup.send(
            _("Your last match (replay it with `domino replay`)."),
            file=discord.File(io.BytesIO(data), f"partida-{record.match_id}.json"),
            ephemeral=True,
        )

    async def help_command(self, interaction: discord.Interaction[Any]) -> None:
        _ = texts(player_language(interaction))
        await interaction.response.send_message(
            "\n".join(
                [
                    _("**Dominoes for four, in two partnerships.**"),
                    _("`/domino jugar`: sit at a table now (robots fill it after two minutes)."),
                    _(
                        "`/domino mesa`: open a table choosing the rules, your partner and opponents."
                    ),
                    _("`/domino robots`: fill the free seats with robots now."),
                    _("`/domino fichas`: see your tiles here; they also come by DM each turn."),
                    _("`/domino salir`: leave your table (a robot plays for you)."),
                    _(
                        "`/domino saldo`, `/domino top`, `/domino historial`: money, rankings, records."
                    ),
                    _(
                        "`/domino reglas`: this server's rules; admins change them with `/domino-config`."
                    ),
                ]
            ),
            ephemeral=True,
        )

    async def config_command(
        self,
        interaction: discord.Interaction[Any],
        preset: str,
        overrides: dict[str, Any],
    ) -> None:
        """``/domino-config``: only members who may manage the server (checked again here,
        whatever Discord's command permissions say)."""
        lang = player_language(interaction)
        refs = self._in_guild(interaction)
        is_admin = bool(interaction.permissions.manage_guild)
        if refs is None or not is_admin:
            # Refused at once: nothing to wait for, nothing written.
            await self._answer(interaction, refusal_text("not_admin", {}, lang))
            return
        await self._defer_ephemeral(interaction)
        reply = await self._ask(
            SetChatRules(*refs, preset=preset, overrides=overrides, is_admin=is_admin)
        )
        if not reply.ok:
            await self.refuse(interaction, reply)
            return
        rules = find_preset(preset, **overrides)
        _ = texts(lang)
        await self._answer(
            interaction,
            "\n".join(
                [
                    confirmation(SetChatRules, reply, lang)
                    or _("Rules changed. New tables use them."),
                    *rules_lines(rules, lang),
                ]
            ),
        )

    # ------------------------------------------------------------------ presses
    async def on_press(self, interaction: discord.Interaction[Any], payload: str) -> None:
        """A button: answered at once, then handed to the manager as it came."""
        try:
            press = decode_press(payload)
        except ForgedPress:
            await self._answer(
                interaction, refusal_text("forged", {}, player_language(interaction))
            )
            return
        message = interaction.message
        ephemeral = message is not None and message.flags.ephemeral
        if press.kind == "tiles":
            await self._defer_ephemeral(interaction)
        elif press.kind == "move" and message is not None:
            # Acknowledge by taking the buttons off the tiles message at once: no second
            # press of it, and no later edit needed; the next turn brings new buttons.
            await interaction.response.edit_message(view=None)
            self.port.buttons_removed(press.table_id, str(interaction.user.id), message.id)
        else:
            await interaction.response.defer()  # a silent "got it"; the board shows the rest
        chat = self.chat(interaction)
        if message is not None and chat is not None and not ephemeral and press.kind != "again":
            self.port.adopt_board(press.table_id, chat, message.id)
        if press.kind == "move" and ephemeral and str(interaction.user.id) in self.port.dms_closed:
            self.port.remember_ephemeral(press.table_id, str(interaction.user.id), interaction)
        reply = await self._ask(PressButton(self.player(interaction), payload, chat))
        if press.kind == "tiles":
            await self._show_tiles_reply(interaction, reply)
        elif press.kind in _SEATING_KINDS and chat is not None:
            await self._after_seating(interaction, reply)
        elif not reply.ok:
            await self.refuse(interaction, reply)
        elif text := confirmation(press.kind, reply, player_language(interaction)):
            await self._answer(interaction, text)


def _config_callback(me: DominoCommands) -> Callable[..., Awaitable[None]]:
    @app_commands.rename(
        preset=command_name("preset", "preset"),
        target=command_name("meta", "target"),
        counting=command_name("conteo", "counting"),
        first_starter=command_name("primera-salida", "first-starter"),
        next_starter=command_name("salidas", "next-starter"),
        blocked_winner=command_name("tranca", "blocked"),
        redeal_doubles=command_name("redoblar", "redeal"),
        capicua_bonus=command_name("capicua", "capicua"),
        turn_seconds=command_name("turno", "turn"),
        forced_move_seconds=command_name("forzada", "forced"),
        stake=command_name("apuesta", "stake"),
    )
    @app_commands.describe(
        preset=text("Rule preset"),
        target=text("Points to win the match"),
        counting=text("Whose pips a domino counts"),
        first_starter=text("Who opens the first hand"),
        next_starter=text("Who opens the later hands"),
        blocked_winner=text("Who wins a blocked game"),
        redeal_doubles=text("Redeal when a seat gets this many doubles"),
        capicua_bonus=text("Points added to a capicúa"),
        turn_seconds=text("Seconds per turn"),
        forced_move_seconds=text("Seconds before a single legal move is played"),
        stake=text("Dollars each player stakes"),
    )
    @app_commands.choices(  # type: ignore[misc]
        preset=_preset_choices(),
        target=_int_choices("target"),
        counting=_word_choices("counting", OPTION_LABELS),
        first_starter=_word_choices("first_starter", OPTION_LABELS),
        next_starter=_word_choices("next_starter", OPTION_LABELS),
        blocked_winner=_word_choices("blocked_winner", OPTION_LABELS),
        redeal_doubles=_word_choices("redeal_doubles", OPTION_LABELS),
        capicua_bonus=_int_choices("capicua_bonus"),
    )
    async def domino_config(
        interaction: discord.Interaction[Any],
        preset: str,
        target: int | None = None,
        counting: str | None = None,
        first_starter: str | None = None,
        next_starter: str | None = None,
        blocked_winner: str | None = None,
        redeal_doubles: str | None = None,
        capicua_bonus: int | None = None,
        turn_seconds: app_commands.Range[int, 10, 120] | None = None,
        forced_move_seconds: app_commands.Range[int, -1, 10] | None = None,
        stake: app_commands.Range[int, 0, 1000] | None = None,
    ) -> None:
        overrides: dict[str, Any] = {
            name: value
            for name, value in {
                "target": target,
                "counting": counting,
                "first_starter": first_starter,
                "next_starter": next_starter,
                "blocked_winner": blocked_winner,
                "redeal_doubles": redeal_doubles,
                "capicua_bonus": capicua_bonus,
                "turn_seconds": turn_seconds,
                "stake": stake,
            }.items()
            if value is not None
        }
        if redeal_doubles is not None and redeal_doubles != "none":
            overrides["redeal_doubles"] = int(redeal_doubles)
        if forced_move_seconds is not None:
            # -1 switches the forced move off (a slash command option cannot be "none").
            overrides["forced_move_seconds"] = (
                None if forced_move_seconds < 0 else forced_move_seconds
            )
        await me.config_command(interaction, preset, overrides)

    return domino_config
