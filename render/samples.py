"""Sample tables for the demo, the tests and the benchmark: real views, seeded.

Every sample is built with the engine (:class:`engine.match.Match`, random legal
moves from a seeded :class:`random.Random`), except :func:`full_line_view`: a real hand
ends when the first player runs out (at most 25 tiles on the line), so the 28-tile
line that proves the snake fits is a synthetic public view of a legal chain of all
28 tiles, and :func:`grown_hand_view`, a hand grown by drawing (the double-six
partnership deal has no boneyard), is a real position given more tiles.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

from engine.hand import Placement
from engine.match import Match
from engine.moves import Move, Side
from engine.rules import Boneyard, Rules, find_any_preset, find_preset
from engine.tiles import ALL_TILES, Tile
from engine.views import PublicView, SeatView, seat_view
from render.facts import SeatFacts, TableFacts
from render.profile import ProfileFacts
from render.standings import StandingRow, StandingsFacts
from render.tournament import BracketFacts, BracketMatch, TournamentRow, TournamentStandingsFacts

__all__ = [
    "LONG_NAMES",
    "chain_of_all_tiles",
    "cuban_match",
    "find_match",
    "format_facts",
    "full_line_view",
    "grown_hand_view",
    "line_view",
    "one_against_one_match",
    "play",
    "sample_arena_standings",
    "sample_bracket",
    "sample_bracket_sixteen",
    "sample_bracket_with_byes",
    "sample_facts",
    "sample_history",
    "sample_profile",
    "sample_standings",
    "sample_swiss_standings",
    "three_player_match",
]

LONG_NAMES = (
    "Maximiliano Alejandro de la Santísima Trinidad Pérez",
    "Ñandú 🐦‍🔥 Żółć Ærøskøbing Œuvre ÇÃÕ naïve façade",
    "محمد عبد الرحمن الفلاني من مدينة الإسكندرية",
    "שׁלום עליכם חברים יקרים ותודה רבה על המשחק",
)


def sample_facts(
    names: tuple[str, ...] = ("María", "Robotina", "José Luis", "Ana"),
    *,
    robots: tuple[int, ...] = (1,),
    away: tuple[int, ...] = (),
    seconds_left: int | None = 32,
    language: str = "es",
    table_label: str = "Mesa 7",
    boneyard: int | None = None,
    partnership: bool | None = None,
) -> TableFacts:
    """Table facts with a named seat per name (four by default)."""
    seats = tuple(SeatFacts(n, is_robot=i in robots, away=i in away) for i, n in enumerate(names))
    return TableFacts(seats, seconds_left, table_label, language, boneyard, partnership)


def play(
    match: Match, rng: random.Random, moves: int, choose: Callable[[list[Move]], Move] | None = None
) -> Match:
    """``match`` after up to ``moves`` random legal moves (stops when the hand ends)."""
    for _ in range(moves):
        if match.hand.is_over:
            break
        legal = match.hand.legal_moves()
        match = match.apply(choose(legal) if choose else rng.choice(legal))
    return match


def find_match(
    predicate: Callable[[Match], bool],
    *,
    rules: Rules | None = None,
    seeds: range = range(2000),
    max_moves: int = 200,
) -> Match:
    """The first position, over seeds, reached by random play where ``predicate`` holds.

    Raises:
        LookupError: no seed in ``seeds`` reaches such a position.
    """
    rules = rules or find_preset("venezolano")
    for seed in seeds:
        rng = random.Random(seed)
        match = Match.new(rules, rng)
        for _ in range(max_moves):
            if predicate(match):
                return match
            if match.hand.is_over:
                break
            match = match.apply(rng.choice(match.hand.legal_moves()))
        if predicate(match):
            return match
    raise LookupError("no seed reaches the position asked for")


def chain_of_all_tiles(rng: random.Random) -> list[tuple[int, int, Tile]]:
    """A legal line of all 28 tiles as ``(left pip, right pip, tile)``, left to right.

    Every number shows on 8 half-tiles, so the set forms a closed chain (an Euler
    circuit, found with Hierholzer's algorithm over shuffled tiles).
    """
    adjacent: dict[int, list[Tile]] = {n: [] for n in range(7)}
    for tile in ALL_TILES:
        adjacent[tile.high].append(tile)
        if not tile.is_double:
            adjacent[tile.low].append(tile)
    for n in range(7):
        rng.shuffle(adjacent[n])
    used: set[Tile] = set()
    stack: list[tuple[int, Tile | None]] = [(rng.randrange(7), None)]
    path: list[tuple[int, Tile | None]] = []
    while stack:
        number, _ = stack[-1]
        pending = adjacent[number]
        while pending and pending[-1] in used:
            pending.pop()
        if pending:
            tile = pending.pop()
            used.add(tile)
            stack.append((tile.other(number), tile))
        else:
            path.append(stack.pop())
    path.reverse()
    chain = []
    for (a, _), (b, step) in itertools.pairwise(path):
        assert step is not None
        chain.append((a, b, step))
    return chain


def line_view(
    chain: list[tuple[int, int, Tile]],
    opener: int,
    rng: random.Random,
    *,
    rules: Rules | None = None,
    counts: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> PublicView:
    """A public view whose line is ``chain`` (left to right), opened by ``chain[opener]``.

    Play order grows the two arms at random from the opener, seats take turns, and the
    history matches the line, so the view is what a real table would show.
    """
    left_arm = list(range(opener - 1, -1, -1))
    right_arm = list(range(opener + 1, len(chain)))
    order_of = {opener: 0}
    history: list[tuple[int, Move]] = [(0, Move(chain[opener][2]))]
    sides: dict[int, Side] = {}
    order = 1
    while left_arm or right_arm:
        take_left = bool(left_arm) and (not right_arm or rng.random() < 0.5)
        index = left_arm.pop(0) if take_left else right_arm.pop(0)
        order_of[index] = order
        sides[index] = Side.LEFT if take_left else Side.RIGHT
        history.append((order % 4, Move(chain[index][2], sides[index])))
        order += 1
    line = tuple(
        Placement(tile, a, b, order_of[i] % 4, order_of[i]) for i, (a, b, tile) in enumerate(chain)
    )
    return PublicView(
        rules=rules or find_preset("venezolano"),
        hand_number=3,
        starter=0,
        opening_tile=None,
        line=line,
        ends=(line[0].left, line[-1].right),
        turn=len(chain) % 4,
        tile_counts=counts,
        history=tuple(history),
        score=(34, 52),
        match_score=(34, 52),
    )


def full_line_view(seed: int = 7) -> PublicView:
    """A public view with all 28 tiles on the line, opened in the middle (synthetic)."""
    rng = random.Random(seed)
    chain = chain_of_all_tiles(rng)
    return line_view(chain, 13, rng)


def grown_hand_view(count: int = 21) -> SeatView:
    """The seat to move holding ``count`` tiles (at most 24), as a hand grown by drawing.

    A real position (four tiles on the line, ends 5 and 2, the 5-2 in no hand, so it
    fits both ends differently and gets two labels), where the seat to move is given
    the 5-2 and the first ``count - 1`` other tiles not on the line; the other seats
    share the rest (synthetic).

    Raises:
        ValueError: ``count`` is not 1..24.
    """
    if not 1 <= count <= 24:
        raise ValueError(f"a hand of {count} tiles does not fit beside a 4-tile line")
    match = find_match(
        lambda m: (
            not m.hand.is_over
            and m.hand.ends == (5, 2)
            and len(m.hand.line) == 4
            and Tile(5, 2) not in {p.tile for p in m.hand.line}
        ),
        seeds=range(50),
    )
    view = seat_view(match, match.hand.turn)
    on_line = {p.tile for p in view.line}
    rest = [t for t in ALL_TILES if t not in on_line and t != Tile(5, 2)]
    tiles = tuple(sorted((Tile(5, 2), *rest[: count - 1])))
    left = 24 - count
    counts = [left // 3 + (1 if i < left % 3 else 0) for i in range(3)]
    counts.insert(view.seat, count)
    a, b, c, d = counts
    return dataclasses.replace(view, tiles=tiles, tile_counts=(a, b, c, d))


def format_facts(
    rules: Rules,
    view: PublicView | None = None,
    names: tuple[str, ...] = ("María", "Robotina", "José Luis", "Ana"),
    **options: object,
) -> TableFacts:
    """Sample facts for a table of ``rules``: its first ``rules.players`` names, its
    partnership play or not, and, under the ``draw`` rule, the boneyard's count from
    ``view`` (as :func:`bot.present.facts.table_facts` fills them); ``options`` go to
    :func:`sample_facts`."""
    draws = rules.boneyard is Boneyard.DRAW and view is not None
    return sample_facts(
        names[: rules.players],
        boneyard=view.boneyard_count if draws and view is not None else None,
        partnership=rules.partnership,
        **options,  # type: ignore[arg-type]
    )


def one_against_one_match() -> Match:
    """A one-against-one hand (``uno-contra-uno``: double-six, drawing) where one player
    has drawn up to 14 tiles: five tiles on the line, five left in the boneyard."""
    return find_match(
        lambda m: (
            not m.hand.is_over
            and max(m.hand.tile_counts()) == 14
            and len(m.hand.line) >= 5
            and m.hand.boneyard_count >= 2
        ),
        rules=find_any_preset("uno-contra-uno"),
    )


def three_player_match() -> Match:
    """Three players each for themselves (double-six, drawing, 7 left in the boneyard
    after the deal), six tiles on the line after three draws or more, tiles still in
    the boneyard."""
    return find_match(
        lambda m: (
            not m.hand.is_over
            and len(m.hand.line) >= 6
            and m.hand.boneyard_count >= 2
            and sum(1 for _, move in m.hand.history if move.draw) >= 3
        ),
        rules=find_any_preset("individual", players=3, boneyard="draw"),
    )


def cuban_match() -> Match:
    """A ``cubano`` hand (double-nine partnership, ten tiles each, 15 left out) with
    twelve tiles on the line, eight of them showing a 7, 8 or 9."""
    return find_match(
        lambda m: (
            not m.hand.is_over
            and len(m.hand.line) >= 12
            and sum(1 for p in m.hand.line if p.tile.high >= 7) >= 8
        ),
        rules=find_any_preset("cubano"),
    )


def _both_sides(match: Match) -> bool:
    moves = match.hand.legal_moves()
    tiles = [m.tile for m in moves if m.tile is not None]
    return len(tiles) != len(set(tiles)) and len(moves) >= 3


def _all_passed(match: Match) -> bool:
    hand = match.hand
    return not hand.is_over and len({s for s, m in hand.history if m.tile is None}) == 4


def finished_match(seed: int = 3, rules: Rules | None = None) -> Match:
    """A whole match played with random legal moves until a team reaches the target."""
    rng = random.Random(seed)
    match = Match.new(rules or find_preset("venezolano"), rng)
    while True:
        match = play(match, rng, 200)
        if match.is_over:
            return match
        match = match.next_hand(rng)


def sample_standings(language: str = "es") -> StandingsFacts:
    """A full leaderboard (10 rows) as the presentation layer would phrase it: medals,
    long and emoji names, a pair, right-to-left names, trends both ways, provisional
    ratings and the highlighted row of the player who asked."""
    es = language == "es"
    sep = "." if es else ","
    names = (
        "María",
        "Ana & Luis",
        "José Luis",
        LONG_NAMES[0],
        "Ñandú 🐦‍🔥 Żółć Ærøskøbing",
        LONG_NAMES[2],
        LONG_NAMES[3],
        "Pedro 🎲",
        "🇻🇪 Los de Maracaibo 👨‍👩‍👧‍👦",
        "Zoe",
    )
    ratings = (1732, 1650, 1601, 1580, 1544, 1532, 1500, 1480, 1212, 998)
    matches = (48, 40, 31, 120, 22, 18, 12, 9, 5, 3)
    trends = ((12, 1), (8, -1), (0, 0), (3, 1), (0, 0), (25, -1), (140, 1), (0, 0), (1, 1), (0, 0))
    rows = tuple(
        StandingRow(
            rank=i + 1,
            name=name,
            value=f"{ratings[i]:,}".replace(",", sep),
            matches=matches[i],
            trend=("+" if sign > 0 else "−") + str(change) if sign else "",
            trend_sign=sign,
            provisional=matches[i] < 10,
            highlight=i == 5,
        )
        for i, (name, (change, sign)) in enumerate(zip(names, trends, strict=True))
    )
    if es:
        return StandingsFacts(
            "Ranking · este grupo",
            "Rating · 42 jugadores",
            ("Jugador", "Rating", "Partidas", "Tendencia"),
            rows,
            footer="? = provisional (menos de 10 partidas)",
        )
    return StandingsFacts(
        "Ranking · this group",
        "Rating · 42 players",
        ("Player", "Rating", "Matches", "Trend"),
        rows,
        footer="? = provisional (fewer than 10 matches)",
    )


def sample_history(points: int = 40, seed: int = 4, start: int = 1000) -> tuple[int, ...]:
    """A rating history of ``points`` values: a seeded random walk that drifts up."""
    rng = random.Random(seed)
    value = start
    out = []
    for _ in range(points):
        value += rng.randint(-22, 30)
        out.append(value)
    return tuple(out)


def sample_profile(language: str = "es") -> ProfileFacts:
    """A profile as the presentation layer would phrase it: eight statistics, a
    40-match rating history and three notes (a right-to-left rival among them)."""
    history = sample_history()
    if language == "es":
        return ProfileFacts(
            name="María Fernanda 🎲",
            headline=f"{history[-1]:,} · #3 en este grupo".replace(",", "."),
            stats=(
                ("Partidas", "48"),
                ("Ganadas", "27 (56 %)"),
                ("Dominós", "12"),
                ("Trancas ganadas", "5"),
                ("Capicúas", "2"),
                ("Puntos por mano", "14,2"),
                ("Racha", "3 ganadas"),
                ("Mejor racha", "7 ganadas"),
            ),
            history=history,
            history_label="Rating en las últimas 40 partidas",
            history_empty="Aún no hay partidas puntuadas",
            notes=(
                ("Mejor pareja", "Luis · 7-2"),
                ("Peor pareja", "Maximiliano Alejandro · 1-4"),
                ("Rival más frecuente", "محمد عبد الرحمن · 3-5"),
            ),
        )
    return ProfileFacts(
        name="María Fernanda 🎲",
        headline=f"{history[-1]:,} · #3 in this group",
        stats=(
            ("Matches", "48"),
            ("Won", "27 (56%)"),
            ("Dominoes", "12"),
            ("Blocked games won", "5"),
            ("Capicúas", "2"),
            ("Points per hand", "14.2"),
            ("Streak", "3 won"),
            ("Best streak", "7 won"),
        ),
        history=history,
        history_label="Rating over the last 40 matches",
        history_empty="No rated matches yet",
        notes=(
            ("Best partner", "Luis · 7-2"),
            ("Worst partner", "Maximiliano Alejandro · 1-4"),
            ("Most frequent opponent", "محمد عبد الرحمن · 3-5"),
        ),
        thousands=",",
    )


def demo_pictures(language: str = "es") -> list[tuple[str, bytes]]:
    """The demo set as ``(file name, PNG bytes)``: every kind of picture and table.

    Empty line, one tile, mid-game, the full 28-tile snake, long names of every
    script, every pass marker, a tranca, hands (two-sided tile, waiting, forced pass),
    hand results (domino, capicúa, tranca, tied tranca), a match result, a
    leaderboard, a player's profile, a 21-tile hand grown by drawing and a board
    with a boneyard count; then one picture per format and more (rules.md, "Formats"):
    a one-against-one board with a 14-tile hand and that hand, a three-player board,
    a cubano board, four players each for themselves, the waiting pictures for two and
    three seats, a one-against-one hand result and a three-player match result.
    """
    from engine.hand import Termination
    from engine.views import public_view, seat_view
    from render.board import board_png
    from render.hand import hand_png
    from render.profile import profile_png
    from render.results import hand_result_png, match_result_png
    from render.standings import standings_png
    from render.tournament import bracket_png, tournament_standings_png
    from render.waiting import waiting_png

    facts = sample_facts(language=language)
    rules = find_preset("venezolano")
    out: list[tuple[str, bytes]] = []

    def board(name: str, match: Match, f: TableFacts = facts) -> None:
        out.append((name, board_png(public_view(match), f)))

    first = Match.new(rules, random.Random(11))
    board("01-empty-line.png", first)
    board("02-one-tile.png", play(first, random.Random(11), 1))
    mid = play(first, random.Random(5), 12)
    board("03-mid-game.png", mid)
    out.append(("04-full-28-tile-snake.png", board_png(full_line_view(), facts)))
    long_facts = sample_facts(LONG_NAMES, robots=(), away=(2,), language=language)
    board("05-long-names.png", play(first, random.Random(8), 17), long_facts)
    passes = find_match(_all_passed)
    board("06-every-pass-marker.png", passes)
    tranca = find_match(
        lambda m: m.hand.outcome is not None and m.hand.outcome.end is Termination.BLOCKED
    )
    board("07-tranca-board.png", tranca)
    two_sided = find_match(_both_sides)
    out.append(
        ("08-hand-two-sided.png", hand_png(seat_view(two_sided, two_sided.hand.turn), facts))
    )
    waiting = play(first, random.Random(5), 5)
    seat = (waiting.hand.turn + 1) % 4
    out.append(("09-hand-waiting.png", hand_png(seat_view(waiting, seat), facts)))
    must_pass = find_match(lambda m: not m.hand.is_over and m.hand.legal_moves()[0].tile is None)
    out.append(
        ("10-hand-must-pass.png", hand_png(seat_view(must_pass, must_pass.hand.turn), facts))
    )
    domino = find_match(
        lambda m: (
            m.hand.outcome is not None
            and m.hand.outcome.end is Termination.DOMINO
            and not m.hand.outcome.capicua
        )
    )
    out.append(("11-hand-result-domino.png", hand_result_png(public_view(domino), facts)))
    capicua_rules = find_preset("dominicano")
    capicua = find_match(
        lambda m: m.hand.outcome is not None and m.hand.outcome.capicua, rules=capicua_rules
    )
    out.append(("12-hand-result-capicua.png", hand_result_png(public_view(capicua), facts)))
    out.append(("13-hand-result-tranca.png", hand_result_png(public_view(tranca), facts)))
    tie = find_match(
        lambda m: (
            m.hand.outcome is not None
            and m.hand.outcome.end is Termination.BLOCKED
            and m.hand.outcome.winner_team is None
        )
    )
    out.append(("14-hand-result-tied-tranca.png", hand_result_png(public_view(tie), facts)))
    done = finished_match()
    winners = done.winner_team
    assert winners is not None
    payouts = {seat: 2 * rules.stake for seat in (winners, winners + 2) if seat != 1}
    out.append(("15-match-result.png", match_result_png(public_view(done), facts, payouts)))
    out.append(("16-standings.png", standings_png(sample_standings(language))))
    out.append(("17-profile.png", profile_png(sample_profile(language))))
    out.append(("18-hand-21-tiles.png", hand_png(grown_hand_view(21), facts)))
    boneyard = dataclasses.replace(facts, boneyard=12)
    out.append(("19-board-boneyard.png", board_png(public_view(mid), boneyard)))

    def formatted(name: str, match: Match) -> None:
        view = public_view(match)
        out.append((name, board_png(view, format_facts(match.rules, view, language=language))))

    grown = one_against_one_match()
    formatted("20-board-one-against-one.png", grown)
    drawer = seat_view(grown, grown.hand.tile_counts().index(14))
    drawer_facts = format_facts(grown.rules, drawer, language=language)
    out.append(("21-hand-one-against-one.png", hand_png(drawer, drawer_facts)))
    formatted("22-board-three-players.png", three_player_match())
    formatted("23-board-cubano.png", cuban_match())
    alone = find_any_preset("individual")
    formatted(
        "24-board-four-players-alone.png",
        find_match(lambda m: not m.hand.is_over and len(m.hand.line) >= 8, rules=alone),
    )
    duel = find_any_preset("uno-contra-uno")
    two = dataclasses.replace(
        format_facts(duel, language=language),
        seats=(SeatFacts("María"), SeatFacts("José Luis", is_open=True)),
    )
    out.append(("25-waiting-two-seats.png", waiting_png(duel, two)))
    three = find_any_preset("individual", players=3, boneyard="draw")
    full = format_facts(three, language=language, seconds_left=5)
    out.append(("26-waiting-three-seats.png", waiting_png(three, full, starting=True)))
    ended = public_view(finished_match(rules=duel))
    duel_facts = format_facts(duel, ended, language=language)
    out.append(("27-hand-result-one-against-one.png", hand_result_png(ended, duel_facts)))
    last = public_view(finished_match(rules=three))
    three_facts = format_facts(three, last, language=language)
    out.append(("28-match-result-three-players.png", match_result_png(last, three_facts, {})))
    out.append(("29-bracket-eight.png", bracket_png(sample_bracket(language))))
    out.append(("30-bracket-byes.png", bracket_png(sample_bracket_with_byes(language))))
    out.append(("31-bracket-sixteen.png", bracket_png(sample_bracket_sixteen(language))))
    out.append(("32-swiss.png", tournament_standings_png(sample_swiss_standings(language))))
    out.append(("33-arena.png", tournament_standings_png(sample_arena_standings(language))))
    return out


def _played(
    first: str | None, second: str | None, scores: tuple[int, int] | None = None
) -> BracketMatch:
    """A played match: the higher score wins (a bye when a side is empty)."""
    if first is None or second is None:
        return BracketMatch((first, second), winner=0 if first is not None else 1)
    if scores is None:
        return BracketMatch((first, second))
    return BracketMatch((first, second), scores, winner=0 if scores[0] > scores[1] else 1)


def _bracket(
    language: str,
    rounds: tuple[tuple[BracketMatch, ...], ...],
    subtitle: str,
    footer: str = "",
    champion_text: str = "",
) -> BracketFacts:
    """Bracket facts with the words a Spanish (or English) caller would give."""
    es = language == "es"
    names = (
        ("Octavos", "Cuartos", "Semifinal", "Final")
        if es
        else ("Round of 16", "Quarter-finals", "Semi-final", "Final")
    )
    return BracketFacts(
        title="Torneo del viernes · Eliminatoria" if es else "Friday tournament · Knockout",
        round_names=names[-len(rounds) :],
        rounds=rounds,
        subtitle=subtitle,
        footer=footer,
        bye_text="pase directo" if es else "bye",
        no_show_text="N.P.",
        champion_text=champion_text or ("Campeón" if es else "Champion"),
    )


def sample_bracket(language: str = "es") -> BracketFacts:
    """An 8-entrant knockout mid-event: the quarter-finals played (one won by a
    no-show), one semi-final played and one to play, the final waiting for a side;
    long, emoji and right-to-left names."""
    es = language == "es"
    quarters = (
        _played("María", "Pedro 🎲", (100, 64)),
        _played("José Luis", "Carmen", (87, 100)),
        _played(LONG_NAMES[0], LONG_NAMES[2], (100, 92)),
        BracketMatch(("Ñandú 🐦‍🔥 Żółć Ærøskøbing", "Rosa"), winner=0, no_show=True),
    )
    semis = (
        _played("María", "Carmen", (100, 78)),
        BracketMatch((LONG_NAMES[0], "Ñandú 🐦‍🔥 Żółć Ærøskøbing")),
    )
    final = (BracketMatch(("María", None)),)
    return _bracket(
        language,
        (quarters, semis, final),
        "8 jugadores · partidas a 100" if es else "8 players · matches to 100",
        "N.P. = no se presentó" if es else "N.P. = did not show up",
    )


def sample_bracket_with_byes(language: str = "es") -> BracketFacts:
    """A 6-pair knockout over: the top two seeds went through with byes, a champion."""
    es = language == "es"
    quarters = (
        _played("Ana & Luis", None),
        _played("🇻🇪 Los de Maracaibo", "Carmen & Rosa", (100, 85)),
        _played("María & José", None),
        _played("Pedro & Zoe", "محمد & علي", (71, 100)),
    )
    semis = (
        _played("Ana & Luis", "🇻🇪 Los de Maracaibo", (100, 94)),
        _played("María & José", "محمد & علي", (100, 56)),
    )
    final = (_played("Ana & Luis", "María & José", (88, 100)),)
    return _bracket(
        language,
        (quarters, semis, final),
        "6 parejas · partidas a 100" if es else "6 pairs · matches to 100",
        champion_text="Campeones" if es else "Champions",
    )


SIXTEEN = (
    "María", "Zoe", "Carmen", "Iker", "José Luis", "Rosa", "Pedro 🎲", "Lucía",
    "Ana", "Tomás", "Ñandú 🐦‍🔥 Żółć", "Beatriz", LONG_NAMES[0], "Jorge", "محمد", "Elena",
)  # fmt: skip
"""Sixteen entrants on the first round's lines, top to bottom."""


def sample_bracket_sixteen(language: str = "es", *, hidden_rounds: int = 0) -> BracketFacts:
    """A 16-entrant knockout to its end: a no-show in the first round, upsets, a
    champion. With ``hidden_rounds``, the same lines as the round of 16 of a bigger
    field (32 or 64), the footer saying how many earlier rounds are left out."""
    es = language == "es"
    upsets = {1, 5, 9}  # the lower line wins these first-round matches
    lines: list[str | None] = list(SIXTEEN)
    rounds: list[tuple[BracketMatch, ...]] = []
    number = 0
    while len(lines) > 1:
        matches = []
        for k in range(len(lines) // 2):
            first, second = lines[2 * k], lines[2 * k + 1]
            number += 1
            if number == 4:  # Lucía never came
                matches.append(BracketMatch((first, second), winner=0, no_show=True))
                continue
            lower = number in upsets or number % 7 == 0
            loser = 40 + (number * 13) % 55
            matches.append(_played(first, second, (loser, 100) if lower else (100, loser)))
        rounds.append(tuple(matches))
        lines = [m.sides[m.winner if m.winner is not None else 0] for m in matches]
    if hidden_rounds:
        footer = (
            f"{hidden_rounds} rondas anteriores no se muestran · 64 jugadores"
            if es
            else f"{hidden_rounds} earlier rounds not shown · 64 players"
        )
        subtitle = "64 jugadores · desde octavos" if es else "64 players · from the round of 16"
    else:
        footer = "N.P. = no se presentó" if es else "N.P. = did not show up"
        subtitle = "16 jugadores · partidas a 100" if es else "16 players · matches to 100"
    return _bracket(language, tuple(rounds), subtitle, footer)


def sample_swiss_standings(language: str = "es") -> TournamentStandingsFacts:
    """A 12-player Swiss after round 3 of 5: points, points difference, one bye (two
    matches played), long, emoji and right-to-left names."""
    es = language == "es"
    names = (
        "María", "Ana & Luis", LONG_NAMES[0], "Carmen", "Pedro 🎲", LONG_NAMES[2],
        "Ñandú 🐦‍🔥 Żółć Ærøskøbing", "Rosa", "José Luis", LONG_NAMES[3], "Zoe", "Iker",
    )  # fmt: skip
    points = (3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0)
    diffs = (212, 147, 96, 80, 31, -12, 40, -25, -58, -101, -140, -270)
    played = (3, 3, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3)
    rows = tuple(
        TournamentRow(
            place=i + 1,
            name=name,
            points=str(points[i]),
            tiebreak=f"+{diffs[i]}" if diffs[i] > 0 else f"−{-diffs[i]}",
            played=played[i],
        )
        for i, name in enumerate(names)
    )
    if es:
        return TournamentStandingsFacts(
            "Torneo del viernes · Suizo",
            "Ronda 3 de 5 · 12 jugadores",
            ("Jugador", "Puntos", "Dif.", "Jugadas"),
            rows,
            footer="Desempate: diferencia de puntos, luego puntos de los rivales",
        )
    return TournamentStandingsFacts(
        "Friday tournament · Swiss",
        "Round 3 of 5 · 12 players",
        ("Player", "Points", "Diff.", "Played"),
        rows,
        footer="Tiebreaks: points difference, then the opponents' points",
    )


def sample_arena_standings(language: str = "es") -> TournamentStandingsFacts:
    """A 12-player arena with 12 minutes left: three players on a streak."""
    es = language == "es"
    names = (
        "Carmen", "Pedro 🎲", "María", LONG_NAMES[0], "Ana & Luis", "محمد", "Rosa",
        "Ñandú 🐦‍🔥 Żółć", "José Luis", "Zoe", "Iker", "Lucía",
    )  # fmt: skip
    points = (14, 11, 10, 9, 8, 8, 6, 5, 4, 3, 2, 0)
    diffs = (310, 204, 150, 99, 60, 12, -20, -48, -90, -133, -180, -260)
    played = (8, 7, 8, 6, 7, 6, 7, 6, 5, 6, 5, 4)
    streaks = {0, 2, 5}
    rows = tuple(
        TournamentRow(
            place=i + 1,
            name=name,
            points=str(points[i]),
            tiebreak=f"+{diffs[i]}" if diffs[i] > 0 else f"−{-diffs[i]}",
            played=played[i],
            streak=i in streaks,
        )
        for i, name in enumerate(names)
    )
    if es:
        return TournamentStandingsFacts(
            "Arena de la tarde",
            "Arena · quedan 12 min · 12 jugadores",
            ("Jugador", "Puntos", "Dif.", "Partidas"),
            rows,
            streak_label="En racha: cada victoria vale doble",
            footer="Al terminar una partida se juega otra enseguida",
        )
    return TournamentStandingsFacts(
        "Afternoon arena",
        "Arena · 12 min left · 12 players",
        ("Player", "Points", "Diff.", "Played"),
        rows,
        streak_label="On a streak: each win counts double",
        footer="Finish a match and the next one starts at once",
    )
