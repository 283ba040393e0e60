"""The public pages: a tournament's (issue 32) and a finished match's record (issue 33):
the markup of the words the presentation layer phrased
(:func:`bot.present.live.tournament_page`, :func:`bot.present.live.record_page`), with the
web table's links.

The page is plain HTML with the web table's stylesheet and no script: it shows, and
nothing on it acts (a page that may still change reloads itself every
:data:`REFRESH_SECONDS`). Every text is escaped; the links are the server's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Final

from bot.present.i18n import LANGUAGES, language_of
from bot.present.live import RecordPage, TournamentPage

__all__ = [
    "HEADERS",
    "REFRESH_SECONDS",
    "missing_html",
    "reader_language",
    "record_html",
    "tournament_html",
]

REFRESH_SECONDS: Final = 30
"""How often a page of a tournament in sign-up or in play reloads itself, in seconds."""

HEADERS: Final[Mapping[str, str]] = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    # no script, no form, nothing framed in: the page only shows
    "Content-Security-Policy": (
        "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'"
    ),
}
"""The headers of a tournament's page (its 404 page too)."""

BRAND: Final = "Dominó"


def reader_language(chosen: str | None, accept_language: str | None) -> str:
    """The page's language: ``?lang=`` when given, else the browser's first language
    we speak by its ``Accept-Language`` weights, else Spanish."""
    if chosen:
        return language_of(chosen)
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        code = tag.strip().lower().split("-", 1)[0]
        if code in LANGUAGES and weight > 0:
            weighted.append((-weight, index, code))
    return min(weighted)[2] if weighted else language_of(None)


def _document(language: str, title: str, body: Sequence[str], *, refresh: bool) -> str:
    head = [
        "<!doctype html>",
        f'<html lang="{escape(language)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
        '<meta name="referrer" content="no-referrer">',
    ]
    if refresh:
        head.append(f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">')
    head += [
        f"<title>{escape(title)} · {BRAND}</title>",
        '<link rel="stylesheet" href="../static/style.css">',
        '<link rel="icon" href="data:,">',
        "</head>",
        "<body>",
        '<main id="tournament">',
        *body,
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(head) + "\n"


def tournament_html(
    page: TournamentPage, *, picture_url: str | None, watch_urls: Mapping[str, str]
) -> str:
    """The page of a tournament: ``picture_url`` its bracket or standings (None: none
    yet), ``watch_urls`` each table's spectator link by table id."""
    body = [
        '<header class="sheet">',
        f"<h1>{escape(page.title)}</h1>",
        f'<p class="about">{escape(page.about)}</p>',
        f'<p class="money">{escape(page.money)}</p>',
        f'<p class="state">{escape(page.status)}</p>',
        "</header>",
    ]
    if picture_url is not None and page.picture_alt:
        url = escape(picture_url)
        body.append(
            f'<a class="picture" href="{url}"><img id="picture" src="{url}"'
            f' alt="{escape(page.picture_alt)}"></a>'
        )
    if page.tables_title:
        body += ['<section class="sheet" id="tables">', f"<h2>{escape(page.tables_title)}</h2>"]
        if page.tables:
            body.append("<ul>")
            for table in page.tables:
                link = escape(watch_urls[table.table_id])
                body.append(
                    f'<li><span class="label">{escape(table.label)}</span>'
                    f'<span class="pairing">{escape(table.pairing)}</span>'
                    f'<a class="watch" href="{link}">{escape(page.watch)}</a></li>'
                )
            body.append("</ul>")
        else:
            body.append(f'<p class="empty">{escape(page.no_tables)}</p>')
        body.append("</section>")
    if page.places:
        body += [
            '<section class="sheet" id="places">',
            f"<h2>{escape(page.places_title)}</h2>",
            "<ol>",
        ]
        for place in page.places:
            prize = f'<span class="prize">{escape(place.prize)}</span>' if place.prize else ""
            body.append(
                f'<li><span class="place">{escape(place.place)}</span>'
                f'<span class="names">{escape(place.names)}</span>{prize}</li>'
            )
        body += ["</ol>", "</section>"]
    if page.signed_title:
        body += ['<section class="sheet" id="signed">', f"<h2>{escape(page.signed_title)}</h2>"]
        if page.signed:
            body.append(f'<p class="names">{escape(", ".join(page.signed))}</p>')
        body.append("</section>")
    body.append(f'<p class="note">{escape(page.note)}</p>')
    return _document(page.language, page.title, body, refresh=page.live)


def missing_html(language: str, title: str, text: str) -> str:
    """The page of a tournament nobody knows: ``title`` and ``text`` (phrased by
    :func:`bot.present.live.tournament_missing_page`)."""
    body = [
        '<section class="sheet missing">',
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(text)}</p>",
        "</section>",
    ]
    return _document(language, title, body, refresh=False)


def record_html(page: RecordPage) -> str:
    """A finished match's record page (issue 33: the admins follow it from a report):
    who played, the result, and each hand's deal and moves, in the tournament page's
    sheets."""
    body = [
        '<header class="sheet">',
        f"<h1>{escape(page.title)}</h1>",
        f'<p class="about">{escape(page.about)}</p>',
        f'<p class="money">{escape(page.players)}</p>',
        f'<p class="state">{escape(page.result)}</p>',
        "</header>",
    ]
    for hand in page.hands:
        body += [
            '<section class="sheet hand">',
            f"<h2>{escape(hand.title)}</h2>",
            f'<p class="state">{escape(hand.result)}</p>',
            f"<h3>{escape(page.dealt)}</h3>",
            '<ul class="dealt">',
            *(f"<li>{escape(line)}</li>" for line in hand.deal),
            "</ul>",
            f"<h3>{escape(page.moves)}</h3>",
            '<ol class="moves">',
            *(f"<li>{escape(line)}</li>" for line in hand.moves),
            "</ol>",
            "</section>",
        ]
    return _document(page.language, page.title, body, refresh=False)
