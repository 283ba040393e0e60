"""The web table (issue 16): one page and a websocket per client, over the same core.

``WebTable`` is an aiohttp application and a :class:`~bot.core.Port` registered for every
platform: it keeps the live tables' latest public state and pushes it to the pages that
watch each table; a seat's private state goes only to the connections authenticated as
that seat's player. Every action from a page is the same core command a chat button
sends (``PressButton`` with the button's payload, ``Emote``, ``Leave``, ``ComeBack``),
with the same checks; the page shows what the core says and decides nothing.

Protocol (JSON text frames):

* client ``{"hello": {"init_data": …[, "table": id]} | {"seat": token} | {"watch": token}
  | {"discord": access token, "channel": id}}`` first (``table``: the table a private
  chat's Mini App button names; ``discord``: inside a Discord Activity, the token its
  OAuth2 gave, :mod:`bot.web.activity`, and the channel it was opened in);
  server ``{"type": "welcome", …}``, then ``table`` (and ``hand`` for a seated player);
  a reconnect sends ``hello`` again and gets a fresh state.
* client ``{"press": payload}``, ``{"emote": name}``, ``{"leave": true}``,
  ``{"back": true}``, ``{"analysis": true}`` (my last hand's analysis: ``analysing``, then
  ``analysis`` with its text), ``{"again": true}`` (a rematch of the ended table: the page moves to
  the new one, ``{"type": "moved", …}``, then its ``table`` and ``hand``); a refused one is
  answered ``{"type": "refused", "text": …}``.
* server pushes ``table``, ``hand``, ``emote``, ``result`` (a hand's or the match's end:
  its text, which stays on the page until the next hand), ``notice``, ``closed``; at the
  match's end a last ``table`` in the ``ended`` phase shows the final position.

A tournament's public page (issue 32): ``GET /torneo/<id>`` (plain HTML, no script:
its name, kind and status, its bracket or standings, the tables in play with their
spectator links, the final places and prizes; ``?lang=en`` or ``Accept-Language``
for English) and its picture ``GET /torneo/<id>.png`` (drawn off the event loop, the
last :data:`PICTURES_KEPT` kept by their facts). An id nobody knows is a 404 page in the
reader's language. No login: it is as public as a spectator link, and acts on nothing.

Inside Discord (an Activity) every path is also served under ``/.proxy/`` (Discord's
proxy prefix), ``POST /api/token`` exchanges the SDK's code for an access token and
``GET /api/activity`` gives the page the application's id.

Limits: :data:`MAX_FRAME` bytes per frame, :data:`RATE` frames per second per connection
(burst :data:`BURST`; a flood closes it), the ``Origin`` header must be the public URL's.
The access log never shows query strings or fragments (tokens live there).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.abc import AbstractAccessLogger

from bot.core import (
    ComeBack,
    Emote,
    Event,
    HandEnded,
    Leave,
    MatchEnded,
    PlayerRef,
    PressButton,
    PressKind,
    Refusal,
    ShowMyTiles,
    TableChanged,
    TableClosed,
    TableManager,
    YourTiles,
    encode_action,
    ended_board,
)
from bot.present.analysis import analysis_text
from bot.present.facts import tournament_picture
from bot.present.i18n import language_of
from bot.present.live import (
    emote_state,
    hand_state,
    page_refusal,
    page_texts,
    record_missing_page,
    record_page,
    result_state,
    table_state,
    tournament_missing_page,
    tournament_page,
)
from bot.present.replies import confirmation
from bot.present.screens import (
    BoardScreen,
    ClosedScreen,
    EmoteScreen,
    Notice,
    Reader,
    ResultScreen,
    Screen,
    TilesScreen,
    screens,
)
from bot.web.activity import DiscordActivity
from bot.web.auth import AuthError, AuthFailure, SeatPass, WebAuth
from bot.web.tournament import (
    HEADERS,
    missing_html,
    reader_language,
    record_html,
    tournament_html,
)
from render import BracketFacts, TournamentStandingsFacts, tournament_png

__all__ = ["BURST", "MAX_FRAME", "PICTURES_KEPT", "RATE", "WebTable"]

log = logging.getLogger("bot.web")

MAX_FRAME: Final = 4096
"""The largest frame a page may send, in bytes."""

RATE: Final = 5.0
"""Frames per second a connection may send on average."""

BURST: Final = 15
"""Frames a connection may send at once; past it frames are dropped, and a connection
that keeps flooding is closed."""

PICTURES_KEPT: Final = 32
"""Tournament pictures kept drawn (by their facts: the same facts, the same bytes)."""

_PAGE_ID: Final = re.compile(r"[0-9a-z]{1,32}")
"""A tournament's or a match's id as a page's address may carry it."""
"""What a tournament id looks like (the service draws 8 of ``[0-9a-z]``): anything else
is not looked up."""

_STATIC: Final = ("index.html", "app.js", "style.css", "activity.js")
"""The page's files (``activity.js``, the Discord SDK's bundle, is loaded only inside
Discord)."""


def _encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


class _QuietAccessLogger(AbstractAccessLogger):
    """Method, path (without query or fragment: tokens travel there), status, time."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %s %.1f ms", request.method, request.path, response.status, time * 1000
        )


@dataclass(eq=False)
class _Client:
    """One page's websocket."""

    socket: web.WebSocketResponse
    tokens: float
    player: PlayerRef | None = None
    table_id: str | None = None
    language: str = "es"
    last: float = 0.0
    floods: int = 0
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


def _not_found(language: str, title: str, text: str) -> web.Response:
    """A public page's 404: ``title`` and ``text`` phrased by the presentation layer."""
    return web.Response(
        text=missing_html(language, title, text),
        status=404,
        content_type="text/html",
        charset="utf-8",
        headers=HEADERS,
    )


class WebTable:
    """The web front end: ``await start(host, port)``; links for the other front ends.

    Args:
        manager: the table manager (its port is registered here for every platform).
        auth: validates and signs credentials.
        public_url: the https address players open (``DOMINO_WEB_URL``); its origin is
            the only one whose pages may connect.
        clock: epoch seconds now (deadlines, token ages, the rate limit).
        rate, burst: frames a second a page may send, and at once (:data:`RATE`,
            :data:`BURST`); a frame past them is dropped (the first of a run answered
            ``refused``), and a page that keeps on is cut off.
        activity: Discord's OAuth2 when the page is also a Discord Activity, else None.
    """

    def __init__(
        self,
        manager: TableManager,
        auth: WebAuth,
        *,
        public_url: str,
        clock: Callable[[], float],
        rate: float = RATE,
        burst: int = BURST,
        activity: DiscordActivity | None = None,
    ) -> None:
        self.manager = manager
        self.activity = activity
        self.rate = rate
        self.burst = burst
        self.auth = auth
        self.public_url = public_url.rstrip("/")
        parts = urlsplit(self.public_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.clock = clock
        self.clients: set[_Client] = set()
        self._runner: web.AppRunner | None = None
        self._tables: dict[str, TableChanged] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # analyses under way
        self._by_table: dict[str, set[_Client]] = {}
        self._pictures: OrderedDict[
            BracketFacts | TournamentStandingsFacts, asyncio.Future[bytes]
        ] = OrderedDict()
        self.app = web.Application(client_max_size=MAX_FRAME)
        routes = []
        for prefix in ("", "/.proxy"):  # Discord's proxy prefix, for the Activity
            routes += [
                web.get(f"{prefix}/", self._page),
                web.get(f"{prefix}/static/{{name}}", self._static),
                web.get(f"{prefix}/ws", self._socket),
                web.get(f"{prefix}/torneo/{{tournament_id:[0-9a-z]{{1,32}}}}.png", self._picture),
                web.get(f"{prefix}/torneo/{{tournament_id}}", self._tournament),
                web.get(f"{prefix}/partida/{{match_id}}", self._record),
                web.get(f"{prefix}/api/activity", self._activity_config),
                web.post(f"{prefix}/api/token", self._token),
            ]
        self.app.add_routes(routes)
        manager.register("*", self)

    # ------------------------------------------------------------------ links

    def seat_url(self, player: PlayerRef, table_id: str) -> str:
        """A personal, signed, expiring link opening ``table_id`` as ``player``."""
        return f"{self.public_url}/?s={self.auth.seat_link(player, table_id)}"

    def watch_url(self, table_id: str) -> str:
        """The table's public spectator link."""
        return f"{self.public_url}/?w={self.auth.watch_link(table_id)}"

    def tournament_url(self, tournament_id: str) -> str:
        """A tournament's public page (its bracket or standings, its tables to watch)."""
        return f"{self.public_url}/torneo/{tournament_id}"

    def record_url(self, match_id: str) -> str:
        """A finished match's record page (each hand's deal and moves)."""
        return f"{self.public_url}/partida/{match_id}"

    # ---------------------------------------------------------------- serving

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); returns the port."""
        self._runner = web.AppRunner(self.app, access_log_class=_QuietAccessLogger)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        return int(sockets[0].getsockname()[1]) if sockets else port

    async def stop(self) -> None:
        """Close every page's connection and stop listening."""
        for task in list(self._tasks):
            task.cancel()
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                await client.socket.close()
        if self.activity is not None:
            await self.activity.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return self._file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in _STATIC:
            raise web.HTTPNotFound()
        return self._file(name)

    @staticmethod
    def _file(name: str) -> web.Response:
        body = resources.files("bot.web").joinpath("static", name).read_bytes()
        kind = {"html": "text/html", "js": "text/javascript", "css": "text/css"}
        return web.Response(
            body=body,
            content_type=kind[name.rsplit(".", 1)[1]],
            charset="utf-8",
            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    # -------------------------------------------------------------- tournaments

    async def _tournament(self, request: web.Request) -> web.StreamResponse:
        """A tournament's page, or the 404 page of one nobody knows."""
        language = reader_language(
            request.query.get("lang"), request.headers.get("Accept-Language")
        )
        tournament_id = request.match_info["tournament_id"]
        view = None
        if _PAGE_ID.fullmatch(tournament_id):
            view = await self.manager.tournament_view(tournament_id)
        if view is None:
            return _not_found(language, *tournament_missing_page(language))
        page = tournament_page(view, language)
        html = tournament_html(
            page,
            picture_url=f"{tournament_id}.png?lang={language}",
            watch_urls={table.table_id: self.watch_url(table.table_id) for table in page.tables},
        )
        return web.Response(text=html, content_type="text/html", charset="utf-8", headers=HEADERS)

    async def _record(self, request: web.Request) -> web.StreamResponse:
        """A finished match's record page (the admins' link from a report), or the 404
        page of an id no finished match has."""
        language = reader_language(
            request.query.get("lang"), request.headers.get("Accept-Language")
        )
        match_id = request.match_info["match_id"]
        view = None
        if _PAGE_ID.fullmatch(match_id):
            view = await self.manager.record_view(match_id)
        page = None if view is None else record_page(view, language)
        if page is None:
            return _not_found(language, *record_missing_page(language))
        return web.Response(
            text=record_html(page), content_type="text/html", charset="utf-8", headers=HEADERS
        )

    async def _picture(self, request: web.Request) -> web.StreamResponse:
        """A tournament's bracket or standings as a PNG (404: none, or none yet)."""
        language = reader_language(
            request.query.get("lang"), request.headers.get("Accept-Language")
        )
        view = await self.manager.tournament_view(request.match_info["tournament_id"])
        facts = tournament_picture(view, language) if view is not None else None
        if facts is None:
            raise web.HTTPNotFound()
        png = await self._drawn(facts)
        return web.Response(
            body=png,
            content_type="image/png",
            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    async def _drawn(self, facts: BracketFacts | TournamentStandingsFacts) -> bytes:
        """The picture of ``facts``, drawn in a worker thread once for every page asking
        meanwhile; the last :data:`PICTURES_KEPT` are kept."""
        drawing = self._pictures.get(facts)
        if drawing is None:
            drawing = asyncio.ensure_future(asyncio.to_thread(tournament_png, facts))
            self._pictures[facts] = drawing
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        else:
            self._pictures.move_to_end(facts)
        try:
            return await asyncio.shield(drawing)
        except Exception:
            if self._pictures.get(facts) is drawing:
                del self._pictures[facts]  # a failed drawing is tried again next time
            raise

    @property
    def in_discord(self) -> bool:
        """Whether the page is also a Discord Activity (``DISCORD_CLIENT_ID`` is set)."""
        return self.activity is not None

    @property
    def origins(self) -> set[str]:
        """The origins whose pages may connect: the public URL's, and Discord's iframe of
        the Activity."""
        found = {self.origin}
        if self.activity is not None:
            found.add(self.activity.origin)
        return found

    async def _activity_config(self, request: web.Request) -> web.StreamResponse:
        if self.activity is None:
            raise web.HTTPNotFound()
        return web.json_response({"client_id": self.activity.client_id})

    async def _token(self, request: web.Request) -> web.StreamResponse:
        """The Activity's page posts the SDK's code; the answer is the access token."""
        if self.activity is None:
            raise web.HTTPNotFound()
        if request.headers.get("Origin") not in self.origins:
            raise web.HTTPForbidden(text="origin")
        try:
            body = await request.json()
        except ValueError:
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str):
            return web.json_response({"error": "malformed"}, status=400)
        try:
            token = await self.activity.exchange(code)
        except AuthError as exc:
            return web.json_response({"error": exc.failure.value}, status=403)
        return web.json_response({"access_token": token})

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Origin") not in self.origins:
            log.warning("websocket refused: origin %r", request.headers.get("Origin"))
            raise web.HTTPForbidden(text="origin")
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30.0)
        await socket.prepare(request)
        client = _Client(socket, float(self.burst), last=self.clock())
        self.clients.add(client)
        writer = asyncio.get_running_loop().create_task(self._writer(client))
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                if not self._allowed(client):
                    if client.floods > self.burst:
                        await socket.close(code=1008, message=b"too many messages")
                        break
                    if client.floods == 1:  # answered once, so the page can press again
                        text = page_texts(client.language)["too_fast"]
                        self._send(client, {"type": "refused", "text": text})
                    continue
                await self._receive(client, message.data)
        finally:
            self.clients.discard(client)
            self._watch(client, None)
            writer.cancel()
        return socket

    async def _writer(self, client: _Client) -> None:
        """Send a client's frames in order; a closed socket just ends it."""
        while True:
            text = await client.queue.get()
            try:
                await client.socket.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def _send(self, client: _Client, payload: dict[str, Any] | str) -> None:
        """Queue a frame (a JSON object, or one already encoded)."""
        text = payload if isinstance(payload, str) else _encode(payload)
        client.queue.put_nowait(text)

    def _allowed(self, client: _Client) -> bool:
        """A token bucket: :data:`RATE` per second, :data:`BURST` at once."""
        now = self.clock()
        client.tokens = min(float(self.burst), client.tokens + (now - client.last) * self.rate)
        client.last = now
        if client.tokens >= 1.0:
            client.tokens -= 1.0
            client.floods = 0
            return True
        client.floods += 1
        return False

    # ------------------------------------------------------------- from pages

    async def _receive(self, client: _Client, data: str) -> None:
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict) or len(message) != 1:
            self._send(client, {"type": "error", "error": "malformed"})
            return
        ((kind, value),) = message.items()
        if kind == "hello":
            await self._hello(client, value)
            return
        if client.table_id is None:
            self._send(client, {"type": "error", "error": "hello first"})
            return
        player = client.player
        if player is None:
            self._send(client, {"type": "error", "error": "spectator"})
            return
        table_id = client.table_id
        if kind == "press" and isinstance(value, str) and len(value) <= 200:
            reply = await self.manager.handle(PressButton(player, value))
        elif kind == "emote" and isinstance(value, str) and len(value) <= 40:
            reply = await self.manager.handle(Emote(player, value, None, table_id))
        elif kind == "leave" and value is True:
            reply = await self.manager.handle(Leave(player, None, table_id))
        elif kind == "back" and value is True:
            reply = await self.manager.handle(ComeBack(player, None, table_id))
        elif kind == "analysis" and value is True:  # "¿Qué debí jugar?" of my last hand
            self._analyse(client, player, table_id)
            return
        elif kind == "again" and value is True:  # a rematch: the page follows its new table
            press = encode_action(PressKind.AGAIN, table_id)
            reply = await self.manager.handle(PressButton(player, press))
            if reply.refusal is None and reply.table_id and reply.table_id != table_id:
                await self._show(client, player, reply.table_id)
                return
        else:
            self._send(client, {"type": "error", "error": "malformed"})
            return
        if reply.refusal is not None:
            text = page_refusal(reply.refusal, client.language)
            self._send(client, {"type": "refused", "text": text})
        elif kind == "leave":  # what leaving cost (a started match's stake)
            text = confirmation(Leave, reply, client.language)
            self._send(client, {"type": "notice", "text": text})
        for event in reply.events:
            if isinstance(event, YourTiles):
                self._send(client, hand_state(event, now=self.clock()))

    def _analyse(self, client: _Client, player: PlayerRef, table_id: str) -> None:
        """Start the maestro's analysis of the player's last hand: "analysing" at once,
        the analysis when found (the search runs off the event loop)."""
        search = self.manager.start_analysis(player, None, table_id)
        if isinstance(search, Refusal):
            self._send(client, {"type": "refused", "text": page_refusal(search, client.language)})
            return
        texts = page_texts(client.language)
        self._send(client, {"type": "analysing", "text": texts["analysing"]})

        async def answer() -> None:
            found = await search
            text = analysis_text(found, client.language)
            self._send(client, {"type": "analysis", "table": table_id, "text": text})

        task = asyncio.get_running_loop().create_task(answer())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hello(self, client: _Client, value: object) -> None:
        try:
            if isinstance(value, dict) and "discord" in value:
                seat_pass = await self._discord(value)
            else:
                seat_pass = self._authenticate(value)
        except AuthError as exc:
            reason = exc.failure.value
            text = page_texts(client.language)[f"denied_{reason}"]
            self._send(client, {"type": "denied", "reason": reason, "text": text})
            return
        player = seat_pass.player
        table_id = seat_pass.table_id
        if player is not None and not table_id:
            tables = self.manager.tables_of(player)
            table_id = tables[-1] if tables else None
        state = self.manager.table_state(table_id) if table_id else None
        language = language_of(
            player.language if player else (state.chat.language if state else None)
        )
        client.language = language
        if state is None:
            self._send(client, {"type": "welcome", "texts": page_texts(language), "table": None})
            self._send(client, {"type": "gone"})
            return
        assert table_id is not None
        await self._show(client, player, table_id, welcome=True)

    async def _show(
        self, client: _Client, player: PlayerRef | None, table_id: str, *, welcome: bool = False
    ) -> None:
        """Make ``client`` a page of ``table_id``: its table, and the player's tiles when
        they have a seat there (else the page is a spectator's)."""
        state = self.manager.table_state(table_id)
        if state is None:
            self._send(client, {"type": "gone"})
            return
        seat = next(
            (
                s.seat
                for s in state.seats
                if player is not None and s.player is not None and s.player.key == player.key
            ),
            None,
        )
        seated = seat is not None
        client.player = player if seated else None
        self._watch(client, table_id)
        self._tables[table_id] = state
        you = None
        if player is not None:
            you = {"name": player.display_name, "seated": seated, "seat": seat}
        if welcome:
            texts = page_texts(client.language)
            self._send(client, {"type": "welcome", "texts": texts, "table": table_id, "you": you})
        else:
            self._send(client, {"type": "moved", "table": table_id, "you": you})
        self._send(client, table_state(state, client.language, now=self.clock()))
        if seated and player is not None:
            reply = await self.manager.handle(ShowMyTiles(player, None, table_id))
            for event in reply.events:
                if isinstance(event, YourTiles):
                    self._send(client, hand_state(event, now=self.clock()))

    async def _discord(self, value: dict[str, Any]) -> SeatPass:
        """An Activity's page: its player asked of Discord by the token, and the table of
        the channel the Activity was opened in (theirs if they sit at it)."""
        token, channel = value.get("discord"), value.get("channel")
        if (
            self.activity is None
            or len(value) != 2
            or not isinstance(token, str)
            or not isinstance(channel, str)
            or not 0 < len(channel) <= 32
        ):
            raise AuthError(AuthFailure.MALFORMED)
        player = await self.activity.player(token)
        here = [
            table_id
            for table_id in self.manager.tables()
            if (state := self.manager.table_state(table_id)) is not None
            and state.chat.platform == player.platform
            and state.chat.channel_id == channel
        ]
        mine = [table_id for table_id in self.manager.tables_of(player) if table_id in here]
        found = mine or here
        return SeatPass(player, found[-1] if found else None)

    def _authenticate(self, value: object) -> SeatPass:
        if not isinstance(value, dict) or not 1 <= len(value) <= 2:
            raise AuthError(AuthFailure.MALFORMED)
        table = value.get("table")
        if len(value) == 2 and not (isinstance(table, str) and "init_data" in value):
            raise AuthError(AuthFailure.MALFORMED)
        ((kind, credential),) = [(k, v) for k, v in value.items() if k != "table"]
        if not isinstance(credential, str):
            raise AuthError(AuthFailure.MALFORMED)
        if kind == "init_data":
            # a web_app button in a private chat names its table in the page's address;
            # the signed start_param of a group's link wins over it
            seat_pass = self.auth.telegram(credential)
            if seat_pass.table_id is None and isinstance(table, str) and len(table) <= 64:
                return SeatPass(seat_pass.player, table)
            return seat_pass
        if kind == "seat":
            return self.auth.seat(credential)
        if kind == "watch":
            return self.auth.watch(credential)
        raise AuthError(AuthFailure.MALFORMED)

    # -------------------------------------------------------------- from the core

    async def deliver(self, event: Event) -> None:
        """The core's events, routed to the pages that may see them: each page is shown
        the screens built for its reader (:func:`bot.present.screens.screens`)."""
        table_id = event.table_id
        if not table_id:
            return
        latest = self._tables.get(table_id)
        if isinstance(event, TableChanged):  # the table's last state, for new pages
            self._tables[table_id] = event
        elif isinstance(event, MatchEnded) and latest is not None:
            # no TableChanged follows the last move: the match's end carries the final
            # position, shown as the chat boards show it
            self._tables[table_id] = latest = ended_board(latest, event)
        encoded: dict[str, str] = {}  # the board, one encoding per language
        for client in self._watching(table_id):
            reader = Reader(
                client.language,
                back=page_texts(client.language)["back"],
                label=latest.label if latest is not None else "",
                seats=latest.seats if latest is not None else None,
                me=client.player,
            )
            shown = screens(event, reader)
            closing = any(isinstance(screen, ClosedScreen) for screen in shown)
            for screen in shown:
                self._show_screen(client, screen, encoded, closing=closing)
        if isinstance(event, TableClosed):
            self._tables.pop(table_id, None)

    def _show_screen(
        self, client: _Client, screen: Screen, encoded: dict[str, str], *, closing: bool
    ) -> None:
        """One screen on one page, as a frame of JSON (``closing``: the table closed,
        which the page's own banner says: no notice repeats it)."""
        match screen:
            case BoardScreen() | ResultScreen(event=MatchEnded()):
                board = self._tables.get(screen.event.table_id)
                if board is not None:
                    if client.language not in encoded:
                        state = table_state(board, client.language, now=self.clock())
                        encoded[client.language] = _encode(state)
                    self._send(client, encoded[client.language])
                if isinstance(screen, ResultScreen):
                    self._send(client, result_state(screen.event, board, client.language))
            case ResultScreen(event=HandEnded() as hand):
                board = self._tables.get(hand.table_id)
                self._send(client, result_state(hand, board, client.language))
            case TilesScreen(event=tiles):
                if client.player is not None and client.player.key == tiles.to.key:
                    self._send(client, hand_state(tiles, now=self.clock()))
            case EmoteScreen(event=emote):
                self._send(client, emote_state(emote, client.language))
            case Notice(to=None) if not closing:
                self._send(client, {"type": "notice", "text": screen.text})
            case ClosedScreen(text=text) if text:
                self._send(client, {"type": "closed", "text": text})

    def _watch(self, client: _Client, table_id: str | None) -> None:
        """Move ``client`` to the pages of ``table_id`` (None: of no table)."""
        if client.table_id is not None:
            pages = self._by_table.get(client.table_id)
            if pages is not None:
                pages.discard(client)
                if not pages:
                    del self._by_table[client.table_id]
        client.table_id = table_id
        if table_id is not None:
            self._by_table.setdefault(table_id, set()).add(client)

    def _watching(self, table_id: str) -> list[_Client]:
        return list(self._by_table.get(table_id, ()))
